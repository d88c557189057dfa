"""``python -m bot``: the terminal front end.  Everything a Discord user can do is here too.

    run                      the Discord bot (token from DISCORD_TOKEN or the untracked config.yaml)
    demo                     complete games of every game with bot players, stored and verified
    play GAME                play at the terminal against bot players (or --hotseat)
    scenario FILE            run a deterministic scenario (docs/scenarios.md), print JSON
    scenario --from-table N [--version V]   a stored table's position as a scenario file (moderators only)
    replay / export / verify a stored table
    picture TABLE            a stored table as a picture (PNG), as a seat or the public sees it
    table new|join|leave|bot|start|cancel|list|status|actions|act|log   the lobby and play, one command at a time
    dispute TABLE MOVE TEXT  dispute a move of a table you play at (by its number in the log)
    rulings                  the ruling notes moderators left for the terminal's tables
    mod rollback|ruling|cancel|failures|dispute   moderator tools (mod dispute [ID] [--decide KIND]: the
                             open disputes, one dispute's evidence, a decision)
    mod whatif TABLE --move N|--version V [--action A]... [--playout bots|none] [--steps K]   another move tried
                             at a stored step on a scratch copy (moderators only; the table is untouched; logged)
    server GUILD [--moderator-role R] [--notice-channel C]   a Discord server's settings (as /settings)
    backup [--to DIR]        a proven online backup (--check FILE [--sample N]: prove a backup restores)
    restore FILE             put a backup in place, the bot stopped (--check: only prove it restores)
    windows ask|after|held [--hours H] [--table N]   how your out-of-turn windows are answered (as /table windows)
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Sequence

from bot.i18n import DEFAULT_LOCALE, LOCALES, t
from bot.process.config import BUSY_TIMEOUT_MAX, ConfigError, Settings, busy_timeout_of, load_settings
from bot.storage.backup import BackupFailed, decline as decline_backups
from bot.storage.db import Busy, DatabaseError, DatabaseUnavailable, explain, set_busy_timeout
from bot.terminal.common import (EXIT_FAILED, EXIT_USAGE, ID_MAX, OPTION_TEXT_MAX, TYPED_MAX, UsageError, _number,
                                 _short_text)
from bot.terminal.backup import add_parser as add_backup
from bot.terminal.disputes import cmd_dispute, cmd_rulings
from bot.terminal.moderation import cmd_mod
from bot.terminal.play import cmd_demo, cmd_play, cmd_scenario
from bot.terminal.records import cmd_export, cmd_picture, cmd_replay, cmd_verify
from bot.terminal.tables import cmd_table
from bot.terminal.ratings import add_parser as add_ratings
from bot.terminal.rules import add_parser as add_rules
from bot.terminal.servers import add_parser as add_servers
from bot.terminal.tournaments import add_parser as add_tournament
from bot.terminal.web import add_parser as add_web
from bot.terminal.upgrade import add_parser as add_upgrade
from bot.terminal.windows import add_parser as add_windows


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        from bot.discord.client import run_bot
    except ImportError as exc:  # pragma: no cover - only when the Discord layer is missing
        sys.stderr.write(f"the Discord layer is not available: {exc}\n")
        return EXIT_FAILED
    return await run_bot(settings)


def _argv_locale(argv: Sequence[str]) -> str:
    """The --locale of a command line before it is parsed, so that argument errors speak its language."""
    for i, arg in enumerate(argv):
        value = arg.split("=", 1)[1] if arg.startswith("--locale=") else (
            argv[i + 1] if arg == "--locale" and i + 1 < len(argv) else None)
        if value in LOCALES:
            return value
    return DEFAULT_LOCALE


def _seconds(locale: str):
    """An argparse type: the busy timeout, in seconds (bot/process/config.py), refused in words otherwise."""
    def parse(text: str) -> float:
        try:
            return busy_timeout_of(text, "--busy-timeout")
        except ConfigError:
            raise argparse.ArgumentTypeError(t("core.cli.busy_timeout", locale, max=f"{BUSY_TIMEOUT_MAX:g}")) from None
    parse.__name__ = "seconds"
    return parse


def build_parser(locale: str = DEFAULT_LOCALE) -> argparse.ArgumentParser:
    table_no = _number(1, ID_MAX, locale)
    version_no = _number(0, ID_MAX, locale)
    seed_text = _short_text(OPTION_TEXT_MAX, locale)
    p = argparse.ArgumentParser(prog="python -m bot", description="Judge — a referee for tabletop games.")
    p.add_argument("--config", help="settings file (default: ./config.yaml if present)")
    p.add_argument("--db", help="SQLite database file (default from config, else judge.db)")
    p.add_argument("--locale", choices=LOCALES, help="language of the output (ru, uk, en)")
    p.add_argument("--no-backup", action="store_true",
                   help="migrate an older database without first taking a proven backup (docs/operations.md)")
    p.add_argument("--busy-timeout", type=_seconds(locale), metavar="SECONDS",
                   help="how long a write waits for another process holding the database (default from config, else 5)")
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

    s = sub.add_parser("scenario", help="run a scenario file and print the states and events as JSON; or, with "
                                         "--from-table, write a stored table's position as a scenario file")
    s.add_argument("file", nargs="?")
    s.add_argument("--views", action="store_true", help="include every seat's view after each step")
    s.add_argument("--final-only", action="store_true", help="print only the final state and checks")
    s.add_argument("--from-table", type=table_no, metavar="TABLE",
                   help="write this stored table's position as a scenario (moderators only: hidden state; logged)")
    s.add_argument("--version", type=version_no, help="with --from-table: the position after this action "
                                                      "(default: the latest)")
    s.add_argument("--out", help="with --from-table: the file to write (default: standard output)")
    s.add_argument("--position-only", action="store_true",
                   help="with --from-table: without the table's later actions as steps")
    s.add_argument("--user", help="with --from-table: the moderator (default: your login); refused if seated at "
                                  "the table")
    s.set_defaults(func=cmd_scenario)

    s = sub.add_parser("export", help="export a stored table's record as JSON")
    s.add_argument("table", type=table_no)
    s.add_argument("--out")
    s.add_argument("--moderator", action="store_true", help="include the seed and full states (hidden info!)")
    s.add_argument("--user", help="the moderator (default: your login); refused if seated at the table, logged")
    s.set_defaults(func=cmd_export)

    s = sub.add_parser("verify", help="re-run a stored or exported table and check it against its record")
    s.add_argument("table", type=table_no, nargs="?")
    s.add_argument("--file", help="an exported table (JSON)")
    s.add_argument("--moderator", action="store_true", help="allow verifying an unfinished table")
    s.add_argument("--user", help="with --moderator: the moderator (default: your login); refused if seated at a "
                                  "running table, logged")
    s.set_defaults(func=cmd_verify)

    s = sub.add_parser("replay", help="print a stored table's history")
    s.add_argument("table", type=table_no)
    s.add_argument("--seat", type=_number(0, 100, locale), help="as this seat (0, 1, ...) sees it (default: public)")
    s.add_argument("--moderator", action="store_true", help="everything, hidden events included")
    s.add_argument("--user", help="who looks (default: your login); with --moderator, or --seat of another "
                                  "player's seat: refused if seated at the table, logged")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("picture", help="a stored table as a picture (PNG)")
    s.add_argument("table", type=table_no)
    who = s.add_mutually_exclusive_group()
    who.add_argument("--seat", type=_number(0, 100, locale), help="as this seat (0, 1, ...) sees it, its hand included")
    who.add_argument("--public", action="store_true", help="as the public sees it (the default)")
    s.add_argument("--version", type=version_no, help="the table at this version (default: as it is now)")
    s.add_argument("--out", required=True, help="the PNG file to write")
    s.add_argument("--user", help="with --seat: who looks (default: your login); a seat's own player, else a "
                                  "moderator: refused if seated at the table, logged")
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
                                   " disputes, what if")
    s.add_argument("verb", choices=["rollback", "ruling", "cancel", "pause", "resume", "failures", "dispute", "whatif"])
    s.add_argument("table", type=table_no, nargs="?", help="the table (for dispute: the dispute's number)")
    s.add_argument("--to", type=version_no, help="for rollback: the version to return to")
    s.add_argument("--move", type=version_no,
                   help="for rollback, instead of --to: the public move number to return to (0: the start); for "
                        "whatif: the position after this move")
    s.add_argument("--version", type=version_no, help="for whatif, instead of --move: the stored version to try "
                                                      "from (default: the latest)")
    s.add_argument("--action", action="append", type=_short_text(TYPED_MAX, locale),
                   help="for whatif: a move tried by hand (a number from the list, a label, or JSON); repeat to play"
                        " on by hand; none: the position and its legal moves")
    s.add_argument("--playout", choices=["bots", "none"], default="none",
                   help="for whatif: then let the built-in bots play on (default: none)")
    s.add_argument("--steps", type=_number(1, ID_MAX, locale),
                   help="for whatif --playout bots: at most this many bot moves (default: to the end)")
    s.add_argument("--reopen", action="store_true",
                   help="for rollback of a finished table: reopen it although its seed is public")
    s.add_argument("--reason", help="the reason (rollback, cancel, pause, a dispute's decision) or the text of the"
                                    " ruling")
    s.add_argument("--decide", choices=["uphold", "reject", "amend"], help="for dispute: the decision")
    s.add_argument("--correction", help="for dispute --decide amend: the action instead of the move (a number"
                                        " from the evidence's list, a label, or JSON)")
    s.add_argument("--rule", help="for dispute --decide: keep the reason as the ruling note on this rule id")
    s.add_argument("--seat", type=_number(0, 100, locale), help="for dispute: the evidence as this seat saw it; "
                                                                 "for whatif: the seat (0, 1, ...) making the moves")
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

    add_tournament(sub, _number, locale)
    add_web(sub, _number, locale)
    add_upgrade(sub)
    add_backup(sub, _number, locale)
    add_ratings(sub, _number, locale)
    add_servers(sub)
    add_rules(sub, _number, locale)
    add_windows(sub, _number, locale)
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
    if args.busy_timeout is not None:
        settings = Settings(**{**settings.__dict__, "busy_timeout": args.busy_timeout})
    set_busy_timeout(settings.busy_timeout)  # every connection this process opens waits so long for a write
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
    if args.command == "mod" and args.verb == "whatif" and args.move is not None and args.version is not None:
        sys.stderr.write("give --move MOVE or --version VERSION, not both\n")
        return EXIT_USAGE
    decline_backups(args.no_backup)  # the whole process: every command and `run` open the database through it
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
    # before any migration (a backup that failed), or another process holding the file past the busy timeout:
    # either way nothing was recorded, and the line says why
    except (BackupFailed, Busy) as exc:
        sys.stderr.write(f"✗ {exc.message(locale)}\n")
        return EXIT_FAILED
    except DatabaseError as exc:  # after a good start: the disk filled, another process held the file...
        sys.stderr.write("✗ " + t("core.cli.database_error", locale, db=str(settings.database),
                                  reason=explain(exc, locale)) + "\n")
        return EXIT_FAILED
    except BrokenPipeError:  # the output was piped into a program that stopped reading (head): nothing to say
        sys.stderr.close()
        return EXIT_FAILED
    except OSError as exc:
        sys.stderr.write("✗ " + t("core.cli.system_error", locale, reason=exc.strerror or str(exc)) + "\n")
        return EXIT_FAILED
