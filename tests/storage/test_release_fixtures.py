"""Databases written by real releases (tests/fixtures/releases/, made by scripts/make_release_fixture.py) are
opened with today's code and every table in them goes on: each open table is played to its end with bot moves
and verified, the paused one resumed, the open dispute decided, the lobby started, the tournament paired to its
end.  A fixture is kept forever: a change that strands a table of an older release fails here (docs/fixtures.md).

Each case works on its own copy of the fixture, opened as the bot opens its database at start-up
(bot/referee/upgrade.py: schema migrations, then each stored state of older rules migrated and recorded as an upgrade
step of its own), on a fake clock set just after the fixture's last write, so no deadline runs out while the
tables are finished.  A table of older rules must show that step, and its verification must cross it.
"""
from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.engine import Rejection, get_game
from bot.engine.versions import rules_of
from bot.referee import disputes, moderation
from bot.referee.record import Verification, verify_table
from bot.referee.service import Referee
from bot.referee.upgrade import open_store
from bot.storage.store import Store
from bot.tournament.director import Director
from tests.support.tables import Clock

HERE = Path(__file__).parents[1] / "fixtures" / "releases"
FIXTURES = sorted(HERE.glob("*.db"))
MODERATOR = "cli:fxmod"


def _manifest(db: Path) -> dict | None:
    """The manifest the script wrote beside the database (a fixture made another way may have none: the
    cases are read off the database itself, the manifest only documents them)."""
    path = db.with_suffix(".json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _read(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    except sqlite3.OperationalError:  # a release before that table
        return []
    finally:
        con.close()


def _in_running_tournaments(db: Path) -> set[int]:
    return {t for (t,) in _read(db, "SELECT g.table_id FROM tournament_games g JOIN tournaments t ON "
                                    "t.id = g.tournament_id WHERE t.status = 'running' AND g.table_id IS NOT NULL")}


def _cases(status: str) -> list:
    """(fixture, table id) for every table of that status in every fixture; the open tables of a running
    tournament are the tournament's case."""
    cases = []
    for db in FIXTURES:
        skip = _in_running_tournaments(db) if status == "active" else set()
        for tid, game in _read(db, f"SELECT id, game FROM tables WHERE status = '{status}' ORDER BY id"):
            if tid not in skip:
                cases.append(pytest.param(db, tid, id=f"{db.stem}-t{tid}-{game}"))
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
    seats = await store.seats(table_id)
    await referee.drive_bots(table_id)
    for _ in range(game.max_actions + 50):
        table = await store.get_table(table_id)
        if table.status != "active":
            return
        state = await store.state(table_id)
        pending = [p for p in game.to_act(state) if not seats[p.seat].is_bot]
        if not pending:  # a seat handed to a bot meanwhile (a clock's zombie): the bots move, then look again
            await referee.tick()
            await referee.drive_bots(table_id)
            seats = await store.seats(table_id)
            continue
        p = rng.choice(pending)
        action = game.bot_action(state, p.seat, rng)
        clock.t += rng.uniform(1, 30)
        done = await referee.act(table_id, seats[p.seat].user_id, action, seat=p.seat)
        assert not isinstance(done, Rejection), (table_id, state["version"], action, done.message("en"))
        await referee.drive_bots(table_id)
    raise AssertionError(f"table {table_id} did not end within {game.max_actions + 50} moves")


async def _verified(store: Store, table_id: int) -> Verification:
    report = await verify_table(store, table_id)
    assert report.ok, (table_id, list(report.problems))
    return report


def test_every_fixture_is_small_and_its_manifest_names_every_table():
    assert FIXTURES, "no release fixtures in tests/fixtures/releases"
    for db in FIXTURES:
        assert db.stat().st_size < 1024 * 1024, f"{db.name} is larger than a fixture should be"
        manifest = _manifest(db)
        if manifest is None:
            continue
        assert db.stem == f"{manifest['date']}-{manifest['release']}"
        stored = dict(_read(db, "SELECT id, status FROM tables"))
        assert {t["id"]: t["status"] for t in manifest["tables"]} == stored, db.name


@pytest.mark.parametrize("db,tid", _cases("active"))
async def test_an_open_table_of_an_older_release_plays_to_its_end_and_verifies(opened, db, tid):
    store, referee, clock = await opened(db)
    row = await store.get_table(tid)
    game = get_game(row.game)
    assert row.status == "active"
    assert row.frozen is None, f"table {tid} was frozen at the upgrade: {row.frozen}"
    before = _read(db, f"SELECT version FROM tables WHERE id = {tid}")[0][0]
    if rules_of(await store.state(tid, before)) < game.rules_version:  # an upgrade step was recorded
        assert row.version == before + 1 and row.rules_version == game.rules_version
    if row.paused_at is not None:  # a moderator's pause
        resumed = await moderation.resume(referee, tid, moderator=MODERATOR, reason="fixture: resumed")
        assert not isinstance(resumed, Rejection), resumed.message("en")
    for open_one in await store.disputes(table_id=tid, status="open"):
        decided = await disputes.decide(referee, open_one.id, moderator=MODERATOR, kind="reject",
                                        reason="fixture: the move stands")
        assert not isinstance(decided, Rejection), decided.message("en")
    await play_to_end(referee, tid, clock, random.Random(f"{db.stem}:{tid}"))
    assert (await store.get_table(tid)).status == "finished"
    report = await _verified(store, tid)
    if row.version > before:  # the record crosses the upgrade, and verify saw it
        assert [u["version"] for u in report.upgrades] == [before + 1], report.across_upgrades()


@pytest.mark.parametrize("db,tid", _cases("finished"))
async def test_a_finished_table_of_an_older_release_still_verifies(opened, db, tid):
    store, referee, clock = await opened(db)
    await _verified(store, tid)


@pytest.mark.parametrize("db,tid", _cases("lobby"))
async def test_a_lobby_of_an_older_release_starts_and_plays_to_its_end(opened, db, tid):
    store, referee, clock = await opened(db)
    row = await store.get_table(tid)
    game = get_game(row.game)
    assert row.rules_version == game.rules_version and row.frozen is None  # its options were brought forward
    while len(await store.seats(tid)) < game.min_seats:
        assert isinstance(await referee.add_bot(tid), int)
    started = await referee.start(tid, row.creator, seed=f"fixture-lobby-{tid}")
    assert not isinstance(started, Rejection), started.message("en")
    await play_to_end(referee, tid, clock, random.Random(f"{db.stem}:{tid}"))
    await _verified(store, tid)


def _tournaments() -> list:
    return [pytest.param(db, tour, id=f"{db.stem}-tournament{tour}") for db in FIXTURES
            for (tour,) in _read(db, "SELECT id FROM tournaments WHERE status = 'running' ORDER BY id")]


@pytest.mark.parametrize("db,tour", _tournaments())
async def test_a_tournament_of_an_older_release_pairs_its_next_round_and_finishes(opened, db, tour):
    store, referee, clock = await opened(db)
    director = Director(referee)
    paired = (await director.record.get(tour)).round
    rng = random.Random(f"{db.stem}:tournament{tour}")
    for _ in range(50):
        await director.sync(tour)
        row = await director.record.get(tour)
        if row.status != "running":
            break
        for g in await director.record.games(tour, row.round):
            if g.table_id and not g.settled:
                table = await store.get_table(g.table_id)
                if table.paused_at is not None:
                    await moderation.resume(referee, g.table_id, moderator=MODERATOR, reason="fixture: resumed")
                if table.status == "active":
                    await play_to_end(referee, g.table_id, clock, rng)
        clock.t += 60
    assert row.status == "finished", f"tournament {tour} is {row.status} in round {row.round}"
    assert row.round > paired, "no further round was paired"
    for g in await director.record.games(tour):
        if g.table_id:
            await _verified(store, g.table_id)
