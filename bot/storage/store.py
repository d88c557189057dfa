"""The one interface to the record.  All SQL lives here; callers see rows as small dataclasses.

Writes go through ``transaction()``: one asyncio lock serialises transactions on the writer's connection
(statements from two coroutines must never interleave inside one BEGIN..COMMIT), and every write that
belongs to one referee decision (action, snapshot, events, outbox, table version) commits together.
Reads outside a transaction go to a connection of their own (``reader``), each in one trip to its thread, so
that (bot/storage/db.py, "several processes"): no reader sees a transaction before it commits, and no read
leaves a statement open on the writer's connection — a ``BEGIN IMMEDIATE`` landing beside one would fail at
once with "database is locked" instead of waiting for another process's write (SQLite does not wait to
upgrade a read snapshot that another process's commit made stale).
A server database could replace this class behind the same methods.
"""
from __future__ import annotations

import asyncio
import sqlite3
import threading
import zlib
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable, Sequence, TypeVar

import aiosqlite
import zstandard

from bot.engine.canonical import dumps, dumps_bytes, loads
from bot.engine.free_text import stored_name, stored_text, stored_title
from bot.storage.outbox import FROM_RECORD

from .checkpoint import BACKSTOP_PAGES, Checkpointer
from .db import Busy, backup_before_migrating, begin_immediate, is_locked, open_db, open_reader
from .group_commit import GroupCommit, Inserts, committed

T = TypeVar("T")


#: Below this many bytes a payload is stored as its text: a zstd frame adds about 13 bytes of header, so
#: under ~100 bytes it is as long as the text or longer, and up to here it saves a few bytes at best, for
#: a compression on writing and a decompression on reading.  The lean outbox payloads (~60 bytes) are so.
SMALL_PAYLOAD = 128
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_zstd = threading.local()  # zstandard's (de)compressor objects are not for concurrent use: one per thread
# (the database thread and the event loop's both pack and unpack); zstandard.compress() would make a new
# compressor on every call, which costs more than the compression.


def pack_state(state: dict[str, Any]) -> bytes | str:
    """A snapshot (or an outbox payload) as stored: its canonical JSON, zstd-compressed at level 1 (states
    compress about threefold, and a table keeps one per action and a few messages per action); a small one
    (``SMALL_PAYLOAD``) as its text.  ``unpack_state`` returns the exact canonical text, so byte-for-byte
    checks hold.  zstd level 1 compresses in about half the time of zlib level 1 (which older releases
    wrote, and which still reads) to about the same size, and decompresses faster too."""
    text = dumps_bytes(state)
    if len(text) < SMALL_PAYLOAD:
        return text.decode()
    try:
        compressor = _zstd.compressor
    except AttributeError:
        compressor = _zstd.compressor = zstandard.ZstdCompressor(level=1)
    return compressor.compress(text)


def unpack_state(stored: bytes | str) -> str:
    """The canonical text of a stored snapshot or payload, in any of the forms releases wrote: text (small
    payloads; every row of the oldest releases), a zlib stream (first byte 0x78) or a zstd frame."""
    raw = _unpacked(stored)
    return raw if isinstance(raw, str) else raw.decode()


def load_packed(stored: bytes | str) -> Any:
    """A stored snapshot or payload as the value it encodes (its UTF-8 bytes parsed without a str between)."""
    return loads(_unpacked(stored))


def _unpacked(stored: bytes | str) -> bytes | str:
    if isinstance(stored, str):
        return stored
    if stored[:4] == _ZSTD_MAGIC:
        try:
            decompressor = _zstd.decompressor
        except AttributeError:
            decompressor = _zstd.decompressor = zstandard.ZstdDecompressor()
        return decompressor.decompress(stored)
    return zlib.decompress(stored)


class VersionConflict(Exception):
    """The table moved on between reading its state and writing the next one."""


class Refused(Exception):
    """A change the record does not allow, decided inside the write transaction (so that every process sharing
    the database sees the same answer); ``reason`` names it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class LobbyRefused(Refused):
    """``reason`` is one of: no_table, not_in_lobby, table_full, already_seated, not_seated, too_many_tables,
    too_many_tables_server; ``limit`` goes with the last two."""

    def __init__(self, reason: str, limit: int | None = None):
        super().__init__(reason)
        self.limit = limit


# what the database's own triggers (migration 0003) say, for a writer that skipped the checks
_TRIGGER_REASONS = {"judge: seats change only in the lobby": "not_in_lobby", "judge: the table is full": "table_full",
                    "judge: already seated at this table": "already_seated"}


def _trigger_refusal(exc: aiosqlite.IntegrityError, max_seats: int) -> LobbyRefused | None:
    reason = _TRIGGER_REASONS.get(str(exc))
    return LobbyRefused(reason, max_seats) if reason else None


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
    max_seats: int | None = None
    auto_forced: bool = True
    dispute_window: str = "next_move"
    time_control: dict[str, Any] | None = None   # bot/referee/timecontrol.py
    paused_at: float | None = None               # a moderator's pause (bot/referee/moderation.py): when, by whom, why
    paused_by: str | None = None
    paused_reason: str | None = None
    paused_total: float = 0.0                    # seconds paused so far: the table's clock is wall time less this
    release: str | None = None                   # what it was started under (bot/referee/upgrade.py; None: not recorded)
    started_rules: int | None = None
    rules_version: int = 1                       # of its latest state (a lobby: of its options)
    frozen: dict[str, Any] | None = None         # why this release cannot play it (bot/referee/upgrade.py), or None
    rated: bool = True                           # a referee setting: rated or casual (docs/ratings.md)

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "TableRow":
        d = dict(row)
        for key in ("options", "stack", "outcome", "time_control", "frozen"):
            d[key] = loads(d[key]) if d.get(key) is not None else None
        d["auto_forced"] = bool(d.get("auto_forced", 1))
        d["rated"] = bool(d.get("rated", 1))
        d["title"] = stored_title(d.get("title"))
        d["paused_reason"] = stored_text(d.get("paused_reason"))
        return cls(**d)

    def moved(self, version: int, next_deadline: float | None) -> "TableRow":
        """This row after an action the caller just recorded (dataclasses.replace re-runs the constructor over
        every field: a tenth of the referee's own time per action)."""
        row = object.__new__(TableRow)
        row.__dict__.update(self.__dict__, version=version, next_deadline=next_deadline)
        return row


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
class Pending:
    """A pending outbox row as stored and the record it is filled from when delivered: the snapshot (None: none,
    or not a lean message) and every event of its version, each with its addressees (``to``)."""

    message: OutboxRow
    game: str
    state: dict[str, Any] | None
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Dealt:
    """What starting a table writes: the engine's initial state for exactly the seats in the record."""

    seed: str
    seed_hash: str
    stack: dict[str, Any] | None
    state: dict[str, Any]
    events: list[dict[str, Any]]
    messages: list["Message"]
    next_deadline: float | None


@dataclass(frozen=True)
class Panel:
    """A message a front end keeps editing: the live table message (seat -1) or a seat's control message."""

    table_id: int
    seat: int
    channel_id: str
    message_id: str
    version: int
    posted: int
    shows: str = ""


@dataclass(frozen=True)
class Step:
    """One recorded action with everything it caused (``record_action``; a moderator's decision may write
    several in one transaction)."""

    seat: int
    user_id: str
    action: dict[str, Any]
    at: float
    state: dict[str, Any]
    events: list[dict[str, Any]]
    messages: list["Message"]
    next_deadline: float | None
    outcome: dict[str, Any] | None


class DisputeClosed(Exception):
    """The dispute was decided by someone else meanwhile."""


class DisputeRefused(Refused):
    """A dispute the record does not take: ``reason`` already_disputed (that move, by that player, still open),
    already_decided (``status``: how it was settled) or too_many."""

    def __init__(self, reason: str, status: str | None = None):
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class DisputeRow:
    id: int
    table_id: int
    user_id: str
    seat: int
    move: int
    version: int
    text: str
    private: bool
    status: str
    raised_at: float
    moderator: str | None
    reason: str | None
    decision: dict[str, Any] | None
    decided_at: float | None
    repeat_of: int | None = None   # a repeat an older release let in (migration 0014): the first one's id

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "DisputeRow":
        d = dict(row)
        d["private"] = bool(d["private"])
        d["decision"] = loads(d["decision"]) if d["decision"] is not None else None
        d["text"], d["reason"] = stored_text(d["text"]) or "", stored_text(d["reason"])
        return cls(**d)


@dataclass(frozen=True)
class ServerRuling:
    id: int
    guild_id: str
    rule: str
    text: str
    moderator: str
    dispute_id: int | None
    at: float


@dataclass(frozen=True)
class Message:
    """An outgoing message to enqueue: to the table's channel/thread, or privately to one seat."""

    target: str  # "table" | "seat"
    kind: str
    payload: dict[str, Any]
    seat: int | None = None


class Store:
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
    async def open(cls, path: str | Path, *, backup: bool = True) -> "Store":
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

    # ------------------------------------------------------------------ tables and seats
    async def create_table(
        self, *, game: str, options: dict[str, Any], creator: str, origin: str, now: float,
        title: str | None = None, locale: str | None = None, guild_id: str | None = None,
        channel_id: str | None = None, max_seats: int | None = None, creator_name: str | None = None,
        per_user: int | None = None, per_server: int | None = None, auto_forced: bool = True,
        dispute_window: str = "next_move", time_control: dict[str, Any] | None = None, rules_version: int = 1,
        rated: bool = True,
    ) -> int:
        """A new lobby (with its creator seated when ``creator_name`` is given).  ``per_user`` / ``per_server``
        cap the open (lobby or active) tables of the creator and of the server; counted inside the
        transaction, so racing processes cannot exceed them."""
        async with self.transaction() as db:
            if per_user is not None and await self._count_open(db, "creator", creator) >= per_user:
                raise LobbyRefused("too_many_tables", per_user)
            if per_server is not None and guild_id is not None and \
                    await self._count_open(db, "guild_id", guild_id) >= per_server:
                raise LobbyRefused("too_many_tables_server", per_server)
            cur = await db.execute(
                "INSERT INTO tables (game, status, options, creator, origin, title, locale, guild_id, channel_id,"
                " created_at, max_seats, auto_forced, dispute_window, time_control, rules_version, rated)"
                " VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, dumps(options), creator, origin, title, locale, guild_id, channel_id, now, max_seats,
                 int(auto_forced), dispute_window, dumps(time_control) if time_control else None, rules_version,
                 int(rated)),
            )
            table_id = cur.lastrowid
            if time_control:  # the clock's look-up finds a timed table by this row (bot/storage/clocks.py)
                await db.execute("INSERT INTO table_clocks (table_id, version) VALUES (?, -1)", (table_id,))
            if creator_name is not None:
                await db.execute("INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at)"
                                 " VALUES (?, 0, ?, ?, 0, ?)", (table_id, creator, creator_name, now))
            return table_id

    @staticmethod
    async def _count_open(db: aiosqlite.Connection, column: str, value: str) -> int:
        async with db.execute(f"SELECT COUNT(*) FROM tables WHERE {column} = ? AND status IN ('lobby', 'active')",
                              (value,)) as cur:
            (count,) = await cur.fetchone()
        return count

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

    async def active_with_bots(self) -> list[int]:
        """The active tables with a bot seat: the only ones that may move on their own after a restart (a
        human's table waits for its player), so the only ones a starting process needs to look into."""
        rows = await self._all("SELECT id FROM tables WHERE status = 'active' AND EXISTS (SELECT 1 FROM seats"
                               " WHERE seats.table_id = tables.id AND is_bot = 1)")
        return [r["id"] for r in rows]

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
        return [SeatRow(r["seat"], r["user_id"], stored_name(r["name"]), bool(r["is_bot"])) for r in rows]

    async def add_seat(self, table_id: int, user_id: str | None, name: str, *, is_bot: bool, now: float,
                       max_seats: int, several: bool = False) -> int:
        """Append a player to a lobby; returns the seat number.  The lobby rules (still in the lobby, not full,
        one seat per person unless ``several`` (hot-seat)) are checked inside the transaction; a bot
        (``user_id`` None) gets the first free name bot:1, bot:2, ...  Raises LobbyRefused."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            rows = await (await db.execute("SELECT user_id FROM seats WHERE table_id = ?", (table_id,))).fetchall()
            taken = {r["user_id"] for r in rows}
            if len(rows) >= max_seats:
                raise LobbyRefused("table_full", max_seats)
            if is_bot and user_id is None:
                user_id = next(f"bot:{n}" for n in range(1, len(rows) + 2) if f"bot:{n}" not in taken)
            hotseat = user_id in taken
            if hotseat and not several:
                raise LobbyRefused("already_seated")
            try:
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at, hotseat)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, len(rows), user_id, name, int(is_bot), now, int(hotseat)))
            except aiosqlite.IntegrityError as exc:
                raise _trigger_refusal(exc, max_seats) or exc
            return len(rows)

    async def remove_seat(self, table_id: int, user_id: str) -> None:
        """Remove a player from a lobby and renumber the seats after them (seats stay 0..n-1).
        Raises LobbyRefused (no_table, not_in_lobby, not_seated)."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            async with db.execute("SELECT seat FROM seats WHERE table_id = ? AND user_id = ? ORDER BY seat DESC"
                                  " LIMIT 1", (table_id, user_id)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise LobbyRefused("not_seated")
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, row["seat"]))
            await db.execute("UPDATE seats SET seat = seat - 1 WHERE table_id = ? AND seat > ?",
                             (table_id, row["seat"]))

    @staticmethod
    async def _lobby_status(db: aiosqlite.Connection, table_id: int) -> None:
        async with db.execute("SELECT status FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise LobbyRefused("no_table")
        if row["status"] != "lobby":
            raise LobbyRefused("not_in_lobby")

    # ------------------------------------------------------------------ the game record
    async def start_table(self, table_id: int, deal: Callable[[list[SeatRow]], Dealt], *, now: float,
                          release: str | None = None) -> Dealt:
        """Deal and begin, in one transaction: ``deal`` gets exactly the seats this transaction reads and
        commits the table as active with them, so a join or leave racing the start from another process
        either lands before (and is dealt for) or is refused after.  ``deal`` may raise (a Reject): nothing
        is written then.  Raises LobbyRefused when the table is not in the lobby."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            dealt = deal(await self.seats(table_id))  # read on the transaction's own connection
            await db.execute(
                "UPDATE tables SET status = 'active', seed = ?, seed_hash = ?, stack = ?, options = ?, version = 0,"
                " started_at = ?, next_deadline = ?, release = ?, started_rules = ?, rules_version = ?"
                " WHERE id = ? AND status = 'lobby'",
                (dealt.seed, dealt.seed_hash, dumps(dealt.stack) if dealt.stack else None,
                 dumps(dealt.state["options"]), now, dealt.next_deadline, release, dealt.state.get("rules", 1),
                 dealt.state.get("rules", 1), table_id),
            )
            await db.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)",
                             (table_id, pack_state(dealt.state)))
            await db.executemany(_INSERT_EVENTS, _event_rows(table_id, 0, dealt.events))
            await self._insert_messages(db, table_id, 0, dealt.messages, now)
            return dealt

    async def record_action(
        self, table_id: int, *, expected_version: int, seat: int, user_id: str, action: dict[str, Any], at: float,
        state: dict[str, Any], events: list[dict[str, Any]], messages: list[Message],
        next_deadline: float | None, outcome: dict[str, Any] | None,
    ) -> None:
        """Append one applied action with everything it caused, atomically.  Raises VersionConflict if the
        table is not at ``expected_version`` any more (another action won the race).  Seat -1 marks a
        moderator's action (a rollback, a correction), the only kind that may reopen a finished table."""
        await self.record_step(table_id, expected_version,
                               Step(seat, user_id, action, at, state, events, messages, next_deadline, outcome))

    async def record_step(self, table_id: int, expected_version: int, step: Step) -> None:
        # encoded here, while the database thread writes the batch before: it then only runs SQLite
        rows = _StepRows.of(table_id, expected_version, step)
        await self._steps.write(rows.check)
        if self.checkpoints is not None:
            self.checkpoints.committed()

    @staticmethod
    def _append(c: sqlite3.Connection, table_id: int, expected_version: int, step: Step) -> None:
        """One step's rows, inside the caller's transaction on the database thread."""
        _StepRows.of(table_id, expected_version, step).write(c)

    async def cancel_table(self, table_id: int, *, moderator: str, reason: str | None, now: float,
                           notice: Callable[[TableRow], Message]) -> bool:
        """Close a lobby or a running game; a running game's players hear ``notice(table)``, built from the
        table as this transaction reads it (so a start racing the cancel is not missed)."""
        async with self.transaction() as db:
            row = await (await db.execute("SELECT * FROM tables WHERE id = ?", (table_id,))).fetchone()
            if row is None or row["status"] not in ("lobby", "active"):
                return False
            table = TableRow.from_row(row)
            await db.execute("UPDATE tables SET status = 'cancelled', finished_at = ?, next_deadline = NULL"
                             " WHERE id = ?", (now, table_id))
            await db.execute("INSERT INTO moderation (table_id, moderator, action, reason, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, moderator, "cancel", reason, now))
            if table.status == "active":
                await self._insert_messages(db, table_id, table.version, [notice(table)], now)
            return True

    async def enqueue(self, table_id: int, version: int, messages: list[Message], now: float) -> None:
        """Messages that belong to no action (a moderator's announcement)."""
        async with self.transaction() as db:
            await self._insert_messages(db, table_id, version, messages, now)

    async def _insert_messages(self, db: aiosqlite.Connection, table_id: int, version: int,
                               messages: list[Message], now: float) -> None:
        await db.executemany(_INSERT_MESSAGES, _message_rows(table_id, version, messages, now))

    async def play_context(self, table_id: int, known_version: int | None = None,
                           ) -> tuple[TableRow, list[SeatRow], dict[str, Any] | None] | None:
        """The table, its seats and its latest state, read together in one trip; the state is None when
        nothing was dealt yet or when the table is at ``known_version`` (the caller keeps that state)."""
        def read(c: sqlite3.Connection) -> tuple[TableRow, list[SeatRow], dict[str, Any] | None] | None:
            own = not c.in_transaction  # one snapshot of the database for the three reads
            if own:
                c.execute("BEGIN")
            try:
                row = c.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    return None
                seats = [SeatRow(r["seat"], r["user_id"], stored_name(r["name"]), bool(r["is_bot"])) for r in c.execute(
                    "SELECT seat, user_id, name, is_bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
                state = None
                if row["version"] != known_version:
                    found = c.execute("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC"
                                      " LIMIT 1", (table_id,)).fetchone()
                    state = load_packed(found["state"]) if found else None
                return TableRow.from_row(row), seats, state
            finally:
                if own:
                    c.execute("COMMIT")

        return await self._read_in_thread(read)

    async def table_stamp(self, table_id: int) -> tuple[int, str, float | None] | None:
        """(version, status, paused_at): what another process may change of a table a referee keeps in memory
        (a pause does not move the version)."""
        row = await self._one("SELECT version, status, paused_at FROM tables WHERE id = ?", (table_id,))
        return None if row is None else (row["version"], row["status"], row["paused_at"])

    async def action_at(self, table_id: int, version: int) -> ActionRow | None:
        """The recorded action that made ``version`` (a writer unsure whether its commit landed reads it)."""
        r = await self._one("SELECT * FROM actions WHERE table_id = ? AND version = ?", (table_id, version))
        return None if r is None else ActionRow(r["version"], r["seat"], r["user_id"], loads(r["action"]), r["at"])

    async def table_version(self, table_id: int) -> int | None:
        row = await self._read_in_thread(
            lambda c: c.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone())
        return None if row is None else row["version"]

    async def state(self, table_id: int, version: int | None = None) -> dict[str, Any] | None:
        if version is None:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1",
                                  (table_id,))
        else:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? AND version = ?",
                                  (table_id, version))
        return load_packed(row["state"]) if row else None

    async def snapshot_texts(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._all("SELECT version, state FROM snapshots WHERE table_id = ? ORDER BY version",
                               (table_id,))
        return [(r["version"], unpack_state(r["state"])) for r in rows]

    async def actions(self, table_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE table_id = ? ORDER BY version", (table_id,))
        return [ActionRow(r["version"], r["seat"], r["user_id"], loads(r["action"]), r["at"]) for r in rows]

    async def events(self, table_id: int, *, since: int = 0) -> list[EventRow]:
        rows = await self._all(
            "SELECT * FROM events WHERE table_id = ? AND version >= ? ORDER BY version, idx", (table_id, since))
        return [_event_row(r) for r in rows]

    async def public_steps(self, table_id: int) -> list[dict[str, Any]]:
        """One public event per version that has any, enough for bot/referee/moves.py to number the moves as the
        log does: a rollback's or an upgrade's own events in full, any other version a stub (its data is not
        read: this runs at every redraw of the live message, however long the game)."""
        versions = await self._all("SELECT DISTINCT version FROM events WHERE table_id = ? AND visible_to IS NULL",
                                   (table_id,))
        special: dict[int, list[dict[str, Any]]] = {}
        for r in await self._all("SELECT version, kind, data FROM events WHERE table_id = ? AND visible_to IS NULL"
                                 " AND kind IN ('rollback', 'upgrade') ORDER BY version, idx", (table_id,)):
            special.setdefault(r["version"], []).append({"version": r["version"], "kind": r["kind"], "to": None,
                                                          "data": loads(r["data"])})
        steps: list[dict[str, Any]] = []
        for r in sorted(versions, key=lambda r: r["version"]):
            steps += special.get(r["version"]) or [{"version": r["version"], "kind": "step", "to": None, "data": {}}]
        return steps

    async def set_standing_pass(self, table_id: int, seat: int, turn: str) -> None:
        """``seat`` passes every window of the turn ``turn`` (canonical JSON of the game's turn key)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO standing_passes (table_id, seat, turn) VALUES (?, ?, ?)"
                             " ON CONFLICT (table_id, seat) DO UPDATE SET turn = excluded.turn", (table_id, seat, turn))

    async def standing_passes(self, table_id: int) -> dict[int, str]:
        """Seat -> the turn whose windows it passes (canonical JSON), for the seats that set one."""
        rows = await self._all("SELECT seat, turn FROM standing_passes WHERE table_id = ?", (table_id,))
        return {r["seat"]: r["turn"] for r in rows}

    async def set_window_preference(self, user_id: str, mode: str, hours: float | None, *,
                                    table_id: int = 0) -> None:
        """How ``user_id``'s windows are answered for them (migration 0015): at every table (``table_id`` 0),
        or at one table, overriding their default there."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO window_preferences (user_id, table_id, mode, hours) VALUES (?, ?, ?, ?)"
                             " ON CONFLICT (user_id, table_id) DO UPDATE SET mode = excluded.mode,"
                             " hours = excluded.hours", (user_id, table_id, mode, hours))

    async def look_again(self, user_id: str, now: float, *, table_id: int = 0) -> None:
        """The referee's clock is to look at ``user_id``'s active tables (one, when ``table_id``) at once: a
        preference they changed may pass a window sooner than the table's stored next deadline says."""
        async with self.transaction() as db:
            await db.execute("UPDATE tables SET next_deadline = ? WHERE status = 'active' AND (? = 0 OR id = ?)"
                             " AND id IN (SELECT table_id FROM seats WHERE user_id = ?)"
                             " AND (next_deadline IS NULL OR next_deadline > ?)",
                             (now, table_id, table_id, user_id, now))

    async def set_next_deadline(self, table_id: int, version: int, when: float | None) -> None:
        """The table's next deadline as its clock found it on a look (at ``version`` only: a step in between
        wrote its own)."""
        async with self.transaction() as db:
            await db.execute("UPDATE tables SET next_deadline = ? WHERE id = ? AND version = ?",
                             (when, table_id, version))

    async def window_preferences(self, table_id: int, user_ids: Sequence[str]) -> dict[str, tuple[str, float | None]]:
        """User -> (mode, hours) in force at ``table_id`` for those of ``user_ids`` who set one: the table's own
        row, else their default."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(f"SELECT user_id, table_id, mode, hours FROM window_preferences WHERE user_id IN"
                               f" ({marks}) AND table_id IN (0, ?) ORDER BY table_id", (*user_ids, table_id))
        return {r["user_id"]: (r["mode"], r["hours"]) for r in rows}  # the table's row, read last, wins

    async def last_decision(self, table_id: int, seat: int, *, not_by: tuple[str, ...] = ()) -> int | None:
        """The version of ``seat``'s latest action, leaving out those recorded under the users ``not_by`` (the
        referee's steps for the seat); None when it took none."""
        marks = ", ".join("?" for _ in not_by) or "''"
        rows = await self._all(f"SELECT MAX(version) AS v FROM actions WHERE table_id = ? AND seat = ?"
                               f" AND user_id NOT IN ({marks})", (table_id, seat, *not_by))
        return rows[0]["v"] if rows and rows[0]["v"] is not None else None

    async def due_tables(self, now: float) -> list[int]:
        rows = await self._all(
            "SELECT id FROM tables WHERE status = 'active' AND next_deadline IS NOT NULL AND next_deadline <= ?"
            " AND frozen IS NULL ORDER BY next_deadline", (now,))
        return [r["id"] for r in rows]

    async def add_moderation(self, table_id: int | None, moderator: str, action: str, reason: str | None,
                             data: dict[str, Any] | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO moderation (table_id, moderator, action, reason, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, moderator, action, reason, dumps(data) if data is not None else None, now))

    # ------------------------------------------------------------------ disputes and server rulings
    async def raise_dispute(self, table_id: int, *, user_id: str, seat: int, move: int, version: int, text: str,
                            private: bool, at: float, notice: Callable[[int], Message | list[Message]],
                            most_open: int) -> int:
        """A new open dispute, and the table's notice of it (``notice(id)``), together.  Refused with
        DisputeRefused when the player disputed that move already (open or decided) or has ``most_open``
        disputes open there.  Once per move and player is the database's constraint (``disputes_once``,
        migration 0014), so no two processes can both get a second one in: the refusal is read from the row
        the insert collided with."""
        async with self.transaction() as db:
            try:
                cur = await db.execute(
                    "INSERT INTO disputes (table_id, user_id, seat, move, version, text, private, raised_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, user_id, seat, move, version, text, int(private), at))
            except sqlite3.IntegrityError:
                async with db.execute("SELECT status FROM disputes WHERE table_id = ? AND user_id = ? AND version = ?"
                                      " AND repeat_of IS NULL", (table_id, user_id, version)) as found:
                    first = await found.fetchone()
                if first is None:
                    raise
                raise DisputeRefused("already_disputed" if first["status"] == "open" else "already_decided",
                                     first["status"]) from None
            dispute_id = cur.lastrowid
            async with db.execute("SELECT COUNT(*) FROM disputes WHERE table_id = ? AND user_id = ? AND status = 'open'",
                                  (table_id, user_id)) as counted:
                (open_now,) = await counted.fetchone()
            if open_now > most_open:  # this one included; the transaction is rolled back
                raise DisputeRefused("too_many")
            async with db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)) as cur:
                (table_version,) = await cur.fetchone()
            notices = notice(dispute_id)  # the table's notice, and the moderators' where the table has a server
            await self._insert_messages(db, table_id, table_version,
                                        list(notices) if isinstance(notices, (list, tuple)) else [notices], at)
            return dispute_id

    async def dispute(self, dispute_id: int) -> DisputeRow | None:
        row = await self._one("SELECT * FROM disputes WHERE id = ?", (dispute_id,))
        return DisputeRow.from_row(row) if row else None

    async def disputes(self, *, table_id: int | None = None, guild_id: str | None = None,
                       status: str | None = None, limit: int = 100) -> list[DisputeRow]:
        """Disputes, oldest first; ``guild_id`` keeps to the tables of one server ('' : tables of none)."""
        where, params = [], []
        if table_id is not None:
            where.append("table_id = ?")
            params.append(table_id)
        if guild_id is not None:
            where.append("table_id IN (SELECT id FROM tables WHERE COALESCE(guild_id, '') = ?)")
            params.append(guild_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        sql = "SELECT * FROM disputes" + (" WHERE " + " AND ".join(where) if where else "")
        return [DisputeRow.from_row(r) for r in await self._all(sql + " ORDER BY id LIMIT ?", (*params, limit))]

    async def decide_dispute(self, dispute_id: int, *, status: str, moderator: str, reason: str,
                             decision: dict[str, Any], at: float, expected_version: int, steps: Sequence[Step],
                             notice: Message) -> None:
        """Settle an open dispute in one transaction: the table's notice of the decision (first, so that it
        reads before the steps' own messages), the moderator's steps on the table, the dispute's new status
        and the moderation log's row.  Raises DisputeClosed (decided meanwhile) or VersionConflict."""
        def write(c: sqlite3.Connection) -> None:
            row = c.execute("SELECT table_id, status FROM disputes WHERE id = ?", (dispute_id,)).fetchone()
            if row is None or row["status"] != "open":
                raise DisputeClosed(dispute_id)
            table_id = row["table_id"]
            c.executemany(_INSERT_MESSAGES, _message_rows(table_id, expected_version, [notice], at))
            for i, step in enumerate(steps):
                self._append(c, table_id, expected_version + i, step)
            c.execute("UPDATE disputes SET status = ?, moderator = ?, reason = ?, decision = ?, decided_at = ?"
                      " WHERE id = ?", (status, moderator, reason, dumps(decision), at, dispute_id))
            c.execute("INSERT INTO moderation (table_id, moderator, action, reason, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                      (table_id, moderator, f"dispute_{status}", reason, dumps({"dispute": dispute_id, **decision}), at))

        await self._write_in_thread(write)

    async def add_server_ruling(self, guild_id: str, *, rule: str, text: str, moderator: str,
                                dispute_id: int | None, at: float) -> int:
        async with self.transaction() as db:
            cur = await db.execute("INSERT INTO server_rulings (guild_id, rule, text, moderator, dispute_id, at)"
                                   " VALUES (?, ?, ?, ?, ?, ?)", (guild_id, rule, text, moderator, dispute_id, at))
            return cur.lastrowid

    async def server_rulings(self, guild_id: str, *, rule: str | None = None) -> list[ServerRuling]:
        """A server's ruling notes, oldest first (all of them, or those on ``rule``)."""
        sql, params = "SELECT * FROM server_rulings WHERE guild_id = ?", [guild_id]
        if rule is not None:
            sql, params = sql + " AND rule = ?", [*params, rule]
        return [ServerRuling(**{**dict(r), "text": stored_text(r["text"]) or "",
                                "rule": stored_name(r["rule"], limit=40)})
                for r in await self._all(sql + " ORDER BY id", params)]

    # ------------------------------------------------------------------ outbox
    async def pending_records(self, *, limit: int = 50, max_attempts: int = 5,
                              origins: Sequence[str] | None = None,
                              tables: Sequence[int] | None = None) -> list[Pending]:
        """Pending messages in order, as stored, each with what its delivery is filled from: a lean game message
        (bot/storage/outbox.py) with the snapshot and the events of its version.  Who may see which of them is
        the referee's to decide (bot/referee/visibility.py), not storage's.  ``origins`` keeps to tables of those
        front ends (a terminal and the Discord bot may share one database, and each must leave the other's
        messages alone); ``tables`` to those tables (a terminal command prints only the notices of the table it
        concerns)."""
        where, params = _origins(origins)
        status = "outbox.status"
        if tables is not None:
            where += f" AND outbox.table_id IN ({', '.join('?' * len(tables))})"
            params += [int(table_id) for table_id in tables]
            status = "+outbox.status"  # by the table's index: other tables' pending messages may be many

        def read(c: sqlite3.Connection) -> list[Pending]:
            rows = [(r["game"], _outbox_row(r)) for r in c.execute(
                f"SELECT outbox.*, tables.game FROM outbox JOIN tables ON tables.id = outbox.table_id"
                f" WHERE {status} = 'pending' AND outbox.attempts < ?{where} ORDER BY outbox.id LIMIT ?",
                (max_attempts, *params, limit))]
            record: dict[tuple[int, int], Any] = {}
            for _, m in rows:  # each version read once however many of its messages wait
                if m.payload.get(FROM_RECORD) and (m.table_id, m.version) not in record:
                    found = c.execute("SELECT state FROM snapshots WHERE table_id = ? AND version = ?",
                                      (m.table_id, m.version)).fetchone()
                    record[m.table_id, m.version] = (
                        load_packed(found["state"]) if found else None,
                        [_event_row(r).as_event() for r in c.execute(
                            "SELECT * FROM events WHERE table_id = ? AND version = ? ORDER BY idx",
                            (m.table_id, m.version))])
            return [Pending(m, game, *record.get((m.table_id, m.version), (None, []))) for game, m in rows]

        return await self._read_in_thread(read)

    async def pending_ids(self, *, max_attempts: int = 5, origins: Sequence[str] | None = None) -> set[int]:
        """The ids of the pending messages (a deliverer noting what a previous run left), nothing rendered."""
        where, params = _origins(origins)
        rows = await self._all(f"SELECT outbox.id FROM outbox JOIN tables ON tables.id = outbox.table_id"
                               f" WHERE outbox.status = 'pending' AND outbox.attempts < ?{where}",
                               (max_attempts, *params))
        return {r["id"] for r in rows}

    async def last_sent(self, table_id: int, *, before: int, kinds: Sequence[str],
                        target: str = "table") -> OutboxRow | None:
        """The latest message of the table sent before outbox id ``before`` whose kind is one of ``kinds``
        (a front end finds the previous turn announcement this way, to retire its buttons)."""
        r = await self._one(
            f"SELECT * FROM outbox WHERE table_id = ? AND target = ? AND status = 'sent' AND id < ?"
            f" AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY id DESC LIMIT 1",
            (table_id, target, before, *kinds))
        return None if r is None else _outbox_row(r)

    async def later_pending(self, table_id: int, after: int, target: str = "table") -> bool:
        """Whether a message of the table to ``target`` waits behind outbox id ``after`` (a front end may then
        leave an intermediate state out: the later message shows a newer one)."""
        row = await self._one("SELECT 1 FROM outbox WHERE table_id = ? AND target = ? AND status = 'pending'"
                              " AND id > ? LIMIT 1", (table_id, target, after))
        return row is not None

    async def panel(self, table_id: int, seat: int) -> Panel | None:
        r = await self._one("SELECT * FROM panels WHERE table_id = ? AND seat = ?", (table_id, seat))
        return None if r is None else Panel(**dict(r))

    async def forget_panel(self, table_id: int, seat: int) -> None:
        """The message is gone (deleted by its reader): the next change creates a new one."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM panels WHERE table_id = ? AND seat = ?", (table_id, seat))

    async def set_panel(self, table_id: int, seat: int, *, channel_id: str, message_id: str, version: int,
                        posted: int | None = None, shows: str | None = None) -> None:
        """Record (or move on) a live or control message; its version never goes back."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO panels (table_id, seat, channel_id, message_id, version, posted, shows)"
                " VALUES (?, ?, ?, ?, ?, COALESCE(?, 0), COALESCE(?, ''))"
                " ON CONFLICT (table_id, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = MAX(panels.version, excluded.version),"
                " posted = COALESCE(?, panels.posted), shows = COALESCE(?, panels.shows)",
                (table_id, seat, channel_id, message_id, version, posted, shows, posted, shows))

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
        return dict(row) if row else {"user_id": user_id, "locale": None, "dm_closed": 0, "dm_notice": 0,
                                      "pings": "turn", "profile_hidden": 0}

    async def set_user(self, user_id: str, **fields: Any) -> None:
        await self._upsert("users", "user_id", user_id, {"locale", "dm_closed", "dm_notice", "pings",
                                                          "profile_hidden"}, fields)

    async def guild(self, guild_id: str) -> dict[str, Any]:
        row = await self._one("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
        return dict(row) if row else {"guild_id": guild_id, "locale": None, "moderator_role": None,
                                      "organiser_role": None, "notice_channel": None}

    async def set_guild(self, guild_id: str, **fields: Any) -> None:
        await self._upsert("guilds", "guild_id", guild_id, {"locale", "moderator_role", "organiser_role",
                                                            "notice_channel"}, fields)

    async def saw_moderator(self, guild_id: str, user_id: str, at: float) -> None:
        """A member acted as a moderator of the server: one the notices may be sent to by DM (migration 0013)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO guild_moderators (guild_id, user_id, seen_at) VALUES (?, ?, ?)"
                             " ON CONFLICT (guild_id, user_id) DO UPDATE SET seen_at = excluded.seen_at",
                             (guild_id, user_id, at))

    async def known_moderators(self, guild_id: str) -> list[str]:
        """The members seen acting as moderators of the server, the most recent first."""
        rows = await self._all("SELECT user_id FROM guild_moderators WHERE guild_id = ? ORDER BY seen_at DESC",
                               (guild_id,))
        return [r["user_id"] for r in rows]

    async def guild_table_count(self, guild_id: str, *, most: int = 2) -> int:
        """How many tables were ever opened on the server, counted up to ``most`` (1: its first,
        bot/discord/moderators.py)."""
        row = await self._one("SELECT COUNT(*) AS n FROM (SELECT 1 FROM tables WHERE guild_id = ? LIMIT ?)",
                              (guild_id, most))
        return int(row["n"]) if row else 0

    async def _upsert(self, table: str, key_col: str, key: str, allowed: set[str], fields: dict[str, Any]) -> None:
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)} on {table}")
        cols = ", ".join(fields)
        marks = ", ".join("?" * len(fields))
        updates = ", ".join(f"{k} = excluded.{k}" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"INSERT INTO {table} ({key_col}, {cols}) VALUES (?, {marks})"
                             f" ON CONFLICT ({key_col}) DO UPDATE SET {updates}", (key, *fields.values()))


_INSERT_ACTION = "INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)"
_INSERT_SNAPSHOT = "INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)"
_INSERT_EVENTS = "INSERT INTO events (table_id, version, idx, kind, visible_to, data) VALUES (?, ?, ?, ?, ?, ?)"
_INSERT_MESSAGES = ("INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)")


@dataclass(frozen=True)
class _StepRows:
    """One step as rows ready for SQLite: the table's versioned update and the inserts."""

    update: tuple[str, tuple[Any, ...]]
    inserts: tuple[tuple[str, list[tuple[Any, ...]]], ...]
    table_id: int
    expected_version: int

    @classmethod
    def of(cls, table_id: int, expected_version: int, step: Step) -> "_StepRows":
        version = expected_version + 1
        # a pause (which another process may have made) stops every step but a moderator's own decisions
        # (a rollback, a dispute's): the check is the write's, not only the referee's kept table's
        moderating = int(step.seat < 0 and step.action.get("type") != "forfeit")
        if step.outcome is None:
            # a moderator's rollback may reopen a finished table, hence 'finished' here
            update = ("UPDATE tables SET version = ?, next_deadline = ?, status = 'active', outcome = NULL,"
                      " finished_at = NULL WHERE id = ? AND version = ? AND (status = 'active' OR"
                      " (status = 'finished' AND ? < 0)) AND (paused_at IS NULL OR ?)",
                      (version, step.next_deadline, table_id, expected_version, step.seat, moderating))
        else:
            update = ("UPDATE tables SET version = ?, next_deadline = NULL, status = 'finished', outcome = ?,"
                      " finished_at = ? WHERE id = ? AND version = ? AND status = 'active'"
                      " AND (paused_at IS NULL OR ?)",
                      (version, dumps(step.outcome), step.at, table_id, expected_version, moderating))
        return cls(update, (
            (_INSERT_ACTION, [(table_id, version, step.seat, step.user_id, dumps(step.action), step.at)]),
            (_INSERT_SNAPSHOT, [(table_id, version, pack_state(step.state))]),
            (_INSERT_EVENTS, _event_rows(table_id, version, step.events)),
            (_INSERT_MESSAGES, _message_rows(table_id, version, step.messages, step.at)),
        ), table_id, expected_version)

    def check(self, c: sqlite3.Connection) -> Inserts:
        """On the database thread, inside a transaction: the version check and the table's update; returns the
        inserts, which a batch writes together (bot/storage/group_commit.py).  A failed check raises before
        anything is written (what lets a batch of steps commit without it)."""
        if c.execute(*self.update).rowcount != 1:
            raise VersionConflict(f"table {self.table_id} is not at version {self.expected_version}, active and"
                                  f" not paused")
        return self.inserts

    def write(self, c: sqlite3.Connection) -> None:
        for sql, rows in self.check(c):
            c.executemany(sql, rows)


def _event_rows(table_id: int, version: int, events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(table_id, version, i, e["kind"], None if e["to"] is None else dumps(e["to"]), dumps(e["data"]))
            for i, e in enumerate(events)]


def _message_rows(table_id: int, version: int, messages: list[Message], now: float) -> list[tuple[Any, ...]]:
    return [(table_id, version, m.target, m.seat, m.kind, pack_state(m.payload), now) for m in messages]


def _origins(origins: Sequence[str] | None) -> tuple[str, list[str]]:
    """The outbox query's condition keeping to tables of those front ends (None: all), on the joined table row
    (a subquery over ``tables`` would scan them all: there is no index by origin)."""
    if origins is None:
        return "", []
    return f" AND tables.origin IN ({', '.join('?' * len(origins))})", list(origins)


def _event_row(r: Any) -> EventRow:
    return EventRow(r["version"], r["idx"], r["kind"], None if r["visible_to"] is None else loads(r["visible_to"]),
                    loads(r["data"]))


def _outbox_row(r: Any) -> OutboxRow:
    return OutboxRow(r["id"], r["table_id"], r["version"], r["target"], r["seat"], r["kind"],
                     load_packed(r["payload"]), r["status"], r["attempts"], r["external_id"])
