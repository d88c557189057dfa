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

    host, port = args.host or settings.web.host, args.port or settings.web.port
    store = await open_store(settings.database)  # open tables brought to this release's rules, as every command
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        runner = await start(store, host, port, locale=args.locale or settings.locale)
    except OSError as exc:
        await store.close()
        raise OSError(exc.errno, f"{host}:{port}: {exc.strerror or exc}") from None
    sys.stdout.write(f"http://{host}:{port}/\n")
    sys.stdout.flush()
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await store.close()
    return EXIT_OK
