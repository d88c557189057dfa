"""The index paged (bot/web/public.py ``load_index``, pages.py ``pager``): newest first, every started table on
exactly one page, page links that fit a phone, a page past the last or a malformed one answers 404, and ETag/304
per page."""
from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import public
from bot.web.app import Site
from bot.web.pages import page_numbers


async def toy_in(referee, guild: str | None, n: int) -> int:
    table = await referee.create_table("toy", creator=f"u:a{n}", creator_name=f"A{n}", origin="terminal",
                                       guild_id=guild)
    await referee.join(table.id, f"u:b{n}", f"B{n}")
    await referee.start(table.id, f"u:a{n}", seed=f"s{n}")
    return table.id


def listed(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'href="/table/(\d+)"', html)]


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(public, "TABLES_PER_PAGE", 3)
    monkeypatch.setattr(public, "TOURNAMENTS_PER_PAGE", 2)


async def test_every_table_on_exactly_one_page_newest_first(env, small_pages):
    store, referee, _ = env
    ids = [await toy_in(referee, "77", n) for n in range(7)]
    await toy_in(referee, None, 99)  # another server's: on none of these pages
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        seen = []
        for number in (1, 2, 3):
            r = await c.get("/server/77" + ("" if number == 1 else f"?page={number}"))
            assert r.status == 200
            html = await r.text()
            shown = listed(html)
            assert shown == sorted(shown, reverse=True) and len(shown) <= 3
            seen += shown
            assert ('rel="prev"' in html) == (number > 1) and ('rel="next"' in html) == (number < 3)
            assert f'<strong aria-current="page">{number}</strong>' in html
        assert seen == sorted(ids, reverse=True)
        assert "page 2" in await (await c.get("/server/77?page=2")).text()  # the title says which page
        for bad in ("?page=4", "?page=0", "?page=x", "?page=-1", "?page=99999999"):
            assert (await c.get("/server/77" + bad)).status == 404, bad


async def test_a_page_is_cached_by_its_etag_and_changes_with_the_record(env, small_pages):
    store, referee, _ = env
    for n in range(4):
        await toy_in(referee, "77", n)
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        first = await c.get("/server/77?page=2")
        etag = first.headers["ETag"]
        assert (await c.get("/server/77?page=2", headers={"If-None-Match": etag})).status == 304
        await toy_in(referee, "77", 4)  # a new table: every page moves one down
        moved = await c.get("/server/77?page=2", headers={"If-None-Match": etag})
        assert moved.status == 200 and moved.headers["ETag"] != etag


async def test_the_only_servers_index_is_paged_at_the_root_too(env, small_pages):
    store, referee, _ = env
    for n in range(5):
        await toy_in(referee, None, n)
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        one, two = await (await c.get("/")).text(), await (await c.get("/?page=2")).text()
        assert len(listed(one)) == 3 and len(listed(two)) == 2 and not set(listed(one)) & set(listed(two))
        assert 'href="/?page=2"' in one
        assert (await c.get("/?page=3")).status == 404
        assert 'href="/?page=2&amp;lang=uk"' in await (await c.get("/?lang=uk")).text()  # the language kept


def test_the_page_links_fit_a_phone():
    assert page_numbers(1, 1) == [1]
    assert page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(5, 10) == [1, None, 4, 5, 6, None, 10]
    assert page_numbers(10, 10) == [1, None, 9, 10]
    for last in range(1, 40):
        for current in range(1, last + 1):
            shown = page_numbers(current, last)
            assert len(shown) <= 7 and current in shown and shown[0] == 1 and shown[-1] == last
