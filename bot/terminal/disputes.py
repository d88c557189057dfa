"""Terminal commands on disputes: ``dispute`` (a player's), ``rulings`` (the moderators' notes) and ``mod
dispute`` (the open disputes, one dispute's evidence, a decision)."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from bot.engine import Rejection
from bot.i18n import t
from bot.process.config import Settings
from bot.referee.service import Referee
from bot.terminal.common import EXIT_OK, UsageError, _user, _say, _refuse, _open


async def cmd_dispute(args: argparse.Namespace, settings: Settings) -> int:
    """A player disputes a move; the table hears of it (its thread at once, the terminal at its next drain)."""
    from bot.referee import disputes
    from bot.referee.delivery import drain
    from bot.terminal.session import TerminalDeliverer

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    try:
        raised = await disputes.raise_dispute(referee, args.table, user, move=args.move, text=" ".join(args.text),
                                              private=args.private)
        if isinstance(raised, Rejection):
            return _refuse(raised, locale)
        await drain(store, TerminalDeliverer(sys.stdout, user, locale), only=[args.table])
        _say(t("disputes.raised", locale, id=raised.id, move=raised.move))
        return EXIT_OK
    finally:
        await store.close()


async def cmd_rulings(args: argparse.Namespace, settings: Settings) -> int:
    from bot.referee import disputes
    from bot.render.disputes import rulings_lines

    locale = args.locale or settings.locale
    store, referee = await _open(settings)
    try:
        _say("\n".join(rulings_lines(await disputes.rulings(referee, None), locale)))
        return EXIT_OK
    finally:
        await store.close()


async def mod_dispute(args: argparse.Namespace, referee: Referee, moderator: str, locale: str) -> int:
    """``mod dispute``: without a number the open disputes; with one its evidence (``--seat``: the table as
    that seat saw it), and with ``--decide`` the decision."""
    from bot.referee import disputes, oversight
    from bot.render.disputes import evidence_texts, queue_lines

    store = referee.store
    if args.table is None:
        found = await store.disputes(guild_id=disputes.NO_SERVER, status="open")
        hidden = await oversight.withheld(referee, found, moderator)  # another player's private text, where seated
        found = [replace(d, text=t("disputes.queue.withheld", locale)) if d.id in hidden else d for d in found]
        games = {d.table_id: (await store.known_table(d.table_id)).game for d in found}
        _say("\n".join(queue_lines(found, {k: t(f"{g}.title", locale) for k, g in games.items()}, locale)))
        return EXIT_OK
    if args.decide is None:
        ev = await oversight.evidence(referee, args.table, moderator=moderator)  # refused to a seated one; logged
        if isinstance(ev, Rejection):
            return _refuse(ev, locale)
        if args.seat is not None and not 0 <= args.seat < len(ev.names):
            raise UsageError(t("core.cli.no_such_seat", locale, seat=args.seat, last=len(ev.names) - 1))
        _say("\n\n".join(evidence_texts(ev, locale, seat=args.seat)))
        return EXIT_OK
    correction: dict[str, Any] | None = None
    if args.correction is not None:
        parsed = await disputes.parse_correction(referee, args.table, args.correction, moderator=moderator)
        if isinstance(parsed, Rejection):
            return _refuse(parsed, locale)
        correction = parsed
    done = await disputes.decide(referee, args.table, moderator=moderator, kind=args.decide, reason=args.reason,
                                 correction=correction, reopen=args.reopen, note_rule=args.rule)
    if isinstance(done, Rejection):
        return _refuse(done, locale)
    _say(t("disputes.decided", locale, id=done.id, status=t(f"disputes.status.{done.status}", locale)))
    return EXIT_OK
