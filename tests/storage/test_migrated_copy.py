"""The tests' fresh databases (tests/conftest.py: fresh_db) are copies of one migrated file: a copy must be what a
new file opened by the bot is, or every test on it would be testing something else."""
import sqlite3

from bot.storage.db import migration_files
from bot.storage.store import Store


def _schema(path):
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("PRAGMA user_version").fetchone()[0],
                conn.execute("PRAGMA journal_mode").fetchone()[0],
                sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()),
                {name: conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
                 for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")})
    finally:
        conn.close()


async def test_a_fresh_copy_is_the_file_a_first_open_leaves(fresh_db, tmp_path):
    opened = tmp_path / "opened.db"
    await (await Store.open(opened)).close()
    version, mode, objects, rows = _schema(fresh_db)
    assert (version, mode) == (len(migration_files()), "wal")
    assert (version, mode, objects, rows) == _schema(opened)
    assert not [p for p in tmp_path.iterdir() if p.name not in ("judge.db", "opened.db")]  # no journal, no backup


async def test_each_test_gets_its_own_copy(fresh_db, migrated_db):
    store = await Store.open(fresh_db)
    try:
        await store.conn.execute("CREATE TABLE scratch (x)")
    finally:
        await store.close()
    assert "scratch" in str(_schema(fresh_db)[2]) and "scratch" not in str(_schema(migrated_db)[2])
