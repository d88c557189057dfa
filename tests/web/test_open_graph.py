"""Link previews: every page carries Open Graph and Twitter tags — its title, a line of public facts, its
language, and with ``web.base_url`` set its absolute address and picture — so a link pasted into Discord
unfurls; without a base address no relative address is offered; a preview never says what the page may not."""
from __future__ import annotations

import random
import re
from html import unescape

import pytest

from bot.engine import get_game
from bot.storage.store import Store
from bot.web import pages, public
from bot.web.pages import Page
from tests.web import pages_world
from tests.web.pages_world import Client

BASE = "https://judge.example"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("og") / "og.db"
    return path, pages_world.build_sync(path, games=("gwent", "raiders"))


def _meta(page: str) -> dict[str, str]:
    tags = re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', page)
    return {key: unescape(value) for key, value in tags if key != "og:locale:alternate"}


def _urls(ids) -> list[str]:
    gwent = ids["finished"]["gwent"]
    return ["/", "/server/local", f"/table/{gwent}", f"/table/{gwent}/log", f"/table/{gwent}/replay/1",
            f"/table/{ids['fresh']}", "/player/cli%3Ax%7By%7D%2Fz", "/rules/raiders"]


async def test_every_page_has_its_preview_with_absolute_addresses(world):
    path, ids = world
    async with Client(path, base_url=BASE + "/") as c:
        for url in _urls(ids):
            page = await (await c.get(url + "?lang=ru")).text()
            meta = _meta(page)
            assert meta["og:site_name"] == "Судья" and meta["og:locale"] == "ru_RU", url
            assert meta["og:title"] and meta["og:title"] == meta["twitter:title"], url
            assert meta["og:description"] and meta["og:type"] == "website", url
            assert meta["og:url"].startswith(BASE + "/") and meta["og:url"].endswith("?lang=ru"), url
            if "og:image" in meta:
                assert meta["og:image"].startswith(BASE + "/table/") and meta["twitter:card"] == "summary_large_image"
                picture = meta["og:image"][len(BASE):]
                answer = await c.get(picture)
                assert answer.status == 200 and answer.content_type == "image/png", picture
            else:
                assert meta["twitter:card"] == "summary", url
        table = _meta(await (await c.get(f"/table/{ids['finished']['gwent']}")).text())
        assert table["og:url"] == f"{BASE}/table/{ids['finished']['gwent']}"  # no language asked: none kept
        assert table["og:image"] == f"{BASE}/table/{ids['finished']['gwent']}/picture.png"
        assert table["og:locale"] == "en_US" and table["og:description"].startswith("Gwent")
        replay = _meta(await (await c.get(f"/table/{ids['finished']['gwent']}/replay/1")).text())
        assert replay["og:image"].endswith("/replay/1.png")


async def test_the_preview_names_the_game_the_players_and_the_result(world):
    path, ids = world
    async with Client(path, base_url=BASE) as c:
        meta = _meta(await (await c.get(f"/table/{ids['fresh']}")).text())
        words = re.sub("[\u2068\u2069]", "", meta["og:description"])
        assert words == "Gwent (forum version) · Curly, Percent · in play"
        finished = _meta(await (await c.get(f"/table/{ids['finished']['raiders']}?lang=uk")).text())
        assert finished["og:description"].startswith("Рейдери · ") and finished["og:locale"] == "uk_UA"
        assert "🏆" in finished["og:description"] or "перемаг" in finished["og:description"].lower()


async def test_without_a_base_address_no_relative_address_is_offered(world):
    path, ids = world
    async with Client(path) as c:
        for url in _urls(ids):
            meta = _meta(await (await c.get(url)).text())
            assert "og:url" not in meta and "og:image" not in meta, url
            assert meta["og:title"] and meta["og:description"], url


async def test_a_preview_shows_nothing_the_public_may_not_see(world):
    """Built from the stored state and from the state with everything the public cannot see dealt anew, the
    tables' and replays' preview tags are the same (the whole pages are compared in tests/web/test_pages.py)."""
    path, ids = world
    store = await Store.open(path)
    differing = compared = 0
    try:
        for tid in [*ids["active"].values(), *ids["finished"].values(), ids["fresh"]]:
            row, seats = await store.get_table(tid), await store.seats(tid)
            game = get_game(row.game)
            events = [{"version": e.version, **e.as_event()} for e in await store.events(tid)]
            moved = {a.version: (a.seat, a.at) for a in await store.actions(tid)}
            state = await store.state(tid)
            page = Page("en", base_url=BASE)
            table = public.public_table(row, seats, events, moved, state)
            tags = _meta(pages.table_page(page, table))
            for trial in range(3):
                variant = game.unseen_variant(state, None, random.Random(trial))
                differing += game.view(variant, 0) != game.view(state, 0)
                assert _meta(pages.table_page(page, public.public_table(row, seats, events, moved, variant))) == tags
                compared += 1
            if table.steps:
                index = len(table.steps) // 2
                at = await store.state(tid, table.steps[index].version)
                shown = _meta(pages.replay_page(page, table, index, public.public_view(row.game, at)))
                variant = game.unseen_variant(at, None, random.Random(7))
                assert _meta(pages.replay_page(page, table, index, public.public_view(row.game, variant))) == shown
            assert row.seed not in str(tags) and "seed" not in " ".join(tags.values()).lower()
    finally:
        await store.close()
    assert compared >= 15 and differing > 3, "the re-dealing changed nothing: the comparison would prove nothing"
