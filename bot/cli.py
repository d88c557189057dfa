"""``python -m bot``: the terminal front end.  Everything a Discord user can do is here too.

    run                      the Discord bot (token from DISCORD_TOKEN or the untracked config.yaml)
    demo                     complete games of every game with bot players, stored and verified
    play GAME                play at the terminal against bot players (or --hotseat)
    scenario FILE            run a deterministic scenario (docs/scenarios.md), print JSON
    replay / export / verify a stored table
    picture TABLE            a stored table as a picture (PNG), as a seat or the public sees it
    table new|join|leave|bot|start|cancel|list|status|actions|act|log   the lobby and play, one command at a time
    dispute TABLE MOVE TEXT  dispute a move of a table you play at (by its number in the log)
    rulings                  the ruling notes moderators left for the terminal's tables
    mod rollback|ruling|cancel|failures|dispute   moderator tools (mod dispute [ID] [--decide KIND]: the
                             open disputes, one dispute's evidence, a decision)
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import sqlite3
import sys
from pathlib import Path
from typing import Any, Sequence

import yaml

from bot.config import ConfigError, Settings, load_settings
from bot.engine import Code, Reject, Rejection, all_games, get_game
from bot.free_text import clean_name
from bot.i18n import DEFAULT_LOCALE, LOCALES, t
from bot.moves import Moves
from bot.record import RecordError, export_table, load_export, verify_export, verify_table
from bot.render.text import outcome_line, render_event
from bot.service import Accepted, Referee
from bot.storage.db import DatabaseUnavailable, explain
from bot.storage.store import Store

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
ID_MAX = 2**63 - 1         # SQLite's largest integer: a table number or version beyond it cannot exist
OPTION_TEXT_MAX = 200      # one --option value, a --seed
TYPED_MAX = 2000           # a typed action


class UsageError(Exception):
    """Input the command cannot take; the message is already localised."""


def _options(pairs: Sequence[str] | None, locale: str) -> dict[str, Any]:
    """``--option name=value`` pairs; values are parsed as YAML scalars (so 10 is a number, yes a bool)."""
    result = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        if not _ or not name.strip() or len(pair) > OPTION_TEXT_MAX:
            raise UsageError(t("core.cli.bad_option_pair", locale, pair=clean_name(pair, limit=60)))
        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError:
            parsed = value
        # an option is a scalar: a YAML list, mapping or date would reach the game as something it never takes
        result[name.strip()] = parsed if isinstance(parsed, (str, int, float, bool)) or parsed is None else value
    return result


def _user(args: argparse.Namespace) -> str:
    name = getattr(args, "user", None) or getpass.getuser() or "player"
    return f"cli:{clean_name(name, fallback='player')}"


def _seat_count(game: Any, seats: int | None, locale: str) -> int:
    """The number of seats asked for, or the game's demo default; refused outside the game's range."""
    count = seats if seats is not None else getattr(game, "demo_seats", game.min_seats)
    if not game.min_seats <= count <= game.max_seats:
        raise UsageError(t("core.reject.seat_count", locale, game=t(f"{game.name}.title", locale),
                           min=game.min_seats, max=game.max_seats, got=count))
    return count


def _game(name: str, locale: str) -> Any:
    try:
        return get_game(name)
    except KeyError:
        raise UsageError(t("core.reject.unknown_game", locale, game=clean_name(name, limit=40))) from None


def _checked_options(game: Any, pairs: Sequence[str] | None, locale: str) -> dict[str, Any]:
    options = _options(pairs, locale)
    try:
        game.validate_options(options)
    except Reject as r:
        raise UsageError(r.rejection.message(locale)) from None
    return options


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
    games = [_game(args.game, locale)] if args.game else [get_game(name) for name in all_games()]
    plan = [(game, _seat_count(game, args.seats, locale), _checked_options(game, args.option, locale))
            for game in games]  # every argument checked before the first table is played
    # beside the database by default: the demo's tables and their pictures stay together
    database = Path(settings.database)
    pictures = Path(args.pictures) if args.pictures else database.parent / f"{database.stem}-pictures"
    store, referee = await _open(settings)
    failures = 0
    try:
        for game, seats, options in plan:
            for _ in range(args.games):
                result = await run_demo_table(referee, game.name, seats=seats, locale=locale, out=sys.stdout,
                                              verbose=args.verbose, options=options, pictures=pictures)
                failures += not (result.finished and result.verified)
        if not args.game and not args.no_tournament:  # and a tournament for the public pages (docs/web.md)
            from bot.web.sample import bot_tournament
            tid = await bot_tournament(referee, "claygod", "swiss", 8, title=t("web.demo.tournament", locale),
                                       settings={"rounds": 3}, locale=locale)
            _say(t("tournament.term.finished", locale, tournament=tid))
    finally:
        await store.close()
    _say(t("core.term.demo_done", locale, db=str(settings.database)))
    return EXIT_OK if not failures else EXIT_FAILED


async def cmd_play(args: argparse.Namespace, settings: Settings) -> int:
    from bot.terminal import play_loop

    locale = args.locale or settings.locale
    user = _user(args)
    if args.table is None:
        game = _game(args.game, locale)
        humans = args.hotseat or 1
        seats = _seat_count(game, args.seats if args.seats is not None else max(game.min_seats, humans), locale)
        if humans > seats:
            raise UsageError(t("core.cli.hotseat_over_seats", locale, hotseat=humans, seats=seats))
        options = _checked_options(game, args.option, locale)
    store, referee = await _open(settings)
    try:
        table_id = args.table
        if table_id is not None:
            table = await store.get_table(table_id)
            if table is None:
                return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id}), locale)
            if table.status == "lobby":
                return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id}), locale)
            if not Referee.seats_of(await store.seats(table_id), user):
                return _refuse(Rejection(Code.NOT_A_PLAYER, "core.reject.not_a_player", {}), locale)
        else:
            unfinished = [tb for tb in await store.find_tables(status=["active"], user_id=user, game=game.name)
                          if tb.origin == "terminal"]
            if unfinished and not args.new:
                table_id = unfinished[0].id
                _say(t("core.term.resuming", locale, table=table_id))
            else:
                table = await referee.create_table(game.name, creator=user, creator_name=user.split(":", 1)[1],
                                                   options=options, origin="terminal", locale=locale)
                if isinstance(table, Rejection):
                    return _refuse(table, locale)
                table_id = table.id
                for i in range(1, humans):
                    await referee.join(table_id, user, f"{user.split(':', 1)[1]} {i + 1}", allow_several_seats=True)
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
            return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": args.table}), locale)
        if table.status == "lobby" or (table.status == "cancelled" and table.seed is None):
            return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": args.table}), locale)
        game = get_game(table.game)
        names = [s.name for s in await store.seats(args.table)]
        if args.seat is not None and not 0 <= args.seat < len(names):
            raise UsageError(t("core.cli.no_such_seat", locale, seat=args.seat, last=len(names) - 1))
        referee = Referee(store)
        events = await referee.history(args.table, seat=args.seat, moderator=args.moderator)
        actions = {a.version: a for a in await store.actions(args.table)}
        _say(f"{t(f'{game.name}.title', locale)} — #{table.id} ({table.status}); {', '.join(names)}")
        for entry in Moves(events).entries:  # moves numbered from the public events alone (bot/moves.py)
            a = actions.get(entry.version)
            who = t("notice.referee", locale) if a and a.seat < 0 else names[a.seat] if a else "—"
            step = f"{entry.number}. {who}" if entry.kind == "move" else f"• {who}"
            if entry.undone:
                step += f"  {t('records.term.undone', locale)}"
            # the raw action may name hidden cards, and the versions count the private actions too:
            # only moderators see them
            _say(f"[{entry.version}] {step}: {json.dumps(a.action, ensure_ascii=False)}" if a and args.moderator
                 else f"[{entry.version}] {step}" if args.moderator else step)
            for e in entry.events:
                if e["kind"] == "rollback":  # named by the move it returned to, as the table heard it
                    e = {**e, "data": {**e["data"], "move": entry.number}}
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


async def cmd_picture(args: argparse.Namespace, settings: Settings) -> int:
    """A table as a picture (PNG), drawn from the view of ``--seat`` or of the public, at ``--version``."""
    from bot.render.picture import picture

    locale = args.locale or settings.locale
    store = await Store.open(settings.database)
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
        png = picture(get_game(table.game).view(state, args.seat), locale, names)
    finally:
        await store.close()
    if png is None:
        raise UsageError(t("picture.cli.no_picture", locale, game=t(f"{table.game}.title", locale)))
    Path(args.out).write_bytes(png)
    _say(t("picture.cli.written", locale, file=args.out, kb=max(1, len(png) // 1024)))
    return EXIT_OK


async def cmd_table(args: argparse.Namespace, settings: Settings) -> int:
    from bot.delivery import drain
    from bot.render.notices import when
    from bot.terminal import TerminalDeliverer, action_menu, parse_typed

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    out = TerminalDeliverer(sys.stdout, user, locale)
    try:
        verb = args.verb
        if verb == "new":
            table = await referee.create_table(args.game, creator=user, creator_name=user.split(":", 1)[1],
                                               options=_options(args.option, locale), origin="terminal", locale=locale)
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
        if verb == "vacation":
            until = await referee.timekeeper.vacation(table_id, user, args.days if args.days is not None else 1.0)
            if isinstance(until, Rejection):
                return _refuse(until, locale)
            await drain(store, out)
            _say(t("clock.vacation", locale, table=table_id, until=when(until, "terminal")))
            return EXIT_OK
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
            _say(game.render_view(seen[0], locale, names))  # the board says who must act, once
            if seen[0].get("outcome"):
                _say(outcome_line(game, seen[0]["outcome"], locale, names))
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
                return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id}), locale)
            state = await store.state(table_id)
            if state is None:
                return _refuse(Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id}), locale)
            seat = await referee.resolve_seat(table_id, user, None, state)
            if isinstance(seat, Rejection):
                return _refuse(seat, locale)
            names = [s.name for s in await store.seats(table_id)]
            typed = " ".join(args.action)
            if not typed.strip() or len(typed) > TYPED_MAX:
                raise UsageError(t("core.cli.typed_action", locale, limit=TYPED_MAX))
            action = parse_typed(get_game(table.game), state, seat, typed, names)
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
            result = await moderation.rollback(referee, args.table, args.to, move=args.move, moderator=moderator,
                                               reason=args.reason, reopen=args.reopen)
        elif args.verb == "ruling":
            result = await moderation.ruling(referee, args.table, moderator=moderator, text=args.reason or "")
        elif args.verb == "cancel":
            result = await referee.cancel(args.table, moderator, moderator=True, reason=args.reason)
        elif args.verb in ("pause", "resume"):
            step = moderation.pause if args.verb == "pause" else moderation.resume
            result = await step(referee, args.table, moderator=moderator, reason=args.reason)
        elif args.verb == "dispute":
            return await mod_dispute(args, referee, moderator, locale)
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


async def cmd_dispute(args: argparse.Namespace, settings: Settings) -> int:
    """A player disputes a move; the table hears of it (its thread at once, the terminal at its next drain)."""
    from bot import disputes
    from bot.delivery import drain
    from bot.terminal import TerminalDeliverer

    locale = args.locale or settings.locale
    user = _user(args)
    store, referee = await _open(settings)
    try:
        raised = await disputes.raise_dispute(referee, args.table, user, move=args.move, text=" ".join(args.text),
                                              private=args.private)
        if isinstance(raised, Rejection):
            return _refuse(raised, locale)
        await drain(store, TerminalDeliverer(sys.stdout, user, locale))
        _say(t("disputes.raised", locale, id=raised.id, move=raised.move))
        return EXIT_OK
    finally:
        await store.close()


async def cmd_rulings(args: argparse.Namespace, settings: Settings) -> int:
    from bot import disputes
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
    from bot import disputes
    from bot.render.disputes import evidence_texts, queue_lines

    store = referee.store
    if args.table is None:
        found = await store.disputes(guild_id=disputes.NO_SERVER, status="open")
        games = {d.table_id: (await store.get_table(d.table_id)).game for d in found}
        _say("\n".join(queue_lines(found, {k: t(f"{g}.title", locale) for k, g in games.items()}, locale)))
        return EXIT_OK
    if args.decide is None:
        ev = await disputes.evidence(referee, args.table)
        if isinstance(ev, Rejection):
            return _refuse(ev, locale)
        if args.seat is not None and not 0 <= args.seat < len(ev.names):
            raise UsageError(t("core.cli.no_such_seat", locale, seat=args.seat, last=len(ev.names) - 1))
        _say("\n\n".join(evidence_texts(ev, locale, seat=args.seat)))
        return EXIT_OK
    correction = None
    if args.correction is not None:
        correction = await disputes.parse_correction(referee, args.table, args.correction)
        if isinstance(correction, Rejection):
            return _refuse(correction, locale)
    done = await disputes.decide(referee, args.table, moderator=moderator, kind=args.decide, reason=args.reason,
                                 correction=correction, reopen=args.reopen, note_rule=args.rule)
    if isinstance(done, Rejection):
        return _refuse(done, locale)
    _say(t("disputes.decided", locale, id=done.id, status=t(f"disputes.status.{done.status}", locale)))
    return EXIT_OK


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        from bot.discord.client import run_bot
    except ImportError as exc:  # pragma: no cover - only when the Discord layer is missing
        sys.stderr.write(f"the Discord layer is not available: {exc}\n")
        return EXIT_FAILED
    return await run_bot(settings)


# ---------------------------------------------------------------------------------------------- parser
def _number(low: int, high: int, locale: str):
    """An argparse type: a whole number in [low, high], refused with a localised message otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(t("core.cli.not_a_number", locale, text=clean_name(text, limit=30)))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(t("core.cli.out_of_range", locale, low=low, high=high))
        return value
    parse.__name__ = "number"  # argparse names the type in its messages
    return parse


def _short_text(limit: int, locale: str):
    def parse(text: str) -> str:
        if not text.strip() or len(text) > limit:
            raise argparse.ArgumentTypeError(t("core.cli.bad_text", locale, limit=limit))
        return text
    parse.__name__ = "text"
    return parse


def _argv_locale(argv: Sequence[str]) -> str:
    """The --locale of a command line before it is parsed, so that argument errors speak its language."""
    for i, arg in enumerate(argv):
        value = arg.split("=", 1)[1] if arg.startswith("--locale=") else (
            argv[i + 1] if arg == "--locale" and i + 1 < len(argv) else None)
        if value in LOCALES:
            return value
    return DEFAULT_LOCALE


def build_parser(locale: str = DEFAULT_LOCALE) -> argparse.ArgumentParser:
    table_no = _number(1, ID_MAX, locale)
    version_no = _number(0, ID_MAX, locale)
    seed_text = _short_text(OPTION_TEXT_MAX, locale)
    p = argparse.ArgumentParser(prog="python -m bot", description="Judge — a referee for tabletop games.")
    p.add_argument("--config", help="settings file (default: ./config.yaml if present)")
    p.add_argument("--db", help="SQLite database file (default from config, else judge.db)")
    p.add_argument("--locale", choices=LOCALES, help="language of the output (ru, uk, en)")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("run", help="run the Discord bot")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("demo", help="play complete games with bot players, store and verify them")
    s.add_argument("--game", help="only this game (default: every game)")
    s.add_argument("--games", type=_number(1, 1000, locale), default=1, help="tables per game")
    s.add_argument("--seats", type=_number(1, 100, locale), help="number of seats")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="table option (repeatable)")
    s.add_argument("--verbose", "-v", action="store_true", help="print every message, not just the results")
    s.add_argument("--no-tournament", action="store_true",
                   help="without the Swiss tournament of bot players played after the tables (not played with --game)")
    s.add_argument("--pictures", metavar="DIR",
                   help="where the final picture of each table is written (default: beside the database, "
                        "judge-pictures/ for judge.db)")
    s.set_defaults(func=cmd_demo)

    s = sub.add_parser("play", help="play at the terminal")
    s.add_argument("game", nargs="?", default="claygod")
    s.add_argument("--table", type=table_no, help="continue this table")
    s.add_argument("--new", action="store_true", help="start a new table even if one is unfinished")
    s.add_argument("--hotseat", type=_number(1, 100, locale), metavar="N", help="N people share this terminal")
    s.add_argument("--seats", type=_number(1, 100, locale), help="total seats (the rest are bot players)")
    s.add_argument("--user", help="your player name (default: your login)")
    s.add_argument("--seed", type=seed_text, help="fixed random seed (for reproducible games)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("scenario", help="run a scenario file and print the states and events as JSON")
    s.add_argument("file")
    s.add_argument("--views", action="store_true", help="include every seat's view after each step")
    s.add_argument("--final-only", action="store_true", help="print only the final state and checks")
    s.set_defaults(func=cmd_scenario)

    s = sub.add_parser("export", help="export a stored table's record as JSON")
    s.add_argument("table", type=table_no)
    s.add_argument("--out")
    s.add_argument("--moderator", action="store_true", help="include the seed and full states (hidden info!)")
    s.set_defaults(func=cmd_export)

    s = sub.add_parser("verify", help="re-run a stored or exported table and check it against its record")
    s.add_argument("table", type=table_no, nargs="?")
    s.add_argument("--file", help="an exported table (JSON)")
    s.add_argument("--moderator", action="store_true", help="allow verifying an unfinished table")
    s.set_defaults(func=cmd_verify)

    s = sub.add_parser("replay", help="print a stored table's history")
    s.add_argument("table", type=table_no)
    s.add_argument("--seat", type=_number(0, 100, locale), help="as this seat (0, 1, ...) sees it (default: public)")
    s.add_argument("--moderator", action="store_true", help="everything, hidden events included")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("picture", help="a stored table as a picture (PNG)")
    s.add_argument("table", type=table_no)
    who = s.add_mutually_exclusive_group()
    who.add_argument("--seat", type=_number(0, 100, locale), help="as this seat (0, 1, ...) sees it, its hand included")
    who.add_argument("--public", action="store_true", help="as the public sees it (the default)")
    s.add_argument("--version", type=version_no, help="the table at this version (default: as it is now)")
    s.add_argument("--out", required=True, help="the PNG file to write")
    s.set_defaults(func=cmd_picture)

    s = sub.add_parser("dispute", help="dispute a move of your table (a moderator decides)")
    s.add_argument("table", type=table_no)
    s.add_argument("move", type=_number(1, ID_MAX, locale), help="the move's number in the table's log")
    s.add_argument("text", nargs="+", help="what is wrong with it")
    s.add_argument("--private", action="store_true", help="only moderators read the text (the table hears of"
                                                          " the dispute, not what it says)")
    s.add_argument("--user", help="your player name (default: your login)")
    s.set_defaults(func=cmd_dispute)

    s = sub.add_parser("rulings", help="the ruling notes moderators left for the terminal's tables")
    s.set_defaults(func=cmd_rulings)

    s = sub.add_parser("mod", help="moderator tools: rollback, ruling, cancel, pause, resume, failed deliveries,"
                                   " disputes")
    s.add_argument("verb", choices=["rollback", "ruling", "cancel", "pause", "resume", "failures", "dispute"])
    s.add_argument("table", type=table_no, nargs="?", help="the table (for dispute: the dispute's number)")
    s.add_argument("--to", type=version_no, help="for rollback: the version to return to")
    s.add_argument("--move", type=version_no,
                   help="for rollback, instead of --to: the public move number to return to (0: the start)")
    s.add_argument("--reopen", action="store_true",
                   help="for rollback of a finished table: reopen it although its seed is public")
    s.add_argument("--reason", help="the reason (rollback, cancel, pause, a dispute's decision) or the text of the"
                                    " ruling")
    s.add_argument("--decide", choices=["uphold", "reject", "amend"], help="for dispute: the decision")
    s.add_argument("--correction", help="for dispute --decide amend: the action instead of the move (a number"
                                        " from the evidence's list, a label, or JSON)")
    s.add_argument("--rule", help="for dispute --decide: keep the reason as the ruling note on this rule id")
    s.add_argument("--seat", type=_number(0, 100, locale), help="for dispute: the evidence as this seat saw it")
    s.add_argument("--user", help="moderator name (default: your login)")
    s.set_defaults(func=cmd_mod)

    s = sub.add_parser("table", help="lobby and play, one command at a time (like the Discord commands)")
    s.add_argument("verb", choices=["new", "list", "join", "leave", "bot", "start", "cancel", "status", "hand",
                                    "actions", "act", "log", "vacation"])
    s.add_argument("id", nargs="?", type=table_no, help="table number")
    s.add_argument("action", nargs="*", help="for act: a number from 'actions', a label, or JSON")
    s.add_argument("--game", default="claygod", help="for new")
    s.add_argument("--user", help="act as this terminal user (default: your login)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--version", type=version_no, help="for act: refuse if the table moved past this version")
    s.add_argument("--seed", type=seed_text)
    s.add_argument("--reason")
    s.add_argument("--all", action="store_true", help="for list: finished tables too")
    s.add_argument("--days", type=float, help="for vacation: the days off the clock (from the table's allowance)")
    s.add_argument("--moderator", action="store_true")
    s.set_defaults(func=cmd_table)

    from bot.tournament.cli import add_parser as add_tournament
    add_tournament(sub, _number, locale)
    from bot.web.cli import add_parser as add_web
    add_web(sub, _number, locale)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    locale = _argv_locale(argv)
    args = build_parser(locale).parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        sys.stderr.write(f"configuration error: {exc}\n")
        return EXIT_USAGE
    if args.db is not None:
        if not args.db.strip():
            sys.stderr.write(t("core.cli.empty_db", locale) + "\n")
            return EXIT_USAGE
        settings = Settings(**{**settings.__dict__, "database": Path(args.db)})
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command not in ("run", "web"):
        logging.getLogger().setLevel(logging.WARNING)
    if args.command == "table" and args.verb not in ("new", "list") and args.id is None:
        sys.stderr.write("give a table number\n")
        return EXIT_USAGE
    if args.command == "mod" and args.verb not in ("failures", "dispute") and (args.table is None or (
            args.verb == "rollback" and (args.to is None) == (args.move is None))):
        sys.stderr.write("give a table number (and, for a rollback, either --to VERSION or --move MOVE)\n")
        return EXIT_USAGE
    return _run(args, settings, args.locale or settings.locale)


def _run(args: argparse.Namespace, settings: Settings, locale: str) -> int:
    """Run a command; what the machine refuses (the database, the disk, a closed pipe) is one line, not a
    traceback.  Tracebacks are left for real bugs."""
    try:
        return asyncio.run(args.func(args, settings))
    except KeyboardInterrupt:
        return EXIT_FAILED
    except UsageError as exc:
        sys.stderr.write(f"✗ {exc}\n")
        return EXIT_USAGE
    except DatabaseUnavailable as exc:
        sys.stderr.write(f"✗ {exc.message(locale)}\n")
        return EXIT_FAILED
    except sqlite3.Error as exc:  # after a good start: the disk filled, another process held the file...
        sys.stderr.write("✗ " + t("core.cli.database_error", locale, db=str(settings.database),
                                  reason=explain(exc, locale)) + "\n")
        return EXIT_FAILED
    except BrokenPipeError:  # the output was piped into a program that stopped reading (head): nothing to say
        sys.stderr.close()
        return EXIT_FAILED
    except OSError as exc:
        sys.stderr.write("✗ " + t("core.cli.system_error", locale, reason=exc.strerror or str(exc)) + "\n")
        return EXIT_FAILED
