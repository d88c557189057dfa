"""``python -m bot``: the terminal front end.  Everything a Discord user can do is here too.

    run                      the Discord bot (token from DISCORD_TOKEN or the untracked config.yaml)
    demo                     complete games of every game with bot players, stored and verified
    play GAME                play at the terminal against bot players (or --hotseat)
    scenario FILE            run a deterministic scenario (docs/scenarios.md), print JSON
    replay / export / verify a stored table
    table new|join|leave|bot|start|cancel|list|status|actions|act|log   the lobby and play, one command at a time
    mod rollback|ruling|cancel|failures   moderator tools
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

import yaml

from bot.config import ConfigError, Settings, load_settings
from bot.engine import Rejection, all_games, get_game
from bot.i18n import LOCALES, t
from bot.record import RecordError, export_table, verify_export, verify_table
from bot.render.text import outcome_line, render_event, turn_line
from bot.service import Accepted, Referee
from bot.storage.store import Store

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _options(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; values are parsed as YAML scalars (so 10 is a number, yes a bool)."""
    result = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"--option expects name=value, got {pair!r}")
        name, value = pair.split("=", 1)
        result[name.strip()] = yaml.safe_load(value)
    return result


def _user(args: argparse.Namespace) -> str:
    name = getattr(args, "user", None) or getpass.getuser() or "player"
    return f"cli:{name}"


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")


def _refuse(rejection: Rejection, locale: str) -> int:
    sys.stderr.write("✗ " + rejection.message(locale) + "\n")
    return EXIT_FAILED


async def _open(settings: Settings) -> tuple[Store, Referee]:
    store = await Store.open(settings.database)
    return store, Referee(store)


# ---------------------------------------------------------------------------------------------- commands
async def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.terminal import run_demo_table

    locale = args.locale or settings.locale
    games = [args.game] if args.game else list(all_games())
    if not games:
        _say("no games are registered")
        return EXIT_FAILED
    store, referee = await _open(settings)
    failures = 0
    try:
        for name in games:
            game = get_game(name)
            for _ in range(args.games):
                seats = args.seats or getattr(game, "demo_seats", game.min_seats)
                result = await run_demo_table(referee, name, seats=seats, locale=locale, out=sys.stdout,
                                              verbose=args.verbose, options=_options(args.option))
                failures += not (result.finished and result.verified)
    finally:
        await store.close()
    _say(t("core.term.demo_done", locale, db=str(settings.database)))
    return EXIT_OK if not failures else EXIT_FAILED


async def cmd_play(args: argparse.Namespace, settings: Settings) -> int:
    from bot.terminal import play_loop

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    try:
        table_id = args.table
        if table_id is None:
            try:
                game = get_game(args.game)
            except KeyError:
                _say(t("core.reject.unknown_game", locale, game=args.game))
                return EXIT_USAGE
            unfinished = [tb for tb in await store.find_tables(status=["active"], user_id=user, game=game.name)
                          if tb.origin == "terminal"]
            if unfinished and not args.new:
                table_id = unfinished[0].id
                _say(t("core.term.resuming", locale, table=table_id))
            else:
                table = await referee.create_table(game.name, creator=user, creator_name=user.split(":", 1)[1],
                                                   options=_options(args.option), origin="terminal", locale=locale)
                if isinstance(table, Rejection):
                    return _refuse(table, locale)
                table_id = table.id
                humans = args.hotseat if args.hotseat else 1
                for i in range(1, humans):
                    await referee.join(table_id, user, f"{user.split(':', 1)[1]} {i + 1}", allow_several_seats=True)
                seats = args.seats or max(game.min_seats, humans)
                for n in range(1, seats - humans + 1):
                    await referee.add_bot(table_id, name=t("core.term.bot_name", locale, n=n))
                started = await referee.start(table_id, user, seed=args.seed)
                if isinstance(started, Rejection):
                    return _refuse(started, locale)
        outcome = await play_loop(referee, table_id, user, locale)
    finally:
        await store.close()
    return EXIT_OK if outcome in ("finished", "quit", "eof") else EXIT_FAILED


async def cmd_scenario(args: argparse.Namespace, settings: Settings) -> int:
    from bot import scenario

    try:
        report = scenario.run(scenario.load(args.file), views=args.views, locale=args.locale,
                              with_states=not args.final_only)
    except scenario.ScenarioError as exc:
        sys.stderr.write(f"scenario error: {exc}\n")
        return EXIT_USAGE
    if args.final_only:  # the end, and whatever went wrong on the way
        failed = [step for step in report.get("steps", []) if "expectation_failed" in step]
        report = {k: report[k] for k in ("game", "seats", "final", "to_act", "outcome", "checks", "error", "message",
                                         "expectation_failed", "ok") if k in report}
        if failed:
            report["failed_steps"] = [{k: v for k, v in step.items() if k not in ("state", "views")} for step in failed]
    _say(scenario.dump(report))
    return EXIT_OK if report["ok"] else EXIT_FAILED


async def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    store = await Store.open(settings.database)
    try:
        doc = await export_table(store, args.table, include_seed=args.moderator, include_states=args.moderator)
    except RecordError as exc:
        sys.stderr.write(f"{exc}\n")
        return EXIT_FAILED
    finally:
        await store.close()
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        _say(f"table {args.table} exported to {args.out}")
    else:
        _say(text)
    return EXIT_OK


async def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    try:
        if args.file:
            report = verify_export(json.loads(Path(args.file).read_text(encoding="utf-8")))
        else:
            if args.table is None:
                sys.stderr.write("give a table number or --file\n")
                return EXIT_USAGE
            store = await Store.open(settings.database)
            try:
                report = await verify_table(store, args.table, moderator=args.moderator)
            finally:
                await store.close()
    except (RecordError, json.JSONDecodeError, OSError) as exc:
        sys.stderr.write(f"cannot verify: {exc}\n")
        return EXIT_FAILED
    where = f"table {report.table_id}" if report.table_id is not None else "export"
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
    store = await Store.open(settings.database)
    try:
        table = await store.get_table(args.table)
        if table is None:
            _say(t("core.reject.no_table", locale, table=args.table))
            return EXIT_FAILED
        game = get_game(table.game)
        names = [s.name for s in await store.seats(args.table)]
        referee = Referee(store)
        events = await referee.history(args.table, seat=args.seat, moderator=args.moderator)
        actions = {a.version: a for a in await store.actions(args.table)}
        _say(f"{t(f'{game.name}.title', locale)} — #{table.id} ({table.status}); {', '.join(names)}")
        last = None
        for e in events:
            if e["version"] != last:
                last = e["version"]
                a = actions.get(last)
                who = names[a.seat] if a else "—"
                # the raw action may name hidden cards, and the versions count the private actions too:
                # only moderators see them
                _say(f"[{last}] {who}: {json.dumps(a.action, ensure_ascii=False)}" if a and args.moderator
                     else f"[{last}] {who}" if args.moderator else f"• {who}")
            text = render_event(game, e, locale, names)
            if text:
                hidden = "" if e["to"] is None else "  🔒"
                _say(f"    {text}{hidden}")
        if args.moderator or table.status != "active":
            state = await store.state(args.table)
            seat = None if args.moderator else args.seat
            _say(game.render_view(game.view(state, seat), locale, names))
    finally:
        await store.close()
    return EXIT_OK


async def cmd_table(args: argparse.Namespace, settings: Settings) -> int:
    from bot.delivery import drain
    from bot.terminal import TerminalDeliverer, action_menu, parse_typed

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    out = TerminalDeliverer(sys.stdout, user, locale)
    try:
        verb = args.verb
        if verb == "new":
            table = await referee.create_table(args.game, creator=user, creator_name=user.split(":", 1)[1],
                                               options=_options(args.option), origin="terminal", locale=locale)
            if isinstance(table, Rejection):
                return _refuse(table, locale)
            _say(t("core.term.created", locale, table=table.id, game=t(f"{table.game}.title", locale)))
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
        if verb == "join":
            result = await referee.join(table_id, user, user.split(":", 1)[1])
        elif verb == "leave":
            result = await referee.leave(table_id, user)
        elif verb == "bot":
            result = await referee.add_bot(table_id)
        elif verb == "start":
            result = await referee.start(table_id, user, moderator=args.moderator, seed=args.seed)
        elif verb == "cancel":
            result = await referee.cancel(table_id, user, moderator=args.moderator, reason=args.reason)
        elif verb in ("status", "hand"):
            seen = await referee.view(table_id, user)
            if isinstance(seen, Rejection):
                return _refuse(seen, locale)
            table = await store.get_table(table_id)
            names = [s.name for s in await store.seats(table_id)]
            game = get_game(table.game)
            _say(game.render_view(seen[0], locale, names))
            if seen[0].get("outcome"):
                _say(outcome_line(game, seen[0]["outcome"], locale, names))
            elif turn := turn_line(seen[0], locale, names):
                _say(turn)
            return EXIT_OK
        elif verb == "actions":
            legal = await referee.legal(table_id, user)
            if isinstance(legal, Rejection):
                return _refuse(legal, locale)
            seat, version, actions = legal
            table = await store.get_table(table_id)
            game = get_game(table.game)
            state = await store.state(table_id)
            names = [s.name for s in await store.seats(table_id)]
            _say(t("core.term.version", locale, version=version))
            _say(action_menu(game, state, seat, actions, locale, names) if actions
                 else t("core.reject.not_your_turn", locale))
            return EXIT_OK
        elif verb == "act":
            table = await store.get_table(table_id)
            if table is None:
                _say(t("core.reject.no_table", locale, table=table_id))
                return EXIT_FAILED
            state = await store.state(table_id)
            seat = await referee.resolve_seat(table_id, user, None, state) if state else None
            if isinstance(seat, Rejection) or state is None:
                return _refuse(seat if isinstance(seat, Rejection) else
                               Rejection("illegal", "core.reject.not_started", {"table": table_id}), locale)
            names = [s.name for s in await store.seats(table_id)]
            action = parse_typed(get_game(table.game), state, seat, " ".join(args.action), names)
            if isinstance(action, Rejection):
                return _refuse(action, locale)
            result = await referee.act(table_id, user, action, expected_version=args.version, seat=seat)
        elif verb == "log":
            return await cmd_replay(argparse.Namespace(table=table_id, seat=None, moderator=args.moderator,
                                                       locale=locale), settings)
        else:
            raise AssertionError(verb)
        if isinstance(result, Rejection):
            return _refuse(result, locale)
        if isinstance(result, Accepted) or verb in ("start",):
            await referee.drive_bots(table_id)
        await drain(store, out)
        if verb in ("join", "bot"):
            _say(t("core.term.seated", locale, table=table_id, seat=result + 1))
        elif verb in ("leave", "cancel"):
            _say(t("core.term.done", locale))
        return EXIT_OK
    finally:
        await store.close()


async def cmd_mod(args: argparse.Namespace, settings: Settings) -> int:
    """Moderator tools from the terminal (whoever runs the bot's machine is its operator)."""
    from bot import moderation

    locale = args.locale or settings.locale
    store, referee = await _open(settings)
    moderator = _user(args)
    try:
        if args.verb == "rollback":
            result = await moderation.rollback(referee, args.table, args.to, moderator=moderator, reason=args.reason,
                                               reopen=args.reopen)
        elif args.verb == "ruling":
            result = await moderation.ruling(referee, args.table, moderator=moderator, text=args.reason or "")
        elif args.verb == "cancel":
            result = await referee.cancel(args.table, moderator, moderator=True, reason=args.reason)
        else:
            failed = await store.failed_messages()
            for message_id, table_id, error in failed:
                _say(f"#{message_id} table {table_id}: {error}")
            if not failed:
                _say(t("core.term.no_failures", locale))
            return EXIT_OK
        if isinstance(result, Rejection):
            return _refuse(result, locale)
        _say(t("core.term.done", locale))
        return EXIT_OK
    finally:
        await store.close()


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        from bot.client import run_bot
    except ImportError as exc:  # pragma: no cover - only when the Discord layer is missing
        sys.stderr.write(f"the Discord layer is not available: {exc}\n")
        return EXIT_FAILED
    return await run_bot(settings)


# ---------------------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="Judge — a referee for tabletop games.")
    p.add_argument("--config", help="settings file (default: ./config.yaml if present)")
    p.add_argument("--db", help="SQLite database file (default from config, else judge.db)")
    p.add_argument("--locale", choices=LOCALES, help="language of the output (ru, uk, en)")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("run", help="run the Discord bot")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("demo", help="play complete games with bot players, store and verify them")
    s.add_argument("--game", help="only this game (default: every game)")
    s.add_argument("--games", type=int, default=1, help="tables per game")
    s.add_argument("--seats", type=int, help="number of seats")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="table option (repeatable)")
    s.add_argument("--verbose", "-v", action="store_true", help="print every message, not just the results")
    s.set_defaults(func=cmd_demo)

    s = sub.add_parser("play", help="play at the terminal")
    s.add_argument("game", nargs="?", default="claygod")
    s.add_argument("--table", type=int, help="continue this table")
    s.add_argument("--new", action="store_true", help="start a new table even if one is unfinished")
    s.add_argument("--hotseat", type=int, metavar="N", help="N people share this terminal")
    s.add_argument("--seats", type=int, help="total seats (the rest are bot players)")
    s.add_argument("--user", help="your player name (default: your login)")
    s.add_argument("--seed", help="fixed random seed (for reproducible games)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("scenario", help="run a scenario file and print the states and events as JSON")
    s.add_argument("file")
    s.add_argument("--views", action="store_true", help="include every seat's view after each step")
    s.add_argument("--final-only", action="store_true", help="print only the final state and checks")
    s.set_defaults(func=cmd_scenario)

    s = sub.add_parser("export", help="export a stored table's record as JSON")
    s.add_argument("table", type=int)
    s.add_argument("--out")
    s.add_argument("--moderator", action="store_true", help="include the seed and full states (hidden info!)")
    s.set_defaults(func=cmd_export)

    s = sub.add_parser("verify", help="re-run a stored or exported table and check it against its record")
    s.add_argument("table", type=int, nargs="?")
    s.add_argument("--file", help="an exported table (JSON)")
    s.add_argument("--moderator", action="store_true", help="allow verifying an unfinished table")
    s.set_defaults(func=cmd_verify)

    s = sub.add_parser("replay", help="print a stored table's history")
    s.add_argument("table", type=int)
    s.add_argument("--seat", type=int, help="as this seat sees it (default: public)")
    s.add_argument("--moderator", action="store_true", help="everything, hidden events included")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("mod", help="moderator tools: rollback, ruling, cancel, failed deliveries")
    s.add_argument("verb", choices=["rollback", "ruling", "cancel", "failures"])
    s.add_argument("table", type=int, nargs="?")
    s.add_argument("--to", type=int, help="for rollback: the version to return to")
    s.add_argument("--reopen", action="store_true",
                   help="for rollback of a finished table: reopen it although its seed is public")
    s.add_argument("--reason", help="the reason (rollback, cancel) or the text of the ruling")
    s.add_argument("--user", help="moderator name (default: your login)")
    s.set_defaults(func=cmd_mod)

    s = sub.add_parser("table", help="lobby and play, one command at a time (like the Discord commands)")
    s.add_argument("verb", choices=["new", "list", "join", "leave", "bot", "start", "cancel", "status", "hand",
                                    "actions", "act", "log"])
    s.add_argument("id", nargs="?", type=int, help="table number")
    s.add_argument("action", nargs="*", help="for act: a number from 'actions', a label, or JSON")
    s.add_argument("--game", default="claygod", help="for new")
    s.add_argument("--user", help="act as this terminal user (default: your login)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--version", type=int, help="for act: refuse if the table moved past this version")
    s.add_argument("--seed")
    s.add_argument("--reason")
    s.add_argument("--all", action="store_true", help="for list: finished tables too")
    s.add_argument("--moderator", action="store_true")
    s.set_defaults(func=cmd_table)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        sys.stderr.write(f"configuration error: {exc}\n")
        return EXIT_USAGE
    if args.db:
        settings = Settings(**{**settings.__dict__, "database": Path(args.db)})
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command != "run":
        logging.getLogger().setLevel(logging.WARNING)
    if args.command == "table" and args.verb not in ("new", "list") and args.id is None:
        sys.stderr.write("give a table number\n")
        return EXIT_USAGE
    if args.command == "mod" and args.verb != "failures" and (args.table is None or
                                                              (args.verb == "rollback" and args.to is None)):
        sys.stderr.write("give a table number (and --to for a rollback)\n")
        return EXIT_USAGE
    try:
        return asyncio.run(args.func(args, settings))
    except KeyboardInterrupt:
        return EXIT_FAILED
