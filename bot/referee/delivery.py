"""Draining the outbox: every message the referee committed is handed to a Deliverer until it succeeds,
is skipped, or fails for good.

The guarantee, precisely:

- **At least once, in order.**  A message is marked sent only after ``Deliverer.deliver`` returned, in its own
  transaction.  A crash (kill -9, power) anywhere before that leaves it pending, and the next run delivers
  it again, so no committed message is lost.  Messages of one table are attempted in outbox order; after a
  transient failure the rest of that table's messages wait for the next round.
- **Attempts are not effects.**  A crash between the recipient taking a message and ``mark_sent`` makes the
  next run attempt the same message again: delivery is at-least-once *attempts*.  Whether the recipient then
  sees it twice is the deliverer's business: ``deliver`` must be idempotent for one outbox row (the row's id
  is stable across attempts and runs; ``attempts`` > 0 says an earlier attempt failed).  Each deliverer
  states what it guarantees (Discord, kind by kind: bot/discord/delivery.py; the terminal's deliverer
  prints to a screen, where a line printed again after a crash is at worst read twice).
- **Permanent failures** (the deliverer says so) are recorded and surfaced to moderators instead of being
  retried forever; transient ones are retried with a growing pause, up to MAX_ATTEMPTS attempts, then
  recorded as failed.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable, Protocol, Sequence

from bot.process.metrics import METRICS
from bot.storage.db import Busy
from bot.referee.visibility import pending_messages
from bot.storage.store import OutboxRow, SeatRow, Store, TableRow

log = logging.getLogger("judge.delivery")

MAX_ATTEMPTS = 5


class DeliveryError(Exception):
    def __init__(self, message: str, *, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class Skip(Exception):
    """The deliverer decided this message has no recipient (e.g. a bot seat); mark it skipped."""


class Deliverer(Protocol):
    origins: tuple[str, ...] | None   # the origins of the tables this front end delivers for (None: all)

    async def deliver(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        """Send one message; return an external id (e.g. a Discord message id) or None.
        Raise DeliveryError (permanent or not) or Skip."""


async def drain(store: Store, deliverer: Deliverer, *, limit: int = 100, only: Sequence[int] | None = None,
                halt: Callable[[], bool] | None = None) -> int:
    """Deliver pending messages in order; returns how many were sent.  Messages of one table stay in
    order: after a transient failure the rest of that table's messages wait for the next round.  ``only``: the
    messages of these tables alone, the others left pending for whoever delivers them (a terminal command's
    screen is no channel of another table).  ``halt``: asked before each message; True ends the round there (a
    process stopping finishes the message in hand, never half of one)."""
    sent = 0
    blocked: set[int] = set()
    tables: dict[int, tuple[TableRow, list[SeatRow]]] = {}
    for message in await pending_messages(store, limit=limit, max_attempts=MAX_ATTEMPTS,
                                          origins=deliverer.origins, tables=only):
        if halt is not None and halt():
            break
        if message.table_id in blocked:
            continue
        if message.table_id not in tables:
            table = await store.known_table(message.table_id)  # an outbox row's table is in the record
            tables[message.table_id] = (table, await store.seats(message.table_id))
        table, seats = tables[message.table_id]
        try:
            external_id = await deliverer.deliver(table, seats, message)
        except Skip as reason:
            await store.mark_skipped(message.id, reason=str(reason) or "no recipient")
            continue
        except DeliveryError as exc:
            final = exc.permanent or message.attempts + 1 >= MAX_ATTEMPTS
            METRICS.delivery_failures.labels(kind="final" if final else "retried").inc()
            await store.mark_failed(message.id, error=str(exc), final=final)
            if final:
                log.error("message %s of table %s failed for good: %s", message.id, message.table_id, exc)
            else:
                blocked.add(message.table_id)
            continue
        except Exception as exc:  # a deliverer bug must not stop the worker
            log.exception("deliverer crashed on message %s", message.id)
            METRICS.delivery_failures.labels(kind="crashed").inc()
            await store.mark_failed(message.id, error=repr(exc), final=message.attempts + 1 >= MAX_ATTEMPTS)
            blocked.add(message.table_id)
            continue
        try:
            await store.mark_sent(message.id, external_id=external_id, now=time.time())
        except Busy:  # delivered, not marked: sent once more by a later round (at least once); the rest waits too
            log.warning("message %s of table %s delivered, not yet marked: the database is busy", message.id,
                        message.table_id)
            break
        METRICS.delivered.inc()
        sent += 1
    return sent


class DeliveryWorker:
    """Runs ``drain`` whenever the referee signals a commit, and every few seconds for retries."""

    def __init__(self, store: Store, deliverer: Deliverer, wake: asyncio.Event, *, idle: float = 5.0,
                 settle: float = 0.0):
        self.store, self.deliverer, self.wake, self.idle = store, deliverer, wake, idle
        # after a wake-up, wait this long for the moves that follow at once (bots answering, a forced move,
        # quick clicks): they are then delivered together, one edit of a table message instead of several
        self.settle = settle
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.busy_since: float | None = None
        self.last_round = time.monotonic()

    def start(self) -> None:
        self._stopping = False
        self.busy_since = None              # monotonic time the round in hand began (None: waiting)
        self.last_round = time.monotonic()  # when the last round ended (or the worker started)
        self._task = asyncio.create_task(self._run(), name="judge-delivery")

    def stuck(self, limit: float = 300.0) -> str | None:
        """Why the worker is not delivering, or None: it is not running, or one round has taken over ``limit``
        seconds (a round delivers at most 100 messages; Discord's retries are bounded)."""
        if self._task is None or self._task.done():
            return "not running"
        if self.busy_since is not None and time.monotonic() - self.busy_since > limit:
            return f"one delivery round has run for {time.monotonic() - self.busy_since:.0f} s"
        return None

    async def stop(self, grace: float = 0.0) -> None:
        """Stop.  With ``grace`` (seconds) the message being delivered is finished first, so that a stopping
        process (SIGTERM) leaves no half-sent message behind; what is still pending is delivered after the
        restart.  Past the grace, or without one, the round is cancelled where it is (still safe: a row is
        marked sent only after its delivery returned, and a delivery done again is idempotent)."""
        if not self._task:
            return
        self._stopping = True
        self.wake.set()
        if grace > 0 and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), grace)
            except asyncio.TimeoutError:
                log.warning("delivery did not finish its message within %.0f s of the stop; cancelled", grace)
            except Exception:
                pass
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass

    async def _run(self) -> None:
        pause = self.idle
        while not self._stopping:
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=pause)
            except asyncio.TimeoutError:
                pass
            self.wake.clear()
            if self._stopping:
                return
            if self.settle:
                await asyncio.sleep(self.settle)
            self.busy_since = time.monotonic()
            try:
                await drain(self.store, self.deliverer, halt=lambda: self._stopping)
                pause = self.idle
            except Busy:  # another process held the file past the busy timeout: the next round tries again
                log.warning("delivery round waited for the database past the busy timeout; retried")
            except Exception:
                log.exception("delivery round failed")
                pause = min(pause * 2, 60.0)
            finally:
                self.busy_since, self.last_round = None, time.monotonic()
