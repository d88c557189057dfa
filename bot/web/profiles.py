"""What a player page shows beyond the record's tables and tournaments: their ratings (bot/ratings), unless
they hid their profile (``/my-profile``, ``python -m bot ratings hide``), in which case the page says only that.
Tests give ``bot.web.app.Site`` a ``Profiles`` of their own."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.ratings.model import PROVISIONAL_GAMES
from bot.ratings.ratings import Ratings
from bot.storage.public_reads import hidden_servers
from bot.storage.store import Store


class Profiles:
    def __init__(self, store: Store):
        self.store = store
        self.source = Ratings(store)

    async def hidden(self, user_id: str) -> bool:
        return await self.source.hidden(user_id)

    async def ratings(self, user_id: str) -> Sequence[Mapping[str, Any]]:
        """One line's worth per game and server: the displayed figure, ``?`` while provisional.  Not a rating
        on a server off the public pages: it would tell that the player plays there."""
        off = await hidden_servers(self.store)
        return [{"game": game, "rating": f"{shown}{'?' if games < PROVISIONAL_GAMES else ''}", "games": games}
                for scope, game, shown, games in await self.source.figures(user_id) if scope not in off]

    async def token(self, user_id: str) -> Any:
        """Changes whenever what the page shows of the profile does (the page's cache key)."""
        return (await self.hidden(user_id), tuple(await self.source.figures(user_id)),
                tuple(sorted(await hidden_servers(self.store))))
