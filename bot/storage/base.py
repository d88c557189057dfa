"""The store's machinery: its two connections (a writer under one lock, a reader), transactions, and a
whole read or write in one trip to the database thread.  The queries, by job, build on it (bot/storage/store.py)."""
from __future__ import annotations

import asyncio
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Self, Sequence, TypeVar

import aiosqlite

from bot.storage.checkpoint import BACKSTOP_PAGES, Checkpointer
from bot.storage.db import Busy, backup_before_migrating, begin_immediate, is_locked, open_db, open_reader
from bot.storage.group_commit import GroupCommit, committed
from bot.storage.rows import Message, Step, VersionConflict
from bot.storage.steprows import _INSERT_MESSAGES, _message_rows, _StepRows

T = TypeVar("T")


class StoreBase:
    """The connections, the write lock and one trip to the database thread; the queries are the mixins' (store.py)."""

    def __init__(self, conn: aiosqlite.Connection, checkpoints: Checkpointer | None = None,
                 path: str | Path | None = None, backups: Sequence[Path] = (),
                 reader: aiosqlite.Connection | None = None):
        self.conn = conn                   # the writer's: used only under ``_write`` (and by open_db)
        self.reader = reader or conn       # reads outside a transaction
        self.path = path              # the database file (None: a connection given by a caller)
        self.backups = list(backups)  # the backups opening it took (bot/storage/backup.py)
        self.upgrade_report: Any = None  # what opening it for a front end migrated (bot/referee/upgrade.py open_store)
        self._write = asyncio.Lock()
        # actions of many tables arriving together commit together (a version check that fails refuses one)
        self._steps = GroupCommit(self._write, self._in_thread, clean=(VersionConflict,))
        self.checkpoints = checkpoints

    @classmethod
    async def open(cls, path: str | Path, *, backup: bool = True) -> Self:
        # before any schema migration touches a record (``backup`` False: a throwaway copy, upgrade --check)
        taken = backup_before_migrating(path) if backup else None
        conn = await open_db(path)
        try:
            await conn.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")  # the checkpoint thread's backstop
            reader = await open_reader(path)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, Checkpointer(path), path, [taken] if taken else [], reader)

    async def close(self) -> None:
        await self._steps.wait_idle()
        if self.checkpoints is not None:
            self.checkpoints.close()
        if self.reader is not self.conn:
            await self.reader.close()
        await self.conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; another process holding the file past the busy timeout makes it ``Busy``
        (bot/storage/db.py), with nothing of it recorded."""
        async with self._write:
            await self._in_thread(begin_immediate)
            try:
                yield self.conn
                await self.conn.commit()
            except BaseException as exc:
                # also when COMMIT itself fails (a full disk): the connection must not stay inside a transaction
                if self.conn.in_transaction:
                    await self.conn.rollback()
                if is_locked(exc) and not isinstance(exc, Busy):
                    raise Busy(str(exc)) from exc  # rolled back: nothing of it recorded
                raise

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` with the connection on aiosqlite's own thread: a whole read or write in one trip to that
        thread, instead of one trip per statement, fetch and cursor close (16 of them made an action).
        aiosqlite has no public call for this; ``_execute`` is the queue its own methods use."""
        conn = self.conn
        return await conn._execute(lambda: fn(conn._conn))

    async def _read_in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn`` with the reader's connection on its thread, in one trip: it sees committed rows only."""
        conn = self.reader
        return await conn._execute(lambda: fn(conn._conn))

    async def _read_snapshot(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn`` as ``_read_in_thread`` does, every read of it seeing one snapshot of the database (BEGIN …
        COMMIT around it): what it reads of several tables belongs together, whatever another writer commits."""
        def run(c: sqlite3.Connection) -> T:
            own = not c.in_transaction
            if own:
                c.execute("BEGIN")
            try:
                return fn(c)
            finally:
                if own:
                    c.execute("COMMIT")

        return await self._read_in_thread(run)

    async def _write_in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn`` as one transaction, BEGIN to COMMIT inside one trip to the database thread."""
        def run(c: sqlite3.Connection) -> T:
            begin_immediate(c)
            return committed(c, fn)

        async with self._write:  # the transactions of transaction() span several trips: never inside one
            return await self._in_thread(run)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """The first row, read on the reader in one trip (no statement stays open between trips)."""
        return await self._read_in_thread(lambda c: c.execute(sql, params).fetchone())

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return await self._read_in_thread(lambda c: c.execute(sql, params).fetchall())

    async def _insert_messages(self, db: aiosqlite.Connection, table_id: int, version: int,
                               messages: list[Message], now: float) -> None:
        await db.executemany(_INSERT_MESSAGES, _message_rows(table_id, version, messages, now))

    @staticmethod
    def _append(c: sqlite3.Connection, table_id: int, expected_version: int, step: Step) -> None:
        """One step's rows, inside the caller's transaction on the database thread."""
        _StepRows.of(table_id, expected_version, step).write(c)
