"""The public pages (bot/web/): every page kind answers from a database of bot-played tables and tournaments;
a page never changes when what the public cannot see is dealt anew (the pictures' property, for pages); hostile
names are shown as text; caching (ETag, 304) follows the table's version; GET and HEAD only; the language."""
from __future__ import annotations

from html import unescape
import random
from pathlib import Path
import re
import socket
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.process.config import ConfigError, load_settings
from bot.engine import get_game
from bot.storage.store import Store
from bot.web import pages, public
from bot.web.app import Site, negotiate, start
from bot.web.links import table_url, tournament_url
from bot.web.pages import Page
from bot.ratings.ratings import Ratings
from bot.web.profiles import Profiles
from tests.support import web_world


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("web") / "web.db"
    return path, web_world.build_sync(path)


@pytest.fixture
async def site(world):
    path, ids = world
    store = await Store.open(path)
    yield Site(store, locale="en"), ids
    await store.close()


@pytest.fixture
async def client(site):
    s, ids = site
    async with TestClient(TestServer(s.app())) as c:
        yield c, ids, s


def _pages_of(ids):
    """Every page address of the world, with the status it must answer."""
    urls = ["/", "/server/local", "/server/123456789012345678", "/static/style.css", "/static/replay.js"]
    for state in ("finished", "active"):
        for tid in ids[state].values():
            urls += [f"/table/{tid}", f"/table/{tid}/log", f"/table/{tid}/picture.png", f"/table/{tid}/replay/0",
                     f"/table/{tid}/replay/1", f"/table/{tid}/replay/1.png"]
    urls += [f"/tournament/{tid}" for tid in ids["tournaments"].values()]
    urls += [f"/table/{tid}/record.json" for tid in ids["finished"].values()]
    return urls


@pytest.mark.long
async def test_every_page_kind_answers(client):
    c, ids, _ = client
    for url in _pages_of(ids):
        r = await c.get(url)
        assert r.status == 200, url
        body = await r.read()
        assert body and r.headers["ETag"], url
        if url.endswith(".png"):
            assert body.startswith(b"\x89PNG") and r.content_type == "image/png"
        elif "." not in url.rsplit("/", 1)[-1]:
            assert r.content_type == "text/html" and b"<!doctype html>" in body, url
            assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")
    player = (await (await c.get(f"/table/{ids['finished']['claygod']}")).text())
    first = re.search(r'href="(/player/[^"]+)"', player).group(1)
    assert (await c.get(first)).status == 200
    for missing in ("/table/999999", "/table/1/replay/99999", "/tournament/999999", "/player/nobody",
                    "/server/nowhere", "/static/../../bot/config.py", "/table/x", "/nothing",
                    f"/table/{ids['active']['claygod']}/record.json"):
        r = await c.get(missing)
        assert r.status == 404, missing
        assert "There is no such page" in await r.text()


async def test_read_only_get_and_head(client):
    c, ids, _ = client
    url = f"/table/{ids['finished']['gwent']}"
    head = await c.head(url)
    assert head.status == 200 and head.headers["ETag"] == (await c.get(url)).headers["ETag"]
    assert await head.read() == b""
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = await c.request(method, url)
        assert r.status == 405, method
        assert "GET" in r.headers["Allow"]


async def test_a_repeat_request_gets_304_until_the_table_moves(world):
    path, ids = world
    store = await Store.open(path)
    try:
        from bot.referee.service import Referee

        referee = Referee(store)
        table = await referee.create_table("claygod", creator="cli:etag", creator_name="e", origin="demo",
                                           join=False)
        for name in ("A", "B"):
            await referee.add_bot(table.id, name=name)
        await referee.start(table.id, "cli:etag")
        await referee.drive_bots(table.id, limit=2)
        async with TestClient(TestServer(Site(store, locale="en").app())) as c:
            first = await c.get(f"/table/{table.id}")
            etag = first.headers["ETag"]
            again = await c.get(f"/table/{table.id}", headers={"If-None-Match": etag})
            assert again.status == 304 and await again.read() == b""
            other_language = await c.get(f"/table/{table.id}?lang=ru", headers={"If-None-Match": etag})
            assert other_language.status == 200
            await referee.drive_bots(table.id, limit=1)
            moved = await c.get(f"/table/{table.id}", headers={"If-None-Match": etag})
            assert moved.status == 200 and moved.headers["ETag"] != etag
            # the ETag is a digest of the page, never the table's version (which counts secret steps)
            version = (await store.get_table(table.id)).version
            assert moved.headers["ETag"] not in (f'"{version}"', f'W/"{version}"')
    finally:
        await store.close()


def _variant(game, state, seed):
    return game.unseen_variant(state, None, random.Random(seed))


async def test_pages_are_the_same_whatever_the_hidden_cards(site):
    """Along every game's bot-played tables (finished and in play): the table page and each replay step's
    page, built from the stored state and from the state with everything the public cannot see dealt anew,
    are byte for byte the same; so are the pages built with the private events left in the record's list."""
    s, ids = site
    store = s.store
    compared = differing = secret = 0
    for state_kind in ("finished", "active"):
        for game_name, tid in ids[state_kind].items():
            game = get_game(game_name)
            row, seats = await store.get_table(tid), await store.seats(tid)
            events = [{"version": e.version, **e.as_event()} for e in await store.events(tid)]
            secret += sum(e["to"] is not None for e in events)
            moved = {a.version: (a.seat, a.at) for a in await store.actions(tid)}
            state = await store.state(tid)
            table = public.public_table(row, seats, events, moved, state)
            shown_only = public.public_table(row, seats, [e for e in events if e["to"] is None], moved, state)
            for lang in ("ru", "en"):
                page = Page(lang)
                html = pages.table_page(page, table) + pages.log_page(page, table)
                assert html == pages.table_page(page, shown_only) + pages.log_page(page, shown_only)
                for trial in range(2):
                    variant = _variant(game, state, trial)
                    differing += game.view(variant, 0) != game.view(state, 0)
                    again = public.public_table(row, seats, events, moved, variant)
                    assert pages.table_page(page, again) + pages.log_page(page, again) == html, (game_name, tid, lang)
                    compared += 1
            steps = table.steps
            for index in sorted({0, 1, len(steps) // 3, len(steps) // 2, len(steps) - 1}):
                at = await store.state(tid, steps[index].version)
                view = public.public_view(game_name, at)
                html = pages.replay_page(Page("uk"), table, index, view)
                for trial in range(2):
                    variant = _variant(game, at, 100 + trial)
                    differing += game.view(variant, 0) != game.view(at, 0)
                    assert pages.replay_page(Page("uk"), table, index, public.public_view(game_name, variant)) \
                        == html, (game_name, tid, index)
                    compared += 1
    assert compared > 50 and secret > 20
    assert differing > 10, "the re-dealing changed nothing a seat sees: the comparison would prove nothing"


async def test_private_events_and_the_seed_of_a_running_table_never_appear(client):
    c, ids, s = client
    for tid in ids["active"].values():
        row = await s.store.get_table(tid)
        html = await (await c.get(f"/table/{tid}")).text()
        assert row.seed not in html and row.seed_hash in html
        for index in range(3):
            assert row.seed not in await (await c.get(f"/table/{tid}/replay/{index}")).text()
    for tid in ids["finished"].values():
        row = await s.store.get_table(tid)
        html = await (await c.get(f"/table/{tid}")).text()
        assert row.seed in html and f"judge-seed-commitment:{row.seed}" in html
        record = await (await c.get(f"/table/{tid}/record.json")).json()
        assert record["table"]["seed"] == row.seed and record["actions"]


async def test_hostile_names_are_shown_as_text(client):
    c, ids, s = client
    urls = [u for u in _pages_of(ids) if not u.endswith((".png", ".json", ".css", ".js"))]
    player = "bot:t1:1"
    urls.append(f"/player/{quote(player, safe='')}")
    seen_escaped = 0
    for url in urls:
        html = await (await c.get(url)).text()
        assert "<script>alert" not in html and "<img src=x" not in html and "<b>title</b>" not in html, url
        # only the pages' own scripts: every page's live.js, and the replay's keyboard
        assert len(re.findall(r"<script", html)) == len(re.findall(
            r'<script src="/static/(?:live|replay)\.js" defer></script>', html)) <= 2, url
        seen_escaped += "&lt;script&gt;alert(" in html
    assert seen_escaped >= 5
    finished = await (await c.get(f"/table/{ids['finished']['bloodwood']}")).text()
    assert re.search("<bdi>\u202e?evil\u202c? مرحبا بالعالم</bdi>", finished)  # isolated from the text around it
    assert "Ж" * 20 + "…" in finished  # as long as the referee keeps a name
    assert "<bdi>{{ 7*7 }} &amp;amp; &lt;/pre&gt;</bdi>" in finished  # a template's syntax is text too
    # a hostile address is a 404 page that does not echo it back as markup
    r = await c.get("/player/" + quote("<script>alert(1)</script>", safe=""))
    assert r.status == 404 and "<script>alert" not in await r.text()


async def test_the_tournament_page_shows_standings_rounds_crosstable_and_bracket(client):
    c, ids, s = client
    swiss = await (await c.get(f"/tournament/{ids['tournaments']['swiss']}")).text()
    for column in ("BH-1", "BH", "SB", "Wins", "Byes", "Lot no.", "Crosstable", "Round 1", "Round 2"):
        assert column in swiss, column
    assert "being played" in swiss and "round deadline" not in swiss
    rounds = await public.load_tournament(s.store, ids["tournaments"]["swiss"])
    for g in rounds.games:
        if g.table_id:
            assert f'href="/table/{g.table_id}"' in swiss
    rr = await (await c.get(f"/tournament/{ids['tournaments']['round_robin']}")).text()
    assert "Crosstable" in rr and 'class="self"' in rr
    cup = await (await c.get(f"/tournament/{ids['tournaments']['elimination']}")).text()
    assert "Bracket" in cup and "slot player advances" in cup and "Crosstable" not in cup
    double = await (await c.get(f"/tournament/{ids['tournaments']['double_elimination']}")).text()
    assert "Bracket" in double and "<h3>Upper bracket</h3>" in double and "<h3>Lower bracket</h3>" in double
    assert "<h3>Grand final</h3>" in double and "slot player advances" in double
    three = await (await c.get(f"/tournament/{ids['tournaments']['multiseat']}")).text()
    assert "Opp." in three and "Bracket" not in three


async def test_the_replay_steps_link_each_other_and_the_log_links_every_move(client):
    c, ids, s = client
    tid = ids["finished"]["claygod"]
    table = await public.load_table(s.store, tid)
    html = await (await c.get(f"/table/{tid}/log")).text()
    for step in table.steps:
        assert f'href="/table/{tid}/replay/{step.index}"' in html
    last = len(table.steps) - 1
    page = await (await c.get(f"/table/{tid}")).text()  # the newest steps, and the way to the others
    assert f'href="/table/{tid}/replay/{last}"' in page
    assert len(table.steps) <= pages.LOG_SHOWN or (f'href="/table/{tid}/log"' in page
                                                   and f'href="/table/{tid}/replay/1"' not in page)
    middle = await (await c.get(f"/table/{tid}/replay/3")).text()
    assert f'id="prev" rel="prev" href="/table/{tid}/replay/2"' in middle
    assert f'id="next" rel="next" href="/table/{tid}/replay/4"' in middle
    assert f'id="last" href="/table/{tid}/replay/{last}"' in middle
    end = await (await c.get(f"/table/{tid}/replay/{last}?lang=ru")).text()
    assert 'id="next"' not in end and f'href="/table/{tid}/replay/{last - 1}?lang=ru"' in end
    assert (await c.get(f"/table/{tid}/replay", allow_redirects=False)).status == 302


async def test_the_language_comes_from_the_address_or_the_browser(client):
    c, ids, _ = client
    url = f"/table/{ids['finished']['gwent']}"
    assert "Игроки" in await (await c.get(url, headers={"Accept-Language": "ru-RU,ru;q=0.9"})).text()
    assert "Гравці" in await (await c.get(url, headers={"Accept-Language": "de, uk;q=0.5, en;q=0.3"})).text()
    assert "Players" in await (await c.get(url + "?lang=en", headers={"Accept-Language": "uk"})).text()
    explicit = await (await c.get(url + "?lang=uk")).text()
    assert 'href="/?lang=uk"' in explicit and 'lang="uk"' in explicit


def test_negotiate_falls_back_on_nonsense():
    class R:
        def __init__(self, query, header):
            self.query, self.headers = query, {"Accept-Language": header}
    assert negotiate(R({"lang": "xx"}, "fr, *;q=0.1"), "ru") == ("ru", False)
    assert negotiate(R({}, "en;q=abc, uk;q=0.2"), "ru") == ("uk", False)
    assert negotiate(R({"lang": "en"}, ""), "ru") == ("en", True)


async def test_a_hidden_profile_shows_nothing_but_that(client):
    c, ids, s = client

    user = quote("bot:t1:1", safe="")
    assert "hidden their profile" not in await (await c.get(f"/player/{user}")).text()
    await Ratings(s.store).set_hidden("bot:t1:1", True)  # the player's own setting (/my-profile), read by the page
    html = await (await c.get(f"/player/{user}")).text()
    assert "hidden their profile" in html and "/table/" not in html
    await Ratings(s.store).set_hidden("bot:t1:1", False)

    class Rated(Profiles):
        async def ratings(self, user_id):
            return [{"game": "claygod", "rating": "27.9", "games": 3}]

        async def token(self, user_id):
            return "rated"

    s.profiles = Rated(s.store)
    html = await (await c.get(f"/player/{user}")).text()
    assert "Clay God: Cards: 27.9 (games: 3)" in html and "/table/" in html


async def test_the_server_runs_on_a_port(world):
    path, ids = world
    store = await Store.open(path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = await start(store, "127.0.0.1", port, locale="uk")
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/tournament/{ids['tournaments']['swiss']}") as r:
                assert r.status == 200 and "Таблиця" in await r.text()
    finally:
        await runner.cleanup()
        await store.close()


def test_the_config_web_section(tmp_path):
    settings = load_settings(None, env={})
    assert settings.web.host == "127.0.0.1" and settings.web.base_url is None and not settings.web.enabled
    file = tmp_path / "c.yaml"
    file.write_text("web: {enabled: true, port: 9000, base_url: 'https://judge.example.org/'}\n")
    web = load_settings(file, env={}).web
    assert web.enabled and web.port == 9000 and web.base_url == "https://judge.example.org"
    for bad in ("web: {port: 0}", "web: {base_url: 'javascript:alert(1)'}", "web: {enabled: 'yes'}",
                "web: {colour: red}"):
        file.write_text(bad + "\n")
        with pytest.raises(ConfigError):
            load_settings(file, env={})
    assert table_url("https://j.org", 5) == "https://j.org/table/5" and table_url(None, 5) is None
    assert tournament_url("https://j.org", 2, 3) == "https://j.org/tournament/2#round-3"


async def test_deadlines_are_shown_as_times(client):
    """A tournament in registration shows when entries close; a round with a deadline shows it, as a time the
    page's script counts down to (static/live.js)."""
    from bot.referee.service import Referee
    from bot.tournament.director import Director

    c, ids, s = client
    director = Director(Referee(s.store))
    tour = await director.create("toy", "swiss", creator="cli:org", settings={"registration_hours": 24,
                                                                             "round_hours": 48}, origin="demo")
    for i in range(2):
        await director.join(tour.id, f"bot:d{i}", f"D{i}", is_bot=True)
    html = await (await c.get(f"/tournament/{tour.id}")).text()
    until = tour.settings["registration_until"]
    assert f'Entries close at <time class="countdown" datetime="{pages.iso(until)}">{pages.utc(until)}</time>' in html
    await director.start(tour.id, by="cli:org")
    (round_one,) = await director.record.rounds(tour.id)
    html = await (await c.get(f"/tournament/{tour.id}")).text()
    assert f'round deadline: <time class="countdown" datetime="{pages.iso(round_one.deadline)}">' in html
    assert "Entries close" not in html


@pytest.mark.parametrize("fixture", sorted((Path(__file__).parents[1] / "fixtures" / "releases").glob("*.db")),
                         ids=lambda p: p.stem)
async def test_a_release_fixtures_tables_and_tournaments_have_pages(fixture, tmp_path):
    """A database written by an older release (tests/fixtures/releases/), opened as the bot opens it: every
    started table's page, log and replay steps, every tournament's page and the index answer."""
    import shutil

    from bot.referee.upgrade import open_store

    copy = tmp_path / fixture.name
    shutil.copy(fixture, copy)
    store = await open_store(copy)
    try:
        async with TestClient(TestServer(Site(store, locale="en").app())) as c:
            assert (await c.get("/")).status == 200
            tables = await store._all("SELECT id, status FROM tables WHERE seed_hash IS NOT NULL")
            assert tables
            for row in tables:
                for url in (f"/table/{row['id']}", f"/table/{row['id']}/log", f"/table/{row['id']}/replay/0",
                            f"/table/{row['id']}/picture.png"):
                    assert (await c.get(url)).status == 200, url
            for row in await store._all("SELECT id FROM tournaments"):
                assert (await c.get(f"/tournament/{row['id']}")).status == 200
    finally:
        await store.close()


@pytest.fixture
def rated_db(tmp_path):
    """Two rated Gwent tables that cli:ann won against cli:bob, written as the referee leaves them."""
    from tests.ratings.records import add_table, empty_db, finish

    c = empty_db(tmp_path / "rated.db")
    for at in (10.0, 20.0):
        tid = add_table(c, "gwent", ["cli:ann", "cli:bob"])
        c.execute("UPDATE tables SET seed_hash = 'commitment' WHERE id = ?", (tid,))
        finish(c, tid, [0], at)
    c.close()
    return tmp_path / "rated.db"


async def test_the_player_page_shows_the_ratings_and_honours_a_hidden_profile(rated_db):
    """The served site reads the ratings (bot/ratings): a rated finish gives both players a figure on their
    pages; a player who hid their profile gets a page saying only that."""
    from bot.ratings.ratings import Ratings

    store = await Store.open(rated_db)
    try:
        async with TestClient(TestServer(Site(store, locale="en").app())) as client:
            ann = await (await client.get("/player/cli%3Aann")).text()
            assert re.search(r"Gwent \(forum version\): \d+\? \(games: 2\)", ann), ann
            assert "won" in ann
            assert "? — provisional: fewer than 10 rated games." in unescape(ann)  # what "?" means
            await Ratings(store).set_hidden("cli:bob", True)
            bob = await (await client.get("/player/cli%3Abob")).text()
            assert "hidden their profile" in bob and "Gwent" not in bob and "/table/" not in bob
    finally:
        await store.close()
