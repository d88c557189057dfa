"""Pages that keep themselves current (bot/web/static/live.js polls the page with its ETag): a poll of an
unchanged page is a 304 that renders nothing, a move makes a new page, the pages say which of them are live,
and what the new parts show (an event's tables in play: whose decision, a thumbnail) is the same whatever the
hidden cards."""
from __future__ import annotations

import random

from aiohttp.test_utils import TestClient, TestServer

from bot.engine import get_game
from bot.web import pages, public
from bot.web.app import Site
from bot.web.pages import Page
from bot.web.sample import bot_tournament
from tests.support.tables import new_toy, play_one


async def test_a_poll_of_an_unchanged_page_is_304_without_rendering(env, monkeypatch):
    store, referee, _ = env
    tid, other = await new_toy(referee), await new_toy(referee, players=("carol", "dan"))
    built = []
    drawn = pages.table_page
    monkeypatch.setattr(pages, "table_page", lambda *a, **kw: built.append(a[1].id) or drawn(*a, **kw))
    async with TestClient(TestServer(Site(store, locale="en", cache_size=1).app())) as c:
        first = await c.get(f"/table/{tid}")
        etag, html = first.headers["ETag"], await first.text()
        assert (await c.get(f"/table/{other}")).status == 200  # the one kept body is now the other table's
        built.clear()
        again = await c.get(f"/table/{tid}", headers={"If-None-Match": etag})
        assert again.status == 304 and await again.read() == b"" and built == []
        await play_one(referee, store, tid)
        moved = await c.get(f"/table/{tid}", headers={"If-None-Match": etag})
        assert moved.status == 200 and moved.headers["ETag"] != etag and built == [tid]
        assert (await moved.text()).count('class="step"') == html.count('class="step"') + 1


async def test_the_pages_say_whether_they_are_live(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await play_one(referee, store, tid)
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        page = await (await c.get(f"/table/{tid}")).text()
        assert '<body data-live="on">' in page and '<script src="/static/live.js" defer></script>' in page
        last = len((await public.load_table(store, tid)).steps) - 1
        assert '<body data-live="follow">' in await (await c.get(f"/table/{tid}/replay/{last}")).text()
        assert "<body>" in await (await c.get(f"/table/{tid}/replay/0")).text()
        for url in ("/", "/server/local"):
            assert '<body data-live="on">' in await (await c.get(url)).text()
        while (await store.get_table(tid)).status == "active":
            await play_one(referee, store, tid)
        assert "<body>" in await (await c.get(f"/table/{tid}")).text()  # ended: the script stops asking
        script = await c.get("/static/live.js")
        assert script.status == 200 and "If-None-Match" in await script.text()
        assert "connect-src 'self'" in script.headers["Content-Security-Policy"]


async def test_the_events_tables_in_play_are_the_same_whatever_the_hidden_cards(env):
    """A running Swiss event's page lists its tables in play with whose decision each waits for and a
    thumbnail of the public picture; built from states whose hidden cards were dealt anew, and with the private
    events left in the record's list, the page is byte for byte the same."""
    store, referee, _ = env
    tour = await bot_tournament(referee, "claygod", "swiss", 4, rounds_to_play=1)
    data = await public.load_tournament(store, tour)
    assert data.live, "round two's tables are in play"
    for table in data.live:
        await referee.drive_bots(table.id, limit=3)
    data = await public.load_tournament(store, tour)
    game = get_game("claygod")
    html = pages.tournament_page(Page("ru"), data)
    assert 'id="live-tables"' in html and "Ждём решения" in html and "/picture.png?v=" in html
    differing = 0
    for trial in range(3):
        tables = []
        for table in data.live:
            row, seats = await store.get_table(table.id), await store.seats(table.id)
            events = [{"version": e.version, **e.as_event()} for e in await store.events(table.id)]
            moved = {a.version: (a.seat, a.at) for a in await store.actions(table.id)}
            state = await store.state(table.id)
            variant = game.unseen_variant(state, None, random.Random(trial))
            differing += game.view(variant, 0) != game.view(state, 0)
            tables.append(public.public_table(row, seats, events, moved, variant))
        data.live = tables
        assert pages.tournament_page(Page("ru"), data) == html
    assert differing, "the re-dealing changed nothing a seat sees: the comparison would prove nothing"


async def test_a_picture_address_changes_with_the_public_view_only(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    table = await public.load_table(store, tid)
    assert pages.picture_of(table) == pages.picture_of(await public.load_table(store, tid))
    await play_one(referee, store, tid)
    assert pages.picture_of(await public.load_table(store, tid)) != pages.picture_of(table)
    assert Page("en", explicit=True).url(pages.picture_of(table)).endswith("&lang=en")
