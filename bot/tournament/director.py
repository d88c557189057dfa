"""The tournament director: registration, pairing, the round tables, results and standings.

Every front end (the Discord cog, ``python -m bot tournament``, tests) calls these methods; the referee
service plays every table.  A round is paired in one transaction (its games written before any table exists),
then ``materialise`` gives each game its table: created, linked, seated, started, and on a second call after a
crash found again and finished, never created twice.  Results flow by ``sync``: a finished table settles its
game, the last settled game of a round pairs the next one.  ``tick`` does that for every running tournament
and settles the tables of rounds whose deadline passed (docs/tournaments.md).

Refusals come back as ``Rejection`` values with tournament.reject.* keys, never as exceptions.
"""
from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, Mapping

from bot.engine import Code, Reject, Rejection, get_game
from bot.engine.rng import new_seed
from bot.i18n import t
from bot.referee.free_text import TITLE_MAX, clean_name, clean_text
from bot.referee.service import Referee
from bot.referee.steps import SYSTEM
from bot.referee.timecontrol import SETTINGS as CLOCK_SETTINGS, parse as parse_time_control
from bot.storage.tournaments import GameRow, NewGame, TournamentRefused, TournamentRow, Tournaments

from .pairing import bracket, round_robin, seat_tables, swiss_pairs, table_sizes
from .standings import Points, Standing, histories, standings, table_points

FORMATS = ("swiss", "round_robin", "elimination", "multiseat")
DUEL_FORMATS = ("swiss", "round_robin", "elimination")
EXPIRY = ("forfeit", "moderator")
MAX_ROUNDS = 20
MAX_PLAYERS = 1000
MAX_ROUND_HOURS = 60 * 24
#: which settings a tournament takes, with their defaults (rounds 0: chosen at the start from the field)
DEFAULTS: dict[str, Any] = {"rounds": 0, "table_size": 0, "round_hours": 0, "expiry": "forfeit",
                            "late_entry": True, "bye": "win", "max_players": 0, "registration_hours": 0}


def _reject(key: str, code: str = Code.ILLEGAL, **params: Any) -> Rejection:
    return Rejection(code, f"tournament.reject.{key}", params)


@dataclass
class Progress:
    """What one call changed, for a front end to announce: games settled, rounds opened (with the tables
    started for them), the tournament finished."""

    tournament_id: int
    settled: list[GameRow] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    tables: list[int] = field(default_factory=list)
    finished: bool = False

    def __bool__(self) -> bool:
        return bool(self.settled or self.rounds or self.tables or self.finished)


def check_settings(game_name: str, fmt: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The complete, validated settings; raises Reject with a tournament.reject.* message."""
    game = get_game(game_name)
    if fmt not in FORMATS:
        raise Reject("tournament.reject.format", code=Code.BAD_OPTIONS, format=clean_name(fmt, limit=40),
                     formats=", ".join(FORMATS))
    if fmt in DUEL_FORMATS and not game.min_seats <= 2 <= game.max_seats:
        raise Reject("tournament.reject.not_a_duel", code=Code.BAD_OPTIONS, format=fmt)
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name=clean_name(unknown[0], limit=40))
    s = {**DEFAULTS, **raw}

    def number(name: str, low: int, high: int) -> int:
        value = s[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name=name, min=low, max=high)
        return value

    number("rounds", 0, MAX_ROUNDS)
    number("round_hours", 0, MAX_ROUND_HOURS)
    number("registration_hours", 0, MAX_ROUND_HOURS)
    number("max_players", 0, MAX_PLAYERS)
    if fmt == "multiseat":
        number("table_size", 0, game.max_seats)
        if s["table_size"] and s["table_size"] < game.min_seats:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name="table_size", min=game.min_seats,
                         max=game.max_seats)
    elif s["table_size"]:
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="table_size")
    for name, choices in (("expiry", EXPIRY), ("bye", ("win", "draw", "loss"))):
        if s[name] not in choices:
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices=", ".join(choices))
    if not isinstance(s["late_entry"], bool):
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="late_entry", choices="yes, no")
    if fmt in ("round_robin", "elimination"):
        s["late_entry"] = False  # the schedule or the bracket is fixed at the start (T-7)
        if s["rounds"]:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="rounds")
    return s


#: a front end's step between seating a round table and starting it (Discord: the table's thread or forum
#: post); False leaves the table unstarted, and the next ``sync`` tries again
OpenTable = Callable[[TournamentRow, GameRow], Awaitable[bool]]


class Director:
    def __init__(self, referee: Referee, *, open_table: OpenTable | None = None):
        self.referee = referee
        self.open_table = open_table
        self.store = referee.store
        self.record = Tournaments(referee.store)
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------------ registration
    async def create(self, game_name: str, fmt: str, *, creator: str, settings: Mapping[str, Any] | None = None,
                     options: Mapping[str, Any] | None = None, title: str | None = None, origin: str = "discord",
                     locale: str | None = None, guild_id: str | None = None,
                     channel_id: str | None = None) -> TournamentRow | Rejection:
        try:
            game = get_game(game_name)
        except KeyError:
            return Rejection(Code.NOT_FOUND, "core.reject.unknown_game", {"game": clean_name(game_name)})
        game_options = dict(options or {})
        timed = {k: game_options[k] for k in CLOCK_SETTINGS if k in game_options}  # each table's time control
        if isinstance(checked_clock := parse_time_control(game_options), Rejection):
            return checked_clock
        try:
            checked = check_settings(game.name, fmt, dict(settings or {}))
            table_options = {**game.validate_options(game_options), **timed}
        except Reject as r:
            return r.rejection
        now = self.referee.now()
        if checked["registration_hours"]:
            checked["registration_until"] = now + checked["registration_hours"] * 3600
        tid = await self.record.create(game=game.name, format=fmt, creator=creator, settings=checked,
                                       options=table_options, seed=new_seed(), origin=origin, now=now,
                                       title=clean_name(title, limit=TITLE_MAX) if title else None, locale=locale,
                                       guild_id=guild_id, channel_id=channel_id)
        return await self.record.get(tid)

    async def _tournament(self, tournament_id: int) -> TournamentRow | Rejection:
        found = await self.record.get(tournament_id)
        return found if found is not None else _reject("no_tournament", Code.NOT_FOUND, tournament=tournament_id)

    @staticmethod
    def organiser(t: TournamentRow, user_id: str, moderator: bool) -> bool:
        return moderator or user_id == t.creator

    async def join(self, tournament_id: int, user_id: str, name: str, *, is_bot: bool = False) -> int | Rejection:
        """Enter a player; returns the pairing number.  After the start only where the format allows late
        entry, until half the rounds are paired; the late entrant scores a draw once for what they missed."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        late = None
        if t.status == "registration":
            until = t.settings.get("registration_until")
            if until is not None and self.referee.now() > until:
                return _reject("registration_over")
        elif t.status == "running":
            if not t.settings["late_entry"] or t.round > self.rounds_planned(t, 0) / 2:
                return _reject("no_late_entry")
            late = NewGame("late", [user_id], {user_id: self.points(t).draw}, "late")
        try:
            return await self.record.enter(tournament_id, user_id, clean_name(name), is_bot=is_bot,
                                           now=self.referee.now(), late=late, latest_round=t.round,
                                           limit=t.settings["max_players"] or MAX_PLAYERS)
        except TournamentRefused as refused:
            return _reject(refused.reason, tournament=tournament_id, max=t.settings["max_players"] or MAX_PLAYERS)

    async def leave(self, tournament_id: int, user_id: str, *, by: str, moderator: bool = False,
                    reason: str | None = None) -> bool | Rejection:
        """A player leaves (before the start) or drops out (after it: not paired again, the games already
        played count).  An organiser removing someone else marks them removed, with the reason logged."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        removing = by != user_id
        if removing and not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        try:
            await self.record.leave(tournament_id, user_id, status="removed" if removing else "dropped", by=by,
                                    reason=clean_text(reason), now=self.referee.now())
        except TournamentRefused as refused:
            return _reject(refused.reason, tournament=tournament_id)
        return True

    async def cancel(self, tournament_id: int, *, by: str, moderator: bool = False,
                     reason: str | None = None) -> bool | Rejection:
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        async with self.lock(tournament_id):
            if not await self.record.finish(tournament_id, status="cancelled", now=self.referee.now(), by=by,
                                            reason=clean_text(reason)):
                return _reject("closed", tournament=tournament_id)
            for g in await self.record.games(tournament_id):
                if g.table_id is not None and not g.settled:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="tournament cancelled")
        return True

    # ------------------------------------------------------------------ rounds
    @staticmethod
    def points(t: TournamentRow) -> Points:
        base = Points()
        return replace(base, bye={"win": base.win, "draw": base.draw, "loss": base.loss}[t.settings["bye"]])

    @staticmethod
    def rounds_planned(t: TournamentRow, players: int) -> int:
        """How many rounds: fixed at the start (``settings.rounds``), else from the field."""
        if t.settings.get("rounds"):
            return t.settings["rounds"]
        if t.format == "round_robin":
            return players - 1 + players % 2
        if t.format == "elimination":
            return max(1, math.ceil(math.log2(max(players, 2))))
        if t.format == "multiseat":
            return 3
        return min(MAX_ROUNDS, max(1, math.ceil(math.log2(max(players, 2))) + 1))

    async def start(self, tournament_id: int, *, by: str, moderator: bool = False) -> Progress | Rejection:
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        if t.status != "registration":
            return _reject("started", tournament=tournament_id)
        entries = [e for e in await self.record.entries(tournament_id) if e.status == "active"]
        game = get_game(t.game)
        least = 2 if t.format in DUEL_FORMATS else max(game.min_seats, 1)
        if len(entries) < max(least, 2):
            return _reject("too_few", players=len(entries), min=max(least, 2))
        rng = random.Random(f"{t.seed}:seeding")
        order = [e.user_id for e in entries]
        rng.shuffle(order)  # the pairing numbers are drawn by lot: sign-up order gives no advantage
        settings = {**t.settings, "order": order, "rounds": self.rounds_planned(t, len(order))}
        t = replace(t, settings=settings)
        async with self.lock(tournament_id):
            games = await self._plan(t, 1)
            try:
                await self.record.add_round(tournament_id, 1, games, deadline=self._deadline(t), now=self.referee.now(),
                                            start=True, settings=settings)
            except TournamentRefused:
                return _reject("started", tournament=tournament_id)
            progress = Progress(tournament_id, rounds=[1])
            progress.tables = await self.materialise(tournament_id)
        return progress

    def _deadline(self, t: TournamentRow) -> float | None:
        hours = t.settings["round_hours"]
        return self.referee.now() + hours * 3600 if hours else None

    async def _plan(self, t: TournamentRow, number: int, attempt: int = 0) -> list[NewGame]:
        """The games of round ``number`` for the active players, by the tournament's format."""
        entries = await self.record.entries(t.id)
        games = await self.record.games(t.id)
        active = {e.user_id for e in entries if e.status == "active"}
        rng = random.Random(f"{t.seed}:round:{number}:{attempt}")
        points = self.points(t)
        bye = lambda p: NewGame("bye", [p], {p: points.bye}, "bye")  # noqa: E731
        if t.format == "round_robin":
            schedule = round_robin(t.settings["order"])
            plan = []
            for a, b in schedule[number - 1] if number <= len(schedule) else []:
                players = [p for p in (a, b) if p is not None and p in active]
                if len(players) == 2:
                    plan.append(NewGame("table", players))
                elif players and b is not None:  # the opponent left: a bye; the round's rest scores nothing
                    plan.append(bye(players[0]))
                elif players:
                    plan.append(NewGame("bye", players, {players[0]: points.loss}, "rest"))
            return plan
        if t.format == "elimination":
            if number == 1:
                pairs = bracket(t.settings["order"])
            else:
                alive = self._advancing(await self.record.games(t.id, number - 1), points)
                alive = [p for p in alive if p in active]
                pairs = [(alive[i], alive[i + 1] if i + 1 < len(alive) else None) for i in range(0, len(alive), 2)]
            return [NewGame("table", [a, b]) if b is not None else bye(a) for a, b in pairs if a is not None]
        ranked = [s.user_id for s in standings(t.format, entries, games, t.seed, points) if s.user_id in active]
        if t.format == "swiss":
            pairs, left = swiss_pairs(ranked, histories(ranked, games, points), rng)
            return [NewGame("table", [a, b]) for a, b in pairs] + ([bye(left)] if left else [])
        game = get_game(t.game)
        preferred = t.settings["table_size"] or min(game.max_seats, max(game.min_seats, 6))
        sizes, extra = table_sizes(len(ranked), preferred, max(game.min_seats, 1), game.max_seats)
        history = histories(ranked, games, points)
        # the players left over sit out with a bye: those who had fewest byes, lowest in the standings first
        out = sorted(ranked[::-1], key=lambda p: history[p].byes)[:extra]
        seated = [p for p in ranked if p not in out]
        met: dict[frozenset[str], int] = {}
        for p in seated:
            for o, n in history[p].met.items():
                met[frozenset((p, o))] = n
        tables = seat_tables(seated, sizes, met, rng)
        return [NewGame("table", table) for table in tables] + [bye(p) for p in out]

    @staticmethod
    def _advancing(games: list[GameRow], points: Points) -> list[str]:
        """Who goes on from an elimination round, in bracket order: each match's winner (a drawn game was
        replayed on a later board, which then decides), byes through."""
        first_board: dict[frozenset[str], int] = {}
        winners: dict[frozenset[str], str] = {}
        for g in games:
            key = frozenset(g.players)
            first_board.setdefault(key, g.board)
            if g.points is None:
                continue
            best = max(g.points.values())
            top = [p for p in g.players if g.points[p] == best]
            if len(top) == 1 and (g.kind != "table" or best > points.loss):
                winners[key] = top[0]
        return [winners[k] for k in sorted(winners, key=first_board.__getitem__)]

    async def materialise(self, tournament_id: int) -> list[int]:
        """Give every game of the latest round its table, seated, opened by the front end (``open_table``)
        and started; returns the tables started now.  Safe to repeat: a linked table is continued where it
        stopped, an unlinked one found by title."""
        t = await self.record.get(tournament_id)
        if t is None or t.status != "running":
            return []
        names = {e.user_id: e for e in await self.record.entries(tournament_id)}
        game = get_game(t.game)
        started = []
        for g in await self.record.games(tournament_id, t.round):
            if g.kind != "table" or g.settled:
                continue
            creator, title = f"tournament:{t.id}", table_title(t, g.round, g.board)
            table_id = g.table_id or await self.record.orphan_table(creator, title)
            if table_id is None:
                options = dict(t.options)
                time_control = parse_time_control(options)  # checked when the tournament was created
                table_id = await self.store.create_table(
                    game=t.game, options=options, creator=creator, origin=t.origin, now=self.referee.now(),
                    title=title, locale=t.locale, guild_id=t.guild_id, channel_id=t.channel_id,
                    max_seats=game.max_seats, time_control=time_control)
            if g.table_id is None:
                await self.record.link_table(t.id, g.round, g.board, table_id)
            table = await self.store.get_table(table_id)
            if table.status != "lobby":
                continue
            seated = await self.store.seats(table_id)
            for user in g.players[len(seated):]:
                entry = names[user]
                await self.referee.join(table_id, user, entry.name, is_bot=entry.is_bot)
            if self.open_table is not None and table.thread_id is None \
                    and not await self.open_table(t, replace(g, table_id=table_id)):
                continue  # its start message would have nowhere to go yet
            result = await self.referee.start(table_id, SYSTEM, moderator=True)
            if not isinstance(result, Rejection):
                started.append(table_id)
        return started

    # ------------------------------------------------------------------ results
    async def sync(self, tournament_id: int) -> Progress:
        """Settle the games whose tables ended; when a round is complete, pair the next (or finish)."""
        progress = Progress(tournament_id)
        async with self.lock(tournament_id):
            t = await self.record.get(tournament_id)
            if t is None or t.status != "running":
                return progress
            progress.tables += await self.materialise(tournament_id)
            game = get_game(t.game)
            points = self.points(t)
            for g in await self.record.games(tournament_id, t.round):
                if g.settled or g.table_id is None:
                    continue
                table = await self.store.get_table(g.table_id)
                if table.status == "finished":
                    got, how = table_points(table.outcome, g.players, points,
                                            cooperative=bool(getattr(game, "cooperative", False)))
                elif table.status == "cancelled":
                    got, how = {p: points.loss for p in g.players}, "cancelled"
                else:
                    continue
                if await self.record.settle(t.id, g.round, g.board, got, how):
                    progress.settled.append(replace(g, points=got, result=how))
                    if t.format == "elimination" and how == "draw":
                        await self.record.add_games(t.id, t.round, [NewGame("table", g.players[::-1])])
                        progress.tables += await self.materialise(tournament_id)
            await self._next_round(t, progress)
        return progress

    async def _next_round(self, t: TournamentRow, progress: Progress) -> None:
        games = await self.record.games(t.id, t.round)
        if not all(g.settled for g in games):
            return
        now = self.referee.now()
        await self.record.finish_round(t.id, t.round, now)
        active = [e for e in await self.record.entries(t.id) if e.status == "active"]
        number = t.round + 1
        plan = [] if number > self.rounds_planned(t, len(t.settings["order"])) and t.format != "elimination" \
            else await self._plan(t, number)
        if not any(g.kind == "table" for g in plan) or len(active) < 2:
            await self.record.finish(t.id, status="finished", now=now, by=SYSTEM, reason=None)
            progress.finished = True
            return
        try:
            await self.record.add_round(t.id, number, plan, deadline=self._deadline(t), now=now)
        except TournamentRefused:
            return  # another process paired it
        progress.rounds.append(number)
        progress.tables += await self.materialise(t.id)

    async def tick(self) -> list[Progress]:
        """The clock: results for every running tournament, and rounds whose deadline passed settled."""
        done = []
        for tid, number in await self.record.due_rounds(self.referee.now()):
            await self.expire_round(tid, number)
        for running in await self.record.find(status=["running"], limit=10_000):
            progress = await self.sync(running.id)
            if progress:
                done.append(progress)
        return done

    async def expire_round(self, tournament_id: int, number: int) -> None:
        """A round's deadline passed with tables still playing.  ``expiry: forfeit``: the seats that owe a
        decision lose by forfeit, the others at the table score a win; the table is closed.  ``expiry:
        moderator``: the tables go on and the organiser settles them (the record says the deadline passed)."""
        async with self.lock(tournament_id):
            t = await self.record.get(tournament_id)
            if t is None or t.status != "running":
                return
            now = self.referee.now()
            await self.record.clear_deadline(tournament_id, number)
            if t.settings["expiry"] == "moderator":
                await self.record.add_log(tournament_id, SYSTEM, "deadline", None, {"round": number}, now)
                return
            points = self.points(t)
            game = get_game(t.game)
            for g in await self.record.games(tournament_id, number):
                if g.settled or g.table_id is None:
                    continue
                table = await self.store.get_table(g.table_id)
                state = await self.store.state(g.table_id)
                owing = {p.seat for p in game.to_act(state)} if table.status == "active" and state else set()
                got = {p: points.loss if i in owing else points.win for i, p in enumerate(g.players)}
                await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="round deadline")
                await self.record.settle(tournament_id, number, g.board, got, "forfeit", by=SYSTEM,
                                         reason="round deadline", now=now)

    # ------------------------------------------------------------------ the organiser
    async def adjust(self, tournament_id: int, round: int, board: int, points: Mapping[str, float], *, by: str,
                     reason: str | None, moderator: bool = False) -> Progress | Rejection:
        """Set a game's points by hand (a dispute, an unfinished table); the reason is required and logged
        with the points it replaced.  Adjusting the latest round's last open game pairs the next round."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        reason = clean_text(reason)
        if not reason:
            return _reject("reason_needed")
        games = {(g.round, g.board): g for g in await self.record.games(tournament_id)}
        g = games.get((round, board))
        if g is None:
            return _reject("no_game", Code.NOT_FOUND, round=round, board=board)
        if set(points) != set(g.players) or any(not isinstance(v, (int, float)) or isinstance(v, bool)
                                                or not 0 <= v <= 100 for v in points.values()):
            return _reject("bad_points", players=", ".join(g.players))
        if t.status != "running" and t.status != "finished":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            if g.table_id is not None:
                table = await self.store.get_table(g.table_id)
                if table.status == "active":
                    await self.referee.cancel(g.table_id, by, moderator=True, reason=reason)
            await self.record.settle(tournament_id, round, board, {p: float(v) for p, v in points.items()},
                                     "adjusted", by=by, reason=reason, now=self.referee.now(), overwrite=True)
        return await self.sync(tournament_id) if t.status == "running" else Progress(tournament_id)

    async def repair(self, tournament_id: int, *, by: str, moderator: bool = False,
                     reason: str | None = None) -> Progress | Rejection:
        """Pair the latest round again (after removing a player, say): only before anyone moved at any of
        its tables.  Its tables are cancelled and new ones made; the new lot differs from the old."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            games = await self.record.games(tournament_id, t.round)
            for g in games:
                if g.kind == "table" and (g.settled or g.table_id is not None and any(
                        a.user_id not in (SYSTEM, "auto") for a in await self.store.actions(g.table_id))):
                    return _reject("round_begun", round=t.round)
            for g in games:
                if g.table_id is not None:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="re-paired")
            attempt = sum(1 for entry in await self.record.log(tournament_id)
                          if entry["action"] == "repair" and (entry["data"] or {}).get("round") == t.round) + 1
            now = self.referee.now()
            await self.record.drop_round(tournament_id, t.round, by=by, reason=clean_text(reason), now=now)
            plan = await self._plan(replace(t, round=t.round - 1), t.round, attempt)
            await self.record.add_round(tournament_id, t.round, plan, deadline=self._deadline(t), now=now)
            progress = Progress(tournament_id, rounds=[t.round])
            progress.tables = await self.materialise(tournament_id)
        return progress

    # ------------------------------------------------------------------ reading
    async def standings(self, tournament_id: int) -> list[Standing] | Rejection:
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        return standings(t.format, await self.record.entries(tournament_id), await self.record.games(tournament_id),
                         t.seed, self.points(t))

    async def export(self, tournament_id: int) -> dict[str, Any] | Rejection:
        """Standings, every game with its table and result, and the organiser's record: for CSV and JSON."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        table = await self.standings(tournament_id)
        games = []
        for g in await self.record.games(tournament_id):
            row = await self.store.get_table(g.table_id) if g.table_id else None
            games.append({"round": g.round, "board": g.board, "kind": g.kind, "players": g.players,
                          "table": g.table_id, "status": row.status if row else None,
                          "outcome": row.outcome if row else None, "points": g.points, "result": g.result})
        return {"tournament": {"id": t.id, "game": t.game, "format": t.format, "status": t.status, "title": t.title,
                               "round": t.round, "settings": t.settings, "options": t.options},
                "standings": [s.as_dict() for s in table], "games": games,
                "log": await self.record.log(tournament_id)}


def table_title(tour: TournamentRow, round: int, board: int) -> str:
    """The title of a round table: fixed per tournament (its language), so a crashed creation is found."""
    return t("tournament.table_title", tour.locale, tournament=tour.title or tour.id, round=round,
             board=board)[:TITLE_MAX]
