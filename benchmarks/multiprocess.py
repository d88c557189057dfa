"""Several processes on one database file (issue 25): two referee processes playing their own tables and a
stream of terminal commands (pause, resume, rulings, status reads, each opening the file as
``python -m bot mod ...`` does) for a minute.  Prints the moves refused because the file was locked, the
moves acknowledged wrongly (told "applied" and not stored, or told "failed" and stored), a move taken at a
paused table, and the latency of ``Referee.act``.  The figures go into docs/operations.md.

    .venv/bin/python benchmarks/multiprocess.py [--seconds 60] [--tables 12] [--game claygod]

Each referee process plays its tables as players would: it reads the table, picks a bot's choice for the seat
to act and clicks it with the version it read (``expected_version``), with a few milliseconds between clicks.
A finished table is replaced by a new one (lobby, joins, start: writes too).

``--mix lobby`` (issue 33) is the other load: 8–16 processes (``--processes``) doing what players, organisers and
moderators do besides moves, as fast as they can, each with the database open as a bot or a terminal would:
create a table, join it, start it, cancel one, create a tournament, enter it, rebuild the ratings.  Each answer is
taken as the front ends take it (a Rejection, or storage's ``Busy``: one line, nothing recorded) and checked at
once against the record: an answer of "done" must be stored, a "busy" must have stored nothing.  Anything else
raised, or a process that died, is an uncaught error.  Both counts must be 0.

    .venv/bin/python benchmarks/multiprocess.py --mix lobby --processes 12 --seconds 30 [--busy-timeout 0.1]
        [--movers 2 --tables 12]   # and referee processes playing moves beside them, checked as above
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
from bot.ratings.ratings import Ratings  # noqa: E402
from bot.storage import db as storage_db  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.tournament.director import Director  # noqa: E402

# releases before issue 33 had neither: their "locked" escaped as SQLite's own error (an uncaught one here)
Busy = getattr(storage_db, "Busy", type("NoBusy", (Exception,), {}))


def set_busy_timeout(seconds: float) -> None:
    storage_db.BUSY_TIMEOUT_MS = round(seconds * 1000)  # what set_busy_timeout does, for the older releases too

PLAYERS = ("u:p1", "u:p2")


async def new_table(referee: Referee, game: str, tag: str) -> int:
    table = await referee.create_table(game, creator=f"{tag}:{PLAYERS[0]}", creator_name="p1", join=False,
                                       origin="discord")
    for user in PLAYERS:
        assert isinstance(await referee.join(table.id, f"{tag}:{user}", user), int)
    started = await referee.start(table.id, f"{tag}:{PLAYERS[0]}", moderator=True)
    assert isinstance(started, Accepted), started
    return table.id


async def play(db: str, game_name: str, tag: str, tables: int, until: float | None) -> dict[str, Any]:
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
                out["side_errors"].append(f"{type(exc).__name__}: {exc}")  # Busy: an answer (issue 33)
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

    try:
        ids = []
        while len(ids) < tables:  # set up before the start; a busy file (a short --busy-timeout) is tried again
            try:
                ids.append(await new_table(referee, game_name, tag))
            except Busy:
                await asyncio.sleep(0.05)
        if until is None:  # beside the lobby mix: its common start
            until = await common_start(db, tag) + RUN
        else:
            await wait_for(until - RUN)
        await asyncio.gather(*(one(i) for i in ids))
    finally:  # the store's threads are not daemons: left open, they would keep the process alive
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


async def common_start(db: str, tag: str) -> float:
    """Say this process is ready, then wait for the common start the parent sets once every process is (a loaded
    machine starts 16 of them slowly); returns it."""
    Path(f"{db}.ready.{tag}").touch()
    go = Path(f"{db}.go")
    while not go.exists():
        await asyncio.sleep(0.05)
    start = float(go.read_text())
    await wait_for(start)
    return start


async def lobby_mix(db: str, tag: str, seconds: float) -> dict[str, Any]:
    """One process of the lobby-and-tournament mix: every operation a unique name (a user, a title), so that its
    answer can be checked against the record right after it; "wrong" is an answer the record contradicts."""
    store = await Store.open(db)
    referee, director = Referee(store), Director(Referee(store))
    rng = random.Random(tag)
    out: dict[str, Any] = {"done": {}, "refused": {}, "busy": {}, "uncaught": [], "wrong": []}
    game = get_game("claygod")  # its catalogues loaded and a deal made once before the start, without a write
    game.initial_state(2, seed="warm-up", options=game.validate_options({}), now=time.time(), stack=None)
    start = await common_start(db, tag)
    try:
        await _lobby_loop(store, referee, director, rng, tag, start + seconds, out)
    finally:  # the store's threads are not daemons: left open, they would keep the process alive
        await store.close()
    return out


async def _lobby_loop(store: Store, referee: Referee, director: Director, rng: random.Random, tag: str,
                      until: float, out: dict[str, Any]) -> None:
    mine: list[int] = []       # this process's lobbies (its creator may start or cancel them)
    tours: list[int] = []
    n = 0

    def count(kind: str, what: str) -> None:
        out[kind][what] = out[kind].get(what, 0) + 1

    async def seat_of(user: str) -> bool:
        return await store._one("SELECT 1 FROM seats WHERE user_id = ?", (user,)) is not None

    async def check(what: str, answer: Any, stored: bool) -> None:
        """``answer`` as a front end takes it; ``stored``: whether the record holds the operation now."""
        if isinstance(answer, Busy):
            count("busy", what)
            if stored:
                out["wrong"].append(f"{what}: told busy (nothing recorded), yet stored")
        elif isinstance(answer, Rejection):
            count("refused", what)
        else:
            count("done", what)
            if not stored:
                out["wrong"].append(f"{what}: told done, not stored")

    async def attempt(coro: Any) -> Any:
        try:
            return await coro
        except Busy as exc:  # what the terminal and Discord answer with one line
            return exc

    while time.time() < until:
        n += 1
        name = f"{tag}:{n}"
        verb = rng.choice(["create", "create", "join", "join", "start", "cancel", "tournament", "enter", "enter",
                           "ratings"] if mine else ["create"])
        try:
            if verb == "create":
                answer = await attempt(referee.create_table("claygod", creator=f"u:{name}", creator_name=name,
                                                            origin="terminal", title=name))
                row = await store._one("SELECT id FROM tables WHERE title = ?", (name,))
                await check(verb, answer, row is not None)
                if row is not None and not isinstance(answer, (Busy, Rejection)):
                    mine.append(row["id"])
            elif verb == "join":
                table = rng.choice(mine)
                answer = await attempt(referee.join(table, f"u:{name}", name))
                await check(verb, answer, await seat_of(f"u:{name}"))
            elif verb in ("start", "cancel"):
                table = mine.pop(rng.randrange(len(mine)))
                creator = (await store.get_table(table)).creator
                answer = await attempt(referee.start(table, creator) if verb == "start" else
                                       referee.cancel(table, "cli:mod", moderator=True, reason="load"))
                status = (await store.get_table(table)).status
                await check(verb, answer, status != "lobby")
                if isinstance(answer, Busy):
                    mine.append(table)
            elif verb == "tournament":
                answer = await attempt(director.create("claygod", "swiss", creator=f"u:{name}", origin="terminal",
                                                       title=name))
                row = await store._one("SELECT id FROM tournaments WHERE title = ?", (name,))
                await check(verb, answer, row is not None)
                if row is not None:
                    tours.append(row["id"])
            elif verb == "enter":
                if not tours:
                    continue
                tour = rng.choice(tours)
                answer = await attempt(director.join(tour, f"u:{name}", name))
                entered = await store._one("SELECT 1 FROM entries WHERE user_id = ?", (f"u:{name}",))
                await check(verb, answer, entered is not None)
            else:
                answer = await attempt(Ratings(store).rebuild())
                count("busy" if isinstance(answer, Busy) else "done", verb)
        except Exception as exc:  # what would have reached a user as a traceback or "internal error"
            out["uncaught"].append(f"{verb}: {type(exc).__name__}: {exc}"[:200])
        await asyncio.sleep(rng.uniform(0.0, 0.005))


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
    until = args.start + args.seconds if args.start else None  # 0: the lobby mix's common start (go file)
    if args.busy_timeout is not None:
        set_busy_timeout(args.busy_timeout)
    if args.role == "terminal":
        out = asyncio.run(terminal(args.db, until))
    elif args.role.startswith("lobby"):
        out = asyncio.run(lobby_mix(args.db, args.role, args.seconds))
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
    parser.add_argument("--mix", choices=["moves", "lobby"], default="moves")
    parser.add_argument("--processes", type=int, default=12, help="for --mix lobby: 8-16 processes")
    parser.add_argument("--busy-timeout", type=float, help="seconds (default: the release's, 5)")
    parser.add_argument("--movers", type=int, default=0,
                        help="for --mix lobby: referee processes playing --tables tables each beside it")
    args = parser.parse_args()
    if args.role:
        return child(args)
    if args.mix == "lobby":
        return main_lobby(args)
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


def main_lobby(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "shared.db")
        asyncio.run(create(db))
        common = [sys.executable, __file__, "--db", db, "--start", "0", "--seconds", str(args.seconds)]
        if args.busy_timeout is not None:
            common += ["--busy-timeout", str(args.busy_timeout)]
        roles = [f"lobby{i}" for i in range(args.processes)] + [f"bot{i}" for i in range(args.movers)]
        common += ["--tables", str(args.tables), "--game", args.game]
        procs = [subprocess.Popen([*common, "--role", role], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for role in roles]
        waited = time.time() + 300
        while len(list(Path(tmp).glob("shared.db.ready.*"))) < len(roles) and time.time() < waited \
                and all(p.poll() is None for p in procs):
            time.sleep(0.1)
        go = Path(tmp) / "shared.db.go.tmp"
        go.write_text(str(time.time() + 0.5))
        go.rename(Path(tmp) / "shared.db.go")  # whole, never read half-written
        results, movers, died = [], [], []
        for i, p in enumerate(procs):
            try:
                stdout, stderr = p.communicate(timeout=args.seconds + 300)
            except subprocess.TimeoutExpired:  # a process that hangs is as bad as one that died
                p.kill()
                stdout, stderr = p.communicate()
            try:
                (results if roles[i].startswith("lobby") else movers).append(json.loads(stdout))
            except ValueError:
                died.append(f"process {i} exited {p.returncode}: {stderr.strip().splitlines()[-1:] or '?'}")
        checked = asyncio.run(check(db, movers)) if movers else None
    total = lambda kind: sum(sum(r[kind].values()) for r in results)  # noqa: E731
    per_verb = {}
    for r in results:
        for kind in ("done", "refused", "busy"):
            for verb, k in r[kind].items():
                per_verb.setdefault(verb, {"done": 0, "refused": 0, "busy": 0})[kind] += k
    uncaught = [e for r in results for e in r["uncaught"]] + died
    wrong = [w for r in results for w in r["wrong"]]
    timeout = args.busy_timeout if args.busy_timeout is not None else 5.0
    print(f"{args.seconds:.0f} s, {args.processes} processes on one file, lobby-and-tournament mix, busy timeout"
          f" {timeout:g} s" + (f", beside {args.movers} referee processes playing {args.tables} {args.game} tables"
                               f" each" if args.movers else ""))
    if movers:
        # a mover's own lobby writes (a finished table replaced): Busy is an answer, anything else escaped
        side = [e for r in movers for e in r["side_errors"]]
        uncaught += [e for e in side if not e.startswith("Busy")] + [e for r in movers for e in r["errors"]]
        wrong += [f"{checked['wrong']} moves acknowledged wrongly"] if checked["wrong"] else []
        print(f"moves accepted {sum(len(r['accepted']) for r in movers)}; refused busy"
              f" {sum(len(r['busy']) for r in movers)}; the movers' lobby writes busy"
              f" {sum(e.startswith('Busy') for e in side)}; tables not verifying {len(checked['unverified'])}")
    print(f"operations {total('done') + total('refused') + total('busy')}: done {total('done')}, refused by a rule"
          f" {total('refused')}, busy (nothing recorded) {total('busy')}")
    for verb, k in sorted(per_verb.items()):
        print(f"  {verb:<10} done {k['done']:>6}  refused {k['refused']:>5}  busy {k['busy']:>5}")
    print(f"uncaught errors {len(uncaught)}; wrong answers {len(wrong)}; processes died {len(died)}")
    for line in (uncaught + wrong)[:5]:
        print("  ", line)


if __name__ == "__main__":
    main()
