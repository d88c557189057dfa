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
from typing import Any, Awaitable, Callable, Collection, Mapping

from bot.engine import Code, Reject, Rejection, get_game
from bot.engine.rng import new_seed
from bot.ratings.seeding import first_swiss_round, rated as rated_event, ratings_at_start
from bot.i18n import t
from bot.i18n import t as t_  # `t` is a tournament in the methods
from bot.engine.free_text import TITLE_MAX, clean_name, clean_text
from bot.referee.seated import same_user
from bot.referee.service import Referee
from bot.referee.steps import SYSTEM
from bot.referee.timecontrol import SETTINGS as CLOCK_SETTINGS, defaulted as clock_by_default, \
    parse as parse_time_control
from bot.storage.tournaments import Entry, GameRow, NewGame, TournamentRefused, TournamentRow, Tournaments

from . import entry
from .corrections import Undo, corrected, dropped_after, invalidated
from .brackets import double_elimination, fold_matches, match_goes_on, match_result, rounds as double_rounds, survival as double_survival
from .seeding import METHODS as SEEDING, seed_order
from .pairing import bracket, round_robin, seat_order, seat_tables, swiss_pairs, table_sizes
from .standings import ALLOWED_TIEBREAKS, TIEBREAK_RULES, Points, Standing, histories, standings, table_points
from .places import WITHDRAWAL, annulled, ordered_places, without
from . import stages

FORMATS = ("swiss", "round_robin", "elimination", "double_elimination", "multiseat")
DUEL_FORMATS = ("swiss", "round_robin", "elimination", "double_elimination")
BRACKETS = ("elimination", "double_elimination")
EXPIRY = ("forfeit", "moderator")
MAX_ROUNDS = 20
FORBIDDEN = 30          # a forbidden pair counts as this many earlier meetings (T-22): worse than any rematch
MAX_PLAYERS = 1000
MAX_ROUND_HOURS = 60 * 24
PAIRING_TRIES = 5        # a round planned again when players dropped while it was paired (another process)
#: which settings a tournament takes, with their defaults (rounds 0: chosen at the start from the field)
DEFAULTS: dict[str, Any] = {"rounds": 0, "table_size": 0, "round_hours": 0, "expiry": "forfeit",
                            "late_entry": True, "bye": "win", "max_players": 0, "registration_hours": 0,
                            "check_in": False, "requested_byes": 1, "requested_bye": "draw", "withdraw_after": 0,
                            "third_place": False, "reset": True, "seeding": "rating", "tiebreaks": "",
                            "place_points": "", "best_of": 1,
                            "withdrawal": "annul", "tiebreak_rules": "classic",  # T-4a, T-5a
                            "stage2": "", "advance": 0, "groups": 0,  # two-stage events (T-24: stages.py)
                            "rated": True,  # rated: the tables count for ratings (docs/ratings.md)
                            **entry.DEFAULTS}  # entry conditions (T-23): none by default


def _tiebreak_list(fmt: str, raw: Any) -> list[str]:
    """The organiser's tie-break order (T-21): names from the format's own list, each once; empty: the
    format's default order."""
    if raw in ("", None, []):
        return []
    names = [n.strip() for n in (raw if isinstance(raw, list) else str(raw).split(",")) if n.strip()]
    allowed = ALLOWED_TIEBREAKS[fmt]
    if not names or len(set(names)) != len(names) or any(n not in allowed for n in names):
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="tiebreaks", choices=", ".join(allowed))
    return names


def _place_points(fmt: str, raw: Any, seats: int) -> list[float]:
    """Multi-seat place points (T-21): ``4,2,1,0`` — the points of the 1st, 2nd … place, not rising."""
    if raw in ("", None, []):
        return []
    if fmt != "multiseat":
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="place_points")
    try:
        values = [float(v) for v in (raw if isinstance(raw, list) else str(raw).replace(";", ",").split(","))]
    except ValueError:
        values = []
    if not 2 <= len(values) <= max(seats, 2) or any(not 0 <= v <= 100 for v in values) \
            or values != sorted(values, reverse=True) or values[0] == values[-1]:
        raise Reject("tournament.reject.place_points", code=Code.BAD_OPTIONS, most=max(seats, 2))
    return values


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
    next_stage: "Progress | None" = None  # the second stage, started as the first ended (T-24)
    kept_pairings: list[int] = field(default_factory=list)  # a correction's later rounds whose pairings stand

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
    if s["seeding"] not in SEEDING:
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="seeding", choices=", ".join(SEEDING))
    s["tiebreaks"] = _tiebreak_list(fmt, s["tiebreaks"])
    s["place_points"] = _place_points(fmt, s["place_points"], game.max_seats)
    number("best_of", 1, 9)
    stages.check(fmt, s)
    if s["best_of"] % 2 == 0 or (s["best_of"] > 1 and fmt not in DUEL_FORMATS):
        raise Reject("tournament.reject.best_of", code=Code.BAD_OPTIONS)
    number("requested_byes", 0, MAX_ROUNDS)
    number("withdraw_after", 0, MAX_ROUNDS)
    for name, choices in (("expiry", EXPIRY), ("bye", ("win", "draw", "loss")), ("requested_bye", ("draw", "loss"))):
        if s[name] not in choices:
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices=", ".join(choices))
    for name, choices in (("withdrawal", WITHDRAWAL), ("tiebreak_rules", TIEBREAK_RULES)):
        if s[name] not in choices:
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices=", ".join(choices))
    if fmt != "round_robin":  # elsewhere a player's games always stand (T-4)
        if "withdrawal" in raw:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="withdrawal")
        s["withdrawal"] = "keep"
    if s["tiebreak_rules"] == "fide" and fmt not in ("swiss", "round_robin"):
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="tiebreak_rules")
    for name in ("late_entry", "check_in", "third_place", "reset", "rated"):
        if not isinstance(s[name], bool):
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices="yes, no")
    entry.check_settings(game.name, s)
    if fmt in ("round_robin", *BRACKETS):
        s["late_entry"] = False  # the schedule or the bracket is fixed at the start (T-7)
        s["requested_byes"] = 0  # so is every round's game (T-19)
        if s["rounds"]:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="rounds")
    return s


#: a front end's step between seating a round table and starting it (Discord: the table's thread or forum
#: post); False leaves the table unstarted, and the next ``sync`` tries again
OpenTable = Callable[[TournamentRow, GameRow], Awaitable[bool]]


class Director:
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
        return await self.record.get(tid)

    async def _tournament(self, tournament_id: int) -> TournamentRow | Rejection:
        found = await self.record.get(tournament_id)
        return found if found is not None else _reject("no_tournament", Code.NOT_FOUND, tournament=tournament_id)

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
        places = t.settings.get("place_points") or []
        base = Points() if not places else Points(win=places[0], draw=(places[0] + places[-1]) / 2, loss=places[-1],
                                                 places=tuple(places))
        return replace(base, bye={"win": base.win, "draw": base.draw, "loss": base.loss}[t.settings["bye"]])

    @staticmethod
    def rounds_planned(t: TournamentRow, players: int) -> int:
        """How many rounds: fixed at the start (``settings.rounds``), else from the field."""
        if t.settings.get("rounds"):
            return t.settings["rounds"]
        if t.format == "round_robin" and t.settings.get("pools"):
            return stages.group_rounds(t.settings["pools"])
        if t.format == "round_robin":
            return players - 1 + players % 2
        if t.format == "elimination":
            return max(1, math.ceil(math.log2(max(players, 2))))
        if t.format == "double_elimination":
            return double_rounds(players, t.settings.get("reset", True))
        if t.format == "multiseat":
            return 3
        return min(MAX_ROUNDS, max(1, math.ceil(math.log2(max(players, 2))) + 1))

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
        if method == "rating":  # the rated by their figure, the unrated by lot (docs/ratings.md, T-21)
            if self.ratings is not None:
                rating = lambda user: self.ratings(t.game, user)  # noqa: E731
            else:
                at_start = await ratings_at_start(self.referee.store, game=t.game, guild_id=t.guild_id,
                                                  settings=t.settings, players=players)
                rating = at_start.get
                seeded = {"ratings": at_start, "rated": rated_event(t.settings)}
        else:
            rating = None
        order = seed_order(players, method, rng, rating)
        if seeded:
            seeded["by_lot"] = [p for p in order if p not in seeded["ratings"]]
        settings = {**t.settings, "order": order, "seeded": seeded}
        if t.settings.get("groups"):  # T-24: the groups drawn from seeding pots, fixed for the event
            settings["pools"] = stages.pools(order, t.settings["groups"])
        settings["rounds"] = self.rounds_planned(replace(t, settings=settings), len(order))
        t = replace(t, settings=settings)
        async with self.lock(tournament_id):
            games = await self._plan(t, 1)
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
        """The games of round ``number`` for the active players, by the tournament's format; None when a
        double-elimination bracket is over.  ``games``: the record as it will be (a correction's), not as stored."""
        entries = await self.record.entries(t.id)
        games = self.as_matches(t, games if games is not None else await self.record.games(t.id))
        active = {e.user_id for e in entries if e.status == "active"}
        rng = random.Random(f"{t.seed}:round:{number}:{attempt}")
        points = self.points(t)
        bye = lambda p: NewGame("bye", [p], {p: points.bye}, "bye")  # noqa: E731
        if t.format == "round_robin":
            schedule = stages.schedule(t.settings["pools"]) if t.settings.get("pools") \
                else round_robin(t.settings["order"])
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
        if t.format in BRACKETS:
            history = histories(t.settings["order"], games, points)
            if t.format == "double_elimination":
                walk = double_elimination(t.settings["order"], games, number, points,
                                          reset=t.settings.get("reset", True), best_of=t.settings.get("best_of", 1))
                if walk.over:
                    return None
                matches = list(walk.matches)
            else:
                places = self._bracket_places(t, games, number, points)
                matches = [tuple(places[i:i + 2]) for i in range(0, len(places), 2)]
                if t.settings.get("third_place") and number >= 2 and len(places) == 2:
                    semis = self._bracket_places(t, games, number - 1, points)
                    losers = [match_result(semis[i:i + 2], [g for g in games if g.round == number - 1], points,
                                           t.settings.get("best_of", 1))[1]
                              for i in range(0, len(semis), 2)]
                    matches.append(tuple(losers))  # the 3rd-place match, after the final (T-20)
            plan = []
            for i, match in enumerate(matches):
                pair = [p for p in match if p is not None and p in active]
                if len(pair) == 2:  # seats by the seat rule (T-18): a bracket has no colour of its own
                    plan.append(NewGame("table", list(seat_order(*pair, history, i))))
                elif pair:  # an empty place, or an opponent who withdrew: a walkover (T-2)
                    plan.append(bye(pair[0]))
            return plan
        away = await self.requested_byes(t.id, number)
        resting = [NewGame("bye", [p], {p: getattr(points, t.settings.get("requested_bye", "draw"))}, "requested")
                   for p in sorted(away & active)]
        ranked = [s.user_id for s in standings(t.format, entries, games, t.seed, points,
                                               tiebreaks=t.settings.get("tiebreaks") or None,
                                               rules=t.settings.get("tiebreak_rules", "classic"))
                  if s.user_id in active and s.user_id not in away]
        forbidden = await self._forbidden(t.id)
        if t.format == "swiss":
            if number == 1 and t.settings.get("seeded", {}).get("ratings"):  # seeded by rating: top v bottom half
                pairs, left = first_swiss_round([p for p in t.settings["order"] if p in ranked])
            else:
                history = histories(ranked, games, points)
                for x, y in forbidden:  # T-22: a forbidden pair costs more than any rematch
                    if x in history and y in history:
                        history[x].met[y] = history[x].met.get(y, 0) + FORBIDDEN
                        history[y].met[x] = history[y].met.get(x, 0) + FORBIDDEN
                pairs, left = swiss_pairs(ranked, history, rng)
            return [NewGame("table", [a, b]) for a, b in pairs] + ([bye(left)] if left else []) + resting
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
        for x, y in forbidden:
            met[frozenset((x, y))] = met.get(frozenset((x, y)), 0) + FORBIDDEN
        tables = seat_tables(seated, sizes, met, rng)
        return [NewGame("table", table) for table in tables] + [bye(p) for p in out] + resting

    @staticmethod
    def _bracket_places(t: TournamentRow, games: list[GameRow], number: int, points: Points) -> list[str | None]:
        """The places of round ``number`` of an elimination bracket, in bracket order (None: an empty place).
        Round 1's come from the seeding; each later place is the winner of the two places above it, or stays
        empty when that match had no winner (a double forfeit, say) or no player: the bracket keeps its shape,
        so a walkover goes to the right player and the halves never cross (T-8a)."""
        places: list[str | None] = [p for pair in bracket(t.settings["order"]) for p in pair]
        for r in range(1, number):
            played = [g for g in games if g.round == r]
            places = [match_result(places[i:i + 2], played, points, t.settings.get("best_of", 1))[0]
                      for i in range(0, len(places), 2)]
        return places

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
                table = await self.store.get_table(g.table_id)
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

    async def _withdraw_absent(self, t: TournamentRow, now: float) -> None:
        """``withdraw_after`` N: a player who lost N games by forfeit is withdrawn (T-19), as if they dropped
        out (they may come back, as T-4 allows)."""
        limit = t.settings.get("withdraw_after") or 0
        if not limit:
            return
        points = self.points(t)
        missed: dict[str, int] = {}
        for g in await self.record.games(t.id):
            if g.result == "forfeit" and g.points:
                for p, v in g.points.items():
                    if v <= points.loss:
                        missed[p] = missed.get(p, 0) + 1
        for e in await self.record.entries(t.id):
            if e.status == "active" and missed.get(e.user_id, 0) >= limit:
                try:
                    await self.record.leave(t.id, e.user_id, status="dropped", by=SYSTEM,
                                            reason=f"missed {missed[e.user_id]} rounds", now=now)
                except TournamentRefused:
                    pass

    # ------------------------------------------------------------------ attendance (T-19)
    async def checked_in(self, tournament_id: int) -> set[str]:
        return {(e["data"] or {}).get("user") for e in await self.record.log(tournament_id)
                if e["action"] == "check_in"}

    async def check_in(self, tournament_id: int, user_id: str, *,
                       roles: Collection[str] | None = None) -> bool | Rejection:
        """An entered player says they will play (where the tournament asks for it, before round 1); the entry
        conditions are checked again, with the rating as it is now (T-23)."""
        async with self.lock(tournament_id):
            t = await self._tournament(tournament_id)
            if isinstance(t, Rejection):
                return t
            if not t.settings.get("check_in") or t.status != "registration":
                return _reject("no_check_in", tournament=tournament_id)
            if not any(e.user_id == user_id and e.status == "active" for e in await self.record.entries(t.id)):
                return _reject("not_entered")
            if user_id in await self.checked_in(t.id):
                return _reject("checked_in")
            if (refused := await self.entry_refusal(t, user_id, roles)) is not None:
                return refused
            await self.record.add_log(t.id, user_id, "check_in", None, {"user": user_id}, self.referee.now())
        return True

    async def requested_byes(self, tournament_id: int, number: int | None = None) -> set[str] | dict[str, set[int]]:
        """Who asked for a bye in round ``number`` (None: each player's rounds)."""
        wanted: dict[str, set[int]] = {}
        for e in await self.record.log(tournament_id):
            data = e["data"] or {}
            if e["action"] == "bye_requested":
                wanted.setdefault(data["user"], set()).add(data["round"])
            elif e["action"] == "bye_withdrawn":
                wanted.setdefault(data["user"], set()).discard(data["round"])
        if number is None:
            return wanted
        return {u for u, rounds in wanted.items() if number in rounds}

    async def request_bye(self, tournament_id: int, user_id: str) -> tuple[bool, int] | Rejection:
        """A player asks to sit out the next round not yet paired, for ``requested_bye`` points (½ or 0);
        asking again takes it back.  (asked, round).  At most ``requested_byes`` per player; Swiss and
        multi-seat only; it replaces vacation inside an event (T-19)."""
        async with self.lock(tournament_id):
            t = await self._tournament(tournament_id)
            if isinstance(t, Rejection):
                return t
            limit = t.settings.get("requested_byes") or 0
            if not limit or t.status not in ("registration", "running"):
                return _reject("no_requested_byes", tournament=tournament_id)
            if not any(e.user_id == user_id and e.status == "active" for e in await self.record.entries(t.id)):
                return _reject("not_entered")
            number = t.round + 1
            if t.status == "running" and number > t.settings.get("rounds", 0):
                return _reject("no_round_left")
            mine = (await self.requested_byes(t.id)).get(user_id, set())
            now = self.referee.now()
            if number in mine:
                await self.record.add_log(t.id, user_id, "bye_withdrawn", None, {"user": user_id, "round": number}, now)
                return False, number
            if len(mine) >= limit:
                return _reject("byes_used", max=limit)
            await self.record.add_log(t.id, user_id, "bye_requested", None, {"user": user_id, "round": number}, now)
            return True, number

    async def _result(self, t: TournamentRow, g: GameRow, table: Any, game: Any,
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
            t = await self.record.get(t.id)  # a round of walkovers only: settled at once, on to the next

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
        if over:
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
                plan = await self._plan(t, number)  # a player dropped meanwhile: paired again without them
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
            paused, waiting, closing, needed = [], [], [], 0.0
            entries = {e.user_id: e for e in await self.record.entries(tournament_id)}
            for g in await self.record.games(tournament_id, number):
                if g.settled or g.table_id is None:
                    continue
                table = await self.store.get_table(g.table_id)
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
                closing.append((g, {p: points.loss if i in owing | zombies else points.win
                                    for i, p in enumerate(g.players)}))
            if needed > extended:
                deadline = rounds[number].deadline + needed - extended
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
            for g, got in closing:
                await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="round deadline")
                await self.record.settle(tournament_id, number, g.board, got, "forfeit", by=SYSTEM,
                                         reason="round deadline", now=now)

    async def _vacation_in_round(self, table: Any, owing: set[int], round_began: float, now: float) -> float:
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

    # ------------------------------------------------------------------ the organiser
    async def adjust(self, tournament_id: int, round: int, board: int, points: Mapping[str, float], *, by: str,
                     reason: str | None, moderator: bool = False,
                     confirm: bool = False) -> Progress | Undo | Rejection:
        """Set a game's points by hand (a dispute, an unfinished table); the reason is required and logged
        with the points it replaced.  Adjusting the latest round's last open game pairs the next round.  In a
        bracket, a correction that makes later games wrong comes back as an ``Undo`` to confirm (``confirm``
        does it: docs/tournaments.md "Correcting a result")."""
        return await self._set_result(tournament_id, round, board, points, "adjusted", by=by, reason=reason,
                                      moderator=moderator, confirm=confirm)

    async def forfeit(self, tournament_id: int, round: int, board: int, losers: list[str], *, by: str,
                      reason: str | None, moderator: bool = False,
                      confirm: bool = False) -> Progress | Undo | Rejection:
        """Award a game by forfeit: each of ``losers`` scores a loss, everyone else at the table a win (0–0
        when all of them forfeit); recorded as a forfeit (T-15), logged with the reason and what it replaced."""
        games = {(g.round, g.board): g for g in await self.record.games(tournament_id)}
        g = games.get((round, board))
        if g is None or g.kind != "table":
            return _reject("no_game", Code.NOT_FOUND, round=round, board=board)
        if not losers or not set(losers) <= set(g.players):
            return _reject("bad_points", players=", ".join(g.players))
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        points = self.points(t)
        got = {p: points.loss if p in losers else points.win for p in g.players}
        return await self._set_result(tournament_id, round, board, got, "forfeit", by=by, reason=reason,
                                      moderator=moderator, confirm=confirm)

    async def _set_result(self, tournament_id: int, round: int, board: int, points: Mapping[str, float],
                          how: str, *, by: str, reason: str | None, moderator: bool,
                          confirm: bool = False) -> Progress | Undo | Rejection:
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        games = {(g.round, g.board): g for g in await self.record.games(tournament_id)}
        g = games.get((round, board))
        if g is None:
            return _reject("no_game", Code.NOT_FOUND, round=round, board=board)
        if any(same_user(by, player) for player in g.players):  # a player of that game: another organiser decides
            return _reject("own_game", Code.FORBIDDEN, round=round, board=board)
        if set(points) != set(g.players) or any(not isinstance(v, (int, float)) or isinstance(v, bool)
                                                or not 0 <= v <= 100 for v in points.values()):
            return _reject("bad_points", players=", ".join(g.players))
        if t.status != "running" and t.status != "finished":
            return _reject("closed", tournament=tournament_id)
        got = {p: float(v) for p, v in points.items()}
        async with self.lock(tournament_id):
            t = await self.record.get(tournament_id)  # read again under the lock: a round may have been paired
            every = await self.record.games(tournament_id)
            wrong = self._undone(t, every, round, board, got, how)
            if wrong:
                undo = await self._redo(t, every, wrong, round, board, got, how, by=by, reason=reason,
                                        confirm=confirm)
            else:
                if g.table_id is not None:
                    table = await self.store.get_table(g.table_id)
                    if table.status == "active":
                        await self.referee.cancel(g.table_id, by, moderator=True, reason=reason)
                await self.record.settle(tournament_id, round, board, got, how, by=by, reason=reason,
                                         now=self.referee.now(), overwrite=True)
        if wrong:
            if isinstance(undo, Undo) and undo.done:  # the re-paired games' tables, and what follows from them
                undo.progress = await self.sync(tournament_id)
            return undo
        progress = await self.sync(tournament_id) if t.status == "running" else Progress(tournament_id)
        if t.format not in BRACKETS and round < t.round:
            # FIDE's practice (C.04): a correction changes scores, never a pairing already made
            progress.kept_pairings = list(range(round + 1, t.round + 1))
        return progress

    def _undone(self, t: TournamentRow, every: list[GameRow], round: int, board: int, got: Mapping[str, float],
                how: str) -> list[GameRow]:
        """Every game a bracket correction undoes (none outside a bracket): the later games it makes wrong, and
        every round after the first of them whole."""
        if t.format not in BRACKETS:
            return []
        wrong = invalidated(corrected(every, round, board, dict(got), how), round, t.round,
                            lambda gs, n: self._bracket_matches(t, gs, n))
        dropped = dropped_after(wrong[0].round, t.round) if wrong else []
        return sorted([*wrong, *(g for g in every if g.round in dropped and g not in wrong)],
                      key=lambda g: (g.round, g.board))

    def _bracket_matches(self, t: TournamentRow, games: list[GameRow], number: int) -> list[frozenset[str]]:
        """The matches a bracket pairs in round ``number`` from ``games`` (as ``_plan`` pairs them), as sets of
        the players in them."""
        points = self.points(t)
        if t.format == "double_elimination":
            walk = double_elimination(t.settings["order"], games, number, points,
                                      reset=t.settings.get("reset", True), best_of=t.settings.get("best_of", 1))
            matches = [] if walk.over else list(walk.matches)
        else:
            places = self._bracket_places(t, games, number, points)
            matches = [tuple(places[i:i + 2]) for i in range(0, len(places), 2)]
            if t.settings.get("third_place") and number >= 2 and len(places) == 2:
                semis = self._bracket_places(t, games, number - 1, points)
                matches.append(tuple(match_result(semis[i:i + 2], [g for g in games if g.round == number - 1],
                                                  points, t.settings.get("best_of", 1))[1]
                                     for i in range(0, len(semis), 2)))
        return [frozenset(p for p in m if p is not None) for m in matches]

    async def _redo(self, tour: TournamentRow, every: list[GameRow], undone: list[GameRow], round: int, board: int,
                    got: dict[str, float], how: str, *, by: str, reason: str, confirm: bool) -> Undo | Rejection:
        """A bracket correction whose winner played on (under the tournament's lock): without ``confirm`` the
        list of what it undoes (``undone``, by ``_undone``); with it, those tables cancelled (their players told
        why, in the table's language), the correction recorded, and the bracket paired again from the first
        wrong round."""
        first = undone[0].round
        dropped = dropped_after(first, tour.round)
        undo = Undo(tour.id, round, board, undone, first, dropped)
        if tour.status != "running":  # a finished event is not reopened by a correction
            return _reject("undo_finished", tournament=tour.id)
        if not confirm:  # kept in the log: what the organiser was shown, for a confirmation that comes back later
            undo.shown = await self.record.add_log(tour.id, by, "correction_shown", reason, {
                "round": round, "board": board, "points": got, "how": how,
                "undone": [[g.round, g.board, g.players] for g in undo.games]}, self.referee.now())
            return undo
        fixed = [g for g in corrected(every, round, board, got, how) if g not in undone]
        plan = await self._plan(replace(tour, round=first - 1), first, games=fixed) or []
        standing = [frozenset(g.players) for g in fixed if g.round == first]
        fresh = [n for n in plan if frozenset(n.players) not in standing]
        told = t("tournament.correction.cancelled", tour.locale, round=round, board=board)
        for g in undo.games:
            if g.table_id is not None and (await self.store.get_table(g.table_id)).status in ("lobby", "active"):
                await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason=told)
        own = next(g for g in every if (g.round, g.board) == (round, board))
        if own.table_id is not None and (await self.store.get_table(own.table_id)).status == "active":
            await self.referee.cancel(own.table_id, by, moderator=True, reason=reason)
        try:
            await self.record.redo(tour.id, round, board, got, how, first=first,
                                   removed=[(g.round, g.board) for g in undo.games], fresh=fresh,
                                   deadline=self._deadline(tour) if dropped else None, by=by, reason=reason,
                                   data={"undone": [[g.round, g.board, g.players] for g in undo.games],
                                         "from_round": first}, now=self.referee.now())
        except TournamentRefused:  # another process paired a round meanwhile: the organiser looks again
            return _reject("correction_expired")
        undo.done = True
        return undo

    async def confirm_correction(self, tournament_id: int, shown: int, *, by: str,
                                 moderator: bool = False) -> Undo | Progress | Rejection:
        """Apply a correction shown to the organiser (``shown``: its dry run's log entry) if it still undoes
        exactly what was shown; a bracket that moved since, or a correction already made, is refused."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        entry = next((e for e in await self.record.log(tournament_id)
                      if e["id"] == shown and e["action"] == "correction_shown"), None)
        if entry is None or t.status != "running":
            return _reject("correction_expired")
        data = entry["data"]
        undone = self._undone(t, await self.record.games(tournament_id), data["round"], data["board"],
                              data["points"], data["how"])
        if not undone or [[g.round, g.board, g.players] for g in undone] != data["undone"]:
            return _reject("correction_expired")
        return await self._set_result(tournament_id, data["round"], data["board"], data["points"], data["how"],
                                      by=by, reason=entry["reason"], moderator=moderator, confirm=True)

    async def pause_round(self, tournament_id: int, *, by: str, reason: str | None, resume: bool = False,
                          moderator: bool = False) -> float | Rejection:
        """Stop (or, ``resume``, restart) the clock of the current round: its deadline is put away with the
        time it had left, and given back from now on resuming; logged with the reason.  Returns the time left
        (pausing) or the new deadline (resuming)."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        reason = clean_text(reason)
        async with self.lock(tournament_id):
            now = self.referee.now()
            current = {r.number: r for r in await self.record.rounds(tournament_id)}[t.round]
            paused = [e for e in await self.record.log(tournament_id)
                      if e["action"] in ("round_paused", "round_resumed") and (e["data"] or {}).get("round") == t.round]
            is_paused = bool(paused) and paused[-1]["action"] == "round_paused"
            if resume:
                if not is_paused:
                    return _reject("round_not_paused", round=t.round)
                deadline = now + paused[-1]["data"]["left"]
                await self.record.set_deadline(tournament_id, t.round, deadline)
                await self.record.add_log(tournament_id, by, "round_resumed", reason,
                                          {"round": t.round, "deadline": deadline}, now)
                return deadline
            if is_paused:
                return _reject("round_paused", round=t.round)
            if not reason:
                return _reject("reason_needed")
            if current.deadline is None:
                return _reject("no_deadline", round=t.round)
            left = max(0.0, current.deadline - now)
            await self.record.set_deadline(tournament_id, t.round, None)
            await self.record.add_log(tournament_id, by, "round_paused", reason, {"round": t.round, "left": left}, now)
            return left

    async def _untouched(self, games: list[GameRow]) -> bool:
        """No one moved at any of these games' tables (the referee's forced moves do not count)."""
        for g in games:
            if g.kind == "table" and g.table_id is not None and any(
                    a.user_id not in (SYSTEM, "auto", "preference") for a in await self.store.actions(g.table_id)):
                return False
        return True

    async def swap(self, tournament_id: int, a: str, b: str, *, by: str, reason: str | None,
                   moderator: bool = False) -> Progress | Rejection:
        """Exchange two players in the current round's pairing (T-22): only before anyone moved at their
        tables, which are cancelled and made again with the players exchanged; a bye goes with the place.
        Logged with the reason."""
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            games = await self.record.games(tournament_id, t.round)
            where = {p: g for g in games for p in g.players}
            if a == b or a not in where or b not in where or any(
                    where[p].kind == "late" or (where[p].kind == "table" and where[p].settled) for p in (a, b)):
                return _reject("not_swappable", round=t.round)
            touched = {where[a].board: where[a], where[b].board: where[b]}
            if not await self._untouched(list(touched.values())):
                return _reject("round_begun", round=t.round)
            points = self.points(t)
            rewritten = []
            for board, g in touched.items():
                players = [b if p == a else a if p == b else p for p in g.players]
                if g.kind == "table":
                    rewritten.append((board, NewGame("table", players)))
                else:
                    value = next(iter(g.points.values())) if g.points else points.bye
                    rewritten.append((board, NewGame(g.kind, players, {players[0]: value}, g.result)))
            for g in touched.values():
                if g.table_id is not None:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="pairing edited")
            await self.record.rewrite_games(tournament_id, t.round, rewritten, by=by, reason=reason,
                                            data={"round": t.round, "players": [a, b]}, now=self.referee.now())
            progress = Progress(tournament_id, rounds=[])
            progress.tables = await self.materialise(tournament_id)
        return progress

    async def forbid(self, tournament_id: int, a: str, b: str, *, by: str, reason: str | None,
                     moderator: bool = False) -> bool | Rejection:
        """Two players must not meet in the rounds paired from now on (T-22): Swiss pairs them only where no
        other pairing exists, multi-seat rounds seat them apart where they can.  Logged with the reason."""
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        if t.format not in ("swiss", "multiseat") or t.status not in ("registration", "running"):
            return _reject("no_forbid", tournament=tournament_id)
        entered = {e.user_id for e in await self.record.entries(tournament_id)}
        if a == b or a not in entered or b not in entered:
            return _reject("not_entered")
        await self.record.add_log(tournament_id, by, "forbid", reason, {"players": sorted([a, b])},
                                  self.referee.now())
        return True

    async def _forbidden(self, tournament_id: int) -> list[tuple[str, str]]:
        return [tuple(e["data"]["players"]) for e in await self.record.log(tournament_id) if e["action"] == "forbid"]

    async def repair(self, tournament_id: int, *, by: str, moderator: bool = False,
                     reason: str | None = None) -> Progress | Rejection:
        """Pair the latest round again (after removing a player, say): only before anyone moved at any of
        its tables.  Its tables are cancelled and new ones made; the new lot differs from the old."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            games = await self.record.games(tournament_id, t.round)
            for g in games:
                if g.kind == "table" and (g.settled or g.table_id is not None and any(
                        a.user_id not in (SYSTEM, "auto", "preference") for a in await self.store.actions(g.table_id))):
                    return _reject("round_begun", round=t.round)
            for g in games:
                if g.table_id is not None:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="re-paired")
            attempt = sum(1 for entry in await self.record.log(tournament_id)
                          if entry["action"] == "repair" and (entry["data"] or {}).get("round") == t.round) + 1
            now = self.referee.now()
            await self.record.drop_round(tournament_id, t.round, by=by, reason=clean_text(reason), now=now)
            for tries in range(PAIRING_TRIES):
                plan = await self._plan(replace(t, round=t.round - 1), t.round, attempt)
                try:
                    await self.record.add_round(tournament_id, t.round, plan, deadline=self._deadline(t), now=now)
                    break
                except TournamentRefused as refused:  # a player dropped meanwhile (another process)
                    if refused.reason != "entries_changed" or tries == PAIRING_TRIES - 1:
                        return _reject("paired", tournament=tournament_id)
            progress = Progress(tournament_id, rounds=[t.round])
            progress.tables = await self.materialise(tournament_id)
        return progress

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
        if None in losers:
            return []
        played = [g for g in games if g.round == final and set(g.players) <= set(losers)]
        if not played or any(not g.settled for g in played) \
                or match_goes_on(losers, played, points, t.settings.get("best_of", 1)):
            return []  # a match still being played decides nothing yet
        winner, loser = match_result(losers, played, points, t.settings.get("best_of", 1))
        return [(winner, loser)] if winner is not None and loser is not None else []

    def as_matches(self, t: TournamentRow, games: list[GameRow]) -> list[GameRow]:
        """The games as the standings, the pairing and the crosstable count them: outside a bracket, a best-of-N
        match is one result (T-20); a bracket walks its matches game by game itself."""
        if t.format in BRACKETS:
            return games
        return fold_matches(games, self.points(t), t.settings.get("best_of", 1))

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
