"""Finished tables written straight into a database (as the referee's writes leave them), for rating tests that
need many finishes, rollbacks and cancellations without playing games."""
from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

from bot.storage.store import Store

_TEMPLATE: dict[str, Path] = {}


def empty_db(path: Path) -> sqlite3.Connection:
    """A migrated, empty database at ``path`` (copied from one migrated once per process)."""
    if "db" not in _TEMPLATE:
        template = path.parent / "ratings-template.db"

        async def make() -> None:
            store = await Store.open(template)
            await store.close()
        asyncio.run(make())
        _TEMPLATE["db"] = template
    shutil.copy(_TEMPLATE["db"], path)
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA foreign_keys = ON")
    return c


def add_table(c: sqlite3.Connection, game: str, users: list[str], *, guild: str | None = None, rated: bool = True,
              options: dict | None = None, moves: int = 1) -> int:
    """A started table of ``users`` (a player's move recorded unless ``moves`` is 0)."""
    cur = c.execute("INSERT INTO tables (game, status, options, creator, created_at, guild_id, rated, origin)"
                    " VALUES (?, 'lobby', ?, ?, 0, ?, ?, 'terminal')",
                    (game, json.dumps(options or {}), users[0], guild, int(rated)))
    tid = cur.lastrowid
    for seat, user in enumerate(users):
        c.execute("INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at, hotseat)"
                  " VALUES (?, ?, ?, ?, ?, 0, 1)", (tid, seat, user, user.split(":")[-1], int(user.startswith("bot:"))))
    c.execute("UPDATE tables SET status = 'active', started_at = 0 WHERE id = ?", (tid,))
    for v in range(1, moves + 1):
        c.execute("INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, 0, ?, '{}', 0)",
                  (tid, v, users[0]))
    return tid


def finish(c: sqlite3.Connection, table_id: int, winners: list[int], at: float, **outcome) -> None:
    c.execute("UPDATE tables SET status = 'finished', outcome = ?, finished_at = ? WHERE id = ?",
              (json.dumps({"winners": winners, "reason": "x", "params": {}, **outcome}), at, table_id))


def reopen(c: sqlite3.Connection, table_id: int) -> None:
    """What a moderator's rollback of a finished table writes."""
    c.execute("UPDATE tables SET status = 'active', outcome = NULL, finished_at = NULL WHERE id = ?", (table_id,))


def cancel(c: sqlite3.Connection, table_id: int, at: float) -> None:
    c.execute("UPDATE tables SET status = 'cancelled', finished_at = ? WHERE id = ?", (at, table_id))
