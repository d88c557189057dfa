"""The time control's keeper: settles each timed table's seat clocks after every step, and on the referee's
clock sends the reminders and applies the expiry (rules: bot/referee/timecontrol.py, docs/tournaments.md).

The seat clocks are settled after a step's own transaction (under the table's lock, before delivery is woken,
so the table's messages show the new deadlines).  A crash between the two leaves the table a version ahead of
its clocks, which the clock's next look finds (``Clocks.due``) and settles: a decision that began then is
dated from the step's own time, so nothing is lost but a second.
"""
from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, Mapping, Protocol

from bot.engine import Code, Rejection, get_game
from bot.referee.steps import MODERATOR_SEAT, SYSTEM, messages_for
from bot.referee.timecontrol import deadline, forfeit, reminders_due, table_clock, wall
from bot.render.notices import when
from bot.storage.clocks import Clocks, SeatClock
from bot.storage.store import Message, SeatRow, Step, Store, TableRow, VersionConflict


def _reject(key: str, **params: Any) -> Rejection:
    return Rejection(Code.ILLEGAL, key, params)


class Referee(Protocol):
    """What the keeper uses of the referee that owns it (bot/referee/service.py ``Referee``, which builds its
    keeper: named here, not imported, so that the two modules do not import each other)."""
    store: Store
    changed: asyncio.Event

    def now(self) -> float: ...

    def lock(self, table_id: int) -> asyncio.Lock: ...

    def forget(self, table_id: int) -> None: ...

    async def resolve_seat(self, table_id: int, user_id: str, seat: int | None = None,
                           state: dict[str, Any] | None = None) -> int | Rejection: ...


class Timekeeper:
    def __init__(self, referee: Referee):
        self.referee = referee
        self.clocks = Clocks(referee.store)

    async def tick(self) -> list[int]:
        """Settle every timed table that moved or has something due; the tables where a bot took a seat
        whose time ran out (its bot must now move: the caller drives it, outside the table's lock)."""
        zombies = []
        for table_id in await self.clocks.due(self.referee.now()):
            async with self.referee.lock(table_id):
                if await self.settle(table_id):
                    zombies.append(table_id)
        return zombies

    async def settle(self, table_id: int, known: tuple[TableRow, list[SeatRow], dict[str, Any]] | None = None
                     ) -> bool:
        """Bring the table's seat clocks to its current state (called under the table's lock): a decision
        that began is dated, one that ended is cleared, due reminders are enqueued and a passed deadline is
        applied.  ``known``: the table, seats and state as stored, when the caller holds them (the referee
        right after its own step), instead of reading them again.  True when a bot took a seat."""
        store = self.referee.store
        table = known[0] if known else await store.get_table(table_id)
        if table is None or table.time_control is None:
            return False
        if table.status != "active" or table.paused_at is not None or table.frozen is not None:
            await self.clocks.settle(table_id, table.version, [], None, now=self.referee.now())
            return False
        tc, game = table.time_control, get_game(table.game)
        seats, state = known[1:] if known else (await store.seats(table_id), await store.state(table_id))
        if state is None:  # an active table always has a snapshot; none is a record still being written
            return False
        kept = await self.clocks.seat_clocks(table_id)
        now = table_clock(table, self.referee.now())
        owing = {p.seat for p in game.to_act(state) if not seats[p.seat].is_bot}
        began = await self.clocks.began(table_id, table.started_at)
        clocks, messages, expired = [], [], []
        for seat in range(len(seats)):
            c = kept.get(seat) or SeatClock(seat, None, [], False, None, None, 0.0)
            if seat not in owing:
                c = dataclasses.replace(c, since=None, reminded=[], expired=False)
            elif c.since is None:
                c = dataclasses.replace(c, since=began, reminded=[], expired=False)
            ends = deadline(tc, c)  # None: the seat owes no decision
            due = [(when, r) for when, r in reminders_due(tc, c) if when <= now]
            # after a long sleep only the nearest reminder is sent (the others are past), and none at all for a
            # deadline already past (after an outage): the expiry below applies instead
            if due and ends is not None and ends > now:
                messages.append(Message("seat", "reminder", {"deadline": wall(table, ends),
                                                             "left": min(r for _, r in due)}, seat=seat))
                c = dataclasses.replace(c, reminded=[*c.reminded, *(r for _, r in due)])
            if ends is not None and not c.expired and ends <= now:
                expired.append(seat)
                c = dataclasses.replace(c, expired=True)
            clocks.append(c)
        if expired and tc["expiry"] == "forfeit":
            return await self._forfeit(table, state, expired, now)
        moderation = None
        if expired:
            what = "zombie" if tc["expiry"] == "zombie" else "expired"
            messages.append(Message("table", "clock", {"what": what, "seats": expired}))
            moderation = ("clock_" + what, {"seats": expired, "version": table.version})
        bots = expired if tc["expiry"] == "zombie" else []
        await self.clocks.settle(table_id, table.version, clocks, self._next(table, tc, clocks), messages=messages,
                                 moderation=moderation, bots=bots, now=self.referee.now())
        if bots:
            self.referee.forget(table_id)  # its seats changed
        if messages:
            self.referee.changed.set()
        return bool(bots)

    @staticmethod
    def _next(table: TableRow, tc: Mapping[str, Any], clocks: list[SeatClock]) -> float | None:
        """Wall time of the next reminder or expiry among the seats."""
        times = [when for c in clocks for when, _ in reminders_due(tc, c)]
        times += [ends for c in clocks if not c.expired and (ends := deadline(tc, c)) is not None]
        return wall(table, min(times)) if times else None

    async def _forfeit(self, table: TableRow, state: dict[str, Any], seats: list[int], now: float) -> bool:
        """The seats whose time ran out lose the game: a moderator's step of the record, so ``verify`` re-runs it."""
        game = get_game(table.game)
        new, events = forfeit(state, seats)
        messages = messages_for(game, new, events, kind="finish",
                                extra={"by": None, "seed": table.seed, "seed_hash": table.seed_hash})
        try:
            await self.referee.store.record_step(table.id, table.version, Step(
                MODERATOR_SEAT, SYSTEM, {"type": "forfeit", "seats": seats}, now, new, events, messages, None,
                new["outcome"]))
        except VersionConflict:  # the table moved meanwhile: the next look settles it again
            return False
        await self.referee.store.add_moderation(table.id, SYSTEM, "clock_forfeit", None, {"seats": seats}, now)
        self.referee.forget(table.id)
        self.referee.changed.set()
        return False

    async def vacation(self, table_id: int, user_id: str, days: float, *, seat: int | None = None
                       ) -> float | Rejection:
        """A player takes ``days`` off the clock at a timed table, from their allowance; the wall time it ends."""
        referee = self.referee
        async with referee.lock(table_id):
            table = await referee.store.get_table(table_id)
            if table is None:
                return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
            if table.status != "active":
                return _reject("core.reject.table_closed", table=table_id)
            if table.time_control is None:
                return _reject("clock.reject.untimed", table=table_id)
            resolved = await referee.resolve_seat(table_id, user_id, seat)
            if isinstance(resolved, Rejection):
                return resolved
            now = table_clock(table, referee.now())
            mine = (await self.clocks.seat_clocks(table_id)).get(resolved)
            used = mine.away_used if mine else 0.0
            if table.creator.startswith("tournament:"):  # an event's allowance is the player's, not the table's
                user = (await referee.store.seats(table_id))[resolved].user_id
                used = sum(u for _, u, _ in await self.clocks.event_vacations(table.creator, user))
            left = table.time_control["vacation"] - used
            if mine is not None and mine.away_until is not None and mine.away_until > now:
                return _reject("clock.reject.away", until=when(wall(table, mine.away_until), "terminal"))
            ends = deadline(table.time_control, mine) if mine is not None else None
            if mine is not None and (mine.expired or ends is not None and ends <= now):
                # the clock has not looked since (an outage): granting it would end the game on the spot
                return _reject("clock.reject.time_up", deadline=when(wall(table, ends or now), "terminal"))
            if not 0 < days * 86400 <= left:
                return _reject("clock.reject.vacation_left", days=round(max(left, 0) / 86400, 2))
            until = now + days * 86400
            notice = Message("table", "clock", {"what": "vacation", "seats": [resolved], "until": wall(table, until)})
            await self.clocks.take_vacation(table_id, resolved, start=now, until=until, notice=notice,
                                            now=referee.now())
            await self.settle(table_id)
        referee.changed.set()
        return wall(table, until)

    async def carry_vacations(self, table_id: int) -> list[int]:
        """A tournament's new table: each player's vacation still running at another table of the same event
        runs on here, without taking from the allowance again (T-16: a vacation follows the player); the seats
        it applies to."""
        referee = self.referee
        carried = []
        async with referee.lock(table_id):
            table = await referee.store.get_table(table_id)
            if table is None or table.status != "active" or table.time_control is None \
                    or not table.creator.startswith("tournament:"):
                return []
            now = referee.now()
            for seat in await referee.store.seats(table_id):
                if seat.is_bot:
                    continue
                ends = [until for other, _, until in await self.clocks.event_vacations(table.creator, seat.user_id)
                        if other != table_id and until is not None and until > now]
                if not ends:
                    continue
                start, until = table_clock(table, now), table_clock(table, max(ends))
                notice = Message("table", "clock", {"what": "vacation", "seats": [seat.seat],
                                                    "until": wall(table, until)})
                await self.clocks.take_vacation(table_id, seat.seat, start=start, until=until, notice=notice,
                                                now=now, charge=False)
                carried.append(seat.seat)
            if carried:
                await self.settle(table_id)
        if carried:
            referee.changed.set()
        return carried
