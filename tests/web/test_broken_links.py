"""The links the crawl found broken: a table with no public step yet (a Gwent table just dealt) offers no replay
that would answer 404; a player whose id holds ``{ } / % ? #`` or spaces has a page its links reach; the players
list counts seats from 1, as the picture beside it does."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import pytest

from tests.web import pages_world
from tests.web.pages_world import HOSTILE_IDS, Client


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("links") / "links.db"
    return path, pages_world.build_sync(path, games=("gwent",))


async def test_a_table_without_a_public_step_links_no_replay(world):
    path, ids = world
    async with Client(path) as c:
        page = await (await c.get(f"/table/{ids['fresh']}")).text()
        assert "/replay/" not in page
        for href in set(re.findall(r'href="(/[^"]*)"', page)):
            if "/player/" not in href:
                assert (await c.get(unescape(href))).status == 200, href
        # its replay's own address leads to the table rather than to a step that is not there
        answer = await c.get(f"/table/{ids['fresh']}/replay?lang=uk", allow_redirects=False)
        assert answer.status == 302 and answer.headers["Location"] == f"/table/{ids['fresh']}?lang=uk"
        # a table with steps still offers it, and it answers
        played = await (await c.get(f"/table/{ids['finished']['gwent']}")).text()
        replay = re.search(r'href="(/table/\d+/replay/0)"', played)
        assert replay and (await c.get(replay.group(1))).status == 200
        answer = await c.get(f"/table/{ids['finished']['gwent']}/replay", allow_redirects=False)
        assert answer.headers["Location"] == f"/table/{ids['finished']['gwent']}/replay/0"
        assert (await c.get("/table/999999/replay")).status == 404


async def test_player_links_work_for_ids_any_character(world):
    path, ids = world
    async with Client(path) as c:
        reached = set()
        for table in (ids["fresh"], ids["dots"]):
            page = await (await c.get(f"/table/{table}")).text()
            for href in re.findall(r'href="(/player/[^"]+)"', page):
                answer = await c.get(unescape(href))
                assert answer.status == 200, href
                reached.add(re.search(r"<h1>(.*?)</h1>", await answer.text()).group(1))
        assert {"Curly", "Percent", "Dots"} <= {re.sub(r"^.*\u2068(.*)\u2069.*$", r"\1", unescape(h)) for h in reached}
        for user in HOSTILE_IDS:  # encoded once, as the pages write it
            assert (await c.get("/player/" + quote(user, safe=""))).status == 200, user
        assert (await c.get("/player/" + quote("cli:nobody{}/", safe=""))).status == 404
        assert (await c.get("/player/" + "x" * 300)).status == 404


async def test_the_players_are_numbered_from_one(world):
    path, ids = world
    async with Client(path) as c:
        page = await (await c.get(f"/table/{ids['fresh']}")).text()
        players = re.search(r'<ol class="players"[^>]*>', page).group(0)
        assert "start" not in players
        assert 'start="0"' not in page.split('class="fairness"')[0]
