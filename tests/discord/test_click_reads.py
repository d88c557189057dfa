"""An ordinary click reads the database at most twice: the table as the click found it (table, seats, state,
the clicking seat, the version, its choices), and the table after the move for the redrawn control message.
Counted as trips to the database thread that run a SELECT, made by the click's own task (the delivery worker
and the bots' runs are tasks of their own)."""
from __future__ import annotations

import asyncio
from typing import Any

from tests.discord.support import control
from tests.discord.support import started_toy, user_to_act

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class ReadTrips:
    """Every trip to a database thread of ``store`` that runs a SELECT and writes nothing, with the task that
    made it and the statements it ran (each connection's trips go through aiosqlite's one queue, ``_execute``)."""

    def __init__(self, store: Any):
        self.trips: list[tuple[asyncio.Task | None, list[str]]] = []
        for conn in {id(c): c for c in (store.conn, store.reader)}.values():
            self._wrap(conn)

    def _wrap(self, conn: Any) -> None:
        queued = conn._execute

        async def execute(fn: Any, *args: Any, **kwargs: Any) -> Any:
            statements: list[str] = []

            def traced() -> Any:
                conn._conn.set_trace_callback(statements.append)
                try:
                    return fn(*args, **kwargs)
                finally:
                    if fn != conn._conn.close:  # (a closed connection takes no callback)
                        conn._conn.set_trace_callback(None)
            result = await queued(traced)
            said = [s.lstrip().upper() for s in statements]
            if any(s.startswith("SELECT") for s in said) and not any(s.startswith(_WRITES) for s in said):
                self.trips.append((asyncio.current_task(), statements))
            return result
        conn._execute = execute

    def by(self, tasks: set[asyncio.Task]) -> list[list[str]]:
        return [statements for task, statements in self.trips if task in tasks]


async def test_an_ordinary_click_reads_the_database_at_most_twice(harness, monkeypatch):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "reads-1")
    table = await started_toy(h)
    # a first move each, so that the clicks below are ordinary ones (the referee has met the table)
    for _ in range(2):
        acting = await user_to_act(h, table)
        await h.pick(acting, control(fake, acting), 0)
        await h.settled()

    clicks: set[asyncio.Task] = set()
    play = h.bot.get_cog("Play")  # (the cog's module is loaded afresh by the bot: its instance is patched)
    decide = play._decide

    async def counted(*args: Any, **kwargs: Any) -> None:
        clicks.add(asyncio.current_task())
        await decide(*args, **kwargs)
    monkeypatch.setattr(play, "_decide", counted)
    trips = ReadTrips(h.store)

    acting = await user_to_act(h, table)
    before = (await h.table(table.id)).version
    await h.pick(acting, control(fake, acting), 0)
    await h.settled()
    assert len(clicks) == 1 and (await h.table(table.id)).version > before, "the click made the move"
    reads = trips.by(clicks)
    assert len(reads) <= 2, f"{len(reads)} reads for one click:\n" + "\n".join(" | ".join(s) for s in reads)
    assert trips.trips, "the counter sees the database's reads at all"
