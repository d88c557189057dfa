"""Speed and size figures for every registered game: engine playouts, the referee service over SQLite,
and how much the record grows; then ``Referee.act`` against the floor of a bare SQLite commit of the same
rows, throughput and latency with many tables at once, and a restart with many active tables stored.
Prints tables; numbers go into docs/performance.md.

    .venv/bin/python benchmarks/bench.py [--games N] [--service-tables N] [--game NAME]
        [--act-tables N] [--load-tables N] [--load-game NAME] [--rate N] [--restart-tables N]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.process import gc_policy  # noqa: E402
from bot.engine import all_games  # noqa: E402
from bot.engine.canonical import dumps  # noqa: E402
from bot.engine.playout import play  # noqa: E402
from bot.referee.delivery import drain  # noqa: E402
from bot.referee.service import Accepted, Referee  # noqa: E402
from bot.referee.steps import SYSTEM  # noqa: E402
from bot.storage.checkpoint import BACKSTOP_PAGES  # noqa: E402
from bot.storage.store import Store  # noqa: E402

START = 1_700_000_000.0  # the playouts' clock, which the referee is given too, so that it accepts the same steps


def engine_figures(name: str, games: int) -> dict[str, float]:
    game = all_games()[name]
    seats = game.demo_seat_count()
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
    seats = game.demo_seat_count()
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


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def bot_tables(referee: Referee, name: str, seeds: list[str]) -> list[tuple[int, list[str]]]:
    """Started tables of bot seats (so that the referee takes no forced move), one per seed: (id, user ids)."""
    game = all_games()[name]
    made = []
    for seed in seeds:
        table = await referee.create_table(name, creator="bench", creator_name="bench", join=False)
        for _ in range(game.demo_seat_count()):
            await referee.add_bot(table.id)
        await referee.start(table.id, "bench", seed=seed)
        made.append((table.id, [s.user_id for s in await referee.store.seats(table.id)]))
    return made


async def timed_act(referee: Referee, clock: Clock, table: tuple[int, list[str]], step: dict) -> float:
    clock.now = step["now"]
    user = SYSTEM if step["action"].get("type") == "timeout" else table[1][step["seat"]]
    t0 = time.perf_counter()
    result = await referee.act(table[0], user, step["action"], seat=step["seat"])
    elapsed = time.perf_counter() - t0
    assert isinstance(result, Accepted), result
    return elapsed


def floor_rows(source: Path) -> tuple[list[tuple], list[tuple]]:
    """The tables, and every action's rows as the referee stored them (table version, action, snapshot,
    events, outbox), bytes ready."""
    src = sqlite3.connect(source)
    rows = lambda sql, *p: src.execute(sql, p).fetchall()  # noqa: E731
    steps = [(table_id, version, action,
              rows("SELECT * FROM snapshots WHERE table_id = ? AND version = ?", table_id, version),
              rows("SELECT * FROM events WHERE table_id = ? AND version = ?", table_id, version),
              rows("SELECT * FROM outbox WHERE table_id = ? AND version = ?", table_id, version))
             for table_id, version, *action in rows("SELECT * FROM actions ORDER BY table_id, version")]
    tables = rows("SELECT * FROM tables")
    src.close()
    return tables, steps


def floor_db(target: Path, tables: list[tuple]) -> sqlite3.Connection:
    """An empty copy of the schema with the store's pragmas, holding the tables' rows."""
    db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    # the store's setting: its checkpoints run on a thread of their own, not inside a commit (nor here)
    db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
    for row in tables:
        db.execute(f"INSERT INTO tables VALUES ({', '.join('?' * len(row))})", row)
    return db


def bare_commit(db: sqlite3.Connection, step: tuple) -> None:
    table_id, version, action, snapshot, events, outbox = step
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE tables SET version = ? WHERE id = ?", (version, table_id))
    db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", (table_id, version, *action))
    db.executemany("INSERT INTO snapshots VALUES (?, ?, ?)", snapshot)
    if events:
        db.executemany(f"INSERT INTO events VALUES ({', '.join('?' * len(events[0]))})", events)
    if outbox:
        db.executemany(f"INSERT INTO outbox VALUES ({', '.join('?' * len(outbox[0]))})", outbox)
    db.execute("COMMIT")


async def bare_commits(source: Path, schema: Callable[[Path], Awaitable[None]]) -> tuple[list[float], list[float]]:
    """The floor: the referee's rows for each action written again, in one plain sqlite3 transaction each,
    same schema and pragmas — on the calling thread (the issue's floor), and the same transaction as one
    trip to aiosqlite's thread (the floor of any design that keeps aiosqlite as the driver: the hand-over to
    that thread and back is in it)."""
    tables, steps = floor_rows(source / "act.db")
    times = []
    for name in ("floor.db", "floor-thread.db"):
        await schema(source / name)
        db = floor_db(source / name, tables)
        spent = []
        if name == "floor.db":
            for step in steps:
                t0 = time.perf_counter()
                bare_commit(db, step)
                spent.append(time.perf_counter() - t0)
        else:
            worker = await aiosqlite.connect(":memory:")  # its thread only: the transaction runs on ``db``
            for step in steps:
                t0 = time.perf_counter()
                await worker._execute(bare_commit, db, step)
                spent.append(time.perf_counter() - t0)
            await worker.close()
        db.close()
        times.append(spent)
    return times[0], times[1]


async def act_figures(name: str, tables: int) -> dict[str, float]:
    """``Referee.act`` alone, replaying bot playouts prepared in advance, one table after another; then the
    floors (``bare_commits``) of the same rows, in the same run and on the same disk."""
    game = all_games()[name]
    playouts = [play(game, game.demo_seat_count(), seed=f"act-{i}", bot_seed=i, start=START)
                for i in range(tables)]
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        store = await Store.open(Path(tmp) / "act.db")
        referee = Referee(store, clock=clock)
        made = await bot_tables(referee, name, [f"act-{i}" for i in range(tables)])
        times = [await timed_act(referee, clock, table, step) for table, po in zip(made, playouts) for step in po.steps]
        await store.close()
        size = sum(os.path.getsize(p) for p in Path(tmp).iterdir())  # the record alone, before the floors' copies

        async def schema(path: Path) -> None:
            await (await Store.open(path)).close()

        floor, threaded = await bare_commits(Path(tmp), schema)
    median, floor_median, threaded_median = statistics.median(times), statistics.median(floor), statistics.median(threaded)
    return {"floor": floor_median, "floor99": pct(floor, 0.99), "threaded": threaded_median,
            "median": median, "p99": pct(times, 0.99), "ratio": median / floor_median,
            "ratio99": pct(times, 0.99) / pct(floor, 0.99), "ratio_threaded": median / threaded_median,
            "bytes": size / len(times)}


async def load_figures(name: str, tables: int, per_table: int, rate: float, rounds: int = 3) -> dict[str, Any]:
    """``tables`` tables moving at once, actions prepared in advance: first as fast as the referee takes them
    (throughput, ``rounds`` times ``per_table`` actions a table: a shared machine's noise shows as their
    spread), then offered at ``rate`` actions a second spread evenly over the tables (latency)."""
    game = all_games()[name]
    seats = game.demo_seat_count()
    steps, total = [], (rounds + 1) * per_table
    for i in range(tables):
        po = play(game, seats, seed=f"load-{i}", bot_seed=i, start=START, max_actions=total)
        steps.append(po.steps + [None] * (total - len(po.steps)))  # a game over early: fewer actions
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        store = await Store.open(Path(tmp) / "load.db")
        referee = Referee(store, clock=clock)
        made = await bot_tables(referee, name, [f"load-{i}" for i in range(tables)])
        clock.now = START + 10 ** 6  # no deadline passes: the clock is not what is measured here

        async def flat_out(j: int, part: list[dict | None]) -> list[float]:
            return [await timed_act(referee, clock, made[j], step) for step in part if step]

        flat, throughputs = [], []
        for r in range(rounds):
            t0 = time.perf_counter()
            done = [t for ts in await asyncio.gather(*(flat_out(j, steps[j][r * per_table:(r + 1) * per_table])
                                                      for j in range(tables))) for t in ts]
            throughputs.append(len(done) / (time.perf_counter() - t0))
            flat += done

        async def paced(j: int, begin: float) -> list[float]:
            times = []
            for k, step in enumerate(steps[j][rounds * per_table:]):
                await asyncio.sleep(max(0.0, begin + (k * tables + j) / rate - time.perf_counter()))
                if step:
                    times.append(await timed_act(referee, clock, made[j], step))
            return times

        begin = time.perf_counter()
        offered = [t for ts in await asyncio.gather(*(paced(j, begin) for j in range(tables))) for t in ts]
        await store.close()
    return {"throughput": statistics.median(throughputs), "rounds": throughputs, "flat50": statistics.median(flat),
            "flat99": pct(flat, 0.99), "p50": statistics.median(offered), "p99": pct(offered, 0.99),
            "actions": len(flat) + len(offered)}


class NoDeliverer:
    origins = None

    async def deliver(self, table, seats, message) -> None:  # noqa: ANN001
        return None


async def restart_figures(tables: int) -> dict[str, float]:
    """A database with ``tables`` started Clay God tables (two people; every tenth a person against a bot
    player) and their start messages waiting, then what a bot process does before it serves
    (bot/discord/client.py): open (and check) the file, let the bot seats of active tables move, and the
    first action accepted and the first batch of the backlog delivered."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "restart.db"
        store = await Store.open(path)
        referee = Referee(store)
        made = []
        for i in range(tables):
            table = await referee.create_table("claygod", creator=f"cli:a{i}", creator_name="A", origin="terminal")
            await (referee.add_bot(table.id) if i % 10 == 0 else referee.join(table.id, f"cli:b{i}", "B"))
            await referee.start(table.id, f"cli:a{i}")
            made.append(table.id)
        await store.close()
        t0 = time.perf_counter()
        store = await Store.open(path)
        referee = Referee(store)
        with_bots = await store.active_with_bots()
        await asyncio.gather(*(referee.drive_bots(table_id) for table_id in with_bots))
        opened = time.perf_counter() - t0
        table_id = made[len(made) // 2 + 1]  # a table of two people
        game, state = all_games()["claygod"], await store.state(table_id)
        seat = game.to_act(state)[0].seat
        user = (await store.seats(table_id))[seat].user_id
        result = await referee.act(table_id, user, game.bot_action(state, seat, random.Random(0)), seat=seat)
        assert isinstance(result, Accepted), result
        accepting = time.perf_counter() - t0
        await drain(store, NoDeliverer())
        delivering = time.perf_counter() - t0
        await store.close()
    return {"tables": len(made), "with bots": len(with_bots), "opened": opened, "accepting": accepting,
            "delivering": delivering}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--service-tables", type=int, default=10)
    parser.add_argument("--game")
    parser.add_argument("--act-tables", type=int, default=3, help="bot playouts replayed per game through act()")
    parser.add_argument("--load-tables", type=int, default=1000)
    parser.add_argument("--load-game", default="bloodwood")
    parser.add_argument("--per-table", type=int, default=5, help="actions per table in each load phase")
    parser.add_argument("--rate", type=float, default=1000.0, help="actions a second offered in the load test")
    parser.add_argument("--restart-tables", type=int, default=10_000)
    args = parser.parse_args()
    gc_policy.for_serving()  # as the bot's process does at start-up
    names = [args.game] if args.game else [n for n in all_games() if n != "toy"]
    print(f"{'game':10} {'games/s':>9} {'act/game':>9} {'ms/act':>8} {'state KB':>9} "
          f"{'svc act/s':>10} {'together':>9} {'KB/table':>9}")
    for name in names:
        e = engine_figures(name, args.games)
        s = asyncio.run(service_figures(name, args.service_tables))
        c = asyncio.run(service_figures(name, args.service_tables, together=True))
        print(f"{name:10} {e['games/s']:9.1f} {e['actions/game']:9.1f} {e['ms/action']:8.3f} "
              f"{e['state KB']:9.1f} {s['actions/s']:10.1f} {c['actions/s']:9.1f} {s['KB/table']:9.1f}")
    print(f"\nact() against a bare commit of the same rows, µs ({args.act_tables} playouts a game); 'via thread':"
          " the same commit as one trip to aiosqlite's thread")
    print(f"{'game':10} {'floor p50':>9} {'floor p99':>9} {'via thread':>10} {'act p50':>8} {'act p99':>8} "
          f"{'ratio':>6} {'p99 ratio':>9} {'to thread':>9} {'bytes/act':>9}")
    for name in names:
        a = asyncio.run(act_figures(name, args.act_tables))
        print(f"{name:10} {1e6 * a['floor']:9.0f} {1e6 * a['floor99']:9.0f} {1e6 * a['threaded']:10.0f} "
              f"{1e6 * a['median']:8.0f} {1e6 * a['p99']:8.0f} {a['ratio']:6.1f} {a['ratio99']:9.1f} "
              f"{a['ratio_threaded']:9.1f} {a['bytes']:9.0f}")
    load = asyncio.run(load_figures(args.load_game, args.load_tables, args.per_table, args.rate))
    print(f"\n{args.load_tables} {args.load_game} tables at once ({load['actions']} actions): "
          f"{load['throughput']:.0f} actions/s flat out (median of rounds "
          f"{', '.join(f'{x:.0f}' for x in load['rounds'])}; act p50 {1e3 * load['flat50']:.1f} ms, "
          f"p99 {1e3 * load['flat99']:.1f} ms); offered {args.rate:.0f}/s: act p50 {1e3 * load['p50']:.2f} ms, "
          f"p99 {1e3 * load['p99']:.2f} ms")
    r = asyncio.run(restart_figures(args.restart_tables))
    print(f"restart with {r['tables']} active tables: opened and the bot seats of {r['with bots']} tables moved "
          f"{r['opened']:.2f} s, "
          f"first action accepted {r['accepting']:.2f} s, first backlog batch delivered {r['delivering']:.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
