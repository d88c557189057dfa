"""The terminal's ``table`` command: the lobby and play, one command at a time, like the Discord commands."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.engine import Code, Rejection, get_game
from bot.i18n import t
from bot.process.config import Settings
from bot.referee.service import PAUSED, Accepted
from bot.render.notices import paused_line, versions_line
from bot.render.text import outcome_line
from bot.storage.store import TableRow
from bot.terminal.common import EXIT_OK, TYPED_MAX, UsageError, _open, _options, _refuse, _say, _user
from bot.terminal.records import cmd_replay


async def cmd_table(args: argparse.Namespace, settings: Settings) -> int:
    from bot.referee.delivery import drain
    from bot.render.notices import clock_setting, when
    from bot.referee.typed import parse_typed
    from bot.terminal.session import TerminalDeliverer, action_menu

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    out = TerminalDeliverer(sys.stdout, user, locale, store=store)
    try:
        verb = args.verb
        if verb == "new":
            created = await referee.create_table(args.game, creator=user, creator_name=user.split(":", 1)[1],
                                                 options=_options(args.option, locale), origin="terminal",
                                                 locale=locale)
            if isinstance(created, Rejection):
                return _refuse(created, locale)
            _say(t("core.term.created", locale, table=created.id, game=t(f"{created.game}.title", locale)))
            if created.options.get("pace"):  # the terminal's default is live: players at one keyboard (docs/games)
                _say(t("core.term.pace", locale, pace=t(f"core.pace.{created.options['pace']}", locale)))
            if created.time_control:  # the default one at correspondence pace too: the creator is told, as in the lobby
                _say(t("clock.term.setting", locale, clock=clock_setting(created.time_control, locale)))
            return EXIT_OK
        if verb == "list":
            tables = await store.find_tables(status=None if args.all else ["lobby", "active"])
            for tb in tables:
                seats = await store.seats(tb.id)
                _say(t("core.term.table_row", locale, table=tb.id, game=t(f"{tb.game}.title", locale),
                       status=t(f"core.status.{tb.status}", locale), version=tb.version,
                       players=", ".join(s.name for s in seats) or "—"))
            if not tables:
                _say(t("core.term.no_tables", locale))
            return EXIT_OK
        table_id = args.id
        if verb == "vacation":
            until = await referee.timekeeper.vacation(table_id, user, args.days if args.days is not None else 1.0)
            if isinstance(until, Rejection):
                return _refuse(until, locale)
            await drain(store, out, only=[table_id])
            _say(t("clock.vacation", locale, table=table_id, until=when(until, "terminal")))
            return EXIT_OK
        result: int | Accepted | Rejection  # join and bot: the seat; leave and cancel: done (a bool)
        table: TableRow | None = None  # act: the table, whose game a refusal cites
        if verb == "join":
            result = await referee.join(table_id, user, user.split(":", 1)[1])
        elif verb == "leave":
            result = await referee.leave(table_id, user)
        elif verb == "bot":
            result = await referee.add_bot(table_id)
        elif verb == "start":
            result = await referee.start(table_id, user, moderator=args.moderator, seed=args.seed)
        elif verb == "cancel":
            from bot.referee import moderation  # a moderator's cancel: refused where they play (oversight.py)
            table = await store.get_table(table_id)
            if args.moderator and table is not None and table.creator != user:
                result = await moderation.cancel(referee, table_id, moderator=user, reason=args.reason)
            else:
                result = await referee.cancel(table_id, user, reason=args.reason)
        elif verb in ("status", "hand"):
            seen = await referee.view(table_id, user)
            if isinstance(seen, Rejection):
                return _refuse(seen, locale)
            shown = await store.known_table(table_id)  # the referee showed it: it exists
            names = [s.name for s in await store.seats(table_id)]
            game = get_game(shown.game)
            _say(game.render_view(seen[0], locale, names))  # the board says who must act, once
            if seen[0].get("outcome"):
                _say(outcome_line(game, seen[0]["outcome"], locale, names))
            if verb == "status":  # what the table was started under and plays by (bot/referee/upgrade.py)
                _say(versions_line(shown.release, shown.started_rules, shown.rules_version, locale))
                for line in await _pace_lines(store, shown, seen[0], names, locale, referee.now()):
                    _say(line)
            if shown.paused_at is not None:  # the board names who is to act; this says no one can yet
                _say(paused_line(shown, locale, "terminal", now=referee.now()))
            return EXIT_OK
        elif verb == "actions":
            legal = await referee.legal(table_id, user)
            if isinstance(legal, Rejection) and legal.key in PAUSED:  # a seated player: none now
                shown = await store.known_table(table_id)  # a seated player's: it exists
                _say(t("core.term.version", locale, version=shown.version))
                _say(paused_line(shown, locale, "terminal", now=referee.now()))
                return EXIT_OK
            if isinstance(legal, Rejection):
                return _refuse(legal, locale)
            seat, version, actions = legal
            game = get_game((await store.known_table(table_id)).game)
            position = await store.known_state(table_id)
            names = [s.name for s in await store.seats(table_id)]
            _say(t("core.term.version", locale, version=version))
            _say(action_menu(game, position, seat, actions, locale, names) if actions
                 else t("core.reject.not_your_turn", locale))
            return EXIT_OK
        elif verb == "act":
            table = await store.get_table(table_id)
            if table is None:
                return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id}), locale)
            state = await store.state(table_id)
            if state is None:
                return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id}), locale)
            acting = await referee.resolve_seat(table_id, user, None, state)
            if isinstance(acting, Rejection):
                return _refuse(acting, locale)
            names = [s.name for s in await store.seats(table_id)]
            typed = " ".join(args.action)
            if not typed.strip() or len(typed) > TYPED_MAX:
                raise UsageError(t("core.cli.typed_action", locale, limit=TYPED_MAX))
            action = parse_typed(get_game(table.game), state, acting, typed, names)
            if isinstance(action, Rejection):
                return _refuse(action, locale, table.game)
            result = await referee.act(table_id, user, action, expected_version=args.version, seat=acting)
        elif verb == "log":
            return await cmd_replay(argparse.Namespace(table=table_id, seat=None, moderator=args.moderator,
                                                       user=args.user, locale=locale), settings)
        else:
            raise AssertionError(verb)
        if isinstance(result, Rejection):  # an act's refusal cites its table's rules: name the game
            return _refuse(result, locale, table.game if table is not None and verb == "act" else None)
        if isinstance(result, Accepted) or verb in ("start",):
            await referee.drive_bots(table_id)
        await drain(store, out, only=[table_id])
        if verb in ("join", "bot") and isinstance(result, int):
            _say(t("core.term.seated", locale, table=table_id, seat=result + 1))
        elif verb in ("leave", "cancel"):
            _say(t("core.term.done", locale))
        return EXIT_OK
    finally:
        await store.close()


async def _pace_lines(store: Any, table: Any, view: dict[str, Any], names: list[str], locale: str,
                      now: float) -> list[str]:
    """The table's pace and each decision's deadline, absolute and relative ("до 28 ноября, 14:00 UTC (через 2
    дня)"), as the table's clocks show it (bot/referee/timecontrol.py); no deadline while it is paused (each
    moves on by the pause's length, still unknown)."""
    from bot.referee.timecontrol import with_deadlines
    from bot.render.deadlines import deadline
    from bot.storage.clocks import Clocks

    lines = []
    if table.options.get("pace"):
        lines.append(t("core.term.pace", locale, pace=t(f"core.pace.{table.options['pace']}", locale)))
    if table.paused_at is not None:
        return lines
    shown = await with_deadlines(Clocks(store), table, view)
    due: dict[float, list[str]] = {}
    for p in shown.get("to_act") or []:
        if p.get("deadline"):
            due.setdefault(p["deadline"], []).append(names[p["seat"]])
    for at, who in sorted(due.items()):
        lines.append(t("core.term.deadline", locale, players=", ".join(who),
                       when=deadline(at, locale, "terminal", now=now)))
    return lines
