"""What a player page shows beyond the record's tables and tournaments: ratings, and whether the player hid
their profile.  Both belong to the ratings (bot/ratings, issue 31); until they exist nothing is hidden and no
rating is shown.  The ratings plug in by passing their own ``Profiles`` to ``bot.web.app.Site``:

    class RatingProfiles(Profiles):
        async def hidden(self, user_id): ...        # the player's own setting
        async def ratings(self, user_id): ...       # [{"game": "gwent", "rating": "27.9", "games": 12}, ...]
        def token(self, user_id): ...               # anything that changes when either does (for the cache)
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence


class Profiles:
    async def hidden(self, user_id: str) -> bool:
        return False

    async def ratings(self, user_id: str) -> Sequence[Mapping[str, Any]]:
        return ()

    async def token(self, user_id: str) -> Any:
        return None
