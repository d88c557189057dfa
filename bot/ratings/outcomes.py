"""A finished table's outcome as openskill teams and ranks (docs/ratings.md, rulings R-1..R-6).

Pure functions of what the record keeps for a finished table: the game, its options, the seat count and the
stored outcome.  A team is a list of seats; ranks are competition places (1 best, a tie shares the place).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

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


def places(scores: list[float]) -> list[int]:
    """Competition places of scores, higher better: [5, 9, 5] → [2, 1, 2]."""
    return [1 + sum(other > s for other in scores) for s in scores]


def standing(game: str, options: Mapping[str, Any], seats: int, outcome: Mapping[str, Any]) -> Standing:
    """The table's final standing for rating, or Unrated."""
    winners = sorted(set(outcome.get("winners") or []))
    if any(not isinstance(w, int) or not 0 <= w < seats for w in winners):
        raise Unrated("malformed")
    if game == "bridges":
        raise Unrated("cooperative")  # statistics only
    if outcome.get("reason") == FORFEIT:
        return _forfeit(seats, outcome)
    if game in ("claygod", "gwent"):
        return _duel(seats, winners)
    if game == "raiders":
        return _raiders(options, seats, winners, outcome)
    if game == "bloodwood":
        return _bloodwood(seats, winners, outcome)
    raise Unrated("unknown_game")


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


def _raiders(options: Mapping[str, Any], seats: int, winners: list[int], outcome: Mapping[str, Any]) -> Standing:
    """R-2: the winning side first; every other side by its бабки at the end, equal totals sharing a place.
    With the pairs option the pairs are openskill teams."""
    sides = [[0, 2], [1, 3]] if options.get("pairs") and seats == 4 else [[s] for s in range(seats)]
    scores = outcome.get("scores") or {}
    try:
        totals = [sum(float(scores[str(s)]) for s in side) for side in sides]
    except (KeyError, TypeError, ValueError):
        raise Unrated("malformed") from None
    won = [i for i, side in enumerate(sides) if set(side) <= set(winners)]
    if len(won) != 1:
        raise Unrated("malformed")
    others = [i for i in range(len(sides)) if i != won[0]]
    ranks = [0] * len(sides)
    ranks[won[0]] = 1
    for i, place in zip(others, places([totals[i] for i in others])):
        ranks[i] = 1 + place
    return Standing(sides, ranks)


@lru_cache(maxsize=1)
def _bloodwood_teams() -> dict[str, str]:
    from bot.games.bloodwood.cards import catalogue

    return {role: info["team"] for role, info in catalogue().roles.items()}


def _bloodwood(seats: int, winners: list[int], outcome: Mapping[str, Any]) -> Standing:
    """R-3: team against team, each player on the team of their role as the game ends; the winners' team first,
    the other second; a game nobody could win (BW-26) is a draw between the teams."""
    roles = (outcome.get("scores") or {}).get("roles")
    if not isinstance(roles, list) or len(roles) != seats:
        raise Unrated("malformed")
    try:
        team_of = [_bloodwood_teams()[role] for role in roles]
    except (KeyError, TypeError):
        raise Unrated("malformed") from None
    names = sorted(set(team_of))
    teams = [[s for s in range(seats) if team_of[s] == name] for name in names]
    if not winners:
        return Standing(teams, [1] * len(teams))
    if not any(set(team) == set(winners) for team in teams):
        raise Unrated("malformed")
    return Standing(teams, [1 if set(team) == set(winners) else 2 for team in teams])
