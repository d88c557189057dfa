#!/usr/bin/env python3
"""Write a fixture database from a real release, to be kept forever (docs/fixtures.md).

    python scripts/make_release_fixture.py REV [--python PY] [--out DIR]

exports release REV (any git revision) into a temporary folder (``git archive``: the work tree is not
touched), runs THAT release's own terminal commands (``python -m bot --db FILE ...``) to play tables part of
the way, and writes ``tests/fixtures/releases/<date>-<rev>.db`` beside a manifest ``<date>-<rev>.json`` that
says what each table exercises.  The database holds, as far as the release had the feature:

- tables mid-game of every game the release had, at several seat counts, each game also with a table waiting
  on an out-of-turn window (a "reaction": Bloodwood's counter, Raiders' window) and one waiting on a
  decision of the kind a player answers in private (a "choice": mulligans, cards to keep...);
- a table with a bot seat beside a human one;
- a timed table (``clock=48h``) whose clock runs while another seat is on vacation;
- a table a moderator paused; a table with an open dispute;
- a tournament mid-round (some of its tables finished, some running);
- an open lobby.

A feature the release lacks (no tournaments before issue 14, no clocks before issue 16...) is skipped and
the manifest says what was written.  Moves are the release's own bot's choices for human seats, sent as
``table act N K --user U`` (K: the move's number in the seat's list); the seeds are fixed, so a run plays
the same moves (the times differ).

Only read-only looks go through the release's Python API (a small probe: who owes a decision, and the
bot's action for it); everything written is written by the release's command line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "releases"

# The probe runs inside the exported release with its interpreter; it only reads.  Its imports are the
# oldest stable names (Store.open/get_table/seats/state, get_game/all_games, to_act, bot_action).
PROBE = r'''
import asyncio, importlib, json, pathlib, random, sqlite3, sys
from bot.engine import all_games, get_game
from bot.storage.store import Store


def pick(game, state, seat, rng):
    """The bot's move as its number in the seat's list of choices (what ``table act N K`` takes in every
    release; a typed JSON action is checked more strictly by later ones).  A bot move the list does not
    spell out (a target filled in) is matched to the listed choice it completes."""
    legal = game.choices(state, seat)
    if not legal:
        return None
    action = game.bot_action(state, seat, rng)
    if action in legal:
        return legal.index(action) + 1
    near = [i for i, a in enumerate(legal) if all(action.get(k) == v for k, v in a.items())]
    return (near[0] if near else rng.randrange(len(legal))) + 1


async def table(db, tid):
    store = await Store.open(db)
    try:
        row = await store.get_table(tid)
        seats = await store.seats(tid)
        out = {"id": tid, "game": row.game, "status": row.status,
               "seats": [{"seat": s.seat, "user": s.user_id, "bot": bool(s.is_bot)} for s in seats]}
        state = await store.state(tid) if row.status != "lobby" else None
        if state is None:
            return out
        game = get_game(row.game)
        out["version"] = state["version"]
        out["outcome"] = state.get("outcome")
        out["options"] = state.get("options")
        pending = game.to_act(state) if not state.get("outcome") else []
        out["pending"] = [{"seat": p.seat, "kind": p.kind, "prompt": p.prompt, "deadline": p.deadline}
                          for p in pending]
        bots = {s.seat for s in seats if s.is_bot}
        out["moves"] = {}
        for p in pending:
            if p.seat not in bots and str(p.seat) not in out["moves"]:
                out["moves"][str(p.seat)] = pick(game, state, p.seat, random.Random(f"{tid}:{state['version']}:{p.seat}"))
        return out
    finally:
        await store.close()


def answer(what, *args):
    if what == "games":
        games = {}
        for name, g in all_games().items():
            # which kinds of decision the engine can owe, read off its source (a heuristic that only saves
            # the fixture from chasing a window the game never opens)
            package = pathlib.Path(importlib.import_module(type(g).__module__).__file__).parent
            text = "".join(f.read_text(encoding="utf-8") for f in package.glob("*.py"))
            games[name] = {"min": g.min_seats, "max": g.max_seats,
                           "kinds": [k for k in ("reaction", "choice") if f'"{k}"' in text]}
        return games
    if what == "table":
        return asyncio.run(table(args[0], int(args[1])))
    con = sqlite3.connect(args[0])
    try:
        if what == "last_table":
            return con.execute("SELECT max(id) FROM tables").fetchone()[0]
        if what == "last_tournament":
            return con.execute("SELECT max(id) FROM tournaments").fetchone()[0]
        if what == "tournament":
            tid = int(args[1])
            status, rnd = con.execute("SELECT status, round FROM tournaments WHERE id = ?", (tid,)).fetchone()
            games = [{"round": r, "board": b, "kind": k, "table": t, "settled": p is not None}
                     for r, b, k, t, p in con.execute("SELECT round, board, kind, table_id, points FROM "
                                                      "tournament_games WHERE tournament_id = ? ORDER BY round, board",
                                                      (tid,))]
            return {"status": status, "round": rnd, "games": games}
    finally:
        con.close()
    raise ValueError(what)


# one question a line (a JSON list), one answer a line: the release is imported once
for line in sys.stdin:
    print(json.dumps(answer(*json.loads(line))), flush=True)
'''


class Failed(RuntimeError):
    pass


class Release:
    """One exported release and the database its commands write."""

    def __init__(self, root: Path, python: str, db: Path, log: Callable[[str], None]):
        self.root, self.python, self.db, self.log = root, python, db, log
        # PYTHONHASHSEED: a bot that walks a set of strings walks it in the same order at every run
        self.env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        self.env.pop("DISCORD_TOKEN", None)
        self.probe_dir = Path(tempfile.mkdtemp(prefix="fixture-probe-"))  # not in the release's tree
        (self.probe_dir / "probe.py").write_text(PROBE, encoding="utf-8")
        self.prober = subprocess.Popen([python, str(self.probe_dir / "probe.py")], cwd=root, env=self.env,
                                       text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.commands = self._help()
        self.verbs = {c: self._help(c) for c in ("table", "mod", "tournament") if c in self.commands}
        self.games: dict[str, dict[str, Any]] = self.probe("games")

    def _run(self, argv: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(argv, cwd=self.root, env=self.env, capture_output=True, text=True, timeout=300)

    def _help(self, command: str | None = None) -> set[str]:
        """The choices of the top-level command or of one command's verb, read from argparse's usage line."""
        out = self._run([self.python, "-m", "bot", *([command] if command else []), "--help"]).stdout
        for line in out.splitlines():
            line = line.strip()
            if line.startswith("{") and "}" in line:
                return set(line[1:line.index("}")].split(","))
        return set()

    def cli(self, *args: Any, ok: bool = True) -> subprocess.CompletedProcess:
        argv = [self.python, "-m", "bot", "--db", str(self.db), "--locale", "en", *map(str, args)]
        done = self._run(argv)
        if ok and done.returncode != 0:
            raise Failed(f"{' '.join(argv[2:])} → {done.returncode}\n{done.stdout}\n{done.stderr}")
        return done

    def probe(self, *args: Any) -> Any:
        self.prober.stdin.write(json.dumps([str(a) for a in args]) + "\n")
        self.prober.stdin.flush()
        line = self.prober.stdout.readline()
        if not line:
            raise Failed(f"the probe stopped at {args} (its error above)")
        return json.loads(line)

    def close(self) -> None:
        self.prober.stdin.close()
        self.prober.wait(timeout=60)
        shutil.rmtree(self.probe_dir, ignore_errors=True)

    def has(self, command: str, verb: str | None = None) -> bool:
        return command in self.commands and (verb is None or verb in self.verbs.get(command, set()))

    # ----------------------------------------------------------------------------------------- tables
    def new_table(self, game: str, users: list[str], bots: int = 0, options: dict[str, Any] | None = None,
                  start: bool = True) -> int:
        opts = [a for k, v in (options or {}).items() for a in ("--option", f"{k}={v}")]
        self.cli("table", "new", "--game", game, "--user", users[0], *opts)
        tid = self.probe("last_table", self.db)
        for user in users[1:]:
            self.cli("table", "join", tid, "--user", user)
        for _ in range(bots):
            self.cli("table", "bot", tid, "--user", users[0])
        if start:
            self.cli("table", "start", tid, "--user", users[0], "--seed", f"fixture-{game}-{tid}")
        return tid

    def look(self, tid: int) -> dict[str, Any]:
        return self.probe("table", self.db, tid)

    def play(self, tid: int, *, moves: int, want: Callable[[dict], bool] | None = None, cap: int = 60,
             finish: bool = False) -> dict[str, Any]:
        """Human seats move with the release's bot choices: at least ``moves`` actions, then until ``want``
        holds (at most ``cap`` actions), or to the end with ``finish``."""
        made = 0
        while True:
            info = self.look(tid)
            if info["status"] != "active" or info.get("outcome"):
                return info
            if not finish and made >= moves and (want is None or want(info)):
                return info
            if made >= cap and not finish:
                return info
            humans = {s["seat"]: s["user"] for s in info["seats"] if not s["bot"]}
            owed = sorted(int(s) for s, k in info["moves"].items() if k is not None)
            if not owed:
                self.log(f"  table {tid}: nobody human owes a decision (v{info['version']}); left there")
                return info
            seat = random.Random(f"{tid}:{info['version']}").choice(owed)
            self.cli("table", "act", tid, info["moves"][str(seat)], "--user", humans[seat].split(":", 1)[1])
            made += 1


def _turn(info: dict) -> bool:
    return any(p["kind"] == "turn" for p in info.get("pending", []))


def _reaction(info: dict) -> bool:
    return any(p["kind"] == "reaction" for p in info.get("pending", []))


def _choice(info: dict) -> bool:
    return any(p["kind"] == "choice" for p in info.get("pending", []))


def _users(prefix: str, n: int) -> list[str]:
    return [f"{prefix}p{i}" for i in range(1, n + 1)]


def build(rel: Release) -> dict[str, Any]:
    """Write the fixture's tables with the release's commands; return the manifest's tables and extras."""
    tables: list[dict[str, Any]] = []
    skipped: list[str] = []

    def record(tid: int, exercises: list[str], info: dict | None = None, **extra: Any) -> None:
        info = info or rel.look(tid)
        pending = info.get("pending", [])
        tags = [t for t in exercises if t != "mid_game" or info["status"] == "active"]
        if info["status"] == "finished":
            tags.append("finished")
        if _reaction(info) and "reaction_window" not in tags:
            tags.append("reaction_window")
        if _choice(info) and "choice_pending" not in tags:
            tags.append("choice_pending")
        tables.append({"id": tid, "game": info["game"], "seats": len(info["seats"]),
                       "bots": sum(s["bot"] for s in info["seats"]), "status": info["status"],
                       "version": info.get("version"), "options": info.get("options"),
                       "waiting": [{"seat": p["seat"], "kind": p["kind"], "prompt": p["prompt"]} for p in pending],
                       "exercises": tags, **extra})
        rel.log(f"  table {tid} {info['game']} ×{len(info['seats'])} {info['status']} v{info.get('version')}: "
                f"{', '.join(tags)}; waiting {[(p['seat'], p['kind']) for p in pending]}")

    n = 0

    def prefix() -> str:
        nonlocal n
        n += 1
        return f"fx{n}"

    games = rel.games
    two_seat = "claygod" if "claygod" in games else min(games, key=lambda g: (games[g]["min"], g))
    for game, seats in games.items():
        low, high = seats["min"], seats["max"]
        counts = [low, min(high, low + 3), min(high, low + 1)] if high > low else [low, low, low]
        kinds = seats.get("kinds", ["reaction", "choice"])
        rel.log(f"{game}: seats {counts}, decisions {kinds}")
        tid = rel.new_table(game, _users(prefix(), counts[0]))
        record(tid, ["mid_game"], rel.play(tid, moves=5, want=_turn, cap=20))
        if "reaction" in kinds or high > low:  # a window to leave open, or another seat count
            tid = rel.new_table(game, _users(prefix(), counts[1]))
            record(tid, ["mid_game"], rel.play(tid, moves=3, want=_reaction if "reaction" in kinds else None, cap=40))
        tid = rel.new_table(game, _users(prefix(), counts[2]))
        record(tid, ["mid_game"], rel.play(tid, moves=2, want=_choice if "choice" in kinds else None, cap=20))

    # a human and a bot at one table
    tid = rel.new_table(two_seat, _users(prefix(), games[two_seat]["min"] - 1 or 1),
                        bots=max(1, games[two_seat]["min"] - 1))
    record(tid, ["mid_game", "bot_seat"], rel.play(tid, moves=5))

    # a timed table: the seat on move has a running clock, another is on vacation
    if rel.has("table", "vacation"):
        users = _users(prefix(), games[two_seat]["min"])
        tid = rel.new_table(two_seat, users, options={"clock": "48h", "vacation": 3})
        info = rel.play(tid, moves=4)
        owing = {p["seat"] for p in info["pending"]}
        away = next(s for s in info["seats"] if s["seat"] not in owing)
        rel.cli("table", "vacation", tid, "--days", 1, "--user", away["user"].split(":", 1)[1])
        record(tid, ["mid_game", "clock", "vacation"], vacation_seat=away["seat"])
    else:
        skipped.append("timed table (no `table vacation` / clock option in this release)")

    # a moderator paused a table
    if rel.has("mod", "pause"):
        game = "gwent" if "gwent" in games else two_seat
        tid = rel.new_table(game, _users(prefix(), games[game]["min"]))
        rel.play(tid, moves=6)
        rel.cli("mod", "pause", tid, "--reason", "fixture: paused by a moderator", "--user", "fxmod")
        record(tid, ["mid_game", "paused"])
    else:
        skipped.append("paused table (no `mod pause` in this release)")

    # an open dispute of a move
    if rel.has("dispute"):
        users = _users(prefix(), games[two_seat]["min"])
        tid = rel.new_table(two_seat, users, options={"dispute_window": 10})
        info = rel.play(tid, moves=5)
        raised = None
        for move in range(8, 0, -1):
            for user in users:
                if rel.cli("dispute", tid, move, "fixture: I dispute this move", "--user", user, ok=False).returncode == 0:
                    raised = {"move": move, "by": f"cli:{user}"}
                    break
            if raised:
                break
        if raised:
            record(tid, ["mid_game", "dispute_open"], dispute=raised)
        else:
            record(tid, ["mid_game"])
            skipped.append("open dispute (every attempt refused)")
    else:
        skipped.append("open dispute (no `dispute` command in this release)")

    # a tournament mid-round: one table finished, the others still playing
    tournament = None
    if rel.has("tournament"):
        short = "gwent" if "gwent" in games else two_seat  # its games are the shortest records: a small file
        rel.cli("tournament", "new", "--game", short, "--format", "swiss", "--set", "rounds=2",
                "--title", "Fixture cup", "--user", "fxorg")
        tour = rel.probe("last_tournament", rel.db)
        players = _users("fxt", 4)
        for user in players:
            rel.cli("tournament", "join", tour, "--user", user)
        rel.cli("tournament", "bot", tour, "--count", 2, "--user", "fxorg")
        rel.cli("tournament", "start", tour, "--user", "fxorg")
        games_now = [g for g in rel.probe("tournament", rel.db, tour)["games"] if g["table"] and not g["settled"]]
        for i, g in enumerate(games_now):
            if i == 0:
                rel.play(g["table"], moves=0, finish=True)
            else:
                rel.play(g["table"], moves=3 * i)
        rel.cli("tournament", "pair", tour, "--user", "fxorg")
        state = rel.probe("tournament", rel.db, tour)
        for g in state["games"]:
            if g["table"]:
                record(g["table"], ["tournament"], tournament=tour, round=g["round"], board=g["board"])
        tournament = {"id": tour, "game": short, "format": "swiss", "rounds": 2, **state}
        rel.log(f"  tournament {tour}: round {state['round']}, {state['games']}")
    else:
        skipped.append("tournament (no `tournament` command in this release)")

    # an open lobby
    game = "bloodwood" if "bloodwood" in games else two_seat
    users = _users(prefix(), 2)
    tid = rel.new_table(game, users, start=False)
    record(tid, ["lobby"])
    return {"tables": tables, "tournament": tournament, "skipped": skipped}


def compact(src: Path, dst: Path) -> None:
    """The release's database, checkpointed and vacuumed into one file in rollback-journal mode."""
    con = sqlite3.connect(src)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if dst.exists():
        dst.unlink()
    con.execute("VACUUM INTO ?", (str(dst),))
    con.close()
    out = sqlite3.connect(dst)
    out.execute("PRAGMA journal_mode = DELETE")
    out.close()


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", help="the release: a git revision (commit, tag, branch)")
    p.add_argument("--python", default=sys.executable, help="the interpreter that runs the release "
                                                            "(default: this one)")
    p.add_argument("--out", type=Path, default=OUT, help=f"where to write (default: {OUT.relative_to(ROOT)})")
    p.add_argument("--keep", action="store_true", help="keep the exported release's folder (for debugging)")
    args = p.parse_args(argv)
    commit = git("rev-parse", "--verify", f"{args.rev}^{{commit}}")
    short, date = commit[:7], git("log", "-1", "--format=%cs", commit)
    name = f"{date}-{short}"
    tmp = Path(tempfile.mkdtemp(prefix=f"fixture-{short}-"))
    log = lambda text: print(text, flush=True)  # noqa: E731
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
        db = tmp / "fixture.db"
        rel = Release(tmp, args.python, db, log)
        log(f"release {short} of {date}: games {sorted(rel.games)}; commands {sorted(rel.commands)}")
        try:
            written = build(rel)
        finally:
            rel.close()
        args.out.mkdir(parents=True, exist_ok=True)
        compact(db, args.out / f"{name}.db")
        manifest = {"release": short, "commit": commit, "date": date,
                    "subject": git("log", "-1", "--format=%s", commit),
                    "made_by": "scripts/make_release_fixture.py", "games": rel.games,
                    "commands": sorted(rel.commands), **written}
        (args.out / f"{name}.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n",
                                                encoding="utf-8")
        size = (args.out / f"{name}.db").stat().st_size
        log(f"wrote {args.out / name}.db ({size // 1024} KB, {len(written['tables'])} tables) and its manifest")
        return 0
    except Failed as exc:
        sys.stderr.write(f"the release refused a step: {exc}\n")
        return 1
    finally:
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
