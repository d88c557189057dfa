"""A tournament's seeding by rating (docs/ratings.md "Tournaments"): the rated by their displayed figure, best
first, then the unrated in an order drawn by lot.  The one place the tournament director asks ratings."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from bot.ratings.ratings import RATED_GAMES, Ratings


@dataclass(frozen=True)
class Seeding:
    order: list[str]
    ratings: dict[str, int] = field(default_factory=dict)   # each rated player's figure at the start
    by_lot: list[str] = field(default_factory=list)         # the players placed by lot
    rated: bool = True                                      # False: the organiser switched rating off

    def as_settings(self) -> dict[str, Any]:
        """What the tournament keeps of it (its settings): the standings show the ratings at the start."""
        return {"order": self.order, "seeding": {"ratings": self.ratings, "by_lot": self.by_lot,
                                                 "rated": self.rated}}


def rated(settings: Mapping[str, Any]) -> bool:
    return settings.get("rated", True) is not False


async def seed(store: Any, *, game: str, guild_id: str | None, settings: Mapping[str, Any],
               players: Sequence[str], rng: random.Random) -> Seeding:
    lot = list(players)
    rng.shuffle(lot)  # the lot first: it also breaks ties between equal ratings
    if not rated(settings) or game not in RATED_GAMES:
        return Seeding(lot, {}, lot, rated=False)
    found = await Ratings(store).current(guild_id or "", game, lot)
    ratings = {p: found[p][0] for p in lot if p in found}
    ranked = sorted(ratings, key=lambda p: -ratings[p])  # sorted() is stable: equal figures keep the lot's order
    unrated = [p for p in lot if p not in ratings]
    return Seeding(ranked + unrated, ratings, unrated)


def first_swiss_round(order: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1 of a seeded Swiss: the top half against the bottom half in order (1 v n/2+1, 2 v n/2+2, …, the
    Dutch system's first round); with an odd number the last seed has the bye."""
    players = list(order)
    bye = players.pop() if len(players) % 2 else None
    half = len(players) // 2
    return [(players[i], players[half + i]) for i in range(half)], bye


def seeding_line(settings: Mapping[str, Any], names: Mapping[str, str], locale: str) -> str | None:
    """What round 1's pairing post says of the seeding: by rating (naming who was placed by lot), or by lot."""
    from bot.i18n import t

    seeding = settings.get("seeding")
    if not seeding:
        return None
    if not seeding.get("rated", True):
        return t("ratings.seeding.off", locale)
    if not seeding.get("ratings"):
        return t("ratings.seeding.none", locale)
    if not seeding.get("by_lot"):
        return t("ratings.seeding.all_rated", locale)
    return t("ratings.seeding.rated", locale, players=", ".join(names.get(p, p) for p in seeding["by_lot"]))
