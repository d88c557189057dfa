"""A Swiss tournament of bot players played through the referee service: pairing time per round (target:
at most 1 s at 256 players) and the total time.

    .venv/bin/python benchmarks/tournament.py [--players 256] [--rounds 7] [--game claygod]
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.tournament.planning as planning_module  # noqa: E402
from bot.referee.service import Referee  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.tournament.director import Director  # noqa: E402

pairing_seconds: list[float] = []
_pairs = planning_module.swiss_pairs  # the Swiss planner's matching (planning.py)


def timed_pairs(*args, **kwargs):
    start = time.perf_counter()
    try:
        return _pairs(*args, **kwargs)
    finally:
        pairing_seconds.append(time.perf_counter() - start)


async def run(players: int, rounds: int, game: str) -> None:
    planning_module.swiss_pairs = timed_pairs
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        director = Director(Referee(store))
        started = time.perf_counter()
        tour = await director.create(game, "swiss", creator="bench", settings={"rounds": rounds}, origin="terminal")
        for i in range(players):
            await director.join(tour.id, f"bot:{i}", f"Bot {i}", is_bot=True)
        progress = await director.start(tour.id, by="bench")
        tables = list(progress.tables)
        while tables:
            round_start = time.perf_counter()
            for table_id in tables:
                await director.referee.drive_bots(table_id)
            progress = await director.sync(tour.id)
            tables = progress.tables
            t = await director.record.get(tour.id)
            print(f"round {t.round - (0 if progress.finished else 1)} played in {time.perf_counter() - round_start:.1f} s;"
                  f" pairing of the next: {pairing_seconds[-1] if progress.rounds else 0:.3f} s", flush=True)
        total = time.perf_counter() - started
        print(f"{players} players, {rounds} rounds of {game}: pairing per round "
              f"{', '.join(f'{s:.3f}' for s in pairing_seconds)} s (max {max(pairing_seconds):.3f} s); "
              f"total {total:.1f} s")
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--game", default="claygod")
    args = parser.parse_args()
    asyncio.run(run(args.players, args.rounds, args.game))


if __name__ == "__main__":
    main()
