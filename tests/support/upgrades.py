"""Opening a database an older release wrote and playing its tables on with today's code (issue 23).

    run = await continue_fixture(copied_db)          # open (schema + rules migrations), play on, verify
    assert run.ok, run.explain()

or, step by step, with the store and referee kept open (a tournament's next round, say):

    async with opened(copied_db) as (store, referee, upgrade):
        outcome = await play_to_end(referee, table_id)
        report = await verify_table(store, table_id)

Always give a *copy* of a fixture: opening migrates it in place (and writes a backup beside it).
"""
from __future__ import annotations

import random
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import AsyncIterator

from bot.engine import Rejection, get_game
from bot.engine.versions import RULES
from bot.games.claygod import migrations as claygod_migrations
from bot.referee.moderation import resume
from bot.referee.record import Verification, verify_table
from bot.referee.service import Referee
from bot.referee.upgrade import UpgradeReport, open_store
from bot.storage.store import Store

MODERATOR = "cli:fixture-moderator"


@dataclass
class Continued:
    """One table of the fixture, played on."""

    table_id: int
    game: str
    status: str                         # after playing on: finished, or why not (frozen, lobby, stuck: …)
    moves: int = 0
    verification: Verification | None = None

    @property
    def ok(self) -> bool:
        return self.status == "finished" and self.verification is not None and self.verification.ok


@dataclass
class FixtureRun:
    upgrade: UpgradeReport
    tables: list[Continued] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.tables if c.status != "lobby")

    def explain(self) -> str:
        lines = []
        for c in self.tables:
            problems = "; ".join(c.verification.problems) if c.verification else ""
            lines.append(f"table {c.table_id} ({c.game}): {c.status}, {c.moves} moves"
                         + (f", verified {'OK' if c.verification.ok else 'MISMATCH'} {problems}"
                            if c.verification else ""))
        return "\n".join(lines)


@asynccontextmanager
async def opened(path: str | Path, *, clock=None) -> AsyncIterator[tuple[Store, Referee, UpgradeReport]]:
    """The database opened as a front end opens it (bot.referee.upgrade.open_store), and a referee over it."""
    store = await open_store(path)
    try:
        referee = Referee(store, clock=clock) if clock is not None else Referee(store)
        yield store, referee, store.upgrade_report
    finally:
        await store.close()


async def play_to_end(referee: Referee, table_id: int, *, max_moves: int = 5000, seed: int = 0) -> tuple[str, int]:
    """Play a table on to its end, every seat (the humans' too) moved by the game's built-in bot; a paused table
    is resumed first.  Returns (the table's status or why it stopped, the moves made)."""
    store = referee.store
    table = await store.get_table(table_id)
    if table is None:
        return "missing", 0
    if table.frozen is not None:
        return "frozen", 0
    if table.paused_at is not None:
        await resume(referee, table_id, moderator=MODERATOR, reason="fixture played on")
    game = get_game(table.game)
    rng = random.Random(f"{seed}:{table_id}")
    moves = 0
    while moves < max_moves:
        table = await store.get_table(table_id)
        if table.status != "active":
            return table.status, moves
        state = await store.state(table_id)
        pending = game.to_act(state)
        if not pending:
            return "stuck: nobody to act", moves
        seats = await store.seats(table_id)
        seat = pending[0].seat
        action = game.bot_action(state, seat, rng)
        result = await referee.act(table_id, seats[seat].user_id, action, seat=seat,
                                   expected_version=table.version)
        if isinstance(result, Rejection):
            return f"stuck: {result.code} {result.key}", moves
        moves += 1
    return "stuck: too many moves", moves


async def continue_fixture(path: str | Path, *, max_moves: int = 5000) -> FixtureRun:
    """Open a (copied) fixture database with today's code, play every running table to its end and verify it."""
    async with opened(path) as (store, referee, upgrade):
        run = FixtureRun(upgrade)
        for table in sorted(await store.find_tables(status=["lobby", "active"], limit=10_000), key=lambda t: t.id):
            if table.status == "lobby":
                run.tables.append(Continued(table.id, table.game, "lobby"))
                continue
            status, moves = await play_to_end(referee, table.id, max_moves=max_moves)
            done = Continued(table.id, table.game, status, moves)
            if status == "finished":
                done.verification = await verify_table(store, table.id)
            run.tables.append(done)
        return run


def _claygod_v1(state: dict) -> dict:
    """A Clay God state as releases before ed09e3e (issue 14) and 7b76092 stored it."""
    old = dict(state)
    old.pop(RULES)
    old["options"] = {k: v for k, v in state["options"].items()
                      if k in claygod_migrations.OPTIONS_V2 and k not in claygod_migrations.FORMER_READINGS}
    old["players"] = []
    for p in state["players"]:
        p = {k: v for k, v in p.items() if k != "table_place"}
        p["dice"] = {c: {k: v for k, v in d.items() if k not in ("frozen_rolls", "frozen_by")}
                     for c, d in p["dice"].items()}
        old["players"].append(p)
    if old["turn"] is not None:
        old["turn"] = {k: v for k, v in old["turn"].items() if k != "extra"}
    return old
