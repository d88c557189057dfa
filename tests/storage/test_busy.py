"""Busy is an answer, never a crash (issue 33, item 2): another process holds the database's write lock past the
busy timeout, and every write path — the lobby, the start, a tournament, a moderator's tool, the ratings, an
upgrade — waits that long, then answers with one localised line saying nothing was recorded, and records nothing.

The lock is held by a second SQLite connection (what another process does), with a short busy timeout so each
refusal costs a fraction of a second."""
from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from bot.engine import Code, Rejection
from bot.i18n import t
from bot.process.config import BUSY_TIMEOUT, ConfigError, load_settings
from bot.ratings.ratings import Ratings
from bot.referee import moderation
from bot.referee.service import Accepted, Referee
from bot.storage import db as storage_db
from bot.storage.db import Busy, set_busy_timeout
from bot.storage.store import Store
from bot.terminal import cli
from bot.tournament.director import Director
from tests.support.busy import SHORT, Holder, record_digest


@pytest.fixture
def short_busy():
    set_busy_timeout(SHORT)
    yield SHORT
    set_busy_timeout(BUSY_TIMEOUT)  # a process-wide setting: the next test opens with the default again


async def lobby(referee: Referee) -> tuple[int, int]:
    """A table with two seated players (ready to start) and an empty lobby."""
    ready = await referee.create_table("claygod", creator="u:a", creator_name="A", origin="terminal")
    assert isinstance(await referee.join(ready.id, "u:b", "B"), int)
    empty = await referee.create_table("claygod", creator="u:c", creator_name="C", origin="terminal")
    return ready.id, empty.id


@pytest.fixture
async def held(tmp_path, short_busy):
    """A store with a lobby ready to start, an active table, a tournament in registration; then the lock taken."""
    path = tmp_path / "judge.db"
    store = await Store.open(path)
    referee = Referee(store)
    ready, empty = await lobby(referee)
    playing = (await lobby(referee))[0]
    assert isinstance(await referee.start(playing, "u:a"), Accepted)
    director = Director(referee)
    tour = await director.create("claygod", "swiss", creator="u:org", origin="terminal")
    before = record_digest(path)
    holder = Holder(path)
    try:
        yield store, referee, director, {"ready": ready, "empty": empty, "playing": playing, "tour": tour.id}
    finally:
        holder.release()
        # nothing reached the record while it was held, and it takes writes again at once
        assert record_digest(path) == before
        assert isinstance(await referee.join(empty, "u:d", "D"), int)
        await store.close()


WRITES = {
    "create a table": lambda r, d, ids: r.create_table("claygod", creator="u:x", creator_name="X", origin="terminal"),
    "join a table": lambda r, d, ids: r.join(ids["empty"], "u:x", "X"),
    "add a bot": lambda r, d, ids: r.add_bot(ids["empty"]),
    "leave a table": lambda r, d, ids: r.leave(ids["ready"], "u:b"),
    "start a table": lambda r, d, ids: r.start(ids["ready"], "u:a"),
    "cancel a table": lambda r, d, ids: r.cancel(ids["playing"], "u:mod", moderator=True, reason="test"),
    "pause a table": lambda r, d, ids: moderation.pause(r, ids["playing"], moderator="u:mod", reason="a look"),
    "a ruling": lambda r, d, ids: moderation.ruling(r, ids["playing"], moderator="u:mod", text="so it is"),
    "create a tournament": lambda r, d, ids: d.create("claygod", "swiss", creator="u:org", origin="terminal"),
    "enter a tournament": lambda r, d, ids: d.join(ids["tour"], "u:p", "P"),
    "cancel a tournament": lambda r, d, ids: d.cancel(ids["tour"], by="u:org"),
    "rebuild the ratings": lambda r, d, ids: Ratings(r.store).rebuild(),
}


@pytest.mark.parametrize("what", list(WRITES))
async def test_a_write_kept_waiting_past_the_busy_timeout_is_busy_and_records_nothing(held, what):
    store, referee, director, ids = held
    began = time.monotonic()
    with pytest.raises(Busy) as caught:
        await WRITES[what](referee, director, ids)
    waited = time.monotonic() - began
    assert SHORT * 0.9 <= waited < 30, waited  # it waited for the lock, then gave up (the setting: below)
    assert caught.value.message("en") == t("core.busy", "en", seconds="0.3")
    assert "nothing was recorded" in caught.value.message("en")
    assert isinstance(caught.value, sqlite3.OperationalError)  # every `except sqlite3.Error` still sees it


async def test_a_move_kept_waiting_is_refused_as_busy_with_the_timeout_named(held):
    store, referee, _, ids = held
    from bot.engine import get_game
    import random

    state = await store.state(ids["playing"])
    game = get_game("claygod")
    seat = game.to_act(state)[0].seat
    user = (await store.seats(ids["playing"]))[seat].user_id
    refused = await referee.act(ids["playing"], user, game.bot_action(state, seat, random.Random(1)), seat=seat)
    assert isinstance(refused, Rejection) and refused.code == Code.BUSY, refused
    assert "0.3" in refused.message("en") and "5 seconds" not in refused.message("en")


async def test_a_lock_taken_and_released_within_the_timeout_is_waited_for(tmp_path, short_busy):
    """The busy timeout is a wait, not a refusal: a write arriving while another holds the lock for less than it
    goes through."""
    import asyncio

    path = tmp_path / "judge.db"
    set_busy_timeout(3.0)
    store = await Store.open(path)
    try:
        holder = Holder(path)
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, holder.release)
        table = await Referee(store).create_table("claygod", creator="u:a", creator_name="A", origin="terminal")
        assert not isinstance(table, Rejection)
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- the terminal
@pytest.fixture
def terminal_db(tmp_path, short_busy):
    """A database with a lobby ready to start and a table in play, made by the terminal itself."""
    path = tmp_path / "term.db"

    def run(*argv: str, busy: float | None = None) -> int:
        timeout = ["--busy-timeout", str(busy)] if busy is not None else []
        return cli.main([*timeout, "--db", str(path), "--locale", "en", *argv])

    assert run("table", "new", "--user", "ann") == 0
    assert run("table", "join", "1", "--user", "bob") == 0
    assert run("table", "new", "--user", "cid") == 0
    assert run("table", "join", "2", "--user", "dan") == 0
    assert run("table", "start", "2", "--user", "cid") == 0
    assert run("tournament", "new", "--game", "claygod", "--user", "org") == 0
    return path, run


TERMINAL = [
    ("table", "new", "--user", "eve"),
    ("table", "join", "1", "--user", "eve"),
    ("table", "bot", "1", "--user", "ann"),
    ("table", "start", "1", "--user", "ann"),
    ("table", "cancel", "2", "--moderator", "--reason", "x"),
    ("mod", "cancel", "2", "--reason", "x"),
    ("mod", "ruling", "2", "--reason", "so it is"),
    ("tournament", "join", "1", "--user", "eve"),
    ("ratings", "rebuild"),
]


@pytest.mark.parametrize("argv", TERMINAL, ids=[" ".join(a[:2]) for a in TERMINAL])
def test_the_terminal_says_busy_in_one_line_and_exits_non_zero(terminal_db, argv, capsys):
    path, run = terminal_db
    capsys.readouterr()
    before = record_digest(path)
    holder = Holder(path)
    try:
        code = run(*argv, busy=SHORT)
    finally:
        holder.release()
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert err == "✗ " + t("core.busy", "en", seconds="0.3") + "\n", err
    assert "Traceback" not in out + err
    assert record_digest(path) == before


def test_an_upgrade_kept_waiting_migrates_nothing_and_says_busy(tmp_path, short_busy, capsys):
    """A database of an older release: the migration's transaction waits for the lock, then stops with the
    busy line; the schema is where it was."""
    old = tmp_path / "old.db"
    shutil.copy(sorted(Path(__file__).parents[1].joinpath("fixtures", "releases").glob("*.db"))[0], old)
    (schema,) = sqlite3.connect(old).execute("PRAGMA user_version").fetchone()
    holder = Holder(old)
    try:
        code = cli.main(["--db", str(old), "--locale", "uk", "--busy-timeout", str(SHORT), "upgrade"])
    finally:
        holder.release()
    out, err = capsys.readouterr()
    assert code == 1 and err.endswith("✗ " + t("core.busy", "uk", seconds="0.3") + "\n"), (out, err)
    assert "Traceback" not in out + err
    assert sqlite3.connect(old).execute("PRAGMA user_version").fetchone() == (schema,)


# ---------------------------------------------------------------------------------------------- the setting
def test_the_busy_timeout_is_a_setting(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("database:\n  file: my.db\n  busy_timeout: 12.5\n", encoding="utf-8")
    settings = load_settings(config, env={})
    assert settings.database == Path("my.db") and settings.busy_timeout == 12.5
    assert load_settings(config, env={"JUDGE_BUSY_TIMEOUT": "2"}).busy_timeout == 2.0
    config.write_text("database: plain.db\n", encoding="utf-8")  # the older form still reads
    assert load_settings(config, env={}).busy_timeout == BUSY_TIMEOUT
    for bad in ("-1", "forever", "601", "true"):
        config.write_text(f"database:\n  file: my.db\n  busy_timeout: {bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match="busy_timeout"):
            load_settings(config, env={})
    config.write_text("database:\n  file: my.db\n  timeout: 3\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_settings(config, env={})


async def test_the_setting_reaches_every_connection(tmp_path, short_busy):
    store = await Store.open(tmp_path / "judge.db")
    try:
        for conn in (store.conn, store.reader):
            async with conn.execute("PRAGMA busy_timeout") as cur:
                assert (await cur.fetchone())[0] == 300
    finally:
        await store.close()
    assert storage_db.busy_seconds() == SHORT


# ---------------------------------------------------------------------------------------------- the public pages
async def test_a_page_whose_ratings_wait_for_a_write_answers_503_not_a_traceback(tmp_path, short_busy):
    """A profile reads the ratings cache, which a new record must first derive (a write): kept waiting, the page
    answers 503 with the busy line and a Retry-After, in the reader's language."""
    from aiohttp.test_utils import TestClient, TestServer
    from bot.web.app import Site

    path = tmp_path / "web.db"
    store = await Store.open(path)
    try:
        async with TestClient(TestServer(Site(store, locale="en").app())) as client:
            holder = Holder(path)
            try:
                answer = await client.get("/player/cli%3Aann?lang=uk")
                text = await answer.text()
            finally:
                holder.release()
            assert answer.status == 503 and answer.headers["Retry-After"] == "5", (answer.status, text)
            assert text == t("core.busy", "uk", seconds="0.3")
            assert (await client.get("/player/cli%3Aann")).status == 404  # the lock gone: an unknown player, as ever
    finally:
        await store.close()


async def test_bots_kept_waiting_try_again_instead_of_stopping(tmp_path, short_busy, caplog):
    """Nobody else moves a bot: its move refused busy is tried again after a pause (not logged as an error)."""
    import asyncio
    import logging

    path = tmp_path / "bots.db"
    store = await Store.open(path)
    try:
        referee = Referee(store)
        table = await referee.create_table("claygod", creator="u:a", creator_name="A", origin="terminal", join=False)
        for _ in range(2):
            assert isinstance(await referee.add_bot(table.id), int)
        assert isinstance(await referee.start(table.id, "u:a"), Accepted)
        version = (await store.get_table(table.id)).version
        holder = Holder(path)
        asyncio.get_running_loop().call_later(0.6, holder.release)
        with caplog.at_level(logging.WARNING):
            moved = await referee.drive_bots(table.id, limit=3)
        assert moved == 3 and (await store.get_table(table.id)).version >= version + 3
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    finally:
        await store.close()


async def test_the_lobby_mix_of_the_benchmark_counts_busy_answers_and_no_uncaught_error(tmp_path, short_busy):
    """benchmarks/multiprocess.py --mix lobby, one of its processes in this one for a second and a half, the lock
    held by another connection for its first 0.7 s: busy answers, then done ones, each checked against the record,
    and nothing uncaught or wrong."""
    import asyncio
    import importlib.util
    import random
    import threading

    spec = importlib.util.spec_from_file_location("multiprocess_bench",
                                                  Path(__file__).resolve().parents[2] / "benchmarks" / "multiprocess.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    path = tmp_path / "mix.db"
    store = await Store.open(path)
    try:
        out = {"done": {}, "refused": {}, "busy": {}, "uncaught": [], "wrong": []}
        referee = Referee(store)
        assert isinstance(await referee.start(*(await lobby(referee))[:1], "u:a"), Accepted)  # catalogues loaded

        holding = threading.Event()

        def hold() -> None:  # another process, in a thread: its wait for the lock must not stop this loop
            holder = Holder(path)
            holding.set()
            time.sleep(0.7)  # past the busy timeout: the mix's first write is answered busy
            holder.release()

        other = threading.Thread(target=hold)
        other.start()
        await asyncio.to_thread(holding.wait)
        try:
            await bench._lobby_loop(store, referee, Director(referee), random.Random(1), "t", time.time() + 1.5, out)
        finally:
            await asyncio.to_thread(other.join)
    finally:
        await store.close()
    assert out["uncaught"] == [] and out["wrong"] == [], out
    assert sum(out["done"].values()) > 10 and sum(out["busy"].values()) >= 1, out
