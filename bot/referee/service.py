"""The referee service: the only way anything changes a table.

Every front end (Discord cogs, the terminal, the demo, tests) calls these methods.  For an action:

    per-table lock → load the table and its latest state → refuse stale versions → engine.apply
    → one SQLite transaction: action + snapshot + events + outbox messages + table version
    → wake the delivery worker

User mistakes come back as ``Rejection`` values (never exceptions); a bug inside an engine becomes an
INTERNAL rejection with the table untouched, and is logged for moderators.
"""
from __future__ import annotations

import asyncio
import logging
import random
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from bot.engine import Applied, Code, Game, Reject, Rejection, get_game, visible_to
from bot.engine.canonical import dumps
from bot.engine.rng import commitment, new_seed
from bot.process.config import TableLimits, release
from bot.process.metrics import METRICS
from bot.referee import standing, windowprefs
from bot.engine.free_text import TITLE_MAX, clean_name, clean_text
from bot.referee.steps import SYSTEM, messages_for, next_deadline
from bot.referee.timecontrol import defaulted as clock_by_default, parse as parse_time_control, table_clock
from bot.referee.timekeeper import Timekeeper
from bot.render.notices import frozen_reason, is_referee, person
from bot.referee.turns import TurnView
from bot.storage.clicks import table_now
from bot.storage.db import DatabaseError, busy_seconds, describe
from bot.storage.rows import known
from bot.storage.store import Dealt, LobbyRefused, Message, SeatRow, Store, TableRow, VersionConflict

log = logging.getLogger("judge.referee")

#: a bot's move refused "busy" (another process held the file past the busy timeout) is tried again so many
#: times, after a pause growing by this many seconds each time, before its table waits for the next step
BOT_BUSY_RETRIES = 3
BOT_BUSY_PAUSE = 0.5
#: timeouts one look of the clock applies at one table (every seat of the largest table, and what follows)
MOST_TIMEOUTS = 32
AUTO = "auto"   # the user a forced move is recorded under when the referee takes it for a seat


@dataclass(frozen=True)
class Accepted:
    table_id: int
    version: int
    seat: int
    events: list[dict[str, Any]]
    finished: bool


@dataclass(frozen=True)
class _Live:
    """What the referee keeps of an active table between its actions, so that an action needs no read: the
    stored version is checked by the action's own write (``record_action`` refuses any other), and a refusal
    judged on a kept state is checked against the stored version before it is returned."""

    table: TableRow
    seats: list[SeatRow]
    state: dict[str, Any]


def _reject(code: str, key: str, **params: Any) -> Rejection:
    return Rejection(code, key, params)


def _refused(refusal: LobbyRefused, table_id: int | None = None) -> Rejection:
    """The rejection a player reads for a lobby rule the record refused."""
    reason = refusal.reason
    code = {"no_table": Code.NOT_FOUND, "not_seated": Code.NOT_A_PLAYER}.get(reason, Code.ILLEGAL)
    return _reject(code, f"core.reject.{reason}", table=table_id, max=refusal.limit, limit=refusal.limit)


#: how long a move may be disputed unless the table says otherwise: until the disputing player's next move
DEFAULT_WINDOW = "next_move"
MOST_WINDOW_MOVES = 100


def dispute_window(raw: Any) -> str | None:
    """A table's dispute window as stored ('next_move', 'off', or a number of moves as text), or None when
    ``raw`` is none of these.  A referee setting, given with the options like ``auto_forced``."""
    if raw in ("next_move", "off"):
        return raw
    if isinstance(raw, bool):
        return None
    try:
        moves = int(raw)
    except (TypeError, ValueError):
        return None
    return str(moves) if 1 <= moves <= MOST_WINDOW_MOVES and str(raw).strip() == str(moves) else None


#: the refusals of an action at a paused table: by a moderator, or by the referee itself (an upgrade's freeze)
PAUSED = ("clock.reject.paused", "clock.reject.paused_by_referee")


def paused_refusal(table: TableRow) -> Rejection:
    """What every action at a paused table is told: who paused it, and why."""
    if is_referee(table.paused_by):  # its name differs by language, and a refusal is worded once for all
        return _reject(Code.ILLEGAL, PAUSED[1], table=table.id, reason=table.paused_reason or "—")
    # a moderator is named the same in every language: a mention, or a terminal name
    return _reject(Code.ILLEGAL, PAUSED[0], table=table.id, who=person(table.paused_by, "en"),
                   reason=table.paused_reason or "—")


def frozen_refusal(table: TableRow) -> Rejection:
    """What every action at a table this release cannot play is told (bot/referee/upgrade.py): why (the reason it
    was frozen for, as its players may read it), and who may act."""
    why = table.frozen or {}
    if why.get("key", "upgrade.cannot.newer") == "upgrade.cannot.newer":
        return _reject(Code.ILLEGAL, "upgrade.reject.frozen", table=table.id, found=why.get("found", "?"),
                       known=why.get("known", "?"))
    key, params = frozen_reason(why, detail=False)
    return Rejection(Code.ILLEGAL, "upgrade.reject.frozen_why", {**params, "table": table.id, "reason": key})


class Referee:
    #: active tables kept in memory, the most recently played first (a Gwent state is some 50 KB of objects)
    LIVE_TABLES = 2048

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time, limits: TableLimits = TableLimits()):
        self.store = store
        self.clock = clock
        self.limits = limits
        self._locks: dict[int, asyncio.Lock] = {}
        self._live: OrderedDict[int, _Live] = OrderedDict()
        self.changed = asyncio.Event()  # set after every commit that enqueued messages
        self.timekeeper = Timekeeper(self)

    def now(self) -> float:
        return round(self.clock(), 3)

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # ------------------------------------------------------------------ lobby
    async def create_table(
        self, game_name: str, *, creator: str, creator_name: str, options: Mapping[str, Any] | None = None,
        origin: str = "discord", join: bool = True, title: str | None = None, locale: str | None = None,
        guild_id: str | None = None, channel_id: str | None = None,
    ) -> TableRow | Rejection:
        try:
            game = get_game(game_name)
        except KeyError:
            return _reject(Code.NOT_FOUND, "core.reject.unknown_game", game=clean_name(game_name))
        options = dict(options or {})
        auto_forced = options.pop("auto_forced", True)
        if isinstance(auto_forced, str) and auto_forced.strip().lower() in ("on", "off"):  # as typed (cli._options)
            auto_forced = auto_forced.strip().lower() == "on"
        if not isinstance(auto_forced, bool):
            return _reject(Code.BAD_OPTIONS, "core.reject.bad_option", name="auto_forced", value=str(auto_forced)[:40],
                           game=game.name)
        # a referee setting (docs/ratings.md), never a game option; typed in Discord as yes/no
        rated = {"yes": True, "no": False, "true": True, "false": False}.get(str(options.get("rated")).lower(),
                                                                             options.get("rated"))
        options.pop("rated", None)
        rated = True if rated is None else rated
        if not isinstance(rated, bool):
            return _reject(Code.BAD_OPTIONS, "core.reject.bad_option", name="rated", value=str(rated)[:40],
                           game=game.name)
        raw_window = options.pop("dispute_window", DEFAULT_WINDOW)
        window = dispute_window(raw_window)
        if window is None:
            return _reject(Code.BAD_OPTIONS, "disputes.reject.bad_window", value=str(raw_window)[:40])
        options = clock_by_default(options)  # a correspondence table without a clock gets the default one
        time_control = parse_time_control(options)
        if isinstance(time_control, Rejection):
            return time_control
        try:
            # a correspondence table's deadlines are checked against its per-decision clock (bot/engine/pace.py)
            validated = game.validate_options(options, clock=time_control["move"] if time_control else None)
        except Reject as r:
            return r.rejection
        try:
            table_id = await self.store.create_table(
                game=game.name, options=validated, creator=creator, origin=origin, now=self.now(),
                title=clean_name(title, limit=TITLE_MAX) if title else None, locale=locale, guild_id=guild_id,
                channel_id=channel_id, max_seats=game.max_seats,
                creator_name=clean_name(creator_name) if join else None, auto_forced=auto_forced,
                dispute_window=window, time_control=time_control, rules_version=game.rules_version, rated=rated,
                per_user=self.limits.per_user, per_server=self.limits.per_server)
        except LobbyRefused as refusal:
            return _refused(refusal)
        return await self.store.known_table(table_id)

    async def join(self, table_id: int, user_id: str, name: str, *, is_bot: bool = False,
                   allow_several_seats: bool = False) -> int | Rejection:
        """Seat a player in a lobby; returns the seat number.  The lobby rules are checked by the store inside
        its write transaction, so they hold for every process sharing the database."""
        return await self._seat(table_id, user_id, clean_name(name), is_bot=is_bot, several=allow_several_seats)

    async def add_bot(self, table_id: int, *, name: str | None = None) -> int | Rejection:
        return await self._seat(table_id, None, clean_name(name) if name else None, is_bot=True)

    async def _seat(self, table_id: int, user_id: str | None, name: str | None, *, is_bot: bool,
                    several: bool = False) -> int | Rejection:
        table = await self.store.get_table(table_id)
        if table is None:
            return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
        max_seats = get_game(table.game).max_seats
        async with self.lock(table_id):
            try:
                if name is None:  # a bot named after its number, which the store picks
                    seats = await self.store.seats(table_id)
                    name = f"Bot {sum(s.is_bot for s in seats) + 1}"
                return await self.store.add_seat(table_id, user_id, name, is_bot=is_bot, now=self.now(),
                                                 max_seats=max_seats, several=several)
            except LobbyRefused as refusal:
                return _refused(refusal, table_id)

    async def leave(self, table_id: int, user_id: str) -> bool | Rejection:
        async with self.lock(table_id):
            try:
                await self.store.remove_seat(table_id, user_id)
            except LobbyRefused as refusal:
                return _refused(refusal, table_id)
            return True

    async def start(self, table_id: int, by_user: str, *, moderator: bool = False, seed: str | None = None,
                    stack: Mapping[str, Any] | None = None) -> Accepted | Rejection:
        """Deal and begin.  Only the table's creator or a moderator may start; a stacked deck (``stack``)
        is a moderator's tool and marks the table as stacked in the record.  The deal happens inside the
        store's transaction, for exactly the seats it commits."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None:
                return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
            if by_user != table.creator and not moderator:
                return _reject(Code.FORBIDDEN, "core.reject.only_creator_starts")
            if stack and not moderator:
                return _reject(Code.FORBIDDEN, "core.reject.only_moderator_stacks")
            game = get_game(table.game)
            seed = seed or new_seed()
            now = self.now()

            def deal(seats: list[SeatRow]) -> Dealt:
                init = game.initial_state(len(seats), seed=seed, options=table.options, now=now, stack=stack)
                seed_hash = commitment(seed)
                messages = messages_for(game, init.state, init.events, kind="start",
                                        extra={"seed_hash": seed_hash, "stacked": bool(stack), "started_by": by_user})
                return Dealt(seed, seed_hash, dict(stack) if stack else None, init.state, init.events, messages,
                             next_deadline(game, init.state))

            try:
                dealt = await self.store.start_table(table_id, deal, now=now, release=release())
            except Reject as r:
                return r.rejection
            except LobbyRefused as refusal:
                return _refused(refusal, table_id)
            await self._after_step(table_id)
        self.changed.set()
        return Accepted(table_id, 0, -1, dealt.events, finished=False)

    async def cancel(self, table_id: int, by_user: str, *, moderator: bool = False,
                     reason: str | None = None) -> bool | Rejection:
        reason = clean_text(reason)
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None:
                return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
            if by_user != table.creator and not moderator:
                return _reject(Code.FORBIDDEN, "core.reject.only_creator_cancels")
            if table.status not in ("lobby", "active"):
                return _reject(Code.ILLEGAL, "core.reject.table_closed", table=table_id)

            def notice(current: TableRow) -> Message:
                return Message("table", "cancelled", {"version": current.version, "by": by_user, "reason": reason,
                                                      "seed": current.seed})

            done = await self.store.cancel_table(table_id, moderator=by_user, reason=reason, now=self.now(),
                                                 notice=notice)
        if done:
            self.changed.set()
            return True
        return _reject(Code.ILLEGAL, "core.reject.table_closed", table=table_id)

    # ------------------------------------------------------------------ play
    async def _active(self, table_id: int) -> tuple[TableRow, Game] | Rejection:
        table = await self.store.get_table(table_id)
        if table is None:
            return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
        if table.status == "lobby":
            return _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
        if table.status != "active":
            return _reject(Code.GAME_OVER, "core.reject.game_over")
        if table.frozen is not None:
            return frozen_refusal(table)
        return table, get_game(table.game)

    async def _current(self, table_id: int, *, fresh: bool) -> _Live | Rejection:
        """The active table as kept (``fresh``: as stored, read in one trip; its state only when the kept one
        is not the stored version's)."""
        kept = self._live.get(table_id)
        if kept is not None and not fresh:
            self._live.move_to_end(table_id)
            return kept
        found = await self.store.play_context(table_id, kept.table.version if kept else None)
        self._live.pop(table_id, None)
        if found is None:
            return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
        table, seats, state = found
        if table.status == "lobby":
            return _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
        if table.status != "active":
            return _reject(Code.GAME_OVER, "core.reject.game_over")
        if table.frozen is not None:
            return frozen_refusal(table)
        if state is None:  # at the kept version (an active table has a snapshot): the kept state holds
            state = known(kept, f"table {table_id}'s state").state
        live = _Live(table, seats, state)
        self._keep(live)
        return live

    def forget(self, table_id: int) -> None:
        """Drop what is kept of a table, for a writer that changed its stored state without moving its
        version (a test setting up a position); every other writer moves the version."""
        self._live.pop(table_id, None)

    def _keep(self, live: _Live) -> None:
        self._live[live.table.id] = live
        self._live.move_to_end(live.table.id)
        while len(self._live) > self.LIVE_TABLES:
            self._live.popitem(last=False)

    @staticmethod
    def seats_of(seats: list[SeatRow], user_id: str) -> list[int]:
        return [s.seat for s in seats if s.user_id == user_id]

    async def resolve_seat(self, table_id: int, user_id: str, seat: int | None = None,
                           state: dict[str, Any] | None = None) -> int | Rejection:
        """Which seat ``user_id`` acts for: their only seat, or (hot-seat) the one of theirs that must act."""
        seats = await self.store.seats(table_id)
        if seat is None and state is None and len(self.seats_of(seats, user_id)) > 1:
            state = await self.store.state(table_id)
        return self._seat_of(seats, user_id, seat, state)

    def _seat_of(self, seats: list[SeatRow], user_id: str, seat: int | None,
                 state: dict[str, Any] | None) -> int | Rejection:
        mine = self.seats_of(seats, user_id)
        if not mine:
            return _reject(Code.NOT_A_PLAYER, "core.reject.not_a_player")
        if seat is not None:
            return seat if seat in mine else _reject(Code.NOT_A_PLAYER, "core.reject.not_your_seat")
        if len(mine) == 1 or state is None:  # (no state: a lobby, where no seat of theirs acts yet)
            return mine[0]
        game = get_game(state["game"])
        acting = [p.seat for p in game.to_act(state) if p.seat in mine]
        return acting[0] if acting else mine[0]

    async def act(self, table_id: int, user_id: str, action: Any, *, expected_version: int | None = None,
                  seat: int | None = None) -> Accepted | Rejection:
        """Apply one action by a player.  ``expected_version`` (from a button or a typed command echoing the
        version it saw) makes a click on an outdated message a polite STALE refusal instead of a surprise."""
        started, before = time.perf_counter(), self._live.get(table_id)
        result: Accepted | Rejection | None = None
        try:
            result = await self._act_locked(table_id, user_id, action, expected_version, seat)
            return result
        finally:  # the operator's metrics: how many, how long (lock wait included), never who nor what
            kept = self._live.get(table_id) or before  # a table that just ended is no longer kept
            METRICS.acted(kept.table.game if kept is not None else "unknown", isinstance(result, Accepted),
                          time.perf_counter() - started)

    async def _act_locked(self, table_id: int, user_id: str, action: Any, expected_version: int | None,
                          seat: int | None) -> Accepted | Rejection:
        async with self.lock(table_id):
            kept = self._live.get(table_id)
            # a click on a version other than the kept one: the table may have moved elsewhere (a moderator)
            fresh = kept is None or (expected_version is not None and expected_version != kept.table.version)
            judged_again = False
            while True:
                result = await self._act(table_id, user_id, action, expected_version, seat, fresh=fresh)
                if not isinstance(result, Rejection) or result.code in (Code.INTERNAL, Code.BUSY):
                    break
                if fresh:
                    # a write refused on the stored table just read: another process changed it in between (a
                    # pause, a cancel); judged once more, to say why (paused, over) rather than "stale"
                    if result.code != Code.STALE or judged_again or table_id in self._live:
                        break
                    judged_again = True
                    continue
                # judged on the kept state without reading: refused only if that still is the stored table
                # (another process may have paused, resumed or cancelled it without moving its version); a
                # write that found the table changed dropped the kept one: judged again on the stored one
                live = self._live.get(table_id)
                if live is not None and await self.store.table_stamp(table_id) == (
                        live.table.version, live.table.status, live.table.paused_at):
                    break
                fresh = True
            if isinstance(result, Accepted):
                await self._after_step(table_id)
                # delivery wakes once the forced moves are in too: it sends one update for the click and
                # what the referee took after it, not two
                self.changed.set()
            return result

    async def _act(self, table_id: int, user_id: str, action: Any, expected_version: int | None,
                   seat: int | None, *, fresh: bool) -> Accepted | Rejection:
        live = await self._current(table_id, fresh=fresh)
        if isinstance(live, Rejection):
            return live
        if expected_version is not None and expected_version != live.table.version:
            return _reject(Code.STALE, "core.reject.stale")
        if live.table.paused_at is not None:
            return paused_refusal(live.table)
        if user_id == SYSTEM:
            if seat is None:
                return _reject(Code.MALFORMED, "core.reject.malformed")
        else:
            resolved = self._seat_of(live.seats, user_id, seat, live.state)
            if isinstance(resolved, Rejection):
                return resolved
            seat = resolved
        return await self._apply(live.table, get_game(live.table.game), live.state, seat, user_id, action,
                                 signal=False)

    async def _after_step(self, table_id: int) -> None:
        """What a step of this referee's own leaves to do at once, under the table's lock, before delivery
        wakes: the forced moves, then a timed table's seat clocks (the messages then show the new deadlines).
        The step itself is stored: a database refusing this follow-up (another process holding the file past
        the busy timeout) must not turn the step's answer into a failure.  The clock's next look settles the
        clocks (``Clocks.due``), and the next step or a restart takes the forced moves."""
        try:
            await self._follow_up(table_id)
        except DatabaseError:
            self._live.pop(table_id, None)
            log.warning("table %s: the follow-up of a stored step failed; the clock retries", table_id,
                        exc_info=True)

    async def _follow_up(self, table_id: int) -> None:
        await self._forced_moves(table_id)
        live = self._live.get(table_id)  # kept after this referee's own step: the stored table
        if live is not None:
            if live.table.time_control is not None:
                await self.timekeeper.settle(table_id, (live.table, live.seats, live.state))
        else:
            table = await self.store.get_table(table_id)
            if table is not None and table.time_control is not None:
                await self.timekeeper.settle(table_id)

    async def take_forced_moves(self, table_id: int) -> None:
        """After a moderator's step: the forced moves it left, taken at once (called under the table's lock)."""
        await self._forced_moves(table_id, fresh=True)

    async def _forced_moves(self, table_id: int, limit: int = 50, *, fresh: bool = False) -> None:
        """Take, for human seats, the decisions that have a single legal action of a kind the game allows
        (``Game.forced_action``: Clay God's roll), when the table's ``auto_forced`` setting is on.  Recorded
        like any action, under the user ``auto``.  Reactions are never taken: answering one at once would
        tell the table that the seat had nothing to answer with.  Called under the table's lock, after this
        referee's own step (the kept table is then the stored one) unless ``fresh``."""
        for _ in range(limit):
            live = await self._current(table_id, fresh=fresh)
            fresh = False
            if isinstance(live, Rejection):
                return
            game, state = get_game(live.table.game), live.state
            bots = {s.seat for s in live.seats if s.is_bot}
            standing = await self._standing_pass(live, game, bots)
            if standing is not None:
                seat, action = standing
                result = await self._apply(live.table, game, state, seat, live.seats[seat].user_id, action,
                                           signal=False)
                if not isinstance(result, Accepted):
                    return
                continue
            if not live.table.auto_forced or not game.auto_actions:
                return
            forced = None
            for pending in game.to_act(state):
                if pending.seat in bots or pending.kind == "reaction":
                    continue
                taken = game.forced_action(state, pending.seat, game.legal_actions(state, pending.seat))
                if taken is not None:
                    forced = pending.seat, taken
                    break
            if forced is None:
                return
            result = await self._apply(live.table, game, state, forced[0], AUTO, forced[1], signal=False)
            if not isinstance(result, Accepted):
                return

    async def _standing_pass(self, live: "_Live", game: Game, bots: set[int]) -> tuple[int, dict] | None:
        """The window a seat's standing pass answers now (bot/referee/standing.py), read only when a window
        of a game that offers it is open."""
        if standing.turn_of(game, live.state) is None or \
                not any(p.kind == "reaction" for p in game.to_act(live.state)):
            return None
        return standing.standing_answer(game, live.state, await self.store.standing_passes(live.table.id), bots)

    async def pass_windows(self, table_id: int, user_id: str, *, seat: int | None = None,
                           seen_at: int | None = None) -> Accepted | Rejection:
        """The player passes the window now asked of them and every other window of this turn: a standing pass
        the referee gives for them, recorded as their own action (bot/referee/standing.py).  ``seen_at``: the
        version the player's button was drawn at; the click counts while the table is still in that turn
        (other seats answering the window in between change nothing of what was asked), else it is stale."""
        async with self.lock(table_id):
            live = await self._current(table_id, fresh=True)
            if isinstance(live, Rejection):
                return live
            if live.table.paused_at is not None:
                return paused_refusal(live.table)
            resolved = self._seat_of(live.seats, user_id, seat, live.state)
            if isinstance(resolved, Rejection):
                return resolved
            game = get_game(live.table.game)
            turn = standing.turn_of(game, live.state)
            if seen_at is not None and seen_at != live.table.version:
                then = await self.store.state(table_id, seen_at)
                if then is None or standing.turn_of(game, then) != turn:
                    return _reject(Code.STALE, "core.reject.stale")
            action = standing.pass_of(game, live.state, resolved)
            if turn is None or action is None:
                return _reject(Code.ILLEGAL, "core.reject.no_window")
            await self.store.set_standing_pass(table_id, resolved, turn)
            result = await self._apply(live.table, game, live.state, resolved, user_id, action, signal=False)
            if isinstance(result, Accepted):
                await self._after_step(table_id)
                self.changed.set()
            return result

    async def _apply(self, table: TableRow, game: Game, state: dict[str, Any], seat: int, user_id: str,
                     action: Any, *, signal: bool = True) -> Accepted | Rejection:
        now = table_clock(table, self.now())  # the engine runs on the table's clock, which a pause stops
        try:
            result = game.apply(state, seat, action, now=now)
        except Exception:  # a bug in an engine: refuse, keep the table, tell moderators
            log.exception("engine %s failed on table %s v%s", game.name, table.id, table.version)
            await self.store.add_moderation(table.id, SYSTEM, "internal_error", None,
                                            {"seat": seat, "action": action, "error": traceback.format_exc()[-2000:]},
                                            now)
            return _reject(Code.INTERNAL, "core.reject.internal")
        if isinstance(result, Rejection):
            return result
        assert isinstance(result, Applied)
        new = result.state
        outcome = new.get("outcome")
        extra = {"by": seat, "auto": user_id == AUTO,
                 **({"seed": table.seed, "seed_hash": table.seed_hash} if outcome is not None else {})}
        messages = messages_for(game, new, result.events, kind="finish" if outcome is not None else "update",
                                extra=extra, before=state)
        deadline = next_deadline(game, new)
        passing = await self._preference_passes(table, game, new) if outcome is None else []
        if passing and (deadline is None or passing[0][0] < deadline):
            deadline = passing[0][0]  # the clock looks at the table when a preference passes for a seat
        if deadline is not None:
            deadline += table.paused_total  # stored in wall time, for the referee's clock
        try:
            await self.store.record_action(
                table.id, expected_version=table.version, seat=seat, user_id=user_id, action=action, at=now,
                state=new, events=result.events, messages=messages, next_deadline=deadline, outcome=outcome)
        except VersionConflict:
            self._live.pop(table.id, None)
            return _reject(Code.STALE, "core.reject.stale")
        except DatabaseError as exc:  # busy past the timeout, a disk: whether it committed is read, not guessed
            self._live.pop(table.id, None)
            stored = await self._stored(table.id, new["version"], seat, user_id, action, now, exc)
            if stored is None:
                return _reject(Code.BUSY, "core.reject.unsure", table=table.id)
            if not stored:
                if describe(exc) == "core.db.locked":  # another process held the file past the busy timeout
                    return _reject(Code.BUSY, "core.reject.busy", table=table.id, seconds=f"{busy_seconds():g}")
                raise  # the machine (a full disk, an I/O error): said as such by the front end; nothing stored
        kept = self._live.get(table.id)
        if outcome is not None or kept is None:
            self._live.pop(table.id, None)
        else:  # the version this write checked and moved on: the kept table is the stored one again
            self._keep(_Live(table.moved(new["version"], deadline), kept.seats, new))
        if signal:
            self.changed.set()
        return Accepted(table.id, new["version"], seat, result.events, finished=outcome is not None)

    async def _preference_passes(self, table: TableRow, game: Game, state: dict[str, Any]
                                 ) -> list[tuple[float, int, dict]]:
        """The passes the seats' window preferences will give (bot/referee/windowprefs.py), read only while a
        window is open at a game that has one."""
        if not game.window_passes or not any(p.kind == "reaction" and p.since is not None
                                             for p in game.to_act(state)):
            return []
        kept = self._live.get(table.id)
        seats = kept.seats if kept is not None else await self.store.seats(table.id)
        humans = {s.user_id: s.seat for s in seats if not s.is_bot}
        found = await self.store.window_preferences(table.id, list(humans))
        prefs = {humans[user]: pref for user, pref in found.items()}
        return windowprefs.passes(game, state, table.id, table.seed, prefs, {s.seat for s in seats if s.is_bot})

    async def _look_later(self, table: TableRow, game: Game, state: dict[str, Any],
                          passing: list[tuple[float, int, dict]]) -> None:
        """Store when the clock should look at the table next, as a step would have: a table looked at for
        nothing is not looked at again every second."""
        times = [t for t in (next_deadline(game, state), passing[0][0] if passing else None) if t is not None]
        when = min(times) + table.paused_total if times else None
        if when != table.next_deadline:
            await self.store.set_next_deadline(table.id, table.version, when)

    async def set_window_preference(self, user_id: str, mode: str, hours: Any = None, *,
                                    table_id: int | None = None) -> tuple[str, float | None] | Rejection:
        """How the player's windows are answered for them (bot/referee/windowprefs.py), at every table or at
        ``table_id`` (where they must be seated); the clock looks at their tables at once, so that a window
        already open is passed on the new terms."""
        parsed = windowprefs.parse(mode, hours)
        if parsed is None:
            return _reject(Code.MALFORMED, "windows.reject.bad", most=int(windowprefs.MOST_HOURS))
        if table_id is not None:
            table = await self.store.get_table(table_id)
            if table is None:
                return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
            if not self.seats_of(await self.store.seats(table_id), user_id):
                return _reject(Code.NOT_A_PLAYER, "core.reject.not_your_seat")
        await self.store.set_window_preference(user_id, *parsed, table_id=table_id or 0)
        await self.store.look_again(user_id, self.now(), table_id=table_id or 0)
        return parsed

    async def _stored(self, table_id: int, version: int, seat: int, user_id: str, action: Any, at: float,
                      error: DatabaseError) -> bool | None:
        """After a write failed: whether its step is in the record all the same (an error after COMMIT), so that
        the caller is told "applied" exactly when it was stored; None when the record cannot be read either."""
        try:
            found = await self.store.action_at(table_id, version)
        except DatabaseError:
            log.error("table %s: a write failed (%s) and the record cannot be read", table_id, error)
            return None
        stored = found is not None and (found.seat, found.user_id, found.at) == (seat, user_id, at) \
            and dumps(found.action) == dumps(action)
        log.warning("table %s: a write failed (%s); the step to version %s is %s", table_id, error, version,
                    "stored" if stored else "not stored")
        return stored

    async def tick(self) -> list[Accepted]:
        """Apply timeouts for every decision whose deadline has passed (called by a clock loop): every seat
        overdue at a table in one go, so that a window closes at its deadline for everyone who has not
        answered (each passes), not one seat per look of the clock."""
        done = []
        for table_id in await self.store.due_tables(self.now()):
            async with self.lock(table_id):
                for _ in range(MOST_TIMEOUTS):
                    found = await self._active(table_id)
                    if isinstance(found, Rejection) or found[0].paused_at is not None:
                        break
                    table, game = found
                    state = await self.store.known_state(table_id)  # an active table was dealt
                    now = table_clock(table, self.now())
                    overdue = [p.seat for p in game.to_act(state) if p.deadline is not None and p.deadline <= now]
                    if overdue:
                        seat, user, action = overdue[0], SYSTEM, {"type": "timeout"}
                    else:  # a window a seat's preference passes for it now (bot/referee/windowprefs.py)
                        passing = await self._preference_passes(table, game, state)
                        due = [(s, a) for at, s, a in passing if at <= now]
                        if not due:  # nothing due after all (a preference changed): the next look, from the state
                            await self._look_later(table, game, state, passing)
                            break
                        (seat, action), user = due[0], windowprefs.PREFERENCE
                    result = await self._apply(table, game, state, seat, user, action, signal=False)
                    if not isinstance(result, Accepted):
                        break
                    done.append(result)
                    await self._after_step(table_id)
                    self.changed.set()
        for table_id in await self.timekeeper.tick():  # a bot took a seat whose time ran out: it moves now
            await self.drive_bots(table_id)
        return done

    async def drive_bots(self, table_id: int, *, limit: int = 10_000) -> int:
        """Let bot seats take their decisions until a human must act or the game ends.  Bot choices use a
        generator seeded from the table and version, so a bot's play is reproducible and independent of
        the table's own RNG."""
        moves, busy = 0, 0
        while moves < limit:
            async with self.lock(table_id):  # the kept table changes only under its lock
                live = await self._current(table_id, fresh=False)
            if isinstance(live, Rejection):
                break
            table, state, game = live.table, live.state, get_game(live.table.game)
            due = [p.seat for p in game.to_act(state) if live.seats[p.seat].is_bot]
            if not due:
                break
            seat = due[0]
            action = game.bot_action(state, seat, random.Random(f"{table_id}:{table.version}:{seat}"))
            result = await self.act(table_id, live.seats[seat].user_id, action, expected_version=table.version,
                                    seat=seat)
            if isinstance(result, Rejection):
                if result.code == Code.STALE:
                    continue
                if result.key in PAUSED:  # paused meanwhile (perhaps by another process)
                    break
                if result.code == Code.BUSY and busy < BOT_BUSY_RETRIES:  # another process's load: nobody else
                    busy += 1                                           # moves a bot, so it tries again
                    await asyncio.sleep(BOT_BUSY_PAUSE * busy)
                    continue
                log.error("bot on table %s refused: %s", table_id, result)
                break
            moves += 1
        return moves

    # ------------------------------------------------------------------ reading
    async def view(self, table_id: int, user_id: str | None, *, seat: int | None = None,
                   ) -> tuple[dict[str, Any], int | None] | Rejection:
        """The table as ``user_id`` may see it (their seat's view), or the public view for non-players."""
        table = await self.store.get_table(table_id)
        if table is None:
            return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
        if table.frozen is not None:  # its state is of a shape this release cannot show
            return frozen_refusal(table)
        state = await self.store.state(table_id)
        if state is None:  # a lobby, or one cancelled before it started: nothing was dealt
            return _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
        game = get_game(table.game)
        mine = self.seats_of(await self.store.seats(table_id), user_id) if user_id else []
        if seat is None and mine and user_id:  # (``mine`` is never set without a user)
            resolved = await self.resolve_seat(table_id, user_id, None, state)
            seat = resolved if isinstance(resolved, int) else None
        elif seat is not None and seat not in mine:
            return _reject(Code.NOT_A_PLAYER, "core.reject.not_your_seat")
        return game.view(state, seat), seat

    async def legal(self, table_id: int, user_id: str, *, seat: int | None = None,
                    ) -> tuple[int, int, list[dict[str, Any]]] | Rejection:
        """(seat, version, legal actions) for the player; when it owes no decision, what it may do at any
        time (usually nothing)."""
        found = await self._active(table_id)
        if isinstance(found, Rejection):
            return found
        table, game = found
        state = await self.store.known_state(table_id)  # an active table was dealt
        resolved = await self.resolve_seat(table_id, user_id, seat, state)
        if isinstance(resolved, Rejection):
            return resolved
        if table.paused_at is not None:  # act() refuses every move until the table resumes: none is offered
            return paused_refusal(table)
        return resolved, table.version, game.choices(state, resolved)

    async def turn(self, table_id: int, user_id: str, *, seat: int | None = None, at: int | None = None
                   ) -> TurnView | None:
        """A click's read model (bot/referee/turns.py), read in one trip: ``seat`` the seat the clicked message is
        for (None: the clicker's own, or the one of theirs that must act), ``at`` the version it was drawn at.
        None when there is no such table; its refusals are ``legal``'s and ``view``'s."""
        found = await table_now(self.store, table_id, user_id=user_id, at=at)
        if found is None:
            return None
        table, seats, state = found.table, found.seats, found.state
        # (a frozen table's state may be of a shape this release cannot read: no seat is worked out from it)
        mine = self._seat_of(seats, user_id, seat, state) if state is not None and table.frozen is None else None
        if table.frozen is not None:  # its state is of a shape this release cannot read
            unseen: Rejection | None = frozen_refusal(table)
        elif state is None:
            unseen = _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
        else:
            unseen = mine if isinstance(mine, Rejection) else None
        if table.status == "lobby":  # in the order legal() refuses
            refused: Rejection | None = _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
        elif table.status != "active":
            refused = _reject(Code.GAME_OVER, "core.reject.game_over")
        elif unseen is not None:
            refused = unseen
        elif table.paused_at is not None:
            refused = paused_refusal(table)
        else:
            refused = None
        resolved = mine if isinstance(mine, int) else None
        game = get_game(table.game)
        still = at is None or at == table.version
        # (not refused: the clicker is seated at a dealt table, so the state and the seat are both known)
        if refused is None and state is not None and resolved is not None:
            choices = game.choices(state, resolved)
            still = still or (found.then is not None and game.choices(found.then, resolved) == choices)
        else:
            choices = []
        panel = found.panels.get(resolved) if resolved is not None else None
        news = [] if panel is None else [
            {"version": row.version, **event} for row in found.events
            if row.version > panel.version and visible_to(event := row.as_event(), resolved)]
        return TurnView(table, seats, state, resolved, unseen, refused, choices, still, panel, found.panels.get(-1),
                        news, found.clocks)

    async def history(self, table_id: int, *, seat: int | None = None, moderator: bool = False,
                      since: int = 0) -> list[dict[str, Any]]:
        """The table's events as ``seat`` may see them (None = public); moderators see everything."""
        rows = await self.store.events(table_id, since=since)
        events = []
        for row in rows:
            event = row.as_event()
            if moderator or visible_to(event, seat):
                events.append({"version": row.version, **event})
        return events
