"""Databases written by real releases (tests/fixtures/releases/, made by scripts/make_release_fixture.py) are
opened with today's code and every table in them goes on: each open table is played to its end with bot moves
and verified, the paused one resumed, the open dispute decided, the lobby started, the tournament paired to its
end.  A fixture is kept forever: a change that strands a table of an older release fails here (docs/fixtures.md).

Each case works on its own copy of the fixture, opened as the bot opens its database at start-up (with the
rules-version migrations of bot/upgrade.py where that exists), on a fake clock set just after the fixture's
last write, so no deadline runs out while the tables are finished.
"""
from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot import disputes, moderation
from bot.engine import Rejection, get_game
from bot.record import verify_table
from bot.service import Referee
from bot.storage.store import Store
from bot.tournament.director import Director
from tests.support.tables import Clock

HERE = Path(__file__).parent / "fixtures" / "releases"
FIXTURES = sorted(HERE.glob("*.db"))
MODERATOR = "cli:fxmod"


def _manifest(db: Path) -> dict:
    return json.loads(db.with_suffix(".json").read_text(encoding="utf-8"))


def _cases(kind: str) -> list:
    cases = []
    for db in FIXTURES:
        for table in _manifest(db)["tables"]:
            if kind == "open" and table["status"] == "active" and "tournament" not in table:
                cases.append(pytest.param(db, table, id=f"{db.stem}-t{table['id']}-{table['game']}"))
            elif kind == "finished" and table["status"] == "finished":
                cases.append(pytest.param(db, table, id=f"{db.stem}-t{table['id']}-{table['game']}"))
            elif kind == "lobby" and table["status"] == "lobby":
                cases.append(pytest.param(db, table, id=f"{db.stem}-t{table['id']}-{table['game']}"))
    return cases


def _last_write(path: Path) -> float:
    """When the release last wrote to the fixture (the fake clock starts a minute later)."""
    con = sqlite3.connect(path)
    try:
        times = [con.execute("SELECT max(at) FROM actions").fetchone()[0],
                 con.execute("SELECT max(created_at) FROM tables").fetchone()[0]]
        for sql in ("SELECT max(paused_at) FROM tables", "SELECT max(raised_at) FROM disputes",
                    "SELECT max(created_at) FROM rounds"):
            try:
                times.append(con.execute(sql).fetchone()[0])
            except sqlite3.OperationalError:  # a release before that feature
                pass
    finally:
        con.close()
    return max(t for t in times if t is not None) + 60


@pytest.fixture
async def opened(tmp_path, request):
    """Open a copy of a fixture as the bot would at start-up: (store, referee, clock)."""
    async def open_copy(db: Path):
        copy = tmp_path / db.name
        shutil.copyfile(db, copy)
        clock = Clock(_last_write(copy))
        try:  # the start-up path that migrates stored states (issue 23); plain Store.open before it existed
            from bot.upgrade import open_store
        except ImportError:
            open_store = Store.open
        store = await open_store(copy)
        opened.stores.append(store)
        return store, Referee(store, clock=clock), clock

    opened.stores = []
    yield open_copy
    for store in opened.stores:
        await store.close()


async def play_to_end(referee: Referee, table_id: int, clock: Clock, rng: random.Random) -> None:
    """Every human seat's decisions taken by the game's bot, through the referee, until the table ends."""
    store = referee.store
    table = await store.get_table(table_id)
    game = get_game(table.game)
    users = {s.seat: s.user_id for s in await store.seats(table_id)}
    await referee.drive_bots(table_id)
    for _ in range(game.max_actions + 50):
        table = await store.get_table(table_id)
        if table.status != "active":
            return
        state = await store.state(table_id)
        pending = [p for p in game.to_act(state) if not users[p.seat].startswith("bot")]
        assert pending, f"table {table_id} is active but no player owes a decision (v{state['version']})"
        p = rng.choice(pending)
        action = game.bot_action(state, p.seat, rng)
        clock.t += rng.uniform(1, 30)
        done = await referee.act(table_id, users[p.seat], action, seat=p.seat)
        assert not isinstance(done, Rejection), (table_id, state["version"], action, done.message("en"))
        await referee.drive_bots(table_id)
    raise AssertionError(f"table {table_id} did not end within {game.max_actions + 50} moves")


async def _verified(store: Store, table_id: int) -> None:
    report = await verify_table(store, table_id)
    assert report.ok, (table_id, list(report.problems))


def test_every_fixture_has_its_manifest_and_every_table_in_it():
    assert FIXTURES, "no release fixtures in tests/fixtures/releases"
    for db in FIXTURES:
        manifest = _manifest(db)
        assert db.stem == f"{manifest['date']}-{manifest['release']}"
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            stored = {row[0]: row[1] for row in con.execute("SELECT id, status FROM tables")}
        finally:
            con.close()
        assert {t["id"]: t["status"] for t in manifest["tables"]} == stored, db.name
        assert db.stat().st_size < 1024 * 1024, f"{db.name} is larger than a fixture should be"


@pytest.mark.parametrize("db,table", _cases("open"))
async def test_an_open_table_of_an_older_release_plays_to_its_end_and_verifies(opened, db, table):
    store, referee, clock = await opened(db)
    tid = table["id"]
    row = await store.get_table(tid)
    assert row.status == "active"
    if "paused" in table["exercises"]:
        assert getattr(row, "paused_at", None) is not None
        resumed = await moderation.resume(referee, tid, moderator=MODERATOR, reason="fixture: resumed")
        assert not isinstance(resumed, Rejection), resumed.message("en")
    if "dispute_open" in table["exercises"]:
        (open_one,) = await store.disputes(table_id=tid, status="open")
        decided = await disputes.decide(referee, open_one.id, moderator=MODERATOR, kind="reject",
                                        reason="fixture: the move stands")
        assert not isinstance(decided, Rejection), decided.message("en")
    if "vacation" in table["exercises"]:
        assert row.time_control is not None
    await play_to_end(referee, tid, clock, random.Random(f"{db.stem}:{tid}"))
    assert (await store.get_table(tid)).status == "finished"
    await _verified(store, tid)


@pytest.mark.parametrize("db,table", _cases("finished"))
async def test_a_finished_table_of_an_older_release_still_verifies(opened, db, table):
    store, referee, clock = await opened(db)
    await _verified(store, table["id"])


@pytest.mark.parametrize("db,table", _cases("lobby"))
async def test_a_lobby_of_an_older_release_starts_and_plays_to_its_end(opened, db, table):
    store, referee, clock = await opened(db)
    tid = table["id"]
    row = await store.get_table(tid)
    game = get_game(row.game)
    while len(await store.seats(tid)) < game.min_seats:
        assert isinstance(await referee.add_bot(tid), int)
    started = await referee.start(tid, row.creator, seed=f"fixture-lobby-{tid}")
    assert not isinstance(started, Rejection), started.message("en")
    await play_to_end(referee, tid, clock, random.Random(f"{db.stem}:{tid}"))
    await _verified(store, tid)


@pytest.mark.parametrize("db", [pytest.param(db, id=db.stem) for db in FIXTURES if _manifest(db)["tournament"]])
async def test_a_tournament_of_an_older_release_pairs_its_next_round_and_finishes(opened, db):
    store, referee, clock = await opened(db)
    tour = _manifest(db)["tournament"]
    director = Director(referee)
    rng = random.Random(f"{db.stem}:tournament")
    rounds = set()
    for _ in range(20):
        progress = await director.sync(tour["id"])
        row = await director.record.get(tour["id"])
        if row.status == "finished":
            break
        rounds.add(row.round)
        for g in await director.record.games(tour["id"], row.round):
            if g.table_id and not g.settled and (await store.get_table(g.table_id)).status == "active":
                await play_to_end(referee, g.table_id, clock, rng)
        clock.t += 60
    else:
        raise AssertionError(f"tournament {tour['id']} did not finish")
    assert max(rounds) >= tour["round"] + 1 or row.round > tour["round"], "no further round was paired"
    assert progress.finished or row.status == "finished"
    for g in await director.record.games(tour["id"]):
        if g.table_id:
            await _verified(store, g.table_id)
