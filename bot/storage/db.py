"""Opening the SQLite database and applying numbered migrations.

Migrations are files bot/storage/migrations/NNNN_description.sql, applied in order, each inside one
transaction together with the bump of ``PRAGMA user_version``, so a crash mid-migration leaves the
database at the previous version.
"""
from __future__ import annotations

import re
from pathlib import Path

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migration_files() -> list[tuple[int, Path]]:
    found = []
    for path in sorted(MIGRATIONS.iterdir()):
        m = _NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), path))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001.. without gaps, found {numbers}")
    return found


async def migrate(conn: aiosqlite.Connection) -> int:
    """Bring the schema up to date; returns the schema version."""
    async with conn.execute("PRAGMA user_version") as cur:
        (current,) = await cur.fetchone()
    for number, path in migration_files():
        if number <= current:
            continue
        script = path.read_text(encoding="utf-8")
        try:
            # one script, one transaction: the schema change and the version bump land together
            await conn.executescript(f"BEGIN IMMEDIATE;\n{script}\n;PRAGMA user_version = {number};\nCOMMIT;")
        except BaseException:
            if conn.in_transaction:
                await conn.rollback()
            raise
        current = number
    return current


async def open_db(path: str | Path) -> aiosqlite.Connection:
    """Open (creating if needed) and migrate the database.  WAL lets readers work while one writer commits;
    synchronous=NORMAL is durable at every commit in WAL mode except on power loss of the host."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA busy_timeout = 5000")
    await migrate(conn)
    return conn
