"""Schema migrations: a database made by an older release is brought up to date in place, its data kept."""
import sqlite3
from contextlib import closing

from bot.storage.db import MIGRATIONS, migration_files
from bot.storage.store import Message, Store


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


async def test_outbox_payloads_are_stored_compressed_and_older_text_rows_still_read(tmp_path):
    path = tmp_path / "j.db"
    store = await Store.open(path)
    try:
        table_id = await store.create_table(game="claygod", options={}, creator="u:a", origin="terminal", now=1.0)
        await store.enqueue(table_id, 0, [Message("table", "notice", {"text": "новый"})], now=1.0)
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as db, db:   # and one queued by an older release: payload as JSON text
        (stored,) = db.execute("SELECT payload FROM outbox").fetchone()
        db.execute("INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
                   " VALUES (?, 0, 'table', NULL, 'notice', ?, 1.0)", (table_id, '{"text":"старый"}'))
    assert isinstance(stored, bytes)
    store = await Store.open(path)
    try:
        rows = await store.pending_messages()
    finally:
        await store.close()
    assert [r.payload for r in rows] == [{"text": "новый"}, {"text": "старый"}]
