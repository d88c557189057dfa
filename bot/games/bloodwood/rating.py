"""How a finished Bloodwood table is rated (docs/ratings.md R-3): team against team, each player on the team of
their role as the game ends; the winners' team first, the other second; a game nobody could win (BW-26) is a draw
between the teams."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from .cards import catalogue


@lru_cache(maxsize=1)
def _teams() -> dict[str, str]:
    return {role: info["team"] for role, info in catalogue().roles.items()}


def rated_sides(options: Mapping[str, Any], seats: int,
                outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
    """The teams and their places; ValueError for an outcome that cannot be rated as stored."""
    winners = set(outcome.get("winners") or [])
    roles = (outcome.get("scores") or {}).get("roles")
    if not isinstance(roles, list) or len(roles) != seats:
        raise ValueError("malformed")
    try:
        team_of = [_teams()[role] for role in roles]
    except (KeyError, TypeError):
        raise ValueError("malformed") from None
    teams = [[s for s in range(seats) if team_of[s] == name] for name in sorted(set(team_of))]
    if not winners:
        return teams, [1] * len(teams)
    if not any(set(team) == winners for team in teams):
        raise ValueError("malformed")
    return teams, [1 if set(team) == winners else 2 for team in teams]
