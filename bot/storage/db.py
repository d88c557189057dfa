"""Opening the SQLite database and applying numbered migrations.

Migrations are files bot/storage/migrations/NNNN_description.sql, applied in order, each inside one
transaction together with the bump of ``PRAGMA user_version``, so a crash mid-migration leaves the
database at the previous version.
"""
from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from pathlib import Path

import aiosqlite

from .backup import BackupFailed, source_version, take_backup

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: how long a write waits for another process's transaction before it gives up ("database is locked");
#: the process's setting (config ``database.busy_timeout``) replaces it once at start-up (``set_busy_timeout``)
BUSY_TIMEOUT_MS = 5000


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


def set_busy_timeout(seconds: float) -> None:
    """The busy timeout of every connection opened from now on: a process-wide setting, read from the
    configuration by the front end before it opens the database (the storage layer reads no settings)."""
    global BUSY_TIMEOUT_MS
    BUSY_TIMEOUT_MS = max(0, round(seconds * 1000))


def busy_seconds() -> float:
    return BUSY_TIMEOUT_MS / 1000


#: SQLite's own error, for the layers above that catch it (they import no database driver)
DatabaseError = sqlite3.Error


class Busy(sqlite3.OperationalError):
    """Another process held the database's write lock past the busy timeout, so this write transaction never
    began (or was rolled back): nothing of it was recorded, and trying again is safe.  A subclass of SQLite's
    own error, so that every ``except sqlite3.Error`` still sees it; its text still says "database is locked"
    (``describe``).  The front ends answer it with one line (``core.busy``), never a traceback."""

    def __init__(self, detail: str = "database is locked"):
        super().__init__(detail)
        self.seconds = busy_seconds()

    def message(self, locale: str | None) -> str:
        from bot.i18n import t
        return t("core.busy", locale, seconds=f"{self.seconds:g}")


def is_locked(exc: BaseException) -> bool:
    """SQLite's "database is locked": another connection holds what this one needs."""
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def begin_immediate(c: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on the database thread, waiting for another process's write up to the connection's
    busy timeout.  SQLite waits so long in most cases, but answers "locked" at once in a few (a WAL file being
    recovered or switched): that answer is tried again until the same deadline.  Past it: ``Busy``."""
    started, deadline = time.monotonic(), None
    while True:
        try:
            c.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not is_locked(exc):
                raise
            if deadline is None:  # read only when refused: the connection's own setting, not this module's
                deadline = started + c.execute("PRAGMA busy_timeout").fetchone()[0] / 1000
            if time.monotonic() + 0.01 >= deadline:
                raise Busy(str(exc)) from None
        time.sleep(0.01)


class DatabaseUnavailable(Exception):
    """The database cannot be used: damaged, not a database, unwritable, or written by a newer release.
    ``reason`` is a core.db.* string key; ``message(locale)`` is one line for a person, naming the file."""

    def __init__(self, reason: str, path: str | Path = "", **params: object):
        self.reason, self.path, self.params = reason, str(path), params
        super().__init__(f"{self.path}: {reason} {params}")

    def message(self, locale: str | None) -> str:
        from bot.i18n import t  # the storage layer needs the strings only when it has to explain itself
        return t("core.db.cannot_open", locale, db=self.path, reason=t(self.reason, locale, **self.params))


async def migrate(conn: aiosqlite.Connection) -> int:
    """Bring the schema up to date; returns the schema version.  A database whose version is newer than
    this program's migrations was written by a newer release: refused, since this one would misread it or
    write rows the newer one does not expect.

    Each migration is one ``BEGIN IMMEDIATE`` transaction that reads ``user_version`` again inside it: two
    processes opening a new file at once take turns, and the second finds the work done instead of running
    migration 1 a second time.  (The script is run statement by statement: ``executescript`` would commit
    the transaction first.)"""
    known = migration_files()
    return await conn._execute(lambda: _migrate(conn._conn, known))


def _migrate(c: sqlite3.Connection, known: list[tuple[int, Path]]) -> int:
    current = c.execute("PRAGMA user_version").fetchone()[0]
    if current > len(known):
        raise DatabaseUnavailable("core.db.newer_schema", version=current, known=len(known))
    for number, path in known:
        if number <= current:
            continue
        begin_immediate(c)
        try:
            current = c.execute("PRAGMA user_version").fetchone()[0]  # another process may have got here first
            if current < number:
                for statement in _statements(path.read_text(encoding="utf-8")):
                    c.execute(statement)
                c.execute(f"PRAGMA user_version = {number}")
                current = number
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
    return current


def _statements(script: str) -> list[str]:
    """The statements of a migration script, each complete (a trigger's body stays whole)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip() and sqlite3.complete_statement(pending + ";"):
        found.append(pending.strip())
    return found


async def open_reader(path: str | Path) -> aiosqlite.Connection:
    """A second connection to a database ``open_db`` opened, for reads outside a transaction (bot/storage/
    store.py): it sees committed rows only, and cannot write (``query_only``)."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA query_only = 1")
    except BaseException:
        await conn.close()
        raise
    return conn


def backup_before_migrating(path: str | Path) -> Path | None:
    """Back the database up (bot/storage/backup.py) when it holds a record (schema version 1 or more) and this
    release has schema migrations to apply to it; returns the proven backup's path, or None (nothing to migrate,
    or the operator's ``--no-backup``).  Raises BackupFailed: no migration without a proven backup.  Whatever
    keeps the file from being read is left to ``open_db`` to explain."""
    path = Path(path)
    if not path.is_file():
        return None
    current, known = source_version(path), len(migration_files())
    if current is None or not 0 < current < known:
        return None
    try:
        return take_backup(path, f"schema-{current}-to-{known}", expect_version=current)
    except BackupFailed as exc:
        # another process began migrating it between the look and the copy: that process backed it up first
        # (a record at 1 or more) or it was new (nothing to keep); either way nothing is left for this one
        if exc.reason == "upgrade.backup.why.changed" and (source_version(path) or 0) > current:
            return None
        raise


async def open_db(path: str | Path) -> aiosqlite.Connection:
    """Open (creating if needed) and migrate the database.  WAL lets readers work while one writer commits;
    synchronous=NORMAL is durable at every commit in WAL mode except on power loss of the host.

    Anything that makes the file unusable raises DatabaseUnavailable with a one-line reason, and the
    connection is closed first: its worker thread is not a daemon, so leaving it open would keep the
    process alive forever after the error."""
    path = Path(path)
    if not str(path) or path.is_dir():
        raise DatabaseUnavailable("core.db.not_a_file", path)
    if not path.parent.is_dir():
        raise DatabaseUnavailable("core.db.no_folder", path, folder=str(path.parent))
    try:
        # opened once without aiosqlite first: a failed aiosqlite.connect leaves its worker thread reporting to
        # an event loop that is gone by then, which prints a traceback of its own
        sqlite3.connect(str(path)).close()
        conn = await aiosqlite.connect(str(path), isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseUnavailable(describe(exc), path, detail=_first_line(exc)) from None
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await _enter_wal(conn)
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await _check_readable(conn)
        await migrate(conn)
    except BaseException as exc:
        await conn.close()
        if isinstance(exc, DatabaseUnavailable):
            raise DatabaseUnavailable(exc.reason, path, **exc.params) from None
        if isinstance(exc, Busy):  # another process is migrating or writing: nothing was changed, try again
            raise
        if is_locked(exc):
            raise Busy(str(exc)) from None
        if isinstance(exc, sqlite3.Error):
            raise DatabaseUnavailable(describe(exc), path, detail=_first_line(exc)) from None
        raise
    return conn


async def _enter_wal(conn: aiosqlite.Connection) -> None:
    """Switch the file to WAL.  The switch of a new file reads its header, then takes the write lock to change it;
    SQLite does not wait for a lock it would take on top of a read (another process switching the same new file
    at that moment answers "database is locked" at once, busy_timeout or not), so that refusal is tried again
    until the busy timeout's own deadline."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not is_locked(exc):
                raise
            if time.monotonic() > deadline:
                raise Busy(str(exc)) from None
        await asyncio.sleep(0.01)


async def _check_readable(conn: aiosqlite.Connection) -> None:
    """Touch every table's root page, so that a truncated or foreign file fails here and not in the middle
    of a game.  (A full integrity check would read the whole file; this costs one page per table.)"""
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        names = [row[0] for row in await cur.fetchall()]
    for name in names:
        async with conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1') as cur:
            await cur.fetchall()


_REASONS = {
    "file is not a database": "core.db.not_a_database",
    "database disk image is malformed": "core.db.damaged",
    "readonly database": "core.db.read_only",
    "unable to open database file": "core.db.cannot_open_file",
    "database or disk is full": "core.db.disk_full",
    "database is locked": "core.db.locked",
    "disk I/O error": "core.db.io_error",
}


def describe(exc: sqlite3.Error) -> str:
    """The core.db.* string key that says SQLite's reason in words a person acts on (core.db.other with
    ``detail`` for the rest)."""
    text = str(exc)
    return next((key for needle, key in _REASONS.items() if needle in text), "core.db.other")


def explain(exc: sqlite3.Error, locale: str | None) -> str:
    """SQLite's refusal in words, in ``locale`` (what the terminal and Discord tell a person)."""
    from bot.i18n import t
    return t(describe(exc), locale, detail=_first_line(exc))


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0][:200] if text else type(exc).__name__
