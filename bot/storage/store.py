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

from bot.storage.disputes import DisputeQueries
from bot.storage.outbox import OutboxQueries
from bot.storage.packing import SMALL_PAYLOAD, load_packed, pack_state, unpack_state
from bot.storage.people import PeopleQueries
from bot.storage.rows import (ActionRow, Dealt, DisputeClosed, DisputeRefused, DisputeRow, EventRow, LobbyRefused,
                              Message, OutboxRow, Panel, Pending, Refused, SeatRow, ServerRuling, Step, TableRow,
                              VersionConflict)
from bot.storage.tables import TableQueries

__all__ = ["SMALL_PAYLOAD", "ActionRow", "Dealt", "DisputeClosed", "DisputeRefused", "DisputeRow", "EventRow",
           "LobbyRefused", "Message", "OutboxRow", "Panel", "Pending", "Refused", "SeatRow", "ServerRuling", "Step",
           "Store", "TableRow", "VersionConflict", "load_packed", "pack_state", "unpack_state"]


class Store(TableQueries, DisputeQueries, OutboxQueries, PeopleQueries):
    """The record: one object, its queries by job (tables.py, disputes.py, outbox.py, people.py) over one
    machinery (base.py)."""
