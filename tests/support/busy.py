"""A database held busy by another writer, and a digest of its record (tests/storage/test_busy.py,
tests/discord/test_busy.py)."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

SHORT = 0.3  # seconds: the busy timeout of these tests


class Holder:
    """Another process's write transaction on the file, held until ``release``."""

    def __init__(self, path: Path):
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


def record_digest(path: Path) -> str:
    """Every row of every table of the record, read on a connection of its own (what "nothing recorded" means)."""
    c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        h = hashlib.sha256()
        names = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for name in names:
            for row in c.execute(f'SELECT * FROM "{name}" ORDER BY rowid'):
                h.update(repr((name, row)).encode())
        h.update(repr(c.execute("PRAGMA user_version").fetchone()).encode())
        return h.hexdigest()
    finally:
        c.close()
