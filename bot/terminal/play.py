"""Terminal commands that play: ``demo`` (complete tables of bot players), ``play`` (a table at the
terminal) and ``scenario`` (a scenario file, docs/scenarios.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.engine import Code, Rejection, all_games, get_game
from bot.i18n import t
from bot.process.config import Settings
from bot.referee.service import Referee
from bot.terminal.common import (EXIT_OK, EXIT_FAILED, EXIT_USAGE, UsageError, _user, _seat_count, _game,
                                 _checked_options, _say, _refuse, _open)


async def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.terminal.session import abandon_demo_lobbies, run_demo_table

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
        await abandon_demo_lobbies(referee)  # what killed demos left (docs/operations.md)
        for game, seats, options in plan:
            for _ in range(args.games):
                result = await run_demo_table(referee, game.name, seats=seats, locale=locale, out=sys.stdout,
                                              verbose=args.verbose, options=options, pictures=pictures)
                failures += not (result.finished and result.verified)
        if not args.game:  # a rated table of people, so that the demo shows a rating move (docs/ratings.md)
            from bot.terminal.session import run_rated_demo_table
            _say(t("core.term.demo_rated", locale))
            result = await run_rated_demo_table(referee, locale=locale, out=sys.stdout)
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
    from bot.terminal.session import play_loop

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
                created = await referee.create_table(game.name, creator=user, creator_name=user.split(":", 1)[1],
                                                     options=options, origin="terminal", locale=locale)
                if isinstance(created, Rejection):
                    return _refuse(created, locale)
                table_id = created.id
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
    from bot.terminal import scenario

    if getattr(args, "from_table", None) is not None:
        if args.file:
            sys.stderr.write("scenario: give a FILE to run or --from-table N to write one, not both\n")
            return EXIT_USAGE
        from bot.terminal.positions import cmd_from_table

        return await cmd_from_table(args, settings)
    if not args.file:
        sys.stderr.write("scenario: give a scenario FILE (or --from-table N)\n")
        return EXIT_USAGE
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
