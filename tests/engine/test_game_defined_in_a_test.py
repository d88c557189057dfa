"""A game no file of bot/ or cogs/ names (tests/engine/toygame.py), registered by the test alone, is played
through every front end from its facts and hooks only: the terminal (a table to the end, its picture, its
ratings), the public pages (table, picture, replay, player) and a tournament to its end; Discord in
tests/discord/test_game_defined_in_a_test.py.  Once the test is over, the registry and the catalogue are as
before."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.engine import all_games
from bot.i18n import has
from bot.referee.service import Referee
from bot.storage.store import Store
from bot.terminal import cli
from bot.tournament.director import Director
from bot.web.app import Site
from bot.web.sample import bot_tournament
from tests.engine.toygame import NAME, registered_card_duel

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def duel():
    """The game and its strings registered for one test."""
    with registered_card_duel() as game:
        yield game


def _status(db: str, table: int) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT status FROM tables WHERE id = ?", (table,)).fetchone()[0]


def test_the_terminal_the_ratings_and_the_pages(duel, tmp_path, capsys):
    db = str(tmp_path / "j.db")

    def run(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = cli.main(["--db", db, "--locale", "en", *args])
        return code, capsys.readouterr().out

    assert run("table", "new", "--game", NAME, "--user", "alice")[0] == 0  # two seats: the game's demo seats
    assert run("table", "join", "1", "--user", "bob")[0] == 0
    assert run("table", "start", "1", "--user", "alice", "--seed", "s")[0] == 0
    for _ in range(20):  # six cards to play; whoever is not to act is refused
        if _status(db, 1) == "finished":
            break
        assert sum(run("table", "act", "1", "1", "--user", user)[0] == 0 for user in ("alice", "bob")) >= 1
    assert _status(db, 1) == "finished"

    code, _ = run("picture", "1", "--out", str(tmp_path / "t.png"))
    assert code == 0 and (tmp_path / "t.png").read_bytes().startswith(PNG)  # drawn by the game's own hook
    code, board = run("ratings", "leaderboard", "--game", NAME)
    assert code == 0 and "alice" in board and "bob" in board, board  # rated as its facts say: a duel
    code, profile = run("ratings", "show", "--user", "alice")
    assert code == 0 and "Card duel" in profile, profile

    asyncio.run(_the_pages(db))


async def _the_pages(db: str) -> None:
    """The public pages of the finished table: its name, its picture, a replay step, a player's page."""
    store = await Store.open(db)
    try:
        async with TestClient(TestServer(Site(store, locale="en").app())) as client:
            page = await (await client.get("/table/1")).text()
            assert "Card duel" in page and "/table/1/picture.png" in page
            picture = await client.get("/table/1/picture.png")
            assert picture.status == 200 and (await picture.read()).startswith(PNG)
            replay = await client.get("/table/1/replay/1")
            assert replay.status == 200 and "Card duel" in await replay.text()
            player = await (await client.get("/player/cli%3Aalice")).text()
            assert "Card duel" in player and "/table/1" in player
    finally:
        await store.close()


async def test_a_tournament_to_its_end(duel, tmp_path):
    store = await Store.open(tmp_path / "t.db")
    try:
        referee = Referee(store)
        tid = await bot_tournament(referee, NAME, "swiss", 4, title="Cup")
        async with TestClient(TestServer(Site(store, locale="en").app())) as client:
            page = await (await client.get(f"/tournament/{tid}")).text()
        assert "Card duel" in page
        director = Director(referee)
        assert (await director.record.get(tid)).status == "finished"
        games = await director.record.games(tid)
        assert games and [(await store.get_table(g.table_id)).status for g in games if g.table_id] == \
            ["finished"] * sum(1 for g in games if g.table_id)
        assert sum(s.points for s in await director.standings(tid)) > 0
    finally:
        await store.close()


def test_the_registry_and_the_catalogue_are_left_as_found():
    assert NAME not in all_games() and not has(f"{NAME}.title")
    with registered_card_duel():
        assert NAME in all_games() and has(f"{NAME}.title")
        with pytest.raises(ValueError), registered_card_duel():
            pass  # one name, one game
    assert NAME not in all_games() and not has(f"{NAME}.title")
