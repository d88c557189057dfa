"""``python -m bot mod whatif TABLE --move N | --version V [--action A ...] [--playout bots|none] [--steps K]``: a
moderator's "what if" (bot/referee/whatif.py) at the terminal — another move tried at a stored step on a scratch
copy, played on by hand (each ``--action`` in turn) or by the bots, printed with every seat's board.  The table
is untouched; the look is refused to a user seated at the table and logged (bot/referee/oversight.py)."""
from __future__ import annotations

import argparse

from bot.engine import Rejection
from bot.referee import whatif
from bot.referee.service import Referee
from bot.render.whatif import trial_text
from bot.terminal.common import EXIT_OK, _refuse, _say


async def cmd_whatif(args: argparse.Namespace, referee: Referee, moderator: str, locale: str) -> int:
    trial = await whatif.try_moves(referee, args.table, moderator=moderator, version=args.version, move=args.move,
                                   actions=args.action or (), seat=args.seat, playout=args.playout == "bots",
                                   steps=args.steps)
    if isinstance(trial, Rejection):
        return _refuse(trial, locale)
    _say(trial_text(trial, locale))
    return EXIT_OK
