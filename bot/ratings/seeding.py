"""A tournament's seeding by rating (docs/ratings.md "Tournaments"): the rated by their displayed figure, best
first, then the unrated in an order drawn by lot.  The one place the tournament director asks ratings."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.ratings.outcomes import rated_games
from bot.ratings.ratings import Ratings


def rated(settings: Mapping[str, Any]) -> bool:
    return settings.get("rated", True) is not False


async def ratings_at_start(store: Any, *, game: str, guild_id: str | None, settings: Mapping[str, Any],
                           players: Sequence[str]) -> dict[str, int]:
    """Each rated player's displayed figure when the tournament starts (empty when the organiser switched
    rating off or the game is unrated); the director seeds by it (bot/tournament/seeding.py's ``rating``) and
    keeps it in the tournament's settings, ``seeded``, for the standings and the pairing post."""
    if not rated(settings) or game not in rated_games():
        return {}
    found = await Ratings(store).current(guild_id or "", game, list(players))
    return {p: found[p][0] for p in players if p in found}


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

    seeding = settings.get("seeded")
    if not seeding:
        return None
    if not seeding.get("rated", True):
        return t("ratings.seeding.off", locale)
    if not seeding.get("ratings"):
        return t("ratings.seeding.none", locale)
    if not seeding.get("by_lot"):
        return t("ratings.seeding.all_rated", locale)
    return t("ratings.seeding.rated", locale, players=", ".join(names.get(p, p) for p in seeding["by_lot"]))
