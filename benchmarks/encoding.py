"""The hot encoding path of every recorded action, before and after issue 18's orjson/zstd round: per game,
the median over playout states (each timed as its best of several runs) of the canonical encoding, packing
a snapshot, reading one back, and cloning a state.  "before" runs the code as it was (json.dumps, zlib level
1, json.loads, pickle); "after" the current functions.  Prints a table in µs.

    .venv/bin/python benchmarks/encoding.py [--playouts N] [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import all_games, clone  # noqa: E402
from bot.engine.canonical import dumps, loads  # noqa: E402
from bot.engine.playout import play  # noqa: E402
from bot.storage.store import pack_state, unpack_state  # noqa: E402


def old_dumps(state: Any) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def median_us(call: Callable[[Any], Any], inputs: list[Any], repeat: int) -> float:
    best = []
    for item in inputs:
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            call(item)
            times.append(time.perf_counter_ns() - t0)
        best.append(min(times))
    return statistics.median(best) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=3, help="playouts per game (default 3)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per state, the best kept (default 7)")
    args = parser.parse_args()
    print(f"{'game':10} {'states':>6} {'KB':>5} | {'dumps':>13} | {'pack':>13} | {'unpack+loads':>13} | "
          f"{'clone':>13} | {'stored KB':>11}")
    print(f"{'':10} {'':>6} {'':>5} | {'before after':>13} | {'before after':>13} | {'before after':>13} | "
          f"{'before after':>13} | {'zlib  zstd':>11}")
    for name, game in all_games().items():
        if name == "toy":
            continue
        states: list[dict[str, Any]] = []
        for i in range(args.playouts):
            seats = game.min_seats + i % (game.max_seats - game.min_seats + 1)
            po = play(game, seats, seed=f"encoding-{name}-{i}", bot_seed=i)
            states += [po.initial, *po.states]
        zlib_rows = [zlib.compress(old_dumps(s).encode(), 1) for s in states]
        zstd_rows = [pack_state(s) for s in states]
        assert all(unpack_state(z) == unpack_state(n) == dumps(s) for z, n, s in zip(zlib_rows, zstd_rows, states))
        r = args.repeat
        figures = [
            (median_us(old_dumps, states, r), median_us(dumps, states, r)),
            (median_us(lambda s: zlib.compress(old_dumps(s).encode(), 1), states, r), median_us(pack_state, states, r)),
            (median_us(lambda z: json.loads(zlib.decompress(z).decode()), zlib_rows, r),
             median_us(lambda z: loads(unpack_state(z)), zstd_rows, r)),
            (median_us(lambda s: pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)), states, r),
             median_us(clone, states, r)),
        ]
        kb = statistics.median(len(dumps(s)) for s in states) / 1024
        stored = (statistics.median(map(len, zlib_rows)) / 1024, statistics.median(map(len, zstd_rows)) / 1024)
        cells = " | ".join(f"{b:6.1f} {a:6.1f}" for b, a in figures)
        print(f"{name:10} {len(states):6} {kb:5.1f} | {cells} | {stored[0]:5.2f} {stored[1]:5.2f}")


if __name__ == "__main__":
    main()
