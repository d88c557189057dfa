"""``/healthz`` and ``/metrics`` for the operator (docs/operations.md, "Watching it run").

Served on a listener of their own (``monitoring`` in the settings: 127.0.0.1:9187 by default, so they stay on the
machine while the public pages may listen on every address), or on the public pages' listener when the settings
give both the same address and port; either way beside, never among, the public pages' paths.

``/healthz`` answers 200 when the database answers, the Discord gateway is connected and the delivery worker is
not stuck, else 503, with each check's word as JSON.  ``/metrics`` is the Prometheus text format, written by
prometheus_client (bot/process/metrics.py), the record's figures read at each scrape.  Neither names a player,
a seat's user or anything of a hand: games, states, counts and ages.
"""
from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Callable

from aiohttp import web

from bot.process.metrics import CONTENT_TYPE, METRICS, Metrics
from bot.storage.operations import figures
from bot.storage.public_reads import ping
from bot.storage.store import Store

log = logging.getLogger("judge.monitor")

#: seconds the database has to answer a health check
DB_TIMEOUT = 2.0


class Monitor:
    """The two endpoints of one process.  ``gateway``: whether Discord's gateway is connected (None: this process
    runs no bot, as ``python -m bot web``); ``delivery``: why the delivery worker is not delivering, or None."""

    def __init__(self, store: Store, *, metrics: Metrics = METRICS, backup_folder: str | Path | None = None,
                 gateway: Callable[[], bool] | None = None, delivery: Callable[[], str | None] | None = None):
        self.store, self.metrics, self.backup_folder = store, metrics, backup_folder
        self.gateway, self.delivery = gateway, delivery

    async def checks(self) -> dict[str, str]:
        found: dict[str, str] = {}
        try:
            await asyncio.wait_for(ping(self.store), DB_TIMEOUT)
            found["database"] = "ok"
        except Exception as exc:  # locked past the timeout, the disk gone: unhealthy, said in a word
            found["database"] = f"failing: {type(exc).__name__}"
        if self.gateway is not None:
            found["gateway"] = "ok" if self.gateway() else "disconnected"
        if self.delivery is not None:
            stuck = self.delivery()
            found["delivery"] = "ok" if stuck is None else f"stuck: {stuck}"
        return found

    async def healthz(self, request: web.Request) -> web.Response:
        found = await self.checks()
        healthy = all(v == "ok" for v in found.values())
        return web.Response(status=200 if healthy else 503, content_type="application/json",
                            text=json.dumps({"status": "ok" if healthy else "failing", "checks": found}),
                            headers={"Cache-Control": "no-store"})

    async def metrics_page(self, request: web.Request) -> web.Response:
        try:
            self.metrics.show(await figures(self.store, backup_folder=self.backup_folder),
                              gateway=self.gateway() if self.gateway is not None else None)
        except Exception:  # the counters still answer; the record's gauges keep their last values
            log.exception("reading the record's figures for /metrics failed")
        response = web.Response(body=self.metrics.text(), headers={"Cache-Control": "no-store"})
        response.headers["Content-Type"] = CONTENT_TYPE
        return response

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics_page)

    def app(self) -> web.Application:
        app = web.Application()
        self.add_to(app)
        return app


async def serve(monitor: Monitor, host: str, port: int) -> web.AppRunner:
    """Serve ``/healthz`` and ``/metrics`` alone on ``host:port``; the caller calls ``runner.cleanup()``."""
    runner = web.AppRunner(monitor.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("health and metrics on http://%s:%s/healthz and /metrics", host, port)
    return runner
