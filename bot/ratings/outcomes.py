"""A finished table's outcome as openskill teams and ranks (docs/ratings.md, rulings R-1..R-6).

Pure functions of what the record keeps for a finished table: the game, its options, the seat count and the
stored outcome; how a game's outcome is rated is the game's own fact (``GameFacts.rating``, ``Game.rated_sides``).
A team is a list of seats; ranks are competition places (1 best, a tie shares the place).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from bot.engine import all_games, get_game

FORFEIT = "clock.outcome.forfeit"


@dataclass(frozen=True)
class Standing:
    teams: list[list[int]]
    ranks: list[int]

    def place_of(self, seat: int) -> int:
        return next(r for team, r in zip(self.teams, self.ranks) if seat in team)


class Unrated(Exception):
    """The outcome counts for nobody; ``reason`` names the rule (a key of ratings.unrated.*)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def listed_games() -> tuple[str, ...]:
    """Every game in the order lists show them (``GameFacts.listed``): the rated ones, then statistics only."""
    return rated_games() + statistics_only()


def rated_games() -> tuple[str, ...]:
    """The rated games in their listed order: a leaderboard's button names its game by its place here."""
    games = sorted(all_games().values(), key=lambda g: (g.facts.listed, g.name))
    return tuple(g.name for g in games if g.facts.rating != "none")


def statistics_only() -> tuple[str, ...]:
    """The co-operative games, statistics only (docs/ratings.md R-5), in their listed order.  A game neither rated
    nor co-operative is listed nowhere."""
    games = sorted(all_games().values(), key=lambda g: (g.facts.listed, g.name))
    return tuple(g.name for g in games if g.facts.cooperative)


def is_duel(game: str) -> bool:
    """Whether the game is rated as a duel (a loss is a loss, never a second place)."""
    try:
        return get_game(game).facts.rating == "duel"
    except KeyError:
        return False


def places(scores: list[float]) -> list[int]:
    """Competition places of scores, higher better: [5, 9, 5] → [2, 1, 2]."""
    return [1 + sum(other > s for other in scores) for s in scores]


def standing(game: str, options: Mapping[str, Any], seats: int, outcome: Mapping[str, Any]) -> Standing:
    """The table's final standing for rating, or Unrated: as the game's facts say it is rated (GameFacts.rating)."""
    winners = sorted(set(outcome.get("winners") or []))
    if any(not isinstance(w, int) or not 0 <= w < seats for w in winners):
        raise Unrated("malformed")
    try:
        engine = get_game(game)
    except KeyError:
        raise Unrated("unknown_game") from None
    kind = engine.facts.rating
    if kind == "none":
        raise Unrated("cooperative" if engine.facts.cooperative else "unrated_game")  # statistics only
    if outcome.get("reason") == FORFEIT:
        return _forfeit(seats, outcome)
    if kind == "duel":
        return _duel(seats, winners)
    if kind == "free_for_all":
        return Standing([[s] for s in range(seats)], [1 if s in winners or not winners else 2 for s in range(seats)])
    try:
        teams, ranks = engine.rated_sides(options, seats, outcome)
    except ValueError:
        raise Unrated("malformed") from None
    return Standing(teams, ranks)


def _forfeit(seats: int, outcome: Mapping[str, Any]) -> Standing:
    """R-4: every seat alone; those out of time share the last place, the others the first."""
    lost = set((outcome.get("params") or {}).get("seats") or [])
    teams = [[s] for s in range(seats)]
    return Standing(teams, [2 if s in lost else 1 for s in range(seats)])


def _duel(seats: int, winners: list[int]) -> Standing:
    """R-1: a win and a loss, or a draw (nobody or everybody won)."""
    if seats != 2:
        raise Unrated("malformed")
    if len(winners) == 1:
        return Standing([[0], [1]], [1 if s in winners else 2 for s in (0, 1)])
    return Standing([[0], [1]], [1, 1])
