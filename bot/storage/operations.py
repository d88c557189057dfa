"""What the record says about a running bot, for the operator (/metrics, /healthz, ``/judge status``): open
tables by game and state, the outbox's backlog and failures, the deadlines due soon, the last backup.  Counts and
ages only: no player, no seat's user, nothing of a hand."""
from __future__ import annotations

import time
from pathlib import Path

from bot.process.metrics import Figures
from bot.storage.backup import latest_backup, taken_at
from bot.storage.rows import present
from bot.storage.store import Store

#: how far ahead "deadlines due soon" looks
SOON = 3600.0


def table_state(status: str, paused_at: float | None, frozen: str | None) -> str:
    """An open table's state as the operator counts it: lobby, active, paused or frozen."""
    if frozen:
        return "frozen"
    if status == "active" and paused_at is not None:
        return "paused"
    return status


async def figures(store: Store, *, now: float | None = None, backup_folder: str | Path | None = None,
                  guild_id: str | None = None) -> Figures:
    """The record's figures now; ``guild_id``: one Discord server's tables and outbox only."""
    now = time.time() if now is None else now
    where, params = ("AND guild_id = ?", [guild_id]) if guild_id is not None else ("", [])
    found = Figures()
    for game, status, paused, frozen, count in await store._all(
            "SELECT game, status, paused_at IS NOT NULL, frozen, COUNT(*) FROM tables"
            f" WHERE status IN ('lobby', 'active') {where} GROUP BY 1, 2, 3, 4", params):
        key = (game, table_state(status, 1.0 if paused else None, frozen))
        found.open_tables[key] = found.open_tables.get(key, 0) + count
    of_guild = "AND table_id IN (SELECT id FROM tables WHERE guild_id = ?)" if guild_id is not None else ""
    pending, oldest = present(await store._one(
        f"SELECT COUNT(*), MIN(created_at) FROM outbox WHERE status = 'pending' {of_guild}", params))
    found.outbox_pending = pending
    found.outbox_oldest_age = max(0.0, now - oldest) if oldest is not None else 0.0
    found.outbox_failed = present(await store._one(
        f"SELECT COUNT(*) FROM outbox WHERE status = 'failed' {of_guild}", params))[0]
    found.deadlines_next_hour = present(await store._one(
        "SELECT COUNT(*) FROM tables WHERE status = 'active' AND next_deadline IS NOT NULL AND next_deadline <= ?"
        f" {where}", [now + SOON, *params]))[0]
    if store.path is not None:
        newest = latest_backup(store.path, backup_folder)
        if newest is not None:
            try:
                found.last_backup_bytes = newest.stat().st_size
                found.last_backup_age = max(0.0, now - (taken_at(newest) or now))
            except OSError:  # rotated away between the look and the stat
                pass
    return found


async def failed_tables(store: Store, guild_id: str) -> list[int]:
    """The server's tables with a message the outbox gave up on, by number."""
    return [r[0] for r in await store._all(
        "SELECT DISTINCT table_id FROM outbox WHERE status = 'failed' AND table_id IN"
        " (SELECT id FROM tables WHERE guild_id = ?) ORDER BY table_id", (guild_id,))]


async def table_statuses(store: Store) -> dict[str, int]:
    """How many tables there are in each status."""
    return {r[0]: r[1] for r in await store._all("SELECT status, COUNT(*) FROM tables GROUP BY status")}


async def pending_count(store: Store) -> int:
    """How many messages wait in the outbox."""
    row = await store._one("SELECT COUNT(*) FROM outbox WHERE status = 'pending'")
    return row[0] if row is not None else 0


async def started_tables(store: Store) -> list[int]:
    """Every table whose seed was committed (what a record's verification can check), by number."""
    return [r[0] for r in await store._all(
        "SELECT id FROM tables WHERE status IN ('active', 'finished') OR (status = 'cancelled' AND"
        " seed_hash IS NOT NULL) ORDER BY id")]
