"""Backups taken before the bot changes what it stored: a schema migration (bot/storage/db.py) or a rules
migration of the tables' states (bot/referee/upgrade.py).

A backup is a complete, consistent copy made with SQLite's online backup API (it copies what the WAL holds
too, and other connections may keep reading and writing meanwhile), written beside the database in a folder of
its own, ``<stem>-backups/``, named by the time and the reason:

    judge-backups/judge-20261127-140312-schema-8-to-9.db
    judge-backups/judge-20261127-140312-rules.db

Only the newest ``KEEP`` of a database's backups are kept: an operator who upgrades every week has two months
of them, and the folder never grows without bound.  Going back to one: stop the bot, copy it over the database
(and remove the database's ``-wal`` / ``-shm`` files), start the release that wrote it (docs/operations.md).
"""
from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

#: how many backups of one database are kept
KEEP = 10
_SAFE = re.compile(r"[^a-z0-9-]+")


def backup_folder(database: str | Path) -> Path:
    database = Path(database)
    return database.parent / f"{database.stem}-backups"


def backups(database: str | Path) -> list[Path]:
    """The database's backups, oldest first."""
    folder = backup_folder(database)
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{Path(database).stem}-????????-??????-*.db"))


def copy_database(source: str | Path, target: str | Path) -> Path:
    """A consistent copy of ``source`` at ``target`` (the backup API; ``target`` is replaced)."""
    target = Path(target)
    if target.exists():
        target.unlink()
    src = sqlite3.connect(str(source))
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return target


def take_backup(database: str | Path, reason: str, *, keep: int = KEEP) -> Path:
    """Back ``database`` up before a change (``reason``: a few words, e.g. ``schema-8-to-9`` or ``rules``);
    returns the backup's path.  The oldest backups beyond ``keep`` are removed afterwards."""
    database = Path(database)
    folder = backup_folder(database)
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"{database.stem}-{stamp}-{_SAFE.sub('-', reason.lower()).strip('-') or 'backup'}.db"
    target = folder / name
    n = 1
    while target.exists():  # two backups within one second (a schema and a rules migration)
        n += 1
        target = folder / f"{name[:-3]}-{n}.db"
    copy_database(database, target)
    for old in backups(database)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return target
