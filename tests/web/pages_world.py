"""A small database for the tests of the pages' links, previews and words (tests/web/): one table of each game
played to the end by bot players and one left in play, a Gwent table just dealt (no public step yet) whose players' ids hold the
characters an address must encode, all built once per test module."""
from __future__ import annotations

import asyncio
from pathlib import Path

from bot.referee.service import Referee
from bot.storage.store import Store
from tests.support.web_world import SEATS, _table

#: user ids a Discord or terminal player may have that an address must carry intact
HOSTILE_IDS = ["cli:x{y}/z", "cli:50%off?q=1#frag", "cli:a b/../c"]
NAMES = ["Аня", "Борис", "Віра", "Glen", "Дана"]


async def build(path: Path, games: tuple[str, ...] = tuple(SEATS)) -> dict[str, object]:
    store = await Store.open(path)
    referee = Referee(store)
    world: dict[str, object] = {"finished": {}, "active": {}}
    try:
        for game in games:
            world["finished"][game] = await _table(referee, game, NAMES, finish=True, guild_id=None)
            world["active"][game] = await _table(referee, game, NAMES, finish=False, guild_id=None)
        table = await referee.create_table("gwent", creator=HOSTILE_IDS[0], creator_name="Curly", origin="demo")
        await referee.join(table.id, HOSTILE_IDS[1], "Percent")
        await referee.start(table.id, HOSTILE_IDS[0])
        world["fresh"] = table.id
        other = await referee.create_table("claygod", creator=HOSTILE_IDS[2], creator_name="Dots", origin="demo",
                                           join=True)
        await referee.join(other.id, HOSTILE_IDS[1], "Percent")
        await referee.start(other.id, HOSTILE_IDS[2])
        world["dots"] = other.id
    finally:
        await store.close()
    return world


def build_sync(path: Path, **kw) -> dict[str, object]:
    return asyncio.run(build(path, **kw))


class Client:
    """A test client on the pages of a built world (``async with Client(path, base_url=...) as c``)."""

    def __init__(self, path: Path, *, base_url: str | None = None, locale: str = "en"):
        self.path, self.base_url, self.locale = path, base_url, locale

    async def __aenter__(self):
        from aiohttp.test_utils import TestClient, TestServer

        from bot.web.app import Site

        self.store = await Store.open(self.path)
        self.client = TestClient(TestServer(Site(self.store, locale=self.locale, base_url=self.base_url).app()))
        await self.client.__aenter__()
        return self.client

    async def __aexit__(self, *exc):
        await self.client.__aexit__(*exc)
        await self.store.close()
