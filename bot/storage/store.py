"""The one interface to the record.  All SQL lives here; callers see rows as small dataclasses.

Writes go through ``transaction()``: one asyncio lock serialises transactions on the shared connection
(statements from two coroutines must never interleave inside one BEGIN..COMMIT), and every write that
belongs to one referee decision (action, snapshot, events, outbox, table version) commits together.
A server database could replace this class behind the same methods.
"""
from __future__ import annotations

import asyncio
import json
import zlib
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, Sequence

import aiosqlite

from bot.engine.canonical import dumps

from .db import open_db


def pack_state(state: dict[str, Any]) -> bytes:
    """A snapshot (or an outbox payload) as stored: its canonical JSON, zlib-compressed (states compress about
    tenfold, and a table keeps one per action and a few messages per action).  ``unpack_state`` returns the
    exact canonical text, so byte-for-byte checks hold; rows written as text by older releases still read."""
    return zlib.compress(dumps(state).encode(), 6)


def unpack_state(stored: bytes | str) -> str:
    return stored if isinstance(stored, str) else zlib.decompress(stored).decode()


class VersionConflict(Exception):
    """The table moved on between reading its state and writing the next one."""


@dataclass(frozen=True)
class TableRow:
    id: int
    game: str
    status: str
    options: dict[str, Any]
    seed: str | None
    seed_hash: str | None
    stack: dict[str, Any] | None
    version: int
    next_deadline: float | None
    origin: str
    creator: str
    title: str | None
    locale: str | None
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    outcome: dict[str, Any] | None
    created_at: float
    started_at: float | None
    finished_at: float | None

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "TableRow":
        d = dict(row)
        for key in ("options", "stack", "outcome"):
            d[key] = json.loads(d[key]) if d[key] is not None else None
        return cls(**d)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: str
    name: str
    is_bot: bool


@dataclass(frozen=True)
class ActionRow:
    version: int
    seat: int
    user_id: str
    action: dict[str, Any]
    at: float


@dataclass(frozen=True)
class EventRow:
    version: int
    idx: int
    kind: str
    to: list[int] | None
    data: dict[str, Any]

    def as_event(self) -> dict[str, Any]:
        return {"kind": self.kind, "to": self.to, "data": self.data}


@dataclass(frozen=True)
class OutboxRow:
    id: int
    table_id: int
    version: int
    target: str
    seat: int | None
    kind: str
    payload: dict[str, Any]
    status: str
    attempts: int
    external_id: str | None


@dataclass(frozen=True)
class Message:
    """An outgoing message to enqueue: to the table's channel/thread, or privately to one seat."""

    target: str  # "table" | "seat"
    kind: str
    payload: dict[str, Any]
    seat: int | None = None


class Store:
    def __init__(self, conn: aiosqlite.Connection):
        self.conn = conn
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        return cls(await open_db(path))

    async def close(self) -> None:
        await self.conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.rollback()
                raise
            await self.conn.commit()

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    # ------------------------------------------------------------------ tables and seats
    async def create_table(
        self, *, game: str, options: dict[str, Any], creator: str, origin: str, now: float,
        title: str | None = None, locale: str | None = None, guild_id: str | None = None,
        channel_id: str | None = None,
    ) -> int:
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO tables (game, status, options, creator, origin, title, locale, guild_id, channel_id,"
                " created_at) VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, dumps(options), creator, origin, title, locale, guild_id, channel_id, now),
            )
            return cur.lastrowid

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return TableRow.from_row(row) if row else None

    async def find_tables(
        self, *, status: Iterable[str] | None = None, channel_id: str | None = None,
        thread_id: str | None = None, user_id: str | None = None, game: str | None = None, limit: int = 100,
    ) -> list[TableRow]:
        where, params = [], []
        if status is not None:
            status = list(status)
            where.append(f"status IN ({','.join('?' * len(status))})")
            params += status
        if channel_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            params += [channel_id, channel_id]
        if thread_id is not None:
            where.append("thread_id = ?")
            params.append(thread_id)
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if user_id is not None:
            where.append("id IN (SELECT table_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        sql = "SELECT * FROM tables" + (" WHERE " + " AND ".join(where) if where else "")
        rows = await self._all(sql + " ORDER BY id DESC LIMIT ?", (*params, limit))
        return [TableRow.from_row(r) for r in rows]

    async def set_table_fields(self, table_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "title", "locale", "channel_id", "guild_id", "status", "options"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)}")
        values = [dumps(v) if k == "options" else v for k, v in fields.items()]
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE tables SET {', '.join(f'{k} = ?' for k in fields)} WHERE id = ?", (*values, table_id)
            )

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT seat, user_id, name, is_bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [SeatRow(r["seat"], r["user_id"], r["name"], bool(r["is_bot"])) for r in rows]

    async def add_seat(self, table_id: int, user_id: str, name: str, *, is_bot: bool, now: float) -> int:
        """Append a player to a lobby; returns the seat number."""
        async with self.transaction() as db:
            async with db.execute("SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?",
                                  (table_id,)) as cur:
                (seat,) = await cur.fetchone()
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, seat, user_id, name, int(is_bot), now),
            )
            return seat

    async def remove_seat(self, table_id: int, user_id: str) -> bool:
        """Remove a player from a lobby and renumber the seats after them (seats stay 0..n-1)."""
        async with self.transaction() as db:
            async with db.execute("SELECT seat FROM seats WHERE table_id = ? AND user_id = ? ORDER BY seat DESC"
                                  " LIMIT 1", (table_id, user_id)) as cur:
                row = await cur.fetchone()
            if row is None:
                return False
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, row["seat"]))
            rows = await (await db.execute(
                "SELECT seat FROM seats WHERE table_id = ? AND seat > ? ORDER BY seat", (table_id, row["seat"])
            )).fetchall()
            for r in rows:
                await db.execute("UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                                 (r["seat"] - 1, table_id, r["seat"]))
            return True

    # ------------------------------------------------------------------ the game record
    async def start_table(
        self, table_id: int, *, seed: str, seed_hash: str, stack: dict[str, Any] | None, options: dict[str, Any],
        state: dict[str, Any], events: list[dict[str, Any]], messages: list[Message], now: float,
        next_deadline: float | None,
    ) -> None:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE tables SET status = 'active', seed = ?, seed_hash = ?, stack = ?, options = ?, version = 0,"
                " started_at = ?, next_deadline = ? WHERE id = ? AND status = 'lobby'",
                (seed, seed_hash, dumps(stack) if stack else None, dumps(options), now, next_deadline, table_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"table {table_id} is no longer in the lobby")
            await db.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)",
                             (table_id, pack_state(state)))
            await self._insert_events(db, table_id, 0, events)
            await self._insert_messages(db, table_id, 0, messages, now)

    async def record_action(
        self, table_id: int, *, expected_version: int, seat: int, user_id: str, action: dict[str, Any], at: float,
        state: dict[str, Any], events: list[dict[str, Any]], messages: list[Message],
        next_deadline: float | None, outcome: dict[str, Any] | None,
    ) -> None:
        """Append one applied action with everything it caused, atomically.  Raises VersionConflict if the
        table is not at ``expected_version`` any more (another action won the race).  Seat -1 marks a
        moderator's action (a rollback), the only kind that may reopen a finished table."""
        version = expected_version + 1
        async with self.transaction() as db:
            if outcome is None:
                # a moderator's rollback may reopen a finished table, hence 'finished' here
                cur = await db.execute(
                    "UPDATE tables SET version = ?, next_deadline = ?, status = 'active', outcome = NULL,"
                    " finished_at = NULL WHERE id = ? AND version = ? AND (status = 'active' OR"
                    " (status = 'finished' AND ? < 0))", (version, next_deadline, table_id, expected_version, seat))
            else:
                cur = await db.execute(
                    "UPDATE tables SET version = ?, next_deadline = NULL, status = 'finished', outcome = ?,"
                    " finished_at = ? WHERE id = ? AND version = ? AND status = 'active'",
                    (version, dumps(outcome), at, table_id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(f"table {table_id} is not at version {expected_version}")
            await db.execute(
                "INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, version, seat, user_id, dumps(action), at))
            await db.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)",
                             (table_id, version, pack_state(state)))
            await self._insert_events(db, table_id, version, events)
            await self._insert_messages(db, table_id, version, messages, at)

    async def cancel_table(self, table_id: int, *, moderator: str, reason: str | None, now: float,
                           messages: list[Message]) -> bool:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE tables SET status = 'cancelled', finished_at = ?, next_deadline = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')", (now, table_id))
            if cur.rowcount != 1:
                return False
            row = await (await db.execute("SELECT version FROM tables WHERE id = ?", (table_id,))).fetchone()
            await db.execute("INSERT INTO moderation (table_id, moderator, action, reason, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, moderator, "cancel", reason, now))
            await self._insert_messages(db, table_id, row["version"], messages, now)
            return True

    async def enqueue(self, table_id: int, version: int, messages: list[Message], now: float) -> None:
        """Messages that belong to no action (a moderator's announcement)."""
        async with self.transaction() as db:
            await self._insert_messages(db, table_id, version, messages, now)

    async def _insert_events(self, db: aiosqlite.Connection, table_id: int, version: int,
                             events: list[dict[str, Any]]) -> None:
        await db.executemany(
            "INSERT INTO events (table_id, version, idx, kind, visible_to, data) VALUES (?, ?, ?, ?, ?, ?)",
            [(table_id, version, i, e["kind"], None if e["to"] is None else dumps(e["to"]), dumps(e["data"]))
             for i, e in enumerate(events)])

    async def _insert_messages(self, db: aiosqlite.Connection, table_id: int, version: int,
                               messages: list[Message], now: float) -> None:
        await db.executemany(
            "INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(table_id, version, m.target, m.seat, m.kind, pack_state(m.payload), now) for m in messages])

    async def state(self, table_id: int, version: int | None = None) -> dict[str, Any] | None:
        if version is None:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1",
                                  (table_id,))
        else:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? AND version = ?",
                                  (table_id, version))
        return json.loads(unpack_state(row["state"])) if row else None

    async def snapshot_texts(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._all("SELECT version, state FROM snapshots WHERE table_id = ? ORDER BY version",
                               (table_id,))
        return [(r["version"], unpack_state(r["state"])) for r in rows]

    async def actions(self, table_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE table_id = ? ORDER BY version", (table_id,))
        return [ActionRow(r["version"], r["seat"], r["user_id"], json.loads(r["action"]), r["at"]) for r in rows]

    async def events(self, table_id: int, *, since: int = 0) -> list[EventRow]:
        rows = await self._all(
            "SELECT * FROM events WHERE table_id = ? AND version >= ? ORDER BY version, idx", (table_id, since))
        return [EventRow(r["version"], r["idx"], r["kind"],
                         None if r["visible_to"] is None else json.loads(r["visible_to"]), json.loads(r["data"]))
                for r in rows]

    async def due_tables(self, now: float) -> list[int]:
        rows = await self._all(
            "SELECT id FROM tables WHERE status = 'active' AND next_deadline IS NOT NULL AND next_deadline <= ?"
            " ORDER BY next_deadline", (now,))
        return [r["id"] for r in rows]

    async def add_moderation(self, table_id: int | None, moderator: str, action: str, reason: str | None,
                             data: dict[str, Any] | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO moderation (table_id, moderator, action, reason, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, moderator, action, reason, dumps(data) if data is not None else None, now))

    # ------------------------------------------------------------------ outbox
    async def pending_messages(self, *, limit: int = 50, max_attempts: int = 5,
                               origins: Sequence[str] | None = None) -> list[OutboxRow]:
        """Pending messages in order; ``origins`` keeps to tables of those front ends (a terminal and the
        Discord bot may share one database, and each must leave the other's messages alone)."""
        where = ""
        params: list[Any] = [max_attempts]
        if origins is not None:
            where = f" AND table_id IN (SELECT id FROM tables WHERE origin IN ({', '.join('?' * len(origins))}))"
            params += list(origins)
        rows = await self._all(
            f"SELECT * FROM outbox WHERE status = 'pending' AND attempts < ?{where} ORDER BY id LIMIT ?",
            (*params, limit))
        return [_outbox_row(r) for r in rows]

    async def last_sent(self, table_id: int, *, before: int, kinds: Sequence[str],
                        target: str = "table") -> OutboxRow | None:
        """The latest message of the table sent before outbox id ``before`` whose kind is one of ``kinds``
        (a front end finds the previous turn announcement this way, to retire its buttons)."""
        r = await self._one(
            f"SELECT * FROM outbox WHERE table_id = ? AND target = ? AND status = 'sent' AND id < ?"
            f" AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY id DESC LIMIT 1",
            (table_id, target, before, *kinds))
        return None if r is None else _outbox_row(r)

    async def mark_sent(self, message_id: int, *, external_id: str | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET status = 'sent', external_id = ?, sent_at = ?,"
                             " attempts = attempts + 1 WHERE id = ?", (external_id, now, message_id))

    async def mark_failed(self, message_id: int, *, error: str, final: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, status = ? WHERE id = ?",
                (error[:500], "failed" if final else "pending", message_id))

    async def mark_skipped(self, message_id: int, *, reason: str) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET status = 'skipped', last_error = ? WHERE id = ?",
                             (reason[:500], message_id))

    async def failed_messages(self, *, limit: int = 50) -> list[tuple[int, int, str]]:
        rows = await self._all("SELECT id, table_id, last_error FROM outbox WHERE status = 'failed'"
                               " ORDER BY id DESC LIMIT ?", (limit,))
        return [(r["id"], r["table_id"], r["last_error"]) for r in rows]

    # ------------------------------------------------------------------ people and servers
    async def user(self, user_id: str) -> dict[str, Any]:
        row = await self._one("SELECT * FROM users WHERE user_id = ?", (user_id,))
        return dict(row) if row else {"user_id": user_id, "locale": None, "dm_closed": 0, "dm_notice": 0}

    async def set_user(self, user_id: str, **fields: Any) -> None:
        await self._upsert("users", "user_id", user_id, {"locale", "dm_closed", "dm_notice"}, fields)

    async def guild(self, guild_id: str) -> dict[str, Any]:
        row = await self._one("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
        return dict(row) if row else {"guild_id": guild_id, "locale": None, "moderator_role": None}

    async def set_guild(self, guild_id: str, **fields: Any) -> None:
        await self._upsert("guilds", "guild_id", guild_id, {"locale", "moderator_role"}, fields)

    async def _upsert(self, table: str, key_col: str, key: str, allowed: set[str], fields: dict[str, Any]) -> None:
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)} on {table}")
        cols = ", ".join(fields)
        marks = ", ".join("?" * len(fields))
        updates = ", ".join(f"{k} = excluded.{k}" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"INSERT INTO {table} ({key_col}, {cols}) VALUES (?, {marks})"
                             f" ON CONFLICT ({key_col}) DO UPDATE SET {updates}", (key, *fields.values()))


def _outbox_row(r: Any) -> OutboxRow:
    return OutboxRow(r["id"], r["table_id"], r["version"], r["target"], r["seat"], r["kind"],
                     json.loads(unpack_state(r["payload"])), r["status"], r["attempts"], r["external_id"])
