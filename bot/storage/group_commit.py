"""Group commit: the writes that arrive while one transaction is being written share the next one.

Each accepted action is one write (its table's version check, action, snapshot, events, outbox).  Alone, each
paid a whole trip to the database thread and a commit; when many tables move at once, the actions queued
behind one writer now go to the database thread together and commit in one transaction.  Nothing is
acknowledged before its commit: a caller's ``write`` returns only after the transaction holding its rows
committed, and a transaction that fails takes none of them (each caller gets the error).

A write may refuse cleanly (``clean``: an exception it raises before it changed anything, such as a version
check that failed): the others of its batch still commit.  Any other failure rolls the batch back and its
writes are tried again one transaction each, so that only the faulty one fails.

A write may return rows to insert (``Inserts``: statement and parameter rows) instead of inserting them
itself: the batch inserts the rows of all its writes with one ``executemany`` per statement, after every
write's checks, which spares the database thread a statement per table per write.
"""
from __future__ import annotations

import asyncio
import sqlite3
from typing import Any, Awaitable, Callable, Iterable, Optional, Protocol, TypeVar

from .db import Busy, begin_immediate, is_locked

T = TypeVar("T")
Inserts = Iterable[tuple[str, list[tuple[Any, ...]]]]
Write = Callable[[sqlite3.Connection], Optional[Inserts]]


class InThread(Protocol):
    """The store's one trip to the database thread (StoreBase._in_thread), generic in what ``fn`` returns."""

    def __call__(self, fn: Callable[[sqlite3.Connection], T], /) -> Awaitable[T]: ...


class GroupCommit:
    def __init__(self, lock: asyncio.Lock,
                 in_thread: InThread,
                 clean: tuple[type[BaseException], ...]):
        self._lock = lock              # the store's writer lock: a batch never runs inside another transaction
        self._in_thread = in_thread
        self._clean = clean
        self._queued: list[tuple[Write, asyncio.Future[None]]] = []
        self._leading: asyncio.Future[None] | None = None   # a caller writing its own batch: done when it is
        self._committer: asyncio.Task[None] | None = None   # the task writing what queued meanwhile

    async def write(self, fn: Write) -> None:
        """Run ``fn`` on the database thread inside a transaction shared with the writes queued meanwhile;
        return once it committed.  A caller cancelled before its batch began is not written at all."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queued.append((fn, done))
        if not self._busy():
            # nothing is being written: this caller writes its batch itself, without a task to start and
            # switch to (a tenth of a lone table's action); what queues meanwhile goes to the committer task
            self._leading = loop.create_future()
            try:
                await self._commit_batch()
            finally:
                self._leading.set_result(None)
                self._leading = None
                if self._queued:
                    self._committer = loop.create_task(self._commit_queued())
        await done

    def _busy(self) -> bool:
        return self._leading is not None or (self._committer is not None and not self._committer.done())

    async def wait_idle(self) -> None:
        """Until every queued write has been committed or refused (before the connection closes)."""
        while self._busy():
            waiting = self._leading if self._leading is not None else self._committer
            assert waiting is not None  # busy: a leading caller or the committer is writing
            await asyncio.shield(waiting)

    async def _commit_queued(self) -> None:
        while self._queued:
            await self._commit_batch()

    async def _commit_batch(self) -> None:
        """What is queued now, as one transaction; each write's caller hears its outcome."""
        batch = [(fn, done) for fn, done in self._queued if not done.done()]
        self._queued = []
        if batch:
            try:
                async with self._lock:
                    errors = await self._in_thread(lambda c: self._write_batch(c, [fn for fn, _ in batch]))
            except asyncio.CancelledError:
                for _, done in batch:
                    done.cancel()
                raise
            except BaseException as exc:  # the connection itself failed: none of them is written
                errors = [exc] * len(batch)
            for (_, done), error in zip(batch, errors):
                if done.done():
                    continue
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)

    def _write_batch(self, c: sqlite3.Connection, writes: list[Write]) -> list[BaseException | None]:
        """On the database thread: the writes in one transaction, or each in its own after a failure that one
        of them may have caused.  A transaction that cannot begin (the file locked by another process past
        the busy timeout, a disk gone) fails them all at once: trying each would wait once each."""
        try:
            begin_immediate(c)
        except sqlite3.Error as exc:
            return [exc] * len(writes)
        try:
            return self._transaction(c, writes)
        except Exception as exc:
            if len(writes) == 1:
                return [exc]
        return [self._alone(c, fn) for fn in writes]

    def _alone(self, c: sqlite3.Connection, fn: Write) -> BaseException | None:
        try:
            begin_immediate(c)
            return self._transaction(c, [fn])[0]
        except Exception as exc:
            return exc

    def _transaction(self, c: sqlite3.Connection, writes: list[Write]) -> list[BaseException | None]:
        """The writes, their inserts and COMMIT, inside the transaction just begun."""
        def run(c: sqlite3.Connection) -> list[BaseException | None]:
            errors: list[BaseException | None] = []
            inserts: dict[str, list[tuple[Any, ...]]] = {}
            for fn in writes:
                try:
                    for sql, rows in fn(c) or ():
                        inserts.setdefault(sql, []).extend(rows)
                    errors.append(None)
                except self._clean as exc:
                    errors.append(exc)
            for sql, rows in inserts.items():
                c.executemany(sql, rows)
            return errors

        return committed(c, run)


def committed(c: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn`` and COMMIT, inside the transaction just begun on ``c``; rolled back if either fails (a "locked"
    then is ``Busy``: nothing of it recorded)."""
    try:
        result = fn(c)
        c.execute("COMMIT")
    except BaseException as exc:
        if c.in_transaction:  # also when COMMIT itself failed
            c.execute("ROLLBACK")
        if is_locked(exc) and not isinstance(exc, Busy):
            raise Busy(str(exc)) from exc
        raise
    return result
