"""Seeding: the pairing numbers a tournament starts from (docs/tournaments.md, T-21).

``seed_order`` is the one hook: ``lot`` (the default) draws them from the tournament's seed, ``order`` keeps
the organiser's order (the order of entry, which the organiser controls by entering or listing players), and
``rating`` sorts by a rating lookup — any callable from a user id to a number, or None when the player has no
rating (the ratings of issue 16 plug in here: ``Director(referee, ratings=lambda game, user: …)``).  Players
without a rating come after those with one, in lot order among themselves; equal ratings are broken by lot.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

METHODS = ("lot", "order", "rating")

Rating = Callable[[str], "float | None"]


def seed_order(players: Sequence[str], method: str, rng: random.Random, rating: Rating | None = None) -> list[str]:
    """The players best seed first."""
    if method not in METHODS:
        raise ValueError(method)
    drawn = list(players)
    rng.shuffle(drawn)
    if method == "order":
        return list(players)
    if method == "lot" or rating is None:
        return drawn
    lot = {p: i for i, p in enumerate(drawn)}
    rated = {p: rating(p) for p in players}
    return sorted(players, key=lambda p: (rated[p] is None, -(rated[p] or 0.0), lot[p]))
