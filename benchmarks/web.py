"""Server time of the public pages (bot/web/), per page kind, and requests per second on one core.

Builds a database: one table of every game played to the end by bot players, and a Swiss tournament of
``--players`` bot players (64 by default, 7 rounds) played with the tests' three-card game (the tournament page
reads entries, games and results, never a table's cards, so the game does not change its cost and the build takes
seconds).  Then, for each page kind, the aiohttp handler is called directly (no client, no sockets: the server's
own time), in three states:

    fresh  nothing kept (as after a restart): the token query, the record read, every step's text, the render
           (a picture: drawn)
    cold   the page not kept; its steps' text, the table's record at this version and the replay's step views
           kept (bot/web/replay_cache.py: a replay step or picture never asked for before at this version)
    warm   the page kept: the token query and the send
    304    a repeat request with the page's ETag

and prints a table: wall-clock ms (median, p95) and the process's CPU ms per request (median; the database
thread's included), and requests/s on one core = 1 / mean CPU time.  On a shared machine the wall clock
includes waiting for the core; the CPU time does not.  Targets
(docs/performance.md): a table page under 20 ms, a 64-player tournament page under 50 ms, cold.

    .venv/bin/python benchmarks/web.py [--players 64] [--rounds 7] [--runs 30]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp.test_utils import make_mocked_request  # noqa: E402

from bot.engine import all_games, register  # noqa: E402
from bot.referee.service import Referee  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.web.app import Site  # noqa: E402
from bot.web.sample import bot_tournament  # noqa: E402

SEATS = {"claygod": 2, "gwent": 2, "bloodwood": 7, "bridges": 3, "raiders": 3}


async def build(store: Store, players: int, rounds: int, games: list[str]) -> dict[str, Any]:
    from tests.support.toy import TOY

    if "toy" not in all_games():
        register(TOY)
    referee = Referee(store)
    tables = {}
    for game in games:
        table = await referee.create_table(game, creator="cli:bench", creator_name="bench", origin="demo", join=False)
        for i in range(SEATS[game]):
            await referee.add_bot(table.id, name=f"Игрок {i + 1}")
        await referee.start(table.id, "cli:bench")
        await referee.drive_bots(table.id)
        tables[game] = table.id
    tournament = await bot_tournament(referee, "toy", "swiss", players, title=f"Swiss {players}",
                                      settings={"rounds": rounds})
    return {"tables": tables, "tournament": tournament}


async def _call(handler, path: str, match: dict[str, str], headers: dict[str, str] | None = None):
    request = make_mocked_request("GET", path, headers=headers or {}, match_info=match)
    return await handler(request)


async def measure(site: Site, handler, path: str, match: dict[str, str], runs: int) -> dict[str, dict[str, float]]:
    out = {}
    first = await _call(handler, path, match)
    assert first.status == 200, (path, first.status)
    etag = first.headers["ETag"]
    for mode in ("fresh", "cold", "warm", "304"):
        times, cpu = [], []
        for _ in range(runs):
            if mode in ("fresh", "cold"):
                site.cache = type(site.cache)(site.cache.size)
            if mode == "fresh":
                site.lines = type(site.lines)(site.lines.size)
                site.pictures = type(site.pictures)(size=128)
                if hasattr(site, "records"):  # the replay cache (absent before it was written: the old figures)
                    site.records = type(site.records)(site.records.views.size)
            t0, c0 = time.perf_counter(), time.process_time()
            response = await _call(handler, path, match, {"If-None-Match": etag} if mode == "304" else None)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            assert response.status == (304 if mode == "304" else 200)
        ordered = sorted(times)
        out[mode] = {"median": statistics.median(ordered), "p95": ordered[int(0.95 * (len(ordered) - 1))],
                     "cpu": statistics.median(cpu), "rps": 1000 / max(statistics.mean(cpu), 1e-3),
                     "bytes": len(first.body or b"")}
    return out


async def figures(players: int = 64, rounds: int = 7, runs: int = 30, games: list[str] | None = None,
                  database: Path | None = None) -> dict[str, dict[str, dict[str, float]]]:
    folder = None
    if database is None:
        folder = tempfile.TemporaryDirectory()
        database = Path(folder.name) / "web.db"
    store = await Store.open(database)
    try:
        world = await build(store, players, rounds, games or list(SEATS))
        site = Site(store, locale="ru")
        tid = world["tournament"]
        kinds: dict[str, tuple[Any, str, dict[str, str]]] = {
            "index": (site.index, "/server/local", {"guild": "local"}),
            f"tournament ({players} players)": (site.tournament, f"/tournament/{tid}", {"id": str(tid)}),
        }
        for game, table in world["tables"].items():
            kinds[f"table: {game}"] = (site.table, f"/table/{table}", {"id": str(table)})
        longest = max(world["tables"].values(), key=lambda t: t)
        kinds["replay step"] = (site.replay, f"/table/{longest}/replay/5", {"id": str(longest), "step": "5"})
        kinds["replay picture"] = (site.replay_picture, f"/table/{longest}/replay/5.png",
                                   {"id": str(longest), "step": "5"})
        first_player = f"bot:t{tid}:1"
        kinds["player"] = (site.player, f"/player/{first_player}", {"user": first_player})
        out = {}
        for name, (handler, path, match) in kinds.items():
            out[name] = await measure(site, handler, path, match, runs)
        return out
    finally:
        await store.close()
        if folder is not None:
            folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=30, help="calls per page and state")
    args = parser.parse_args()
    results = asyncio.run(figures(args.players, args.rounds, args.runs))
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| page | KB | fresh CPU ms | cold ms (wall, median / p95) | cold CPU ms | cold req/s | warm CPU ms"
          " | warm req/s | 304 CPU ms | 304 req/s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        f, c, w, n = r["fresh"], r["cold"], r["warm"], r["304"]
        print(f"| {name} | {c['bytes'] / 1024:.0f} | {f['cpu']:.1f} | {c['median']:.1f} / {c['p95']:.1f} | {c['cpu']:.1f}"
              f" | {c['rps']:.0f}"
              f" | {w['cpu']:.2f} | {w['rps']:.0f} | {n['cpu']:.2f} | {n['rps']:.0f} |")


if __name__ == "__main__":
    main()
