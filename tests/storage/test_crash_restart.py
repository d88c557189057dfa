"""Kill the terminal front end mid-game with SIGKILL and start it again: the same table continues and its
record verifies.  Runs the real `python -m bot` entry point in a subprocess (with the toy game added)."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.referee.record import verify_table
from bot.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ("import sys; from bot.engine import register; from tests.support.toy import TOY; register(TOY); "
          "from bot.terminal.cli import main; sys.exit(main(sys.argv[1:]))")


def start(db: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", LAUNCH, "--db", str(db), "--locale", "en", "play", *args],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def version_of(db: Path) -> int:
    async def read():
        store = await Store.open(db)
        try:
            tables = await store.find_tables()
            return tables[0].version if tables else -1
        finally:
            await store.close()
    return asyncio.run(read())


def test_sigkill_mid_game_then_continue(tmp_path):
    db = tmp_path / "j.db"
    proc = start(db, "toy", "--user", "ann", "--seed", "k")
    proc.stdin.write("1\n")
    proc.stdin.flush()
    deadline = time.time() + 20
    while version_of(db) < 1 and time.time() < deadline:  # our move (and maybe the bot's) is committed
        time.sleep(0.1)
    assert version_of(db) >= 1
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdin.close()  # a killed process's pipes stay open until we close them
    proc.stdout.close()
    seen = version_of(db)

    proc = start(db, "toy", "--user", "ann")               # no --table: the unfinished one is found
    out, _ = proc.communicate("1\n" * 10, timeout=60)
    assert proc.returncode == 0, out
    assert "Continuing your unfinished table #1" in out

    async def check():
        store = await Store.open(db)
        try:
            table = await store.get_table(1)
            assert table.status == "finished" and table.version > seen
            assert len(await store.find_tables()) == 1
            assert (await verify_table(store, 1)).ok
        finally:
            await store.close()
    asyncio.run(check())
