"""What a player page shows beyond the record's tables and tournaments: ratings, and whether the player hid their
profile.  ``Profiles`` is the interface (the default hides nothing and knows no rating); ``RatingProfiles`` reads
both from the ratings (bot/ratings, docs/ratings.md), and is what ``bot.web.app.start`` serves with.

    hidden(user_id)   the player's own setting (``python -m bot ratings hide``, Discord's profile setting)
    ratings(user_id)  [{"game": "gwent", "rating": "1520", "games": 12, "server": "local" | guild id}, ...]
    token(user_id)    anything that changes when either does (the page's cache key)
"""
from __future__ import annotations

import logging
import sqlite3
from typing import Any, Mapping, Sequence

from bot.storage.store import Store

log = logging.getLogger(__name__)


class Profiles:
    async def hidden(self, user_id: str) -> bool:
        return False

    async def ratings(self, user_id: str) -> Sequence[Mapping[str, Any]]:
        return ()

    async def token(self, user_id: str) -> Any:
        return None


class RatingProfiles(Profiles):
    """The ratings' own figures: per server (the scope ratings are kept in) and game, provisional marked '?'."""

    def __init__(self, store: Store):
        from bot.ratings.ratings import Ratings

        self.store = store
        self.figures = Ratings(store)

    async def hidden(self, user_id: str) -> bool:
        return await self.figures.hidden(user_id)

    async def ratings(self, user_id: str) -> Sequence[Mapping[str, Any]]:
        try:
            await self.figures.sync()  # the derived cache brought up to the record (a write only when it lags)
        except sqlite3.Error as exc:   # another process holds the file: the figures as last derived
            log.warning("ratings not brought up to date for a player page: %s", exc)
        scopes = await self.store._all(
            "SELECT DISTINCT coalesce(t.guild_id, '') AS scope FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.user_id = ? AND t.status = 'finished' ORDER BY scope", (user_id,))
        lines = []
        for row in scopes:
            profile = await self.figures.profile(row["scope"], user_id)
            for record in profile.games:
                if record.shown is not None:
                    lines.append({"game": record.game, "rating": f"{record.shown}{'?' if record.provisional else ''}",
                                  "games": record.games, "server": row["scope"] or "local"})
        return lines

    async def token(self, user_id: str) -> Any:
        row = await self.store._one("SELECT profile_hidden FROM users WHERE user_id = ?", (user_id,))
        return None if row is None else row["profile_hidden"]
