"""Issue 39: /healthz and /metrics (bot/web/monitor.py, bot/process/metrics.py, bot/storage/operations.py):
scraped during a load and compared with what the load did; nothing in them names a player."""
from __future__ import annotations

import logging
import random
import socket
import time

import aiohttp
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.process.metrics import METRICS, count_rate_limits
from bot.referee.moderation import pause
from bot.referee.service import Referee
from bot.referee.upgrade import open_store
from bot.storage import backup as bk
from bot.web.app import Site, start
from bot.web.monitor import Monitor, serve
from tests.support.seasons import GAMES, _moves, _tables


def samples(text: str) -> dict[tuple[str, tuple], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def total(found: dict, name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in found.items() if n == name and all((k, v2) in ls for k, v2 in labels.items()))


async def test_metrics_during_a_load_match_what_it_did(tmp_path):
    store = await open_store(tmp_path / "judge.db")
    try:
        referee = Referee(store)
        monitor = Monitor(store)
        async with TestClient(TestServer(monitor.app())) as client:
            ids = await _tables(referee)
            before = samples(await (await client.get("/metrics")).text())
            made = await _moves(referee, ids, 4, random.Random(5))
            refused = await referee.act(ids[0], "cli:nobody", {"type": "pass"})  # not seated: refused
            assert refused is not None
            lobby = await referee.create_table("gwent", creator="cli:p0", creator_name="Зоя", origin="terminal")
            assert lobby.id
            await pause(referee, ids[1], moderator="cli:mod", reason="night")
            async with store.transaction() as db:  # a deadline within the hour, and one beyond it
                await db.execute("UPDATE tables SET next_deadline = ? WHERE id = ?", (time.time() + 600, ids[2]))
                await db.execute("UPDATE tables SET next_deadline = ? WHERE id = ?", (time.time() + 7200, ids[3]))
            info = bk.take_season_backup(store.path)
            response = await client.get("/metrics")
            assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
            text = await response.text()
        after = samples(text)
        accepted = total(after, "judge_actions_total", result="accepted") - \
            total(before, "judge_actions_total", result="accepted")
        assert accepted == made > 0
        assert total(after, "judge_actions_total", result="refused") - \
            total(before, "judge_actions_total", result="refused") == 1
        assert total(after, "judge_act_seconds_count") - total(before, "judge_act_seconds_count") == made + 1
        states = {(dict(ls)["game"], dict(ls)["state"]): v for (n, ls), v in after.items() if n == "judge_open_tables"}
        assert states == {("claygod", "active"): 1, ("gwent", "paused"): 1, ("gwent", "lobby"): 1,
                          ("raiders", "active"): 1, ("bridges", "active"): 1, ("bloodwood", "active"): 1}
        pending = (await store._one("SELECT COUNT(*) FROM outbox WHERE status = 'pending'"))[0]
        assert total(after, "judge_outbox_pending") == pending > 0
        assert total(after, "judge_outbox_oldest_pending_seconds") > 0
        due = (await store._one("SELECT COUNT(*) FROM tables WHERE status = 'active' AND next_deadline <= ?",
                                (time.time() + 3600,)))[0]
        assert total(after, "judge_deadlines_next_hour") == due >= 1
        assert total(after, "judge_last_backup_bytes") == info.size
        assert 0 <= total(after, "judge_last_backup_age_seconds") < 120
        # nobody is named, nothing of a hand: only games, states and counts
        for word in ("cli:", "p0", "Зоя", "nobody", "night", "hand", "seed"):
            assert word not in text, word
        assert set(GAMES) <= {dict(ls).get("game") for (n, ls) in after if n == "judge_open_tables"}
    finally:
        await store.close()


async def test_healthz_says_which_check_fails(tmp_path):
    store = await open_store(tmp_path / "judge.db")
    connected, stuck = [True], [None]
    monitor = Monitor(store, gateway=lambda: connected[0], delivery=lambda: stuck[0])
    try:
        async with TestClient(TestServer(monitor.app())) as client:
            response = await client.get("/healthz")
            assert response.status == 200
            assert await response.json() == {"status": "ok", "checks": {"database": "ok", "gateway": "ok",
                                                                        "delivery": "ok"}}
            connected[0] = False
            response = await client.get("/healthz")
            assert response.status == 503 and (await response.json())["checks"]["gateway"] == "disconnected"
            connected[0], stuck[0] = True, "one delivery round has run for 400 s"
            response = await client.get("/healthz")
            assert response.status == 503 and (await response.json())["checks"]["delivery"].startswith("stuck")
        await store.close()
        async with TestClient(TestServer(monitor.app())) as client:  # the database gone
            response = await client.get("/healthz")
            assert response.status == 503 and (await response.json())["checks"]["database"].startswith("failing")
    finally:
        await store.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_own_listener_on_localhost_and_not_among_the_public_pages(tmp_path):
    store = await open_store(tmp_path / "judge.db")
    port = _free_port()
    runner = await serve(Monitor(store), "127.0.0.1", port)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                assert response.status == 200 and "judge_uptime_seconds" in await response.text()
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                assert response.status == 404  # nothing else there
        async with TestClient(TestServer(Site(store, locale="en").app())) as client:
            assert (await client.get("/metrics")).status == 404  # the public pages do not answer them
        shared_port = _free_port()
        pages = await start(store, "127.0.0.1", shared_port, locale="en", monitor=Monitor(store))
        try:
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{shared_port}/healthz") as response:
                    assert response.status == 200
        finally:
            await pages.cleanup()
    finally:
        await runner.cleanup()
        await store.close()


def test_rate_limit_waits_are_counted_from_discord_py_s_log():
    handler = count_rate_limits()
    try:
        waits, seconds = METRICS.rate_limit_waits._value.get(), METRICS.rate_limit_seconds._value.get()
        log = logging.getLogger("discord.http")
        log.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "PATCH",
                    "https://discord.com/api/v10/channels/1/messages/2", 1.25)
        log.warning("Global rate limit has been hit. Retrying in %.2f seconds.", 1.25)  # the same wait, once
        log.debug("Done sleeping for the rate limit. Retrying...")
        assert METRICS.rate_limit_waits._value.get() == waits + 1
        assert METRICS.rate_limit_seconds._value.get() == seconds + 1.25
    finally:
        logging.getLogger("discord.http").removeHandler(handler)
