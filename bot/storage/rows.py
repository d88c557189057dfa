"""What the record's rows are to the rest of the bot: small dataclasses, and the refusals the record itself
makes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

from bot.engine.canonical import loads
from bot.engine.free_text import stored_name, stored_text, stored_title
from bot.storage.packing import load_packed


def present(row: aiosqlite.Row | None) -> aiosqlite.Row:
    """The row of a statement that always yields one: an aggregate (COUNT), or a row written earlier in the
    same transaction; none is the record contradicting itself, not a refusal."""
    if row is None:
        raise LookupError("a statement that always yields a row yielded none")
    return row


T = TypeVar("T")


def known(found: T | None, what: str) -> T:
    """A row the record must hold (the table of a dispute, a dispute just raised): none is the record
    contradicting itself, not an answer to give a user.  ``what`` names it in the error."""
    if found is None:
        raise LookupError(f"the record lacks {what}")
    return found


def inserted_id(rowid: int | None) -> int:
    """The id SQLite gave the row an INSERT just wrote (a cursor's ``lastrowid``: None only without one)."""
    if rowid is None:
        raise LookupError("an INSERT wrote no row")
    return rowid


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

    #: a table's seats in order, the columns ``from_row`` reads
    SQL = "SELECT seat, user_id, name, is_bot FROM seats WHERE table_id = ? ORDER BY seat"

    @classmethod
    def from_row(cls, r: Any) -> SeatRow:
        return cls(r["seat"], r["user_id"], stored_name(r["name"]), bool(r["is_bot"]))


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


def _event_row(r: Any) -> EventRow:
    return EventRow(r["version"], r["idx"], r["kind"], None if r["visible_to"] is None else loads(r["visible_to"]),
                    loads(r["data"]))


def _outbox_row(r: Any) -> OutboxRow:
    return OutboxRow(r["id"], r["table_id"], r["version"], r["target"], r["seat"], r["kind"],
                     load_packed(r["payload"]), r["status"], r["attempts"], r["external_id"])
