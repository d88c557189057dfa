"""Terminal commands on a stored table's record: ``export``, ``verify``, ``replay`` and ``picture``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.engine import Code, Rejection, get_game
from bot.engine.versions import CannotMigrate, readable
from bot.i18n import t
from bot.process.config import Settings
from bot.referee.record import RecordError, export_table, load_export, verify_export, verify_table
from bot.referee.replay import load as load_replay, started
from bot.referee.service import Referee, frozen_refusal
from bot.referee.upgrade import open_store
from bot.storage.store import Store, TableRow
from bot.terminal.common import EXIT_OK, EXIT_FAILED, EXIT_USAGE, UsageError, _say, _refuse, _user


async def _moderator_look(store: Store, table_id: int, args: argparse.Namespace, what: str) -> Rejection | None:
    """A terminal look at a table's hidden state (``--moderator``): refused to a user seated there, else logged
    (bot/referee/oversight.py)."""
    from bot.referee.oversight import may_look

    if not args.moderator or await store.get_table(table_id) is None:
        return None
    return await may_look(Referee(store), table_id, _user(args), what)


async def _seat_look(store: Store, table: TableRow, args: argparse.Namespace, what: str) -> Rejection | None:
    """``--seat N`` of a table in play shows that seat's hand: its own player's look, else a look behind the
    screen — refused to another player of the table, logged for anyone else (bot/referee/oversight.py).  An
    ended table's seed is public, and with it every hand."""
    from bot.referee.oversight import may_look, same_user

    if args.seat is None or getattr(args, "moderator", False) or table.status != "active":
        return None
    user = _user(args)
    if any(s.seat == args.seat and same_user(s.user_id, user) for s in await store.seats(table.id)):
        return None
    return await may_look(Referee(store), table.id, user, what, {"seat": args.seat})


async def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    store = await open_store(settings.database)
    try:
        refused = await _moderator_look(store, args.table, args, "export")
        if refused is not None:
            return _refuse(refused, args.locale or settings.locale)
        doc = await export_table(store, args.table, include_seed=args.moderator, include_states=args.moderator)
    except RecordError as exc:
        sys.stderr.write(f"{exc}\n")
        return EXIT_FAILED
    finally:
        await store.close()
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            sys.stderr.write(f"cannot write {args.out}: {exc.strerror or exc}\n")
            return EXIT_FAILED
        _say(f"table {args.table} exported to {args.out}")
    else:
        _say(text)
    return EXIT_OK


async def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    try:
        if args.file:
            report = verify_export(load_export(Path(args.file)))
        else:
            if args.table is None:
                sys.stderr.write("give a table number or --file\n")
                return EXIT_USAGE
            store = await open_store(settings.database)
            try:
                table = await store.get_table(args.table)
                # a running table's check counts its actions, secret ones too: a moderator's look
                refused = await _moderator_look(store, args.table, args, "verify") \
                    if table is not None and table.status == "active" else None
                if refused is not None:
                    return _refuse(refused, args.locale or settings.locale)
                report = await verify_table(store, args.table, moderator=args.moderator)
            finally:
                await store.close()
    except (RecordError, json.JSONDecodeError, OSError) as exc:
        sys.stderr.write(f"cannot verify: {exc}\n")
        return EXIT_FAILED
    where = f"table {report.table_id}" if report.table_id is not None else "export"
    if report.upgrades or report.recorded:  # across upgrades: which check each step had (docs/operations.md)
        _say(report.across_upgrades())
    if report.ok:
        _say(f"OK: {where} ({report.game}) — seed matches its commitment; {report.actions} actions re-run, "
             f"{report.snapshots_checked} snapshots identical")
        return EXIT_OK
    _say(f"MISMATCH: {where} ({report.game})")
    for problem in report.problems:
        _say(f"  - {problem}")
    return EXIT_FAILED


async def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    locale = args.locale or settings.locale
    store = await open_store(settings.database)
    try:
        table = await store.get_table(args.table)
        if table is None:
            return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": args.table}), locale)
        if not started(table):
            return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": args.table}), locale)
        refused = await _moderator_look(store, args.table, args, "replay")
        if refused is not None:
            return _refuse(refused, locale)
        game = get_game(table.game)
        names = [s.name for s in await store.seats(args.table)]
        if args.seat is not None and not 0 <= args.seat < len(names):
            raise UsageError(t("core.cli.no_such_seat", locale, seat=args.seat, last=len(names) - 1))
        refused = await _seat_look(store, table, args, "replay")
        if refused is not None:
            return _refuse(refused, locale)
        referee = Referee(store)
        replay = await load_replay(referee, table, seat=args.seat, moderator=args.moderator)
        _say(replay.header(locale))
        for entry in replay.entries:  # the same lines as /table replay shows step by step (bot/referee/replay.py)
            for line in replay.lines(entry, locale):
                _say(line)
        if args.moderator or table.status != "active":
            state = await store.known_state(args.table)  # started: it has one
            seat = None if args.moderator else args.seat
            _say(game.render_view(game.view(state, seat), locale, names))
    finally:
        await store.close()
    return EXIT_OK


async def cmd_picture(args: argparse.Namespace, settings: Settings) -> int:
    """A table as a picture (PNG), drawn from the view of ``--seat`` or of the public, at ``--version``."""
    from bot.render.picture import picture

    locale = args.locale or settings.locale
    store = await open_store(settings.database)
    try:
        table = await store.get_table(args.table)
        if table is None:
            return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": args.table}), locale)
        state = await store.state(args.table, args.version)
        if state is None and args.version is None:
            return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": args.table}), locale)
        if state is None:
            raise UsageError(t("picture.cli.no_such_version", locale, version=args.version, last=table.version))
        names = [s.name for s in await store.seats(args.table)]
        if args.seat is not None and not 0 <= args.seat < len(names):
            raise UsageError(t("core.cli.no_such_seat", locale, seat=args.seat, last=len(names) - 1))
        refused = await _seat_look(store, table, args, "picture")
        if refused is not None:
            return _refuse(refused, locale)
        game = get_game(table.game)
        try:  # a version written before an upgrade: drawn as today's rules read it
            state = readable(game, state)
        except CannotMigrate:
            return _refuse(frozen_refusal(table), locale)
        png = picture(game.view(state, args.seat), locale, names)
    finally:
        await store.close()
    if png is None:
        raise UsageError(t("picture.cli.no_picture", locale, game=t(f"{table.game}.title", locale)))
    Path(args.out).write_bytes(png)
    _say(t("picture.cli.written", locale, file=args.out, kb=max(1, len(png) // 1024)))
    return EXIT_OK
