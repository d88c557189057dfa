"""Disputes and a server's standing rulings: raised, read, decided (with the decision's steps in the same
transaction)."""
from __future__ import annotations

import sqlite3
from typing import Any, Callable, Sequence

from bot.engine.canonical import dumps
from bot.engine.free_text import stored_name, stored_text
from bot.storage.base import StoreBase
from bot.storage.rows import (DisputeClosed, DisputeRefused, DisputeRow, Message, ServerRuling, Step, inserted_id,
                              present)
from bot.storage.steprows import _INSERT_MESSAGES, _message_rows


class DisputeQueries(StoreBase):
    """Disputes and server rulings."""

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
            dispute_id = inserted_id(cur.lastrowid)
            async with db.execute("SELECT COUNT(*) FROM disputes WHERE table_id = ? AND user_id = ? AND status = 'open'",
                                  (table_id, user_id)) as counted:
                (open_now,) = present(await counted.fetchone())
            if open_now > most_open:  # this one included; the transaction is rolled back
                raise DisputeRefused("too_many")
            async with db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)) as cur:
                (table_version,) = present(await cur.fetchone())
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
        where: list[str] = []
        params: list[int | str] = []
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
            return inserted_id(cur.lastrowid)

    async def server_rulings(self, guild_id: str, *, rule: str | None = None) -> list[ServerRuling]:
        """A server's ruling notes, oldest first (all of them, or those on ``rule``)."""
        sql, params = "SELECT * FROM server_rulings WHERE guild_id = ?", [guild_id]
        if rule is not None:
            sql, params = sql + " AND rule = ?", [*params, rule]
        return [ServerRuling(**{**dict(r), "text": stored_text(r["text"]) or "",
                                "rule": stored_name(r["rule"], limit=40)})
                for r in await self._all(sql + " ORDER BY id", params)]
