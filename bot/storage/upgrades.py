"""The upgrade's share of the record (bot/referee/upgrade.py decides; this writes and reads): open tables behind
their game's rules version or frozen, and the writes that bring one forward or freeze it, each one transaction."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine.canonical import dumps
from bot.storage.ratings import Connection
from bot.storage.steprows import _message_rows, _StepRows
from bot.storage.store import Message, Step, Store, TableRow

_OPEN = "status IN ('lobby', 'active')"


async def tables_to_upgrade(store: Store, rules: Mapping[str, int]) -> list[TableRow]:
    """Open tables behind their game's rules version (``rules``: each game's today), or frozen (a release may
    now be able to migrate them)."""
    case = " ".join("WHEN ? THEN ?" for _ in rules)
    params = [value for name, version in rules.items() for value in (name, version)]
    behind = f"rules_version != CASE game {case} ELSE rules_version END" if rules else "0"
    rows = await store._all(f"SELECT * FROM tables WHERE {_OPEN} AND (frozen IS NOT NULL OR {behind}) ORDER BY id",
                            params)
    return [TableRow.from_row(r) for r in rows]


async def frozen_tables(store: Store, guild_id: str | None = None) -> list[TableRow]:
    """The open tables this release cannot play (one server's, given)."""
    where, params = (" AND guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
    rows = await store._all(f"SELECT * FROM tables WHERE frozen IS NOT NULL AND {_OPEN}{where} ORDER BY id", params)
    return [TableRow.from_row(r) for r in rows]


async def set_lobby_options(store: Store, table_id: int, options: dict[str, Any], rules_version: int) -> None:
    """A lobby's options as today's rules read them (a table that started meanwhile is left alone)."""
    await store._write_in_thread(lambda c: c.execute(
        "UPDATE tables SET options = ?, rules_version = ?, frozen = NULL WHERE id = ? AND status = 'lobby'",
        (dumps(options), rules_version, table_id)))


async def set_rules_version(store: Store, table_id: int, rules_version: int) -> None:
    await store._write_in_thread(lambda c: c.execute(
        "UPDATE tables SET rules_version = ?, frozen = NULL WHERE id = ?", (rules_version, table_id)))


async def record_upgrade(store: Store, table: TableRow, step: Step, rules_version: int) -> None:
    """The upgrade step, the row's new rules version and options (the step's state's), in one transaction."""
    rows = _StepRows.of(table.id, table.version, step)

    def write(c: Connection) -> None:
        rows.write(c)
        c.execute("UPDATE tables SET rules_version = ?, options = ?, frozen = NULL WHERE id = ?",
                  (rules_version, dumps(step.state["options"]), table.id))

    await store._write_in_thread(write)


async def freeze(store: Store, table: TableRow, frozen: dict[str, Any], *, moderator: str, reason: str,
                 notices: list[Message], now: float, skipped: str) -> None:
    """Mark the table frozen, skip the game messages still waiting (they show states this release cannot read:
    ``skipped`` says why), log it and queue ``notices``, in one transaction."""
    def write(c: Connection) -> None:
        c.execute("UPDATE tables SET frozen = ? WHERE id = ?", (dumps(frozen), table.id))
        c.execute("UPDATE outbox SET status = 'skipped', last_error = ?"
                  " WHERE table_id = ? AND status = 'pending' AND kind IN ('start', 'update', 'private', 'finish')",
                  (skipped, table.id))
        c.execute("INSERT INTO moderation (table_id, moderator, action, reason, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                  (table.id, moderator, "frozen", reason, dumps(frozen), now))
        c.executemany("INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?)", _message_rows(table.id, table.version, notices, now))

    await store._write_in_thread(write)
