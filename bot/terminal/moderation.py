"""The terminal's ``mod`` command: a moderator's rollback, ruling, cancel, pause, resume, the failed
deliveries, the disputes (bot/terminal/disputes.py) and "what if" (bot/terminal/whatif.py)."""
from __future__ import annotations

import argparse

from bot.engine import Rejection
from bot.i18n import t
from bot.process.config import Settings
from bot.referee.service import Accepted
from bot.storage.rows import known
from bot.terminal.common import EXIT_OK, _user, _say, _refuse, _open
from bot.terminal.disputes import mod_dispute
from bot.terminal.whatif import cmd_whatif


async def cmd_mod(args: argparse.Namespace, settings: Settings) -> int:
    """Moderator tools from the terminal (whoever runs the bot's machine is its operator)."""
    from bot.referee import moderation

    locale = args.locale or settings.locale
    store, referee = await _open(settings)
    moderator = _user(args)
    try:
        result: bool | Accepted | Rejection
        if args.verb == "rollback":
            result = await moderation.rollback(referee, args.table, args.to, move=args.move, moderator=moderator,
                                               reason=args.reason, reopen=args.reopen)
        elif args.verb == "ruling":
            result = await moderation.ruling(referee, args.table, moderator=moderator, text=args.reason or "")
        elif args.verb == "cancel":
            result = await moderation.cancel(referee, args.table, moderator=moderator, reason=args.reason)
        elif args.verb in ("pause", "resume"):
            step = moderation.pause if args.verb == "pause" else moderation.resume
            result = await step(referee, args.table, moderator=moderator, reason=args.reason)
        elif args.verb == "dispute":
            return await mod_dispute(args, referee, moderator, locale)
        elif args.verb == "whatif":
            return await cmd_whatif(args, referee, moderator, locale)
        else:
            failed = await store.failed_messages()
            for message_id, table_id, error in failed:
                _say(f"#{message_id} table {table_id}: {error}")
            from bot.referee.upgrade import frozen_tables
            from bot.render.notices import frozen_line
            frozen = await frozen_tables(store)  # tables this release cannot play
            for table in frozen:
                _say(frozen_line(known(table.frozen, "a frozen table's reason"), table.id, locale))
            if not failed and not frozen:
                _say(t("core.term.no_failures", locale))
            return EXIT_OK
        if isinstance(result, Rejection):
            return _refuse(result, locale)
        _say(t("core.term.done", locale))
        return EXIT_OK
    finally:
        await store.close()
