"""Group commit (bot/storage/group_commit.py): writes queued together share one transaction, each is
acknowledged only after its commit, and one write's failure never takes another's rows with it."""
import asyncio
import sqlite3

import pytest

from bot.engine import get_game
from bot.referee.service import Accepted, Referee
from bot.storage.group_commit import GroupCommit
from bot.storage.store import Step, Store, VersionConflict


class Refusal(Exception):
    """A write's clean refusal (raised before it changed anything)."""


def connection() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.executescript("""
        PRAGMA foreign_keys = ON;
        CREATE TABLE parent (id INTEGER PRIMARY KEY);
        CREATE TABLE rows (id INTEGER PRIMARY KEY, parent INTEGER
            REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
    """)
    return db


GATE = "gate"  # the attribute of a test's GroupCommit holding the event its 'database thread' waits for


def committer(db: sqlite3.Connection) -> tuple[GroupCommit, list[str]]:
    """A GroupCommit over ``db`` whose 'database thread' is the caller's, noting every statement begun; its
    trips wait for an event the test may clear (a slow trip, with writes arriving meanwhile)."""
    begun: list[str] = []
    db.set_trace_callback(lambda sql: begun.append(sql) if sql.startswith("BEGIN") else None)
    gate = asyncio.Event()
    gate.set()

    async def in_thread(fn):
        await gate.wait()
        return fn(db)

    commits = GroupCommit(asyncio.Lock(), in_thread, clean=(Refusal,))
    setattr(commits, GATE, gate)
    return commits, begun


def insert(row_id: int, parent: int | None = None):
    return lambda c: c.execute("INSERT INTO rows (id, parent) VALUES (?, ?)", (row_id, parent))


def stored(db: sqlite3.Connection) -> list[int]:
    return [r for (r,) in db.execute("SELECT id FROM rows ORDER BY id")]


async def behind_a_write(commits: GroupCommit, begun: list[str], *writes) -> list:
    """``writes`` arriving while another write (row 0) is being written: they queue, and form the next batch.
    Returns their outcomes; ``begun`` then counts only the transactions after the first one."""
    gate = getattr(commits, GATE)
    gate.clear()
    first = asyncio.ensure_future(commits.write(insert(0)))
    await asyncio.sleep(0)  # the first write is on its way, alone
    queued = asyncio.gather(*(commits.write(w) for w in writes), return_exceptions=True)
    await asyncio.sleep(0)  # the others queue behind it
    gate.set()
    await first
    results = await queued
    del begun[0]
    return results


async def test_a_write_alone_is_written_by_its_caller_at_once():
    db = connection()
    commits, begun = committer(db)
    await commits.write(insert(1))
    assert stored(db) == [1] and len(begun) == 1 and commits._committer is None  # no task was started


async def test_writes_queued_together_commit_in_one_transaction():
    db = connection()
    commits, begun = committer(db)
    await behind_a_write(commits, begun, *(insert(i) for i in range(1, 50)))
    assert stored(db) == list(range(50))
    assert len(begun) == 1


async def test_a_clean_refusal_fails_that_write_alone():
    db = connection()
    commits, begun = committer(db)

    def refuse(c):
        raise Refusal("not at that version")

    results = await behind_a_write(commits, begun, insert(1), refuse, insert(2))
    assert [type(r) for r in results] == [type(None), Refusal, type(None)]
    assert stored(db) == [0, 1, 2] and len(begun) == 1


async def test_a_write_that_fails_half_way_leaves_no_row_and_the_others_commit():
    db = connection()
    commits, begun = committer(db)

    def half(c):  # its first row goes in, then it fails: the row must not survive
        c.execute("INSERT INTO rows (id) VALUES (10)")
        c.execute("INSERT INTO rows (id) VALUES (1)")  # the primary key of the first write: IntegrityError

    results = await behind_a_write(commits, begun, insert(1), half, insert(2))
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert stored(db) == [0, 1, 2]
    assert len(begun) == 1 + 3  # the batch, rolled back; then each write in its own transaction


async def test_a_commit_that_fails_acknowledges_none_of_its_writes():
    db = connection()
    commits, begun = committer(db)
    orphan = insert(2, parent=99)  # a deferred foreign key: refused at COMMIT, not at the insert

    results = await behind_a_write(commits, begun, insert(1), orphan)
    assert results[0] is None and isinstance(results[1], sqlite3.IntegrityError)
    assert stored(db) == [0, 1]
    assert not db.in_transaction


async def test_a_write_cancelled_before_its_batch_began_is_not_written():
    db = connection()
    commits, _ = committer(db)
    getattr(commits, GATE).clear()
    first = asyncio.ensure_future(commits.write(insert(1)))
    second = asyncio.ensure_future(commits.write(insert(2)))
    await asyncio.sleep(0)   # the first on its way, the second queued behind it: its batch not begun yet
    second.cancel()
    getattr(commits, GATE).set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    await commits.wait_idle()
    assert stored(db) == [1]


async def started(referee: Referee, count: int) -> list[int]:
    """``count`` Clay God tables of two people, started."""
    ids = []
    for i in range(count):
        table = await referee.create_table("claygod", creator=f"u:a{i}", creator_name="A", join=True)
        await referee.join(table.id, f"u:b{i}", "B")
        await referee.start(table.id, f"u:a{i}", seed=f"s{i}")
        ids.append(table.id)
    return ids


async def test_many_tables_acting_at_once_share_commits_and_each_is_durable(tmp_path):
    path = tmp_path / "j.db"
    store = await Store.open(path)
    referee = Referee(store)
    game = get_game("claygod")
    ids = await started(referee, 20)
    batches = []
    original = store._steps._write_batch
    store._steps._write_batch = lambda c, writes: (batches.append(len(writes)), original(c, writes))[1]

    async def move(table_id: int) -> Accepted:
        state = await store.state(table_id)
        pending = game.to_act(state)[0]
        user = (await store.seats(table_id))[pending.seat].user_id
        action = game.legal_actions(state, pending.seat)[0]
        return await referee.act(table_id, user, action, expected_version=state["version"])

    results = await asyncio.gather(*(move(t) for t in ids))
    assert all(isinstance(r, Accepted) for r in results), results
    assert sum(batches) >= 20 and max(batches) > 1  # at least one commit carried several tables' actions
    await store.close()
    with sqlite3.connect(path) as db:  # each acknowledged action is in the file, with its snapshot
        for r in results:
            assert db.execute("SELECT COUNT(*) FROM actions JOIN snapshots USING (table_id, version)"
                              " WHERE table_id = ? AND version = ?", (r.table_id, r.version)).fetchone() == (1,)


async def test_a_stale_step_in_a_batch_is_refused_and_the_others_are_written(tmp_path):
    store = await Store.open(tmp_path / "j.db")
    referee = Referee(store)
    ids = await started(referee, 3)
    states = [await store.state(t) for t in ids]
    steps = [Step(0, "u:x", {"type": "note"}, 1.0, {**s, "version": s["version"] + 1}, [], [], None, None)
             for s in states]
    results = await asyncio.gather(
        store.record_step(ids[0], states[0]["version"], steps[0]),
        store.record_step(ids[1], states[1]["version"] + 5, steps[1]),   # not the stored version
        store.record_step(ids[2], states[2]["version"], steps[2]), return_exceptions=True)
    assert results[0] is None and results[2] is None and isinstance(results[1], VersionConflict)
    assert [await store.table_version(t) for t in ids] == [states[0]["version"] + 1, states[1]["version"],
                                                          states[2]["version"] + 1]
    await store.close()


async def test_a_batch_that_cannot_begin_fails_every_write_at_once(tmp_path):
    """Another process holds the write lock past the busy timeout: each write hears it, once for all."""
    path = tmp_path / "locked.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("PRAGMA journal_mode = WAL; CREATE TABLE rows (id INTEGER PRIMARY KEY);")
    db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    begun: list[str] = []
    db.set_trace_callback(lambda sql: begun.append(sql) if sql.startswith("BEGIN") else None)

    async def in_thread(fn):
        await asyncio.sleep(0)
        return fn(db)

    commits = GroupCommit(asyncio.Lock(), in_thread, clean=(Refusal,))
    results = await asyncio.gather(*(commits.write(insert(i)) for i in range(5)), return_exceptions=True)
    assert all(isinstance(r, sqlite3.OperationalError) for r in results)
    assert len(begun) == 2  # the first write's, then the four queued behind it: not once more for each
    other.rollback()
    assert stored(db) == []
