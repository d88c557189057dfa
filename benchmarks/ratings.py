"""Deriving ratings from the record (bot/ratings/derive.py): a rebuild of N finished tables from nothing, a
rollback of a table in the middle of the record (everything after it derived again), and the cost a new
finish adds (one table derived).

    .venv/bin/python benchmarks/ratings.py [--tables 100000] [--players 400]

The tables are written straight into a migrated database as the referee leaves them (seats, one player's
action, the outcome): a mix of the four rated games, some between people on two servers and the terminal, a
tenth with a bot seat or casual (read and judged, not rated), Bridges (statistics only).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ratings import derive  # noqa: E402
from bot.storage.store import Store  # noqa: E402

ROLES = ["dracula", "vampire", "vampire", "alpha", "werewolf", "werewolf"]


def outcome(game: str, rng: random.Random, seats: int) -> tuple[dict, list[int]]:
    if game in ("claygod", "gwent"):
        winners = [] if rng.random() < 0.05 else [rng.randrange(2)]
        return {"winners": winners, "reason": "x", "params": {}}, winners
    if game == "raiders":
        w = rng.randrange(seats)
        scores = {str(s): (36 + rng.randrange(5) if s == w else rng.randrange(30)) for s in range(seats)}
        return {"winners": [w], "reason": "x", "params": {}, "scores": scores}, [w]
    if game == "bloodwood":
        roles = rng.sample(ROLES, seats)
        team = rng.choice(["vampires", "werewolves"])
        winners = [s for s, r in enumerate(roles) if (r in ("dracula", "vampire")) == (team == "vampires")]
        return {"winners": winners, "reason": "x", "params": {}, "scores": {"roles": roles}}, winners
    return {"winners": [], "reason": "x", "params": {}}, []


def fill(path: Path, tables: int, players: int, seed: int = 1) -> None:
    """``tables`` finished tables, written in a few large transactions."""
    rng = random.Random(seed)
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("BEGIN")
    games = ["claygod"] * 4 + ["gwent"] * 3 + ["raiders"] * 2 + ["bloodwood", "bridges"]
    table_rows, seat_rows, action_rows, finish_rows = [], [], [], []
    for tid in range(1, tables + 1):
        game = rng.choice(games)
        seats = {"claygod": 2, "gwent": 2, "raiders": rng.randint(2, 4), "bloodwood": 6, "bridges": 2}[game]
        users = [f"discord:{n}" for n in rng.sample(range(players), seats)]
        if rng.random() < 0.05:
            users[-1] = "bot:1"
        guild = rng.choice(["1", "2", None])
        out, _ = outcome(game, rng, seats)
        table_rows.append((tid, game, "{}", users[0], guild, int(rng.random() > 0.05)))
        seat_rows += [(tid, s, u, u, int(u.startswith("bot:"))) for s, u in enumerate(users)]
        action_rows.append((tid, 1, 0, users[0]))
        finish_rows.append((json.dumps(out), 1_700_000_000 + tid * 37.0, tid))
    c.executemany("INSERT INTO tables (id, game, status, options, creator, created_at, guild_id, rated)"
                  " VALUES (?, ?, 'lobby', ?, ?, 0, ?, ?)", table_rows)
    c.executemany("INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at) VALUES (?, ?, ?, ?, ?, 0)",
                  seat_rows)
    c.executemany("INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, '{}', 0)",
                  action_rows)
    c.executemany("UPDATE tables SET status = 'finished', outcome = ?, finished_at = ? WHERE id = ?", finish_rows)
    c.execute("COMMIT")
    c.close()


CPU: dict[str, float] = {}


def timed(c: sqlite3.Connection, fn, name: str) -> tuple[float, object]:
    """Wall seconds (and, in CPU, the process's CPU seconds: the machine may be shared) of one transaction."""
    began, cpu = time.perf_counter(), time.process_time()
    c.execute("BEGIN IMMEDIATE")
    result = fn(c)
    c.execute("COMMIT")
    CPU[name] = time.process_time() - cpu
    return time.perf_counter() - began, result


def run(tables: int, players: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"

        async def migrate() -> None:
            store = await Store.open(path)
            await store.close()
        asyncio.run(migrate())
        began = time.perf_counter()
        fill(path, tables, players)
        filled = time.perf_counter() - began
        c = sqlite3.connect(path, isolation_level=None)
        first, replayed = timed(c, derive.sync, 'first_sync')    # the first sync: everything, from nothing
        rebuild, (rows, differ, _most) = timed(c, derive.rebuild, 'rebuild')  # sync, recompute, compare, store again
        assert differ == 0, differ
        middle = tables // 2
        c.execute("UPDATE tables SET status = 'active', outcome = NULL, finished_at = NULL WHERE id = ?", (middle,))
        rollback, _ = timed(c, derive.sync, 'rollback_middle')    # half the record derived again
        c.execute("UPDATE tables SET status = 'finished', outcome = ?, finished_at = ? WHERE id = ?",
                  (json.dumps({"winners": [0], "reason": "x", "params": {}}), 1e10, middle))
        one, _ = timed(c, derive.sync, 'one_finish')              # a new finish: one table
        c.close()
    return {"tables": tables, "rated_rows": rows, "replayed": replayed, "fill": filled, "first_sync": first,
            "rebuild": rebuild, "rollback_middle": rollback, "one_finish": one}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--tables", type=int, default=100_000)
    p.add_argument("--players", type=int, default=400)
    args = p.parse_args()
    figures = run(args.tables, args.players)
    print(f"{figures['tables']:,} finished tables ({figures['rated_rows']:,} rated player rows), written in"
          f" {figures['fill']:.1f} s")
    print(f"first sync (everything from nothing): {figures['first_sync']:.2f} s (CPU {CPU['first_sync']:.2f} s)")
    print(f"rebuild (sync, recompute from nothing, compare, store): {figures['rebuild']:.2f} s"
          f" (CPU {CPU['rebuild']:.2f} s)")
    print(f"rollback of the middle table (half the record again): {figures['rollback_middle']:.2f} s"
          f" (CPU {CPU['rollback_middle']:.2f} s)")
    print(f"one new finish: {figures['one_finish'] * 1000:.1f} ms (CPU {CPU['one_finish'] * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
