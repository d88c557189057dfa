"""``python -m bot web [--host H] [--port P]``: the public pages alone, without the Discord bot (host and port
from the config's ``web`` section, 127.0.0.1:8080 by default)."""
from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from typing import Any, Callable


def add_parser(sub: Any, number: Callable[[int, int, str], Any], locale: str) -> None:
    s = sub.add_parser("web", help="serve the public pages of tables and tournaments (docs/web.md)")
    s.add_argument("--host", help="address to listen on (default from the config, else 127.0.0.1)")
    s.add_argument("--port", type=number(1, 65535, locale), help="port (default from the config, else 8080)")
    s.set_defaults(func=cmd_web)


async def cmd_web(args: argparse.Namespace, settings: Any) -> int:
    from bot.referee.upgrade import open_store
    from bot.terminal.common import EXIT_OK
    from bot.web.app import start
    from bot.web.monitor import Monitor, serve as serve_monitor

    host, port = args.host or settings.web.host, args.port or settings.web.port
    store = await open_store(settings.database)  # open tables brought to this release's rules, as every command
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    # /healthz and /metrics (the database only: no bot runs here), on their own listener or this one
    watching = settings.monitoring
    monitor = Monitor(store, backup_folder=settings.backups.folder) if watching.enabled else None
    shared = monitor is not None and (watching.host, watching.port) == (host, port)
    runner = watch = None
    try:
        runner = await start(store, host, port, locale=args.locale or settings.locale,
                             monitor=monitor if shared else None, base_url=settings.web.base_url,
                             replay_cache=settings.web.replay_cache)
        if monitor is not None and not shared:
            host, port = watching.host, watching.port
            watch = await serve_monitor(monitor, host, port)
    except OSError as exc:
        if runner is not None:
            await runner.cleanup()
        await store.close()
        raise OSError(exc.errno, f"{host}:{port}: {exc.strerror or exc}") from None
    host, port = args.host or settings.web.host, args.port or settings.web.port
    sys.stdout.write(f"http://{host}:{port}/\n")
    sys.stdout.flush()
    try:
        await stop.wait()
    finally:
        for serving in (runner, watch):
            if serving is not None:
                await serving.cleanup()
        await store.close()
    return EXIT_OK
