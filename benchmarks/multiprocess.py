"""Several processes on one database file (issue 25): two referee processes playing their own tables and a
stream of terminal commands (pause, resume, rulings, status reads, each opening the file as
``python -m bot mod ...`` does) for a minute.  Prints the moves refused because the file was locked, the
moves acknowledged wrongly (told "applied" and not stored, or told "failed" and stored), a move taken at a
paused table, and the latency of ``Referee.act``.  The figures go into docs/operations.md.

    .venv/bin/python benchmarks/multiprocess.py [--seconds 60] [--tables 12] [--game claygod]

Each referee process plays its tables as players would: it reads the table, picks a bot's choice for the seat
to act and clicks it with the version it read (``expected_version``), with a few milliseconds between clicks.
A finished table is replaced by a new one (lobby, joins, start: writes too).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.referee import moderation  # noqa: E402
from bot.engine import Code, Rejection, get_game  # noqa: E402
from bot.engine.canonical import dumps, loads  # noqa: E402
from bot.referee.record import verify_table  # noqa: E402
from bot.referee.service import Accepted, Referee  # noqa: E402
from bot.storage.store import Store  # noqa: E402

PLAYERS = ("u:p1", "u:p2")


async def new_table(referee: Referee, game: str, tag: str) -> int:
    table = await referee.create_table(game, creator=f"{tag}:{PLAYERS[0]}", creator_name="p1", join=False,
                                       origin="discord")
    for user in PLAYERS:
        assert isinstance(await referee.join(table.id, f"{tag}:{user}", user), int)
    started = await referee.start(table.id, f"{tag}:{PLAYERS[0]}", moderator=True)
    assert isinstance(started, Accepted), started
    return table.id


async def play(db: str, game_name: str, tag: str, tables: int, until: float) -> dict[str, Any]:
    """One referee process: its tables played as fast as players click (a few ms apart) until ``until``."""
    store = await Store.open(db)
    referee = Referee(store)
    game = get_game(game_name)
    out: dict[str, Any] = {"latency": [], "accepted": [], "moves_at": [], "busy": [], "errors": [], "side_errors": [],
                           "paused": 0,
                           "stale": 0,
                           "other": {}, "finished": 0}

    async def one(table_id: int) -> None:
        rng = random.Random(f"{tag}:{table_id}")
        while time.time() < until:
            try:
                state = await store.state(table_id)
                table = await store.get_table(table_id)
                if table.status != "active":
                    out["finished"] += 1
                    table_id = await new_table(referee, game_name, tag)
                    continue
            except sqlite3.Error as exc:  # a read or a new table's lobby refused (releases before issue 25)
                out["side_errors"].append(str(exc))
                await asyncio.sleep(0.01)
                continue
            pending = game.to_act(state)
            if not pending:
                await asyncio.sleep(0.01)
                continue
            seat = pending[0].seat
            action = game.bot_action(state, seat, rng)
            user = f"{tag}:{PLAYERS[seat]}"
            t0, wall = time.perf_counter(), time.time()
            try:
                result = await referee.act(table_id, user, action, expected_version=state["version"], seat=seat)
            except sqlite3.Error as exc:  # told "failed" (releases before issue 25): checked like a refusal
                out["errors"].append(str(exc))
                out["busy"].append((table_id, state["version"] + 1, user, dumps(action), "exception"))
                result = None
            out["latency"].append(time.perf_counter() - t0)
            if isinstance(result, Accepted):
                out["accepted"].append((table_id, result.version, user, dumps(action)))
                out["moves_at"].append((table_id, wall, time.time()))
            elif isinstance(result, Rejection):
                if result.code == getattr(Code, "BUSY", "busy"):
                    out["busy"].append((table_id, state["version"] + 1, user, dumps(action), result.key))
                elif result.key == "clock.reject.paused":
                    out["paused"] += 1
                    await asyncio.sleep(0.05)
                elif result.code == Code.STALE:
                    out["stale"] += 1
                else:
                    out["other"][result.key] = out["other"].get(result.key, 0) + 1
            await asyncio.sleep(rng.uniform(0.002, 0.01))

    ids = [await new_table(referee, game_name, tag) for _ in range(tables)]
    await wait_for(until - RUN)
    await asyncio.gather(*(one(i) for i in ids))
    await store.close()
    return out


async def terminal(db: str, until: float) -> dict[str, Any]:
    """The operator at the terminal: one command after another, each opening the file as the CLI does."""
    out: dict[str, Any] = {"commands": 0, "errors": [], "pauses": []}
    rng = random.Random("terminal")
    await wait_for(until - RUN)
    while time.time() < until:
        store = await Store.open(db)
        try:
            referee = Referee(store)
            active = [t.id for t in await store.find_tables(status=["active"], limit=1000)]
            if not active:
                await asyncio.sleep(0.05)
                continue
            table_id = rng.choice(active)
            verb = rng.choice(["pause", "status", "ruling"])
            if verb == "pause":
                paused = await moderation.pause(referee, table_id, moderator="cli:op", reason="load test")
                if paused is True:
                    after = time.time()
                    await asyncio.sleep(rng.uniform(0.05, 0.3))
                    out["pauses"].append((table_id, after, time.time()))
                    await moderation.resume(referee, table_id, moderator="cli:op")
            elif verb == "ruling":
                await moderation.ruling(referee, table_id, moderator="cli:op", text="a ruling under load")
            else:
                await store.get_table(table_id)
                await store.state(table_id)
            out["commands"] += 1
        except sqlite3.Error as exc:
            out["errors"].append(str(exc))
        finally:
            await store.close()
        await asyncio.sleep(rng.uniform(0.01, 0.05))
    return out


RUN = 0.0  # set by the parent: the run's length in seconds (children wait for its common start)


async def wait_for(start: float) -> None:
    await asyncio.sleep(max(0.0, start - time.time()))


async def stored(store: Store, table_id: int, version: int) -> tuple[str, str] | None:
    """(user, canonical action) of the recorded step that made ``version`` (plain SQL: the script also measures
    releases before issue 25)."""
    row = await store._one("SELECT user_id, action FROM actions WHERE table_id = ? AND version = ?",
                           (table_id, version))
    return None if row is None else (row["user_id"], dumps(loads(row["action"])))


async def check(db: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    """From the record: acknowledged moves not stored, refused moves stored, moves at a paused table,
    tables that do not verify."""
    store = await Store.open(db)
    try:
        wrong = 0
        for out in results:
            told = {(t, v) for t, v, *_ in out.get("accepted", [])}
            for table_id, version, user, action in out.get("accepted", []):
                found = await stored(store, table_id, version)
                wrong += found != (user, action)
            for table_id, version, user, action, _ in out.get("busy", []):
                wrong += (table_id, version) not in told and await stored(store, table_id, version) == (user, action)
        # a move whose whole act() call fell between a pause's commit and the start of its resume went
        # through the pause (wall clock of both processes)
        through_pause = 0
        for out in results:
            for table_id, t0, t1 in out.get("moves_at", []):
                through_pause += any(tid == table_id and after < t0 and t1 < before
                                     for term in results for tid, after, before in term.get("pauses", []))
        bad_tables = []
        for t in await store.find_tables(status=["active", "finished"], limit=100_000):
            if not (await verify_table(store, t.id, moderator=True)).ok:
                bad_tables.append(t.id)
        return {"wrong": wrong, "through_pause": through_pause, "unverified": bad_tables}
    finally:
        await store.close()


async def create(db: str) -> None:
    store = await Store.open(db)
    await store.close()


def child(args: argparse.Namespace) -> None:
    global RUN
    RUN = args.seconds
    until = args.start + args.seconds
    if args.role == "terminal":
        out = asyncio.run(terminal(args.db, until))
    else:
        out = asyncio.run(play(args.db, args.game, args.role, args.tables, until))
    sys.stdout.write(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=12, help="tables per referee process")
    parser.add_argument("--game", default="claygod")
    parser.add_argument("--role")
    parser.add_argument("--db")
    parser.add_argument("--start", type=float)
    args = parser.parse_args()
    if args.role:
        return child(args)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "shared.db")
        asyncio.run(create(db))  # created and migrated once, before the race
        start = time.time() + 3.0
        common = [sys.executable, __file__, "--db", db, "--start", str(start), "--seconds", str(args.seconds),
                  "--tables", str(args.tables), "--game", args.game]
        procs = [subprocess.Popen([*common, "--role", role], stdout=subprocess.PIPE, text=True)
                 for role in ("bot1", "bot2", "terminal")]
        results = [json.loads(p.communicate(timeout=args.seconds + 120)[0]) for p in procs]
        checked = asyncio.run(check(db, results))
    referees, term = results[:2], results[2]
    latency = sorted(x for r in referees for x in r["latency"])
    moves = sum(len(r["accepted"]) for r in referees)
    locked = sum(len(r["busy"]) for r in referees)
    print(f"{args.seconds:.0f} s, two referee processes x {args.tables} {args.game} tables, one terminal stream"
          f" (pause/resume, rulings, reads; {term['commands']} commands, {len(term['pauses'])} pauses)")
    print(f"moves accepted {moves} ({moves / args.seconds:.0f}/s); refused 'locked' {locked}; refused at a"
          f" paused table {sum(r['paused'] for r in referees)}; stale {sum(r['stale'] for r in referees)};"
          f" other refusals {sum(sum(r['other'].values()) for r in referees)}")
    print(f"reads and lobby writes refused 'locked' {sum(len(r['side_errors']) for r in referees)}")
    print(f"wrong acknowledgements {checked['wrong']}; moves through a pause {checked['through_pause']};"
          f" terminal commands failed {len(term['errors'])}; tables not verifying {len(checked['unverified'])}")
    if latency:
        print(f"act() latency p50 {statistics.median(latency) * 1000:.1f} ms, p99"
              f" {latency[int(0.99 * (len(latency) - 1))] * 1000:.1f} ms, max {latency[-1] * 1000:.0f} ms")
    for r in referees:
        for error in r["errors"][:3]:
            print("  error:", error)
        if r["other"]:
            print("  other refusals:", r["other"])


if __name__ == "__main__":
    main()
