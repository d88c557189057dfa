"""A table's whole record and what its players see, to prove a what-if trial touches neither
(tests/referee/test_whatif.py, tests/discord/test_whatif.py)."""
import json

#: every table of the record but the moderation log: what a trial must never touch
RECORD = ("tables", "seats", "actions", "snapshots", "events", "outbox", "disputes")


async def record_rows(store, table_id):
    """The table's rows in every table of the record, as stored (bytes and all)."""
    rows = {}
    for name in RECORD:
        column = "id" if name == "tables" else "table_id"
        rows[name] = [tuple(r) for r in await store.conn.execute_fetchall(
            f"SELECT * FROM {name} WHERE {column} = ? ORDER BY rowid", (table_id,))]
    return rows


async def looks(store, table_id):
    rows = await store.conn.execute_fetchall(
        "SELECT moderator, action, data FROM moderation WHERE table_id = ? ORDER BY id", (table_id,))
    return [(r[0], r[1], json.loads(r[2])) for r in rows]
