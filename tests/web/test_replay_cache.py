"""The replay's records and step views kept per table version (bot/web/replay_cache.py): a step asked for after
its page was dropped reads nothing of the log again, a new version is read anew (never a stale step: the page
equals a fresh site's), and the cache keeps no more than its size."""
from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import public
from bot.web.app import Site
from bot.process.lru import LRU
from bot.web.replay_cache import ReplayCache
from tests.support.tables import new_toy, play_one
from tests.support.web_world import _table


@pytest.fixture
def reads(monkeypatch):
    """How often the log and the step states are read from the database."""
    count = {"table": 0, "view": 0}
    load_table, step_view = public.load_table, public.step_view

    async def counted_table(*a, **kw):
        count["table"] += 1
        return await load_table(*a, **kw)

    async def counted_view(*a, **kw):
        count["view"] += 1
        return await step_view(*a, **kw)
    monkeypatch.setattr(public, "load_table", counted_table)
    monkeypatch.setattr(public, "step_view", counted_view)
    return count


def drop_pages(site: Site) -> None:
    site.cache = type(site.cache)(site.cache.size)


async def test_a_step_whose_page_was_dropped_reads_nothing_again(env, reads):
    store, referee, _ = env
    tid = await new_toy(referee)
    for _ in range(3):
        await play_one(referee, store, tid)
    site = Site(store, locale="en")
    async with TestClient(TestServer(site.app())) as c:
        first = await (await c.get(f"/table/{tid}/replay/2")).text()
        assert reads == {"table": 1, "view": 1}
        drop_pages(site)
        assert await (await c.get(f"/table/{tid}/replay/2")).text() == first
        assert await (await c.get(f"/table/{tid}/replay/1", headers={"Accept-Language": "ru"})).text()
        assert (await c.get(f"/table/{tid}")).status == 200 and (await c.get(f"/table/{tid}/log")).status == 200
        assert reads == {"table": 1, "view": 2}  # one record for every page of this version; step 1's view once


async def test_a_new_version_is_read_anew_and_never_served_stale(env, reads):
    store, referee, _ = env
    tid = await new_toy(referee)
    await play_one(referee, store, tid)
    site = Site(store, locale="en")
    async with TestClient(TestServer(site.app())) as c:
        steps = len((await public.load_table(store, tid)).steps)
        assert (await c.get(f"/table/{tid}/replay/{steps}")).status == 404  # not yet played
        before = await (await c.get(f"/table/{tid}/replay/{steps - 1}")).text()
        reads.update(table=0, view=0)
        await play_one(referee, store, tid)
        after = await (await c.get(f"/table/{tid}/replay/{steps - 1}")).text()
        newest = await c.get(f"/table/{tid}/replay/{steps}")
        assert newest.status == 200 and reads["table"] == 1
        assert after != before  # the step is no longer the last: its page links the next one
        async with TestClient(TestServer(Site(store, locale="en").app())) as fresh:
            assert await (await fresh.get(f"/table/{tid}/replay/{steps - 1}")).text() == after
            assert await (await fresh.get(f"/table/{tid}/replay/{steps}")).text() == await newest.text()


async def test_the_pictures_use_the_kept_views(env, reads):
    store, referee, _ = env
    tid = await _table(referee, "claygod", ["Аня", "Борис"], finish=False, guild_id=None)
    site = Site(store, locale="en")
    async with TestClient(TestServer(site.app())) as c:
        page = await c.get(f"/table/{tid}/replay/1")
        picture = await c.get(f"/table/{tid}/replay/1.png")
        assert page.status == picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
        assert reads == {"table": 1, "view": 1}


async def test_the_cache_keeps_no_more_than_its_size(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    for _ in range(6):
        await play_one(referee, store, tid)
    site = Site(store, locale="en", replay_cache=2)
    async with TestClient(TestServer(site.app())) as c:
        for step in range(6):
            assert (await c.get(f"/table/{tid}/replay/{step}")).status == 200
    assert len(site.records.views) == 2 and len(site.records.tables) == 1

    kept: LRU[int] = LRU(3)
    for n in range(5):
        kept.put(n, n)
    assert len(kept) == 3 and kept.get(0) is None and kept.get(2) == 2
    kept.put(5, 5)  # 2 was just used: 3 goes
    assert kept.get(3) is None and kept.get(2) == 2 and (kept.hits, kept.misses) == (2, 2)
    assert ReplayCache(views=64 * 20).tables.size == 20 and ReplayCache(views=10).tables.size == 8
    with pytest.raises(ValueError):
        LRU(0)


def test_the_size_is_a_setting(tmp_path):
    from bot.process.config import ConfigError, load_settings

    assert load_settings(None, env={}).web.replay_cache == 1024
    file = tmp_path / "c.yaml"
    file.write_text("web: {replay_cache: 16}\n")
    assert load_settings(file, env={}).web.replay_cache == 16
    for bad in ("0", "-3", "'many'", "true", "1.5"):
        file.write_text(f"web: {{replay_cache: {bad}}}\n")
        with pytest.raises(ConfigError):
            load_settings(file, env={})
