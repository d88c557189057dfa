"""What answering a player's click reads of a table, in one trip to the database thread (one snapshot of the
database): the table, its seats, its latest state, the state at the version the clicked message was drawn at,
its live and control messages, the events since the clicker's control message last showed the table, and a
timed table's seat clocks.  The referee turns it into the click's read model (bot/referee/turns.py)."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any


from .clocks import SeatClock
from .packing import load_packed
from .rows import EventRow, Panel, SeatRow, TableRow, _event_row
from .store import Store


@dataclass(frozen=True)
class TableNow:
    table: TableRow
    seats: list[SeatRow]
    state: dict[str, Any] | None          # the latest; None before the deal
    then: dict[str, Any] | None           # at the version asked for, when that is not the latest (None: none stored)
    panels: dict[int, Panel]              # the live message (seat -1) and the control messages, by seat
    events: list[EventRow]                # since the oldest control message of the asker's seats showed the table
    clocks: dict[int, SeatClock]          # a timed table's seat clocks (none for any other)


async def table_now(store: Store, table_id: int, *, user_id: str | None = None, at: int | None = None
                    ) -> TableNow | None:
    """The table as one click needs it (see above); None when there is no such table."""
    def read(c: sqlite3.Connection) -> TableNow | None:
        row = c.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        table = TableRow.from_row(row)
        seats = [SeatRow.from_row(r) for r in c.execute(SeatRow.SQL, (table_id,))]
        found = c.execute("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1",
                          (table_id,)).fetchone()
        state = load_packed(found["state"]) if found else None
        then = None
        if at is not None and at != table.version:
            old = c.execute("SELECT state FROM snapshots WHERE table_id = ? AND version = ?",
                            (table_id, at)).fetchone()
            then = load_packed(old["state"]) if old else None
        panels = {r["seat"]: Panel(**dict(r))
                  for r in c.execute("SELECT * FROM panels WHERE table_id = ?", (table_id,))}
        mine = [panels[s.seat].version for s in seats if s.user_id == user_id and s.seat in panels]
        events = [_event_row(r) for r in c.execute(
            "SELECT * FROM events WHERE table_id = ? AND version > ? ORDER BY version, idx",
            (table_id, min(mine)))] if mine else []
        clocks = {r["seat"]: SeatClock.from_row(r) for r in c.execute(
            "SELECT * FROM seat_clocks WHERE table_id = ?", (table_id,))} if table.time_control else {}
        return TableNow(table, seats, state, then, panels, events, clocks)

    return await store._read_snapshot(read)

