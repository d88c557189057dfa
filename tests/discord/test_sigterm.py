"""Issue 39: ``python -m bot run`` stopped by SIGTERM at random moments of its delivery (as systemd stops it):
it exits cleanly, and after the restart every message is delivered once — nothing lost, nothing doubled.  The
bot runs in a subprocess against the fake Discord, which this test's loop serves; /healthz is asked meanwhile."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
from pathlib import Path

import aiohttp

from bot.referee.service import Referee
from bot.storage.store import Store
from tests.discord.harness import eventually
from tests.discord.support import started_toy

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ("import os, sys, yarl; from discord.http import Route; from discord.gateway import DiscordWebSocket; "
          "Route.BASE = os.environ['FAKE_DISCORD_API']; "
          "DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ['FAKE_DISCORD_GATEWAY']); "
          "from bot.engine import register; from tests.support.toy import TOY; register(TOY); "
          "from bot.terminal.cli import main; sys.exit(main(sys.argv[1:]))")
TABLES = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _moves_while_down(h, tables) -> None:
    """Moves recorded while the bot is down (from the terminal): their messages wait in the outbox."""
    store = await Store.open(h.db)
    try:
        referee = Referee(store, clock=h.clock)
        for _ in range(2):
            for table in tables:
                state = await store.state(table.id)
                seats = await store.seats(table.id)
                seat = state["turn"]
                await referee.act(table.id, seats[seat].user_id, {"type": "play", "card": state["hands"][seat][0]})
    finally:
        await store.close()


async def _counts(db: Path) -> tuple[int, int]:
    store = await Store.open(db, backup=False)
    try:
        row = await store._one("SELECT SUM(status = 'pending'), SUM(status = 'sent') FROM outbox")
        return row[0] or 0, row[1] or 0
    finally:
        await store.close()


async def test_sigterm_at_random_moments_of_delivery_loses_and_doubles_nothing(harness, tmp_path):
    h, fake = harness, harness.fake
    tables = [await started_toy(h) for _ in range(TABLES)]
    await h.settled()
    threads = {t.id: len(fake.in_channel(t.thread_id)) for t in tables}
    await h.stop_bot()
    await _moves_while_down(h, tables)
    assert (await _counts(h.db))[0] > 0
    port = _free_port()
    config = tmp_path / "config.yaml"
    config.write_text(f"backups: {{every_hours: null}}\nmonitoring: {{enabled: true, port: {port}}}\n")
    env = {**os.environ, "DISCORD_TOKEN": fake.token, "FAKE_DISCORD_API": fake.base_url,
           "FAKE_DISCORD_GATEWAY": fake.gateway_url, "PYTHONPATH": str(ROOT)}
    rng = random.Random()
    delivering: list[str] = []
    fake.observers.append(lambda kind, request, **_: delivering.append(request.method)
                          if request.path.startswith("/api/v10/channels/") else None)
    # Discord takes each post and edit at once but answers a second late: the stop lands inside a message's delivery
    for method in ("POST", "PATCH", "DELETE"):
        fake.accept_slowly(method, r"^/api/v10/channels/", 1.0, times=10)
    proc = await _launch(config, h.db, env)
    try:
        await eventually(lambda: _true(delivering), timeout=90, what="the bot to begin delivering")
        # the operator's view meanwhile: database, gateway (once ready) and delivery ok
        await eventually(lambda: _healthy(port), timeout=30, what="/healthz to answer 200")
        await asyncio.sleep(rng.uniform(0.0, 1.0))  # a random moment of the delivery
        proc.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(proc.communicate(), 40)
    finally:
        await _ended(proc)
    assert proc.returncode == 0, out.decode(errors="replace")[-3000:]
    assert (await _counts(h.db))[0] > 0, "the stop came after the delivery: nothing was left to resume"
    fake.slow.clear()

    await h.start_bot()  # the restart: what is still pending goes out now
    await h.settled()
    rows = await h.store._all("SELECT status, COUNT(*) FROM outbox GROUP BY status")
    assert dict((r[0], r[1]) for r in rows).keys() <= {"sent", "skipped"}  # nothing lost
    for table in tables:  # nothing doubled: the moves edit the one live message; one control message each
        assert len(fake.in_channel(table.thread_id)) == threads[table.id]
        live = await h.store.panel(table.id, -1)
        assert live.version == (await h.table(table.id)).version
    for user in (h.alice, h.bob):
        assert len(fake.dms(user)) == TABLES


async def _launch(config: Path, db: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCH, "--config", str(config), "--db", str(db), "--locale", "en", "run",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def _ended(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


async def _true(found: list) -> bool:
    return bool(found)


async def _connected(fake, before: int) -> bool:
    return fake.connections > before and fake.ready.is_set()


async def _healthz(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
            return response.status, await response.json()


async def _healthy(port: int) -> bool:
    try:
        status, body = await _healthz(port)
    except aiohttp.ClientConnectionError:  # not listening yet
        return False
    if status == 200:
        assert body == {"status": "ok", "checks": {"database": "ok", "gateway": "ok", "delivery": "ok"}}
    return status == 200
