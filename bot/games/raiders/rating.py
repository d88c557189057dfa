"""How a finished Raiders table is rated (docs/ratings.md R-2): the winning side first, every other side by its
бабки at the end, equal totals sharing a place; with the pairs option the pairs are the sides."""
from __future__ import annotations

from typing import Any, Mapping


def rated_sides(options: Mapping[str, Any], seats: int,
                outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
    """The sides and their places; ValueError for an outcome that cannot be rated as stored."""
    winners = set(outcome.get("winners") or [])
    sides = [[0, 2], [1, 3]] if options.get("pairs") and seats == 4 else [[s] for s in range(seats)]
    scores = outcome.get("scores") or {}
    try:
        totals = [sum(float(scores[str(s)]) for s in side) for side in sides]
    except (KeyError, TypeError, ValueError):
        raise ValueError("malformed") from None
    won = [i for i, side in enumerate(sides) if set(side) <= winners]
    if len(won) != 1:
        raise ValueError("malformed")
    others = [i for i in range(len(sides)) if i != won[0]]
    ranks = [0] * len(sides)
    ranks[won[0]] = 1
    rest = [totals[i] for i in others]
    for i, total in zip(others, rest):
        ranks[i] = 2 + sum(other > total for other in rest)  # competition places below the winners
    return sides, ranks
