"""The next round's plan, one pure planner per format (docs/tournaments.md).

Each planner is a function of the event as it stands — its row (format, settings, seed), the entries, the games
played, who asked for a bye, which pairs the organiser forbade — and returns the games of round ``number``; the
director (director.py) reads those from the record and writes the plan in one transaction.  No storage and no
clock here: the same event always plans the same round (its lot comes from the event's seed and the attempt).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.engine import get_game
from bot.ratings.seeding import first_swiss_round
from bot.storage.tournaments import Entry, GameRow, NewGame, TournamentRow

from . import stages
from .brackets import double_elimination, fold_matches, match_result
from .pairing import bracket, round_robin, seat_order, seat_tables, swiss_pairs, table_sizes
from .settings import BRACKETS
from .settings import points as event_points
from .standings import Points, histories, standings

FORBIDDEN = 30          # a forbidden pair counts as this many earlier meetings (T-22): worse than any rematch

#: a match of a bracket round, in bracket order: two places (the 3rd-place match: its two players); None is empty
Match = tuple[str | None, ...]


@dataclass(frozen=True)
class Field:
    """What a round is planned from: the event's entries and games (as the standings count them: ``as_matches``),
    the players who asked to sit this round out (T-19), and the pairs the organiser forbade (T-22)."""

    entries: Sequence[Entry]
    games: Sequence[GameRow]
    requested: frozenset[str] = frozenset()
    forbidden: Sequence[tuple[str, str]] = field(default_factory=tuple)

    @property
    def active(self) -> set[str]:
        return {e.user_id for e in self.entries if e.status == "active"}


def _bye(player: str, points: Points) -> NewGame:
    return NewGame("bye", [player], {player: points.bye}, "bye")


def as_matches(t: TournamentRow, games: Sequence[GameRow]) -> list[GameRow]:
    """The games as the standings, the pairing and the crosstable count them: outside a bracket, a best-of-N
    match is one result (T-20); a bracket walks its matches game by game itself."""
    if t.format in BRACKETS:
        return list(games)
    return fold_matches(games, event_points(t), t.settings.get("best_of", 1))


def bracket_places(t: TournamentRow, games: Sequence[GameRow], number: int, points: Points) -> list[str | None]:
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


def bracket_round(t: TournamentRow, games: Sequence[GameRow], number: int, points: Points) -> list[Match] | None:
    """The matches of round ``number`` of a single or double elimination bracket, in bracket order; None when a
    double-elimination bracket is over.  A single elimination with a 3rd-place match plays it after the final
    (T-20), as the last match of the final's round."""
    if t.format == "double_elimination":
        walk = double_elimination(t.settings["order"], games, number, points,
                                  reset=t.settings.get("reset", True), best_of=t.settings.get("best_of", 1))
        return None if walk.over else [tuple(m) for m in walk.matches]
    places = bracket_places(t, games, number, points)
    matches: list[Match] = [tuple(places[i:i + 2]) for i in range(0, len(places), 2)]
    if t.settings.get("third_place") and number >= 2 and len(places) == 2:
        semis = bracket_places(t, games, number - 1, points)
        matches.append(tuple(match_result(semis[i:i + 2], [g for g in games if g.round == number - 1], points,
                                          t.settings.get("best_of", 1))[1] for i in range(0, len(semis), 2)))
    return matches


def bracket_matches(t: TournamentRow, games: Sequence[GameRow], number: int) -> list[frozenset[str]]:
    """The matches a bracket pairs in round ``number`` from ``games``, as sets of the players in them (a
    correction compares them: corrections.py)."""
    return [frozenset(p for p in m if p is not None)
            for m in bracket_round(t, games, number, event_points(t)) or []]


def plan_round_robin(t: TournamentRow, number: int, ground: Field, attempt: int = 0) -> list[NewGame]:
    """Round ``number`` of the schedule fixed at the start (or of each group's, T-24).  A player whose opponent
    left gets a bye; the player the schedule rests scores nothing."""
    points = event_points(t)
    active = ground.active
    schedule = stages.schedule(t.settings["pools"]) if t.settings.get("pools") else round_robin(t.settings["order"])
    plan: list[NewGame] = []
    for a, b in schedule[number - 1] if number <= len(schedule) else []:
        players = [p for p in (a, b) if p is not None and p in active]
        if len(players) == 2:
            plan.append(NewGame("table", players))
        elif players and b is not None:  # the opponent left: a bye; the round's rest scores nothing
            plan.append(_bye(players[0], points))
        elif players:
            plan.append(NewGame("bye", players, {players[0]: points.loss}, "rest"))
    return plan


def plan_bracket(t: TournamentRow, number: int, ground: Field, attempt: int = 0) -> list[NewGame] | None:
    """Round ``number`` of a single or double elimination bracket; None when a double-elimination bracket is
    over.  An empty place, or an opponent who withdrew, gives a walkover (T-2)."""
    points = event_points(t)
    active = ground.active
    history = histories(t.settings["order"], ground.games, points)
    matches = bracket_round(t, ground.games, number, points)
    if matches is None:
        return None
    plan: list[NewGame] = []
    for i, match in enumerate(matches):
        pair = [p for p in match if p is not None and p in active]
        if len(pair) == 2:  # seats by the seat rule (T-18): a bracket has no colour of its own
            plan.append(NewGame("table", list(seat_order(pair[0], pair[1], history, i))))
        elif pair:
            plan.append(_bye(pair[0], points))
    return plan


def _resting(t: TournamentRow, ground: Field, points: Points) -> list[NewGame]:
    """The requested byes (T-19): each scores the event's ``requested_bye`` (a draw or a loss)."""
    value = points.loss if t.settings.get("requested_bye", "draw") == "loss" else points.draw
    return [NewGame("bye", [p], {p: value}, "requested") for p in sorted(ground.requested & ground.active)]


def _ranked(t: TournamentRow, ground: Field, points: Points) -> list[str]:
    """The active players who play this round, in the order of the standings."""
    active = ground.active
    return [s.user_id for s in standings(t.format, ground.entries, ground.games, t.seed, points,
                                         tiebreaks=t.settings.get("tiebreaks") or None,
                                         rules=t.settings.get("tiebreak_rules", "classic"))
            if s.user_id in active and s.user_id not in ground.requested]


def plan_swiss(t: TournamentRow, number: int, ground: Field, attempt: int = 0) -> list[NewGame]:
    """A Swiss round: players of equal score paired, no rematch where another pairing exists, a forbidden pair
    costlier than any rematch (T-22); round 1 of an event seeded by rating pairs the top half with the bottom."""
    points = event_points(t)
    ranked = _ranked(t, ground, points)
    if number == 1 and t.settings.get("seeded", {}).get("ratings"):
        pairs, left = first_swiss_round([p for p in t.settings["order"] if p in ranked])
    else:
        history = histories(ranked, ground.games, points)
        for x, y in ground.forbidden:
            if x in history and y in history:
                history[x].met[y] = history[x].met.get(y, 0) + FORBIDDEN
                history[y].met[x] = history[y].met.get(x, 0) + FORBIDDEN
        pairs, left = swiss_pairs(ranked, history, random.Random(f"{t.seed}:round:{number}:{attempt}"))
    return [NewGame("table", [a, b]) for a, b in pairs] + ([_bye(left, points)] if left else []) \
        + _resting(t, ground, points)


def plan_multiseat(t: TournamentRow, number: int, ground: Field, attempt: int = 0) -> list[NewGame]:
    """A multi-seat round: tables of the preferred size (the game's seats allowing), players seated so that
    those who met least sit together; the players left over sit out with a bye."""
    points = event_points(t)
    ranked = _ranked(t, ground, points)
    game = get_game(t.game)
    preferred = t.settings["table_size"] or min(game.max_seats, max(game.min_seats, 6))
    sizes, extra = table_sizes(len(ranked), preferred, max(game.min_seats, 1), game.max_seats)
    history = histories(ranked, ground.games, points)
    # the players left over sit out with a bye: those who had fewest byes, lowest in the standings first
    out = sorted(ranked[::-1], key=lambda p: history[p].byes)[:extra]  # noqa: C415 - a stable sort: ties go lowest first
    seated = [p for p in ranked if p not in out]
    met: dict[frozenset[str], int] = {}
    for p in seated:
        for o, n in history[p].met.items():
            met[frozenset((p, o))] = n
    for x, y in ground.forbidden:
        met[frozenset((x, y))] = met.get(frozenset((x, y)), 0) + FORBIDDEN
    tables = seat_tables(seated, sizes, met, random.Random(f"{t.seed}:round:{number}:{attempt}"))
    return [NewGame("table", table) for table in tables] + [_bye(p, points) for p in out] \
        + _resting(t, ground, points)


Planner = Callable[[TournamentRow, int, Field, int], "list[NewGame] | None"]
PLANNERS: dict[str, Planner] = {"swiss": plan_swiss, "round_robin": plan_round_robin, "elimination": plan_bracket,
                                "double_elimination": plan_bracket, "multiseat": plan_multiseat}


def plan_round(t: TournamentRow, number: int, ground: Field, attempt: int = 0) -> list[NewGame] | None:
    """The games of round ``number`` by the event's format; None when a double-elimination bracket is over.
    ``attempt``: the round planned again (a repair, or players who dropped while it was paired) draws a new lot."""
    return PLANNERS[t.format](t, number, ground, attempt)
