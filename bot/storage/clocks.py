"""The record of time control and of a moderator's pause (migration 0008), on the Store's connection.

Each change is one transaction of the Store: a reminder is enqueued together with the mark that it was sent
(so a crash sends it once or not at all, never twice), a pause together with its log entry and its notice.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from bot.engine.canonical import dumps

from .steprows import _INSERT_MESSAGES, _message_rows
from .store import Message, Store


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock as stored (its rules: bot/referee/timecontrol.py)."""
    seat: int
    since: float | None
    reminded: list[float]
    expired: bool
    away_from: float | None
    away_until: float | None
    away_used: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any] | sqlite3.Row) -> "SeatClock":
        return cls(row["seat"], row["since"], json.loads(row["reminded"]), bool(row["expired"]), row["away_from"],
                   row["away_until"], row["away_used"])


class Clocks:
    def __init__(self, store: Store):
        self.store = store

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]:
        rows = await self.store._all("SELECT * FROM seat_clocks WHERE table_id = ?", (table_id,))
        return {r["seat"]: SeatClock.from_row(r) for r in rows}

    async def due(self, now: float) -> list[int]:
        """Timed tables to look at: those that moved since their clocks were settled, and those with a reminder
        or an expiry due (only timed tables have a ``table_clocks`` row: the others cost nothing here)."""
        rows = await self.store._all(
            "SELECT t.id FROM table_clocks c JOIN tables t ON t.id = c.table_id WHERE t.status = 'active'"
            " AND t.paused_at IS NULL AND t.frozen IS NULL AND (c.version != t.version OR c.next_at <= ?)"
            " ORDER BY t.id", (now,))
        return [r["id"] for r in rows]

    async def settle(self, table_id: int, version: int, clocks: Sequence[SeatClock], next_at: float | None, *,
                     messages: Sequence[Message] = (), moderation: tuple[str, dict[str, Any]] | None = None,
                     bots: Sequence[int] = (), now: float) -> None:
        """The seat clocks as settled at ``version``, with what they caused: messages (reminders, notices), a
        log entry, and ``bots`` taking the seats whose time ran out.  One trip to the database thread: it
        follows every step of a timed table."""
        def write(db: sqlite3.Connection) -> None:
            db.executemany("UPDATE seats SET is_bot = 1 WHERE table_id = ? AND seat = ?",
                           [(table_id, seat) for seat in bots])
            db.executemany(
                "INSERT INTO seat_clocks (table_id, seat, since, reminded, expired, away_from, away_until, away_used)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET since = excluded.since,"
                " reminded = excluded.reminded, expired = excluded.expired",
                [(table_id, c.seat, c.since, dumps(c.reminded), int(c.expired), c.away_from, c.away_until,
                  c.away_used) for c in clocks])
            db.execute("INSERT INTO table_clocks (table_id, version, next_at) VALUES (?, ?, ?)"
                       " ON CONFLICT (table_id) DO UPDATE SET version = excluded.version,"
                       " next_at = excluded.next_at", (table_id, version, next_at))
            if messages:
                db.executemany(_INSERT_MESSAGES, _message_rows(table_id, version, list(messages), now))
            if moderation is not None:
                db.execute("INSERT INTO moderation (table_id, moderator, action, reason, data, at)"
                           " VALUES (?, 'system', ?, NULL, ?, ?)", (table_id, moderation[0], dumps(moderation[1]), now))

        await self.store._write_in_thread(write)

    async def began(self, table_id: int, started_at: float | None) -> float | None:
        """When the table's latest state began, on its clock: the time of its latest step (else its start)."""
        row = await self.store._one("SELECT at FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
                                    (table_id,))
        return row["at"] if row is not None else started_at

    async def take_vacation(self, table_id: int, seat: int, *, start: float, until: float, notice: Message,
                            now: float, charge: bool = True) -> None:
        """A vacation from ``start`` to ``until`` on the table's clock, taken from the seat's allowance (the
        caller checked it under the table's lock), told at the table; the clocks are to be settled again.

        Vacations add up: the seat keeps one vacation's span, so the part of the previous one that fell within
        the current decision is kept by moving the decision's start on by it (``deadline`` adds the new one).
        ``charge`` False: a vacation taken elsewhere in the same event, carried to this table (T-16)."""
        async with self.store.transaction() as db:
            async with db.execute("SELECT since, away_from, away_until FROM seat_clocks WHERE table_id = ?"
                                  " AND seat = ?", (table_id, seat)) as cur:
                row = await cur.fetchone()
            since = row["since"] if row is not None else None
            if row is not None and since is not None and row["away_until"] is not None and row["away_until"] > since:
                since += min(row["away_until"], start) - max(row["away_from"], since)
            await db.execute(
                "INSERT INTO seat_clocks (table_id, seat, since, away_from, away_until, away_used)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET since = excluded.since,"
                " away_from = excluded.away_from, away_until = excluded.away_until,"
                " away_used = away_used + excluded.away_used",
                (table_id, seat, since, start, until, until - start if charge else 0.0))
            await db.execute("UPDATE table_clocks SET version = -1 WHERE table_id = ?", (table_id,))
            await self._notice(db, table_id, notice, now)

    async def event_vacations(self, creator: str, user_id: str) -> list[tuple[int, float, float | None]]:
        """A player's vacations at every table of one creator (a tournament, ``tournament:N``): (table, seconds
        of allowance taken there, the wall time the latest one there ends).  An event's allowance and a
        running vacation follow the player from table to table (T-16)."""
        rows = await self.store._all(
            "SELECT c.table_id, c.away_used, c.away_until + t.paused_total AS until FROM seat_clocks c"
            " JOIN seats s ON s.table_id = c.table_id AND s.seat = c.seat"
            " JOIN tables t ON t.id = c.table_id WHERE t.creator = ? AND s.user_id = ?", (creator, user_id))
        return [(r["table_id"], r["away_used"], r["until"]) for r in rows]

    async def pause(self, table_id: int, *, by: str, reason: str, at: float, notice: Message) -> bool:
        """Pause an active table that is not paused (False otherwise): no deadline is due while it stands."""
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE tables SET paused_at = ?, paused_by = ?, paused_reason = ?, next_deadline = NULL"
                " WHERE id = ? AND status = 'active' AND paused_at IS NULL", (at, by, reason, table_id))
            if cur.rowcount != 1:
                return False
            await self._told(db, table_id, by, "pause", reason, {}, notice, at)
            return True

    async def resume(self, table_id: int, *, by: str, reason: str | None, at: float, notice: Message,
                     next_deadline: float | None) -> bool:
        """Resume a paused table: the paused seconds join ``paused_total`` (every deadline moves on by them),
        and the engine's next deadline (on the table's clock) is stored in wall time again."""
        async with self.store.transaction() as db:
            async with db.execute("SELECT paused_at, paused_total FROM tables WHERE id = ? AND status = 'active'"
                                  " AND paused_at IS NOT NULL", (table_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return False
            paused = round(at - row["paused_at"], 3)
            total = row["paused_total"] + paused
            await db.execute("UPDATE tables SET paused_at = NULL, paused_by = NULL, paused_reason = NULL,"
                             " paused_total = ?, next_deadline = ? WHERE id = ?",
                             (total, None if next_deadline is None else next_deadline + total, table_id))
            await db.execute("UPDATE table_clocks SET version = -1 WHERE table_id = ?", (table_id,))
            await self._told(db, table_id, by, "resume", reason, {"paused": paused}, notice, at)
            return True

    @staticmethod
    async def _told(db: Any, table_id: int, by: str, action: str, reason: str | None, data: dict[str, Any],
                    notice: Message, at: float) -> None:
        await db.execute("INSERT INTO moderation (table_id, moderator, action, reason, data, at)"
                         " VALUES (?, ?, ?, ?, ?, ?)", (table_id, by, action, reason, dumps(data), at))
        await Clocks._notice(db, table_id, notice, at)

    @staticmethod
    async def _notice(db: Any, table_id: int, notice: Message, at: float) -> None:
        async with db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)) as cur:
            (version,) = await cur.fetchone()
        await db.executemany(_INSERT_MESSAGES, _message_rows(table_id, version, [notice], at))
