"""Render time and size of the table pictures (bot/render/picture/), per game: views taken along seeded bot
playouts, the public's and every seat's, the table picture and the hand picture.  Prints a table; the
figures go into docs/performance.md (targets: 100 ms and 300 KB a picture).

    .venv/bin/python benchmarks/pictures.py [--games N] [--points N] [--game NAME] [--cpu] [--root CHECKOUT]

``--cpu`` times each picture by the process's CPU time rather than the wall clock (on a shared, loaded machine
the wall clock mostly measures waiting for a core); ``--root`` measures another checkout's pictures (an older
revision, for a before-and-after comparison).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

_root = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv[:-1] else Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_root))

from bot.engine import all_games  # noqa: E402
from bot.engine.playout import play  # noqa: E402
from bot.render.picture import MAX_BYTES, picture, supported  # noqa: E402

clock = time.perf_counter

NAMES = ["Аня", "Борис", "Віра", "Glen", "Дана", "Егор", "Жанна", "Зоя", "Ігор", "Kate", "Лев", "Мія"]


def figures(name: str, games: int, points: int) -> dict[str, dict[str, float]]:
    game = all_games()[name]
    seats = game.demo_seat_count()
    timings: dict[str, list[float]] = {"table": [], "hand": []}
    sizes: dict[str, list[int]] = {"table": [], "hand": []}
    picture(game.view(game.initial_state(seats, seed="warm").state, None), "ru", NAMES)  # fonts, catalogues
    for i in range(games):
        run = play(game, seats, seed=f"pictures-{i}", bot_seed=i)
        states = run.states[:: max(1, len(run.states) // points)] + [run.final or run.states[-1]]
        for state in states:
            for seat in [None, *range(seats)]:
                view = game.view(state, seat)
                for kind in ("table", "hand"):
                    t0 = clock()
                    png = picture(view, "ru", NAMES[:seats], kind)
                    elapsed = clock() - t0
                    if png is not None:
                        timings[kind].append(elapsed * 1000)
                        sizes[kind].append(len(png))
    out = {}
    for kind in ("table", "hand"):
        if timings[kind]:
            ordered = sorted(timings[kind])
            out[kind] = {"n": len(ordered), "ms mean": statistics.mean(ordered),
                         "ms p95": ordered[int(0.95 * (len(ordered) - 1))], "ms max": ordered[-1],
                         "KB mean": statistics.mean(sizes[kind]) / 1024, "KB max": max(sizes[kind]) / 1024}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="playouts per game")
    parser.add_argument("--points", type=int, default=10, help="states drawn per playout")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--cpu", action="store_true", help="CPU time rather than the wall clock")
    parser.add_argument("--root", help="the checkout whose pictures are measured")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    names = [args.game] if args.game else [n for n in sorted(all_games()) if supported(n)]
    print("| game | picture | pictures | ms mean | ms p95 | ms max | KB mean | KB max |")
    print("|---|---|---|---|---|---|---|---|")
    worst_ms = worst_kb = 0.0
    for name in names:
        for kind, f in figures(name, args.games, args.points).items():
            worst_ms, worst_kb = max(worst_ms, f["ms max"]), max(worst_kb, f["KB max"])
            print(f"| {name} | {kind} | {f['n']} | {f['ms mean']:.1f} | {f['ms p95']:.1f} | {f['ms max']:.1f} "
                  f"| {f['KB mean']:.1f} | {f['KB max']:.1f} |")
    print(f"\nslowest {worst_ms:.1f} ms (target 100), largest {worst_kb:.1f} KB (bound {MAX_BYTES // 1000} KB)")


if __name__ == "__main__":
    main()
