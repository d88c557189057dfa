"""Speed and size figures for every registered game: engine playouts, the referee service over SQLite,
and how much the record grows.  Prints a table; numbers go into docs/performance.md.

    .venv/bin/python benchmarks/bench.py [--games N] [--service-tables N] [--game NAME]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import all_games  # noqa: E402
from bot.engine.canonical import dumps  # noqa: E402
from bot.engine.playout import play  # noqa: E402
from bot.service import Referee  # noqa: E402
from bot.storage.store import Store  # noqa: E402


def engine_figures(name: str, games: int) -> dict[str, float]:
    game = all_games()[name]
    seats = getattr(game, "demo_seats", game.min_seats)
    actions, sizes, t0 = 0, [], time.perf_counter()
    for i in range(games):
        po = play(game, seats, seed=f"bench-{i}", bot_seed=i)
        actions += len(po.steps)
        sizes += [len(dumps(s)) for s in po.states[:: max(1, len(po.states) // 10)]]
    elapsed = time.perf_counter() - t0
    return {"games/s": games / elapsed, "actions/game": actions / games,
            "ms/action": 1000 * elapsed / max(actions, 1), "state KB": statistics.mean(sizes) / 1024}


async def service_figures(name: str, tables: int, *, together: bool = False) -> dict[str, float]:
    """Bot tables played through the referee into SQLite, one after another or all at once (``together``:
    many tables of a tournament moving at the same time, sharing one database writer)."""
    game = all_games()[name]
    seats = getattr(game, "demo_seats", game.min_seats)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        store = await Store.open(path)
        referee = Referee(store)

        async def one_table() -> int:
            table = await referee.create_table(name, creator="bench", creator_name="bench", join=False)
            for _ in range(seats):
                await referee.add_bot(table.id)
            await referee.start(table.id, "bench")
            return await referee.drive_bots(table.id)

        t0 = time.perf_counter()
        if together:
            moves = sum(await asyncio.gather(*(one_table() for _ in range(tables))))
        else:
            moves = 0
            for _ in range(tables):
                moves += await one_table()
        elapsed = time.perf_counter() - t0
        await store.close()
        size = sum(os.path.getsize(p) for p in Path(tmp).iterdir())
    return {"actions/s": moves / elapsed, "KB/table": size / 1024 / tables}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--service-tables", type=int, default=10)
    parser.add_argument("--game")
    args = parser.parse_args()
    names = [args.game] if args.game else [n for n in all_games() if n != "toy"]
    print(f"{'game':10} {'games/s':>9} {'act/game':>9} {'ms/act':>8} {'state KB':>9} "
          f"{'svc act/s':>10} {'together':>9} {'KB/table':>9}")
    for name in names:
        e = engine_figures(name, args.games)
        s = asyncio.run(service_figures(name, args.service_tables))
        c = asyncio.run(service_figures(name, args.service_tables, together=True))
        print(f"{name:10} {e['games/s']:9.1f} {e['actions/game']:9.1f} {e['ms/action']:8.3f} "
              f"{e['state KB']:9.1f} {s['actions/s']:10.1f} {c['actions/s']:9.1f} {s['KB/table']:9.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
