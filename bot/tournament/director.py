"""The tournament director: registration, rounds and results.

Every front end (the Discord cog, ``python -m bot tournament``, tests) calls these methods; the referee
service plays every table.  A round is planned by the format's pure planner (planning.py) and paired in one
transaction (its games written before any table exists), then ``materialise`` gives each game its table: created,
linked, seated, started, and on a second call after a crash found again and finished, never created twice.
Results flow by ``sync``: a finished table settles its game, the last settled game of a round pairs the next one.
``tick`` does that for every running tournament and settles the tables of rounds whose deadline passed
(docs/tournaments.md).  The settings are checked in settings.py; the organiser's tools are in organiser.py, a part
of the Director.

Refusals come back as ``Rejection`` values with tournament.reject.* keys, never as exceptions.
"""
from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from bot.engine import Code, Game, Reject, Rejection, get_game
from bot.engine.free_text import TITLE_MAX, clean_name, clean_text
from bot.engine.rng import new_seed
from bot.i18n import t
from bot.i18n import t as t_  # `t` is a tournament in the methods
from bot.ratings.seeding import rated as rated_event
from bot.ratings.seeding import ratings_at_start
from bot.referee.service import Referee
from bot.referee.steps import SYSTEM
from bot.referee.timecontrol import SETTINGS as CLOCK_SETTINGS
from bot.referee.timecontrol import defaulted as clock_by_default
from bot.referee.timecontrol import parse as parse_time_control
from bot.storage.store import TableRow
from bot.storage.tournaments import Entry, GameRow, NewGame, TournamentRefused, TournamentRow, Tournaments

from . import entry, planning, stages
from . import settings as event_settings
from .brackets import double_elimination, match_goes_on, match_result
from .brackets import survival as double_survival
from .organiser import PAIRING_TRIES, OrganiserTools, _reject, byes_requested, forbidden_pairs
from .pairing import bracket, round_robin
from .places import annulled, ordered_places, without
from .progress import Progress
from .seeding import seed_order
from .settings import (
    BRACKETS,
    DEFAULTS,
    DUEL_FORMATS,
    EXPIRY,
    FORMATS,
    MAX_PLAYERS,
    MAX_ROUND_HOURS,
    MAX_ROUNDS,
    check_settings,
)
from .standings import Points, Standing, standings, table_points

# the names other modules import from here (settings.py, progress.py and planning.py hold them now)
__all__ = [
    "BRACKETS",
    "DEFAULTS",
    "DUEL_FORMATS",
    "EXPIRY",
    "FORBIDDEN",
    "FORMATS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_ROUND_HOURS",
    "PAIRING_TRIES",
    "Director",
    "OpenTable",
    "Progress",
    "check_settings",
    "table_title",
]
FORBIDDEN = planning.FORBIDDEN

#: a front end's step between seating a round table and starting it (Discord: the table's thread or forum
#: post); False leaves the table unstarted, and the next ``sync`` tries again
OpenTable = Callable[[TournamentRow, GameRow], Awaitable[bool]]


class Director(OrganiserTools):
    def __init__(self, referee: Referee, *, open_table: OpenTable | None = None,
                 ratings: Callable[[str, str], float | None] | None = None):
        self.referee = referee
        self.open_table = open_table
        self.ratings = ratings  # (game, user) → rating or None: seeding by rating (T-21), when ratings exist
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
        # an event's tables are played by post unless the organiser says otherwise (bot/engine/pace.py), and then
        # with the default clock unless the organiser names one or clock=off: written into the tournament's stored
        # options, which every round reads again, so an event created before the default keeps its tables untimed
        if any(o.name == "pace" for o in game.options):
            game_options.setdefault("pace", "correspondence")
        game_options = clock_by_default(game_options)
        timed = {k: game_options[k] for k in CLOCK_SETTINGS if k in game_options}  # each table's time control
        if isinstance(checked_clock := parse_time_control(game_options), Rejection):
            return checked_clock
        try:
            checked = check_settings(game.name, fmt, dict(settings or {}))
            table_options = {**game.validate_options(game_options, clock=checked_clock["move"] if checked_clock
                                                     else None), **timed}
        except Reject as r:
            return r.rejection
        now = self.referee.now()
        if checked["registration_hours"]:
            checked["registration_until"] = now + checked["registration_hours"] * 3600
        tid = await self.record.create(game=game.name, format=fmt, creator=creator, settings=checked,
                                       options=table_options, seed=new_seed(), origin=origin, now=now,
                                       title=clean_name(title, limit=TITLE_MAX) if title else None, locale=locale,
                                       guild_id=guild_id, channel_id=channel_id)
        return await self._tournament(tid)

    async def _tournament(self, tournament_id: int) -> TournamentRow | Rejection:
        found = await self.record.get(tournament_id)
        return found if found is not None else _reject("no_tournament", Code.NOT_FOUND, tournament=tournament_id)

    async def _row(self, tournament_id: int) -> TournamentRow:
        """A tournament known to exist (it is never deleted): read again, as another step may have changed it."""
        found = await self.record.get(tournament_id)
        if found is None:
            raise LookupError(f"tournament {tournament_id} is not in the record")
        return found

    async def _table(self, table_id: int) -> TableRow:
        """The table a tournament's game links (tables are never deleted)."""
        found = await self.store.get_table(table_id)
        if found is None:
            raise LookupError(f"table {table_id} of a tournament is not in the record")
        return found

    async def _as_organiser(self, tournament_id: int, by: str, moderator: bool) -> TournamentRow | Rejection:
        """The tournament, when ``by`` may run it (its organiser, or a moderator): every organiser's tool begins so."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not self.organiser(t, by, moderator):
            return _reject("organiser_only", Code.FORBIDDEN)
        return t

    async def _as_organiser_with_reason(self, tournament_id: int, by: str, moderator: bool,
                                        reason: str | None) -> tuple[TournamentRow, str] | Rejection:
        """As ``_as_organiser``, for the tools that must say why (an adjustment, a forfeit, a pairing edit):
        the tournament and the reason, cleaned; a missing reason is refused."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        reason = clean_text(reason)
        if not reason:
            return _reject("reason_needed")
        return t, reason

    @staticmethod
    def organiser(t: TournamentRow, user_id: str, moderator: bool) -> bool:
        return moderator or user_id == t.creator

    async def join(self, tournament_id: int, user_id: str, name: str, *, is_bot: bool = False,
                   roles: Collection[str] | None = None) -> int | Rejection:
        """Enter a player; returns the pairing number.  After the start only where the format allows late
        entry, until half the rounds are paired; the late entrant scores a draw once for what they missed.
        ``roles``: the member's server role ids where the front end sees them (entry conditions, T-23)."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        if not is_bot and (refused := await self.entry_refusal(t, user_id, roles)) is not None:
            return refused
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

    async def entry_refusal(self, t: TournamentRow, user_id: str, roles: Collection[str] | None) -> Rejection | None:
        """The entry condition ``user_id`` does not meet (T-23), or None."""
        return await entry.refusal(self.store, game=t.game, guild_id=t.guild_id, settings=t.settings,
                                   user_id=user_id, roles=roles)

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
            async with self.lock(tournament_id):  # not in the middle of this process's pairing
                await self.record.leave(tournament_id, user_id, status="removed" if removing else "dropped", by=by,
                                        reason=clean_text(reason), now=self.referee.now())
        except TournamentRefused as refused:
            return _reject(refused.reason, tournament=tournament_id)
        return True

    async def cancel(self, tournament_id: int, *, by: str, moderator: bool = False,
                     reason: str | None = None) -> bool | Rejection:
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
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
        return event_settings.points(t)

    @staticmethod
    def rounds_planned(t: TournamentRow, players: int) -> int:
        return event_settings.rounds_planned(t, players)

    async def start(self, tournament_id: int, *, by: str, moderator: bool = False) -> Progress | Rejection:
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        if t.status != "registration":
            return _reject("started", tournament=tournament_id)
        if t.settings.get("check_in"):  # T-19: who did not check in is taken off the list at the start
            checked = await self.checked_in(tournament_id)
            for e in await self.record.entries(tournament_id):
                if e.status == "active" and not e.is_bot and e.user_id not in checked:
                    try:
                        await self.record.leave(tournament_id, e.user_id, status="removed", by=SYSTEM,
                                                reason="not checked in", now=self.referee.now())
                    except TournamentRefused:
                        pass
        entries = [e for e in await self.record.entries(tournament_id) if e.status == "active"]
        game = get_game(t.game)
        least = 2 if t.format in DUEL_FORMATS else max(game.min_seats, 1)
        if t.settings.get("groups"):
            least = stages.least_players(t.settings["groups"])
        if len(entries) < max(least, 2):
            return _reject("too_few", players=len(entries), min=max(least, 2))
        rng = random.Random(f"{t.seed}:seeding")
        players = [e.user_id for e in entries]
        method = t.settings.get("seeding", "rating")
        seeded: dict[str, Any] = {}
        rating: Callable[[str], Any] | None = None
        if method == "rating":  # the rated by their figure, the unrated by lot (docs/ratings.md, T-21)
            if self.ratings is not None:
                rating = partial(self.ratings, t.game)
            else:
                at_start = await ratings_at_start(self.referee.store, game=t.game, guild_id=t.guild_id,
                                                  settings=t.settings, players=players)
                rating = at_start.get
                seeded = {"ratings": at_start, "rated": rated_event(t.settings)}
        order = seed_order(players, method, rng, rating)
        if seeded:
            seeded["by_lot"] = [p for p in order if p not in seeded["ratings"]]
        settings = {**t.settings, "order": order, "seeded": seeded}
        if t.settings.get("groups"):  # T-24: the groups drawn from seeding pots, fixed for the event
            settings["pools"] = stages.pools(order, t.settings["groups"])
        settings["rounds"] = self.rounds_planned(replace(t, settings=settings), len(order))
        t = replace(t, settings=settings)
        async with self.lock(tournament_id):
            games = await self._plan(t, 1) or []  # round 1 of a bracket is never over
            try:
                await self.record.add_round(tournament_id, 1, games, deadline=self._deadline(t), now=self.referee.now(),
                                            start=True, settings=settings)
            except TournamentRefused as refused:
                if refused.reason == "entries_changed":  # someone left while it was paired: start again
                    return _reject("entries_changed", tournament=tournament_id)
                return _reject("started", tournament=tournament_id)
            progress = Progress(tournament_id, rounds=[1])
            progress.tables = await self.materialise(tournament_id)
        return progress

    def _deadline(self, t: TournamentRow) -> float | None:
        hours = t.settings["round_hours"]
        return self.referee.now() + hours * 3600 if hours else None

    async def _plan(self, t: TournamentRow, number: int, attempt: int = 0,
                    games: list[GameRow] | None = None) -> list[NewGame] | None:
        """The games of round ``number`` for the active players, by the tournament's format (planning.py); None
        when a double-elimination bracket is over.  ``games``: the record as it will be (a correction's), not as
        stored."""
        entries = await self.record.entries(t.id)
        played = self.as_matches(t, games if games is not None else await self.record.games(t.id))
        requested: frozenset[str] = frozenset()
        forbidden: list[tuple[str, str]] = []
        if t.format not in ("round_robin", *BRACKETS):  # their rounds are fixed: no requested bye, no forbidden pair
            log = await self.record.log(t.id)
            requested = frozenset(u for u, rounds in byes_requested(log).items() if number in rounds)
            forbidden = forbidden_pairs(log)
        return planning.plan_round(t, number, planning.Field(entries, played, requested, forbidden), attempt)

    @staticmethod
    def _bracket_places(t: TournamentRow, games: list[GameRow], number: int, points: Points) -> list[str | None]:
        return planning.bracket_places(t, games, number, points)

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
                time_control = parse_time_control(options)
                assert not isinstance(time_control, Rejection)  # checked when the tournament was created
                table_id = await self.store.create_table(
                    game=t.game, options=options, creator=creator, origin=t.origin, now=self.referee.now(),
                    title=title, locale=t.locale, guild_id=t.guild_id, channel_id=t.channel_id,
                    max_seats=game.max_seats, time_control=time_control)
            if g.table_id is None:
                await self.record.link_table(t.id, g.round, g.board, table_id)
            table = await self._table(table_id)
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
                await self.referee.timekeeper.carry_vacations(table_id)
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
                table = await self._table(g.table_id)
                result = await self._result(t, g, table, game, points)
                if result is None:
                    continue
                got, how = result
                if await self.record.settle(t.id, g.round, g.board, got, how):
                    progress.settled.append(replace(g, points=got, result=how))
                    if (t.format in BRACKETS or t.settings.get("best_of", 1) > 1) and match_goes_on(
                            g.players, await self.record.games(t.id, t.round), points, t.settings.get("best_of", 1)):
                        # the match's next game (a drawn one replayed, T-8; best-of-N, T-20), seats swapped
                        await self.record.add_games(t.id, t.round, [NewGame("table", g.players[::-1])])
                        progress.tables += await self.materialise(tournament_id)
            await self._next_round(t, progress)
        return progress


    async def _result(self, t: TournamentRow, g: GameRow, table: TableRow, game: Game,
                      points: Points) -> tuple[dict[str, float], str] | None:
        """(points, how) of a game whose table ended, or None while it plays.  A seat a bot took over when
        its player's time ran out (a zombie) scores a loss for that player (T-15)."""
        if table.status == "finished":
            entries = {e.user_id: e for e in await self.record.entries(t.id)}
            zombies = [s.seat for s in await self.store.seats(table.id)
                       if s.is_bot and s.user_id in entries and not entries[s.user_id].is_bot]
            return table_points(table.outcome, g.players, points,
                                cooperative=game.facts.cooperative, zombies=zombies)
        if table.status == "cancelled":
            return {p: points.loss for p in g.players}, "cancelled"
        return None

    async def _next_round(self, t: TournamentRow, progress: Progress) -> None:
        while await self._next_round_once(t, progress):
            t = await self._row(t.id)  # a round of walkovers only: settled at once, on to the next

    async def _next_round_once(self, t: TournamentRow, progress: Progress) -> bool:
        games = await self.record.games(t.id, t.round)
        if not all(g.settled for g in games):
            return False
        now = self.referee.now()
        await self.record.finish_round(t.id, t.round, now)
        await self._withdraw_absent(t, now)
        active = [e for e in await self.record.entries(t.id) if e.status == "active"]
        number = t.round + 1
        plan = None if number > self.rounds_planned(t, len(t.settings["order"])) else await self._plan(t, number)
        if t.format == "double_elimination":
            over = plan is None  # a round whose places are all empty is still a round of the bracket
        elif t.format == "elimination":
            # the bracket runs its rounds: a round of walkovers is still a round (the champion survives it)
            over = not plan
        else:
            over = not any(g.kind == "table" for g in plan or []) or len(active) < 2
        if over or plan is None:  # a plan is None only where the format calls it over
            if t.settings.get("stage2"):  # T-24: the best go on into the second stage, started before this ends
                progress.next_stage = await self._next_stage(t)
            await self.record.finish(t.id, status="finished", now=now, by=SYSTEM, reason=None)
            progress.finished = True
            return False
        for attempt in range(PAIRING_TRIES):
            try:
                await self.record.add_round(t.id, number, plan, deadline=self._deadline(t), now=now)
                break
            except TournamentRefused as refused:
                if refused.reason != "entries_changed" or attempt == PAIRING_TRIES - 1:
                    return False  # another process paired it (or the entries keep changing: the next look pairs it)
                # a player dropped meanwhile: paired again without them
                plan = await self._plan(t, number) or []
        progress.rounds.append(number)
        if not any(g.kind == "table" for g in plan):
            return True
        progress.tables += await self.materialise(t.id)
        return False

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
        """A round's deadline passed with games unsettled (T-6).  A table that ended meanwhile is scored by
        its result, as ``sync`` would.  A table a moderator paused goes to the organiser (T-17), as every
        table does with ``expiry: moderator``.  With ``expiry: forfeit`` the others are closed: the seats
        that owe a decision lose by forfeit (and any zombie seat), the others at the table score a win —
        except where a seat that owes one took a vacation during the round: then the round's deadline moves
        on by that vacation, once (T-16)."""
        async with self.lock(tournament_id):
            t = await self.record.get(tournament_id)
            if t is None or t.status != "running":
                return
            now = self.referee.now()
            points = self.points(t)
            game = get_game(t.game)
            rounds = {r.number: r for r in await self.record.rounds(tournament_id)}
            log = await self.record.log(tournament_id)
            extended = sum((e["data"] or {}).get("seconds", 0) for e in log
                           if e["action"] == "vacation_extension" and (e["data"] or {}).get("round") == number)
            paused: list[int] = []
            waiting: list[int] = []
            closing: list[tuple[GameRow, int, dict[str, float]]] = []
            needed = 0.0
            entries = {e.user_id: e for e in await self.record.entries(tournament_id)}
            for g in await self.record.games(tournament_id, number):
                if g.settled or g.table_id is None:
                    continue
                table = await self._table(g.table_id)
                result = await self._result(t, g, table, game, points)
                if result is not None:
                    await self.record.settle(tournament_id, number, g.board, *result)
                    continue
                if table.paused_at is not None:
                    paused.append(g.board)
                    continue
                if t.settings["expiry"] == "moderator":
                    waiting.append(g.board)
                    continue
                state = await self.store.state(g.table_id)
                seats = await self.store.seats(g.table_id)
                owing = {p.seat for p in game.to_act(state)} if state else set()
                away = await self._vacation_in_round(table, owing, rounds[number].created_at, now)
                if away > extended:
                    needed = max(needed, away)
                    waiting.append(g.board)
                    continue
                zombies = {s.seat for s in seats if s.is_bot and s.user_id in entries
                           and not entries[s.user_id].is_bot}
                closing.append((g, g.table_id, {p: points.loss if i in owing | zombies else points.win
                                    for i, p in enumerate(g.players)}))
            if needed > extended:
                due = rounds[number].deadline
                assert due is not None  # only a round with a deadline waits for a vacation
                deadline = due + needed - extended
                await self.record.set_deadline(tournament_id, number, deadline)
                await self.record.add_log(tournament_id, SYSTEM, "vacation_extension", None,
                                          {"round": number, "seconds": needed - extended, "deadline": deadline}, now)
                if t.settings["expiry"] != "moderator":
                    waiting = [b for b in waiting if b not in paused]
            else:
                await self.record.clear_deadline(tournament_id, number)
            if paused or t.settings["expiry"] == "moderator":
                await self.record.add_log(tournament_id, SYSTEM, "deadline", None,
                                          {"round": number, "paused": paused, "boards": waiting}, now)
            for g, table_id, got in closing:
                await self.referee.cancel(table_id, SYSTEM, moderator=True, reason="round deadline")
                await self.record.settle(tournament_id, number, g.board, got, "forfeit", by=SYSTEM,
                                         reason="round deadline", now=now)

    async def _vacation_in_round(self, table: TableRow, owing: set[int], round_began: float, now: float) -> float:
        """The longest vacation taken during the round (its part between the round's start and now) by a
        seat that owes a decision; 0 when none."""
        if table.time_control is None or not owing:
            return 0.0
        clocks = await self.referee.timekeeper.clocks.seat_clocks(table.id)
        longest = 0.0
        for seat in owing:
            c = clocks.get(seat)
            if c is None or c.away_from is None or c.away_until is None:
                continue
            begin = max(c.away_from + table.paused_total, round_began)
            end = min(c.away_until + table.paused_total, now)
            longest = max(longest, end - begin)
        return longest


    # ------------------------------------------------------------------ reading
    async def standings(self, tournament_id: int) -> list[Standing] | Rejection:
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        entries = await self.record.entries(tournament_id)
        games = self.counted(t, entries, self.as_matches(t, await self.record.games(tournament_id)))
        points = self.points(t)
        survived = None
        if t.format == "double_elimination" and t.settings.get("order"):
            survived = double_survival(t.settings["order"], games, points, reset=t.settings.get("reset", True),
                                       best_of=t.settings.get("best_of", 1))
        elif t.format == "elimination" and t.settings.get("order"):
            survived = {}  # rounds won in the bracket: a 3rd-place game is not a round survived
            for r in range(1, t.round + 1):
                for p in self._bracket_places(t, games, r + 1, points):
                    if p is not None:
                        survived[p] = r
        rows = standings(t.format, entries, games, t.seed, points, survived=survived,
                         tiebreaks=t.settings.get("tiebreaks") or None,
                         rules=t.settings.get("tiebreak_rules", "classic"))
        if survived is not None:  # out in the same round: a shared place (T-8b)
            rows = ordered_places(rows, survived, self._placement_matches(t, games, points))
        if t.format == "double_elimination":  # the champion's one more round orders them first; no one played it
            last = max((g.round for g in games), default=0)
            for row in rows:
                row.survived = min(row.survived, last)
        at_start = t.settings.get("seeded", {}).get("ratings", {})
        for row in rows:  # each player's rating at the start (docs/ratings.md)
            row.rating = at_start.get(row.user_id)
        return rows

    def counted(self, t: TournamentRow, entries: list[Entry], games: list[GameRow]) -> list[GameRow]:
        """The games the standings and the crosstable count: a round robin under ``withdrawal: annul`` drops
        every result of a player who left having played fewer than half their games (T-4a).  Events made
        before the setting existed keep every result, as they did."""
        if t.format != "round_robin" or t.settings.get("withdrawal", "keep") != "annul" or not t.settings.get("order"):
            return games
        order = t.settings["order"]
        return without(games, annulled(entries, games, order), round_robin(order))

    def _placement_matches(self, t: TournamentRow, games: list[GameRow], points: Points) -> list[tuple[str, str]]:
        """The placement matches played out, each (winner, loser): single elimination's 3rd-place match."""
        if t.format != "elimination" or not t.settings.get("third_place") or not t.settings.get("order"):
            return []
        final = len(bracket(t.settings["order"])).bit_length()  # the final's round: log2 of the bracket
        if final < 2:
            return []
        semis = self._bracket_places(t, games, final - 1, points)
        losers = [match_result(semis[i:i + 2], [g for g in games if g.round == final - 1], points,
                               t.settings.get("best_of", 1))[1] for i in range(0, len(semis), 2)]
        pair = [p for p in losers if p is not None]
        if len(pair) < len(losers):
            return []
        played = [g for g in games if g.round == final and set(g.players) <= set(pair)]
        if not played or any(not g.settled for g in played) \
                or match_goes_on(pair, played, points, t.settings.get("best_of", 1)):
            return []  # a match still being played decides nothing yet
        winner, loser = match_result(pair, played, points, t.settings.get("best_of", 1))
        return [(winner, loser)] if winner is not None and loser is not None else []

    def as_matches(self, t: TournamentRow, games: list[GameRow]) -> list[GameRow]:
        """The games as the standings, the pairing and the crosstable count them (planning.as_matches)."""
        return planning.as_matches(t, games)

    def bracket_labels(self, t: TournamentRow, games: list[GameRow]) -> dict[tuple[int, frozenset], str]:
        """Double elimination: which bracket each match of each round was in (W, L, F), for the picture."""
        if t.format != "double_elimination" or not t.settings.get("order"):
            return {}
        labels = {}
        for number in range(1, t.round + 1):
            walk = double_elimination(t.settings["order"], games, number, self.points(t),
                                      reset=t.settings.get("reset", True), best_of=t.settings.get("best_of", 1))
            for match, which in zip(walk.matches, walk.brackets):
                labels[(number, frozenset(p for p in match if p is not None))] = which
        return labels

    async def export(self, tournament_id: int) -> dict[str, Any] | Rejection:
        """Standings, every game with its table and result, and the organiser's record: for CSV and JSON."""
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        table = await self.standings(tournament_id)
        if isinstance(table, Rejection):
            return table
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

    # ------------------------------------------------------------------ two stages (T-24)
    async def _next_stage(self, t: TournamentRow) -> Progress | None:
        """The second stage of ``t`` (whose first stage just ended), created once and started: its players the
        first stage's best, entered in seed order and seeded by that order.  Called again after a crash, it
        finds the stage it made (the first stage's log) and only starts it if it did not start yet."""
        made = await self.stages(t.id)
        child = made.get("next")
        if child is None:
            rows = await self.standings(t.id)
            if isinstance(rows, Rejection):
                return None
            chosen, groups = stages.qualifiers(rows, t.settings.get("pools") or [], t.settings["advance"])
            if len(chosen) < 2:
                return None  # nobody to play a bracket (everyone withdrew): the event simply ends
            # made before a crash that came before the log said so: used, not made twice
            child = next((o.id for o in await self.record.find(status=["registration"], limit=10_000)
                          if o.settings.get("first_stage") == t.id), None)
        if "next" not in made:
            carried = {k: t.settings[k] for k in stages.CARRIED if k in t.settings}
            settings = check_settings(t.game, t.settings["stage2"], {**carried, "seeding": "order"})
            settings["first_stage"] = t.id
            settings["stage_groups"] = groups  # each qualifier's group, for the pages
            name = t.title or f"#{t.id}"
            child = child or await self.record.create(
                game=t.game, format=t.settings["stage2"], creator=t.creator, settings=settings, options=t.options,
                seed=new_seed(), origin=t.origin, now=self.referee.now(), locale=t.locale, guild_id=t.guild_id,
                channel_id=t.channel_id, title=t_("tournament.stage.title", t.locale, tournament=name)[:TITLE_MAX])
            names = {e.user_id: e for e in await self.record.entries(t.id)}
            for p in chosen:
                try:
                    await self.record.enter(child, p, names[p].name, is_bot=names[p].is_bot, now=self.referee.now())
                except TournamentRefused:  # entered before the crash
                    pass
            await self.record.add_log(t.id, SYSTEM, "next_stage", None, {"tournament": child, "players": chosen},
                                      self.referee.now())
        assert child is not None  # the stage the log names, or the one found or made above
        started = await self.start(child, by=SYSTEM, moderator=True)
        return started if isinstance(started, Progress) else Progress(child)

    async def stages(self, tournament_id: int) -> dict[str, int]:
        """The other stage of a two-stage event: {"first": id} from the second stage, {"next": id} from the first."""
        t = await self.record.get(tournament_id)
        if t is None:
            return {}
        if t.settings.get("first_stage"):
            return {"first": t.settings["first_stage"]}
        if not t.settings.get("stage2"):
            return {}
        made = [e["data"]["tournament"] for e in await self.record.log(tournament_id) if e["action"] == "next_stage"]
        return {"next": made[-1]} if made else {}

    async def group_standings(self, tournament_id: int) -> list[list[Standing]]:
        """Round-robin groups (T-24): each group's standings, ranked inside it; [] without groups."""
        t = await self.record.get(tournament_id)
        if t is None or not t.settings.get("pools"):
            return []
        rows = await self.standings(tournament_id)
        return [] if isinstance(rows, Rejection) else stages.by_group(rows, t.settings["pools"])


def table_title(tour: TournamentRow, round: int, board: int) -> str:
    """The title of a round table: fixed per tournament (its language), so a crashed creation is found."""
    return t("tournament.table_title", tour.locale, tournament=tour.title or tour.id, round=round,
             board=board)[:TITLE_MAX]
