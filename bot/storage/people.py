"""People and servers: a user's and a server's settings, the moderators seen on a server."""
from __future__ import annotations

from typing import Any

from bot.storage.base import StoreBase


class PeopleQueries(StoreBase):
    """Users' and servers' settings; the moderators seen."""

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
                                      "organiser_role": None, "notice_channel": None, "public": 1}

    async def set_guild(self, guild_id: str, **fields: Any) -> None:
        await self._upsert("guilds", "guild_id", guild_id, {"locale", "moderator_role", "organiser_role",
                                                            "notice_channel", "public"}, fields)

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
