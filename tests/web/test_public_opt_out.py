"""A server off the public pages (``guilds.public`` 0: ``/settings public-pages``, ``python -m bot server GUILD
--public off``): every page, picture, replay, record and player entry of its tables and tournaments answers
exactly as for an id that never existed (the differential: same status, body and headers), the servers list
and the other pages' links leave it out, and turned back on, every page returns (nothing stale kept)."""
from __future__ import annotations

import re
from urllib.parse import quote

from aiohttp.test_utils import TestClient, TestServer

from bot.terminal.cli import main
from bot.web.app import Site
from bot.web.sample import bot_tournament
from tests.support.web_world import _table

GUILD = "501"
NOWHERE = 999_999


def endpoints(finished: int, active: int, tournament: int, player: str) -> list[tuple[str, str]]:
    """Each of the server's addresses beside the same address of something that never existed."""
    pairs = [(f"/server/{GUILD}", "/server/502"), (f"/server/{GUILD}?page=1", "/server/502?page=1"),
             (f"/tournament/{tournament}", f"/tournament/{NOWHERE}"),
             (f"/player/{quote(player, safe='')}", "/player/nobody")]
    for tid in (finished, active):
        for tail in ("", "/log", "/picture.png", "/replay", "/replay/0", "/replay/1", "/replay/1.png"):
            pairs.append((f"/table/{tid}{tail}", f"/table/{NOWHERE}{tail}"))
    pairs.append((f"/table/{finished}/record.json", f"/table/{NOWHERE}/record.json"))
    return pairs


def same(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k not in ("Date", "Server")}


async def test_every_page_of_a_server_off_the_public_pages_answers_as_for_nothing(env):
    store, referee, _ = env
    finished = await _table(referee, "claygod", ["Аня", "Борис"], finish=True, guild_id=GUILD)
    active = await _table(referee, "claygod", ["Віра", "Glen"], finish=False, guild_id=GUILD)
    tournament = await bot_tournament(referee, "toy", "swiss", 4, guild_id=GUILD, settings={"rounds": 2})
    elsewhere = await _table(referee, "gwent", ["Дана", "Егор"], finish=True, guild_id="600")
    player = f"bot:t{tournament}:1"  # plays in this server's event only (a table's bot players sit elsewhere too)
    pairs = endpoints(finished, active, tournament, player)
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        etags = {}
        for url, _ in pairs:  # public: each answers (the replay's start redirects to its first step)
            r = await c.get(url, allow_redirects=False)
            assert r.status in (200, 302), url
            etags[url] = r.headers.get("ETag")
        assert f"/server/{GUILD}" in await (await c.get("/")).text()

        await store.set_guild(GUILD, public=0)
        for url, nothing in pairs:
            hidden, missing = await c.get(url, allow_redirects=False), await c.get(nothing, allow_redirects=False)
            assert hidden.status == 404, url
            assert (hidden.status, await hidden.read(), same(hidden)) == \
                (missing.status, await missing.read(), same(missing)), url
            if etags[url]:  # the pages' own poll (static/live.js) with the ETag it holds: no 304 that tells
                assert (await c.get(url, headers={"If-None-Match": etags[url]})).status == 404, url
        home = await (await c.get("/")).text()
        assert f"/server/{GUILD}" not in home and GUILD not in home
        # one server left: the root is its index, with none of the hidden server's tables
        assert f'href="/table/{elsewhere}"' in home and f'href="/table/{finished}"' not in home
        assert (await c.get("/server/600")).status == 200

        await store.set_guild(GUILD, public=1)  # back on: nothing of the 404s was kept
        for url, _ in pairs:
            assert (await c.get(url, allow_redirects=False)).status in (200, 302), url


async def test_a_player_page_leaves_out_the_hidden_servers_tables_and_events(env):
    store, referee, _ = env
    here = await referee.create_table("toy", creator="u:alice", creator_name="alice", origin="terminal")
    there = await referee.create_table("toy", creator="u:alice", creator_name="alice", origin="terminal",
                                       guild_id=GUILD)
    for table in (here, there):
        await referee.join(table.id, "u:bob", "bob")
        await referee.start(table.id, "u:alice", seed="s")
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        before = await (await c.get("/player/u:alice")).text()
        assert f'href="/table/{there.id}"' in before
        await store.set_guild(GUILD, public=0)
        after = await (await c.get("/player/u:alice")).text()
        assert f'href="/table/{here.id}"' in after and f'href="/table/{there.id}"' not in after
        table_page = await (await c.get(f"/table/{here.id}")).text()
        assert not re.search(rf'href="/table/{there.id}["/]', table_page)


def test_the_terminal_sets_it_and_says_so(tmp_path, capsys):
    db = str(tmp_path / "judge.db")
    assert main(["--db", db, "--locale", "en", "server", GUILD]) == 0
    assert "are shown" in capsys.readouterr().out  # public by default
    assert main(["--db", db, "--locale", "en", "server", GUILD, "--public", "off"]) == 0
    assert "off them" in capsys.readouterr().out
    assert main(["--db", db, "--locale", "uk", "server", GUILD, "--moderator-role", "7"]) == 0
    assert "приховано" in capsys.readouterr().out  # another setting leaves it as it was
    assert main(["--db", db, "--locale", "en", "server", GUILD, "--public", "on"]) == 0
    assert "are shown" in capsys.readouterr().out
