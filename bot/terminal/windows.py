"""``python -m bot windows MODE [--hours H] [--table N] [--user NAME]``: how the player's out-of-turn windows are
answered for them, as ``/table windows`` sets it (bot/referee/windowprefs.py, docs/discord.md "Windows"): ``ask``
(asked as usual), ``after`` (the referee passes for them H hours after a window asks them, plus up to an hour
at random), ``held`` (as ``after``, and a window they cannot answer is not shown to them).  At every table, or
with ``--table`` at that one only."""
from __future__ import annotations

import argparse
from typing import Any

from bot.engine import Rejection
from bot.referee.windowprefs import MODES, describe
from bot.terminal.common import EXIT_OK, ID_MAX, _open, _refuse, _say, _user


def add_parser(sub: Any, number: Any, locale: str) -> None:
    s = sub.add_parser("windows", help="how your out-of-turn windows are answered for you: ask / after / held")
    s.add_argument("mode", choices=MODES)
    s.add_argument("--hours", type=float, help="for after and held: hours before the pass (default 1)")
    s.add_argument("--table", type=number(1, ID_MAX, locale), help="at this table only (default: every table)")
    s.add_argument("--user", help="your player name (default: your login)")
    s.set_defaults(func=cmd_windows)


async def cmd_windows(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    store, referee = await _open(settings)
    try:
        result = await referee.set_window_preference(_user(args), args.mode, args.hours, table_id=args.table)
    finally:
        await store.close()
    if isinstance(result, Rejection):
        return _refuse(result, locale)
    _say(describe(result, args.table, locale))
    return EXIT_OK
