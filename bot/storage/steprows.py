"""One referee step as the rows it writes (action, snapshot, events, outbox, the table's versioned update),
ready for one transaction or a group commit's batch."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from bot.engine.canonical import dumps
from bot.storage.group_commit import Inserts
from bot.storage.packing import pack_state
from bot.storage.rows import Message, Step, VersionConflict

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
        update: tuple[str, tuple[Any, ...]]
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
