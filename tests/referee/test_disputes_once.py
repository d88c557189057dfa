"""A move is disputed once per player, held by the database (migration 0014 ``disputes_once``): a re-raise is
refused whichever process writes it and whenever another settles the first, and a database of an older release
that already holds repeats still migrates, keeping them marked."""
import asyncio
import sqlite3

import pytest

from bot.referee import disputes
from bot.referee.service import Referee
from bot.storage.db import migration_files
from bot.storage.store import Store
from tests.support.tables import new_toy, play_one

ONCE = 14  # the migration that made it a constraint


async def _disputable(referee, store):
    """A toy table after one move, and the seat key of the player who may dispute it."""
    tid = await new_toy(referee)
    await play_one(referee, store, tid)
    state = await store.state(tid)
    return tid, (await store.seats(tid))[state["turn"]].user_id


async def test_a_re_raise_after_the_decision_is_refused_by_the_constraint(env):
    store, referee, _ = env
    tid, raiser = await _disputable(referee, store)
    first = await disputes.raise_dispute(referee, tid, raiser, move=1, text="first")
    again = await disputes.raise_dispute(referee, tid, raiser, move=1, text="again")
    assert again.key == "disputes.reject.already_disputed"
    done = await disputes.decide(referee, first.id, moderator="u:mod", kind="reject", reason="fair")
    assert done.status == "rejected"
    late = await disputes.raise_dispute(referee, tid, raiser, move=1, text="once more")
    assert late.key == "disputes.reject.already_decided" and late.params["status"] == "rejected"
    assert "rejected" in late.message("en")
    assert [d.id for d in await store.disputes(table_id=tid)] == [first.id]
    with pytest.raises(sqlite3.IntegrityError):  # the database itself, not only the referee's reading
        await store.conn.execute("INSERT INTO disputes (table_id, user_id, seat, move, version, text, raised_at)"
                                 " VALUES (?, ?, 0, 1, 1, 'raw', 0)", (tid, raiser))


async def test_two_processes_racing_a_re_raise_against_the_decision_record_one_dispute(tmp_path):
    """The red team's S4: one process re-raises while another rejects the first dispute (3 of 3 got in)."""
    path = tmp_path / "judge.db"
    stores = [await Store.open(path), await Store.open(path)]
    try:
        raiser_ref, moderator_ref = Referee(stores[0]), Referee(stores[1])  # separate locks: separate processes
        tid, raiser = await _disputable(raiser_ref, stores[0])
        for _ in range(3):
            first = await disputes.raise_dispute(raiser_ref, tid, raiser, move=1, text="first")
            if first.__class__.__name__ == "Rejection":
                break
            results = await asyncio.gather(
                disputes.decide(moderator_ref, first.id, moderator="u:mod", kind="reject", reason="fair"),
                *(disputes.raise_dispute(raiser_ref, tid, raiser, move=1, text="again") for _ in range(3)))
            assert results[0].status == "rejected"
            assert all(r.key in ("disputes.reject.already_disputed", "disputes.reject.already_decided")
                       for r in results[1:]), results[1:]
        rows = await stores[0].disputes(table_id=tid)
        assert len([d for d in rows if d.version == 1 and d.user_id == raiser]) == 1
    finally:
        for store in stores:
            await store.close()


async def test_an_older_database_holding_repeats_migrates_and_keeps_them_marked(tmp_path):
    path = tmp_path / "judge.db"
    conn = sqlite3.connect(str(path))
    for number, script in migration_files()[:ONCE - 1]:
        conn.executescript(f"BEGIN;\n{script.read_text(encoding='utf-8')}\n;PRAGMA user_version = {number};\nCOMMIT;")
    conn.execute("INSERT INTO tables (id, game, status, options, creator, created_at) VALUES (1, 'toy', 'active', '{}', 'u:a', 0)")
    rows = [(1, "u:a", 1, "rejected"), (2, "u:a", 1, "open"), (3, "u:a", 1, "open"), (4, "u:b", 1, "open"),
            (5, "u:a", 2, "open")]
    for did, user, version, status in rows:
        conn.execute("INSERT INTO disputes (id, table_id, user_id, seat, move, version, text, status, raised_at)"
                     " VALUES (?, 1, ?, 0, ?, ?, 'x', ?, 0)", (did, user, version, version, status))
    conn.commit()
    conn.close()

    store = await Store.open(path)
    try:
        (schema,) = await (await store.conn.execute("PRAGMA user_version")).fetchone()
        assert schema == len(migration_files()) >= ONCE
        kept = {d.id: d.repeat_of for d in await store.disputes(table_id=1)}
        assert kept == {1: None, 2: 1, 3: 1, 4: None, 5: None}  # every complaint kept; the repeats marked
        for sql in ("INSERT INTO disputes (table_id, user_id, seat, move, version, text, raised_at)"
                    " VALUES (1, 'u:b', 0, 1, 1, 'again', 0)",
                    "INSERT INTO disputes (table_id, user_id, seat, move, version, text, raised_at, repeat_of)"
                    " VALUES (1, 'u:a', 0, 1, 1, 'sneaked', 0, 1)",
                    "UPDATE disputes SET repeat_of = 4 WHERE id = 5"):
            with pytest.raises(sqlite3.IntegrityError):
                await store.conn.execute(sql)
    finally:
        await store.close()
