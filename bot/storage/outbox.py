"""How a referee's message is stored: lean, to be filled from the record when it is delivered.

The referee stores a game message lean: its version, the target (the table or one seat) and the referee's own
fields (who moved, the seed at the end).  The events and the view are filled in when the message is read for
delivery, from the snapshot and the events of that version (``Store.pending_records`` reads them beside the
row).  Those rows never change once committed (a rollback appends a new version), so every attempt at one
message renders the same content — what the look-back de-duplication of a deliverer compares.  Who may see
which events and which view is decided above storage, by the referee (bot/referee/visibility.py).

The outbox's queries (``OutboxQueries``): pending rows with their record, panels, sent/failed/skipped."""
from __future__ import annotations

import sqlite3
from typing import Any, Sequence

from bot.storage.base import StoreBase
from bot.storage.packing import load_packed
from bot.storage.rows import OutboxRow, Panel, Pending, _event_row, _outbox_row

FROM_RECORD = "from_record"   # the payload's mark: events and view are to be read from the record


def lean(version: int, **fields: Any) -> dict[str, Any]:
    return {"version": version, FROM_RECORD: True, **fields}


class OutboxQueries(StoreBase):
    """The outbox's rows and the panels a front end keeps editing."""

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


def _origins(origins: Sequence[str] | None) -> tuple[str, list[str | int]]:
    """The outbox query's condition keeping to tables of those front ends (None: all), on the joined table row
    (a subquery over ``tables`` would scan them all: there is no index by origin)."""
    if origins is None:
        return "", []
    return f" AND tables.origin IN ({', '.join('?' * len(origins))})", list(origins)
