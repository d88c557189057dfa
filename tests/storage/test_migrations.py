"""Schema migrations: a database made by an older release is brought up to date in place, its data kept; and
the stored forms of snapshots and payloads that releases wrote (text, zlib, zstd) all still read."""
import json
import sqlite3
import zlib
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

from bot.engine.canonical import dumps
from bot.referee.record import verify_table
from bot.storage.db import MIGRATIONS, migration_files
from bot.storage.store import SMALL_PAYLOAD, Message, Store, pack_state, unpack_state
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


async def test_an_older_database_is_migrated_in_place_and_keeps_its_tables(tmp_path):
    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path)) as old, old:  # the schema as migration 0001 left it, with one lobby in it
        old.executescript((MIGRATIONS / "0001_init.sql").read_text(encoding="utf-8") + "\nPRAGMA user_version = 1;")
        old.execute("INSERT INTO tables (game, status, options, creator, created_at)"
                    " VALUES ('claygod', 'lobby', '{}', 'u:old', 1.0)")
    store = await Store.open(path)
    try:
        tables = await store.find_tables()
    finally:  # an unclosed store's worker thread would keep the test run from exiting
        await store.close()
    assert [(t.game, t.status) for t in tables] == [("claygod", "lobby")]
    with closing(sqlite3.connect(path)) as db, db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert version == len(migration_files()) >= 2
    assert {"outbox_by_table", "outbox_pending"} <= indexes


async def test_outbox_payloads_are_stored_compressed_and_older_text_and_zlib_rows_still_read(tmp_path):
    path = tmp_path / "j.db"
    store = await Store.open(path)
    big = {"text": "новый " * 40}
    try:
        table_id = await store.create_table(game="claygod", options={}, creator="u:a", origin="terminal", now=1.0)
        await store.enqueue(table_id, 0, [Message("table", "notice", big), Message("table", "notice", {"text": "x"})],
                            now=1.0)
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as db, db:   # and two queued by older releases: as JSON text, as zlib
        stored = [row[0] for row in db.execute("SELECT payload FROM outbox ORDER BY id")]
        for payload in ('{"text":"старый"}', zlib.compress(dumps({"text": "zlib " * 40}).encode(), 1)):
            db.execute("INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
                       " VALUES (?, 0, 'table', NULL, 'notice', ?, 1.0)", (table_id, payload))
    assert isinstance(stored[0], bytes) and stored[0].startswith(ZSTD_MAGIC) and len(stored[0]) < len(dumps(big))
    assert stored[1] == '{"text":"x"}'               # a small payload is kept as its text: smaller than a frame
    store = await Store.open(path)
    try:
        rows = await pending_messages(store)
    finally:
        await store.close()
    assert [r.payload for r in rows] == [big, {"text": "x"}, {"text": "старый"}, {"text": "zlib " * 40}]


def test_pack_and_unpack_give_back_the_exact_canonical_text_from_every_stored_form():
    states = [{}, {"a": 1}, {"text": "новый 😀 \u2028", "n": [1, 2.5, None, True]},
              {"deck": list(range(300)), "names": {f"seat{i}": "Ж" * i for i in range(20)}}]
    for state in states:
        text = dumps(state)
        packed = pack_state(state)
        if len(text.encode()) < SMALL_PAYLOAD:
            assert packed == text
        else:
            assert isinstance(packed, bytes) and packed.startswith(ZSTD_MAGIC)
        for stored in (packed, text, zlib.compress(text.encode(), 1), zlib.compress(text.encode(), 6)):
            assert unpack_state(stored) == text


def test_packing_from_many_threads_at_once():
    """The database thread and the event loop's both pack and unpack: each has its own (de)compressor."""
    states = [{"deck": list(range(n, n + 200)), "seat": n} for n in range(40)]

    def work(state):
        return [unpack_state(pack_state(state)) == dumps(state) for _ in range(100)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(all(ok) for ok in pool.map(work, states * 4))


async def test_a_table_recorded_by_an_older_release_as_zlib_and_text_rows_still_verifies(env):
    store, referee, clock = env
    tid = await new_toy(referee)
    while (await store.get_table(tid)).status == "active":
        clock.t += 3
        await play_one(referee, store, tid)
    texts = await store.snapshot_texts(tid)
    async with store.transaction() as db:  # as the releases before zstd wrote them: zlib level 1, or text
        for version, text in texts:
            old = zlib.compress(text.encode(), 1) if version % 2 else text
            await db.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?", (old, tid, version))
    referee.forget(tid)
    assert await store.snapshot_texts(tid) == texts
    assert await store.state(tid) == json.loads(texts[-1][1])
    report = await verify_table(store, tid)
    assert report.ok and report.snapshots_checked == len(texts)
