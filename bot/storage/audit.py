"""An auditor's share of the record: the export key that pseudonymises players, and each table's facts as a
tournament's audit export reads them (bot/tournament/audit.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from bot.storage.ratings import Connection
from bot.storage.store import Store


async def export_key(store: Store) -> bytes:
    """The database's own secret for public pseudonyms (migration's single row)."""
    row = await store._one("SELECT key FROM export_key WHERE id = 1")
    assert row is not None, "every migrated database has its export key"
    return bytes(row["key"])


@dataclass(frozen=True)
class TableFacts:
    status: str
    started_at: float | None
    finished_at: float | None
    rated: bool
    outcome: dict[str, Any] | None
    seats: list[tuple[int, str, bool]]                 # (seat, user_id, is_bot now)
    actions: list[tuple[int, str, int]]                # (seat, user_id, version) of the seats' actions
    logged: list[dict[str, Any]]                       # the data of the moderation log's entries asked for
    #: user_id → (seat, place, mu_before, sigma_before, mu, sigma, games) of its cached rating result
    results: dict[str, tuple[int, int, float, float, float, float, int]]


def table_facts(c: Connection, table_ids: list[int], logged: str) -> dict[int, TableFacts]:
    """Each existing table's facts, with the data of its moderation log's entries of action ``logged``."""
    facts: dict[int, TableFacts] = {}
    for table_id in table_ids:
        row = c.execute("SELECT status, started_at, finished_at, rated, outcome FROM tables WHERE id = ?",
                        (table_id,)).fetchone()
        if row is None:
            continue
        seats = [(s, u, bool(b)) for s, u, b in c.execute(
            "SELECT seat, user_id, is_bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
        actions = [(s, u, v) for s, u, v in c.execute(
            "SELECT seat, user_id, version FROM actions WHERE table_id = ? AND seat >= 0", (table_id,))]
        entries = [orjson.loads(d) for (d,) in c.execute(
            "SELECT data FROM moderation WHERE table_id = ? AND action = ?", (table_id, logged)) if d]
        results = {u: (seat, place, mb, sb, mu, sigma, games) for u, seat, place, mb, sb, mu, sigma, games in c.execute(
            "SELECT user_id, seat, place, mu_before, sigma_before, mu, sigma, games FROM rating_results"
            " WHERE table_id = ?", (table_id,))}
        facts[table_id] = TableFacts(row[0], row[1], row[2], bool(row[3]), orjson.loads(row[4]) if row[4] else None,
                                     seats, actions, entries, results)
    return facts
