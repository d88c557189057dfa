"""``python -m bot tournament …``: a tournament run from the terminal, one command at a time.

    new --game G --format F [--set name=value] [--option name=value] [--title T]
    join ID / leave ID / bot ID [--count N]      enter yourself, drop out, enter bot players
    start ID                                     pair round 1 and start its tables
    pair ID                                      settle finished tables, let bot players move, pair the next round
    standings ID / results ID / list
    adjust ID --round R --board B --points user=1 --points user=0 --reason "…"
    forfeit ID --round R --board B --loser user [--loser user] --reason "…"
        (adjust and forfeit: where a bracket correction undoes later games, they are listed and nothing changes
        until the command is run again with --confirm)
    pause ID --reason "…" / resume ID             stop and restart the current round's clock
    remove ID USER --reason "…" / repair ID / cancel ID
    checkin ID / bye ID                          confirm you will play; sit out the next round (again: take it back)
    swap ID USER1 USER2 --reason "…"             exchange two players in the current round (before anyone moved)
    forbid ID USER1 USER2 --reason "…"           those two do not meet from the next pairing on
    export ID --out FILE.json|FILE.csv           standings and every game
    export ID --public [--format json|csv]       the auditor's export: pseudonymous ids, times, who moved, ratings
    export ID --format trf [--out FILE.trf]      a Swiss or round robin as FIDE's TRF16

Every command first applies the clock, as the bot's clock does on Discord: the move clocks of the tables, then
the results of finished tables and the round deadlines that passed (docs/tournaments.md, T-6).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from bot.engine import Code, Rejection
from bot.i18n import t
from bot.referee.service import Referee
from bot.ratings.seeding import seeding_line
from bot.render.standings import export_csv, points_text, standings_text
from bot.storage.rows import known
from bot.terminal.common import EXIT_OK, UsageError, _options, _refuse, _user
from bot.tournament.audit import audit_csv, audit_export
from bot.tournament.corrections import Undo, describe
from bot.tournament.director import FORMATS, Director, Progress
from bot.tournament.entry import describe as entry_line
from bot.tournament.stages import group_letter
from bot.tournament.trf import NotWritable, write_trf

EXPORTS = ("json", "csv", "trf")  # export's --format: the file's, beside new's tournament formats
VERBS = ("new", "list", "join", "leave", "bot", "start", "pair", "standings", "results", "adjust", "forfeit",
         "pause", "resume", "remove", "repair", "cancel", "export", "checkin", "bye", "swap", "forbid")


def add_parser(sub: Any, number: Callable[[int, int, str], Any], locale: str) -> None:
    s = sub.add_parser("tournament", help="tournaments: registration, rounds, standings (docs/tournaments.md)")
    s.add_argument("verb", choices=VERBS)
    s.add_argument("id", nargs="?", type=number(1, 2**63 - 1, locale), help="tournament number")
    s.add_argument("player", nargs="?", help="for remove, swap, forbid: the player's user id (as in results)")
    s.add_argument("other", nargs="?", help="for swap, forbid: the other player's user id")
    s.add_argument("--game", default="claygod", help="for new")
    s.add_argument("--format", choices=(*FORMATS, *EXPORTS),
                   help="for new: the tournament's format (default swiss); for export: json, csv or trf (default: "
                        "from --out's ending, else JSON)")
    s.add_argument("--title", help="for new")
    s.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="for new: a tournament setting (rounds, table_size, round_hours, expiry, late_entry, bye, "
                        "max_players, registration_hours, min_rating, max_rating, min_rated_games; two stages: "
                        "stage2, advance, groups …: docs/tournaments.md)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="for new: an option of every table")
    s.add_argument("--count", type=number(1, 1000, locale), default=1, help="for bot: how many")
    s.add_argument("--round", type=number(1, 1000, locale), help="for adjust")
    s.add_argument("--board", type=number(1, 10_000, locale), help="for adjust")
    s.add_argument("--points", action="append", metavar="USER=POINTS", help="for adjust, once per player")
    s.add_argument("--loser", action="append", metavar="USER", help="for forfeit: who forfeits (twice: both)")
    s.add_argument("--reason")
    s.add_argument("--confirm", action="store_true",
                   help="for adjust and forfeit: apply a bracket correction that undoes later games (without it: "
                        "a dry run listing them)")
    s.add_argument("--out", help="for export: a .json or .csv file (default: JSON on the screen)")
    s.add_argument("--public", action="store_true",
                   help="for export: the auditor's export, without user ids (docs/tournaments.md)")
    s.add_argument("--user", help="act as this terminal user (default: your login)")
    s.add_argument("--moderator", action="store_true", help="act as a moderator (the organiser's rights)")
    s.set_defaults(func=cmd_tournament)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")


async def _play(director: Director, tournament_id: int, progress: Progress) -> Progress:
    """Bot players move at the tables started, the results flow, until humans must act or the event ends."""
    total = progress
    while progress.tables:
        for table_id in progress.tables:
            await director.referee.drive_bots(table_id)
        progress = await director.sync(tournament_id)
        total.settled += progress.settled
        total.rounds += progress.rounds
        total.finished |= progress.finished
        total.next_stage = total.next_stage or progress.next_stage
    return total


async def cmd_tournament(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    user = _user(args)
    from bot.referee.upgrade import open_store
    store = await open_store(settings.database)
    director = Director(Referee(store))
    try:
        await director.referee.tick()  # the same clock as the bot's: move clocks, then results and deadlines
        await director.tick()
        verb = args.verb
        if args.format and (args.format in EXPORTS) != (verb == "export"):
            raise UsageError(t("tournament.term.format_for", locale, format=args.format))
        if verb == "new":
            chosen = _options(args.set, locale)
            if chosen.get("role"):  # the terminal cannot see a server's roles, so cannot hold anyone to one (T-23)
                raise UsageError(t("tournament.term.role_discord_only", locale))
            made = await director.create(args.game, args.format or "swiss", creator=user, settings=chosen,
                                         options=_options(args.option, locale), title=args.title,
                                         origin="terminal", locale=locale)
            if isinstance(made, Rejection):
                return _refuse(made, locale)
            _say(t("tournament.term.created", locale, tournament=made.id, game=t(f"{made.game}.title", locale),
                   format=t(f"tournament.format.{made.format}", locale)))
            if conditions := entry_line(made.settings, locale):
                _say(conditions)
            return EXIT_OK
        if verb == "list":
            for listed in await director.record.find(limit=1000):
                _say(t("tournament.term.row", locale, tournament=listed.id, title=listed.title or "—",
                       game=t(f"{listed.game}.title", locale), format=t(f"tournament.format.{listed.format}", locale),
                       status=t(f"tournament.status.{listed.status}", locale), round=listed.round))
            return EXIT_OK
        if args.id is None:
            raise UsageError(t("tournament.term.give_number", locale))
        tid = args.id
        # what the verb's call answers: a number, a bye's (asked, round), a check-in's True, progress, a correction
        result: float | tuple[bool, int] | Progress | Undo | Rejection
        if verb == "join":
            result = await director.join(tid, user, user.split(":", 1)[1])
        elif verb == "bot":
            result = 0
            for _ in range(args.count):
                have = len(await director.record.entries(tid))
                result = await director.join(tid, f"bot:t{tid}:{have + 1}", f"Bot {have + 1}", is_bot=True)
                if isinstance(result, Rejection):
                    break
        elif verb == "leave":
            result = await director.leave(tid, user, by=user)
        elif verb == "remove":
            if not args.player:
                raise UsageError(t("tournament.term.give_player", locale))
            result = await director.leave(tid, args.player, by=user, moderator=args.moderator, reason=args.reason)
        elif verb == "start":
            result = await director.start(tid, by=user, moderator=args.moderator)
        elif verb == "pair":
            result = await director.sync(tid)
            tour = await director.record.get(tid)
            if tour is not None and tour.status == "running":
                games = await director.record.games(tid, tour.round)
                result.tables += [g.table_id for g in games if g.table_id and not g.settled]
        elif verb == "repair":
            result = await director.repair(tid, by=user, moderator=args.moderator, reason=args.reason)
        elif verb == "cancel":
            result = await director.cancel(tid, by=user, moderator=args.moderator, reason=args.reason)
        elif verb == "adjust":
            if args.round is None or args.board is None or not args.points:
                raise UsageError(t("tournament.term.adjust_usage", locale))
            points = {}
            for pair in args.points:
                who, _, value = pair.rpartition("=")
                try:
                    points[who] = float(value)
                except ValueError:
                    raise UsageError(t("tournament.term.adjust_usage", locale)) from None
            result = await director.adjust(tid, args.round, args.board, points, by=user, moderator=args.moderator,
                                           reason=args.reason, confirm=args.confirm)
        elif verb == "forfeit":
            if args.round is None or args.board is None or not args.loser:
                raise UsageError(t("tournament.term.forfeit_usage", locale))
            result = await director.forfeit(tid, args.round, args.board, args.loser, by=user,
                                            moderator=args.moderator, reason=args.reason, confirm=args.confirm)
        elif verb == "checkin":  # the Discord button's path (cogs/attendance.py): no roles seen here
            result = await director.check_in(tid, user)
            if result is True:
                _say(t("tournament.discord.checked_in", locale, tournament=tid))
                return EXIT_OK
        elif verb == "bye":
            result = await director.request_bye(tid, user)
            if not isinstance(result, Rejection):
                asked, bye_round = result
                tour = known(await director.record.get(tid), f"tournament {tid}")
                bye_points = "½" if tour.settings.get("requested_bye", "draw") == "draw" else "0"
                _say(t("tournament.term.bye_asked" if asked else "tournament.discord.bye_taken_back", locale,
                       round=bye_round, points=bye_points))
                return EXIT_OK
        elif verb in ("swap", "forbid"):  # /pairing swap|forbid (cogs/organise.py)
            if not args.player or not args.other:
                raise UsageError(t("tournament.term.pair_usage", locale))
            edit = director.swap if verb == "swap" else director.forbid
            result = await edit(tid, args.player, args.other, by=user, reason=args.reason, moderator=args.moderator)
            if not isinstance(result, Rejection):
                tour = known(await director.record.get(tid), f"tournament {tid}")
                _say(t("tournament.discord.swapped" if verb == "swap" else "tournament.discord.forbidden", locale,
                       round=tour.round, first=args.player, second=args.other))
        elif verb in ("pause", "resume"):
            result = await director.pause_round(tid, by=user, moderator=args.moderator, reason=args.reason,
                                                resume=verb == "resume")
        elif verb in ("standings", "results", "export"):
            return await _show(director, tid, verb, args, locale)
        else:
            raise AssertionError(verb)
        if isinstance(result, Rejection):
            return _refuse(result, locale)
        if isinstance(result, Undo):
            names = {e.user_id: e.name for e in await director.record.entries(tid)}
            if not result.done:  # a dry run: what the correction would undo, and how to apply it
                for line in [*describe(result, names, locale), t("tournament.correction.term_hint", locale)]:
                    _say(line)
                return EXIT_OK
            _say(t("tournament.correction.done", locale, games=len(result.games), first=result.from_round))
            result = result.progress
        if isinstance(result, Progress) and result.kept_pairings:
            _say(t("tournament.correction.kept", locale, rounds=", ".join(map(str, result.kept_pairings))))
        if isinstance(result, Progress):
            result = await _play(director, tid, result)
            for number in result.rounds:
                _say(t("tournament.term.round_paired", locale, round=number))
                tour = await director.record.get(tid) if number == 1 else None
                seeded = seeding_line(tour.settings, {e.user_id: e.name for e in await director.record.entries(tid)},
                                      locale) if tour else None
                if seeded:
                    _say(seeded)
            _say(t("tournament.term.settled", locale, games=len(result.settled)))
            if result.finished:
                _say(t("tournament.term.finished", locale, tournament=tid))
            if result.next_stage is not None:  # T-24: the best went on into the second stage, started now
                await _second_stage(director, result.next_stage, locale)
        else:
            _say(t("tournament.term.done", locale))
        return EXIT_OK
    finally:
        await store.close()


async def _second_stage(director: Director, progress: Progress, locale: str) -> None:
    child = progress.tournament_id
    entries = await director.record.entries(child)
    _say(t("tournament.stage.next", locale, tournament=child, n=len(entries),
           players=", ".join(e.name for e in entries)))
    progress = await _play(director, child, progress)
    for number in progress.rounds:
        _say(t("tournament.term.round_paired", locale, round=number))
    if progress.finished:
        _say(t("tournament.term.finished", locale, tournament=child))


async def _show(director: Director, tid: int, verb: str, args: argparse.Namespace, locale: str) -> int:
    data = await director.export(tid)
    if isinstance(data, Rejection):
        return _refuse(data, locale)
    names = {s["user_id"]: s["name"] for s in data["standings"]}
    if verb == "standings":
        groups = await director.group_standings(tid)
        for number, rows in enumerate(groups, start=1):  # T-24: each group ranked inside it
            _say(t("tournament.stage.group", locale, group=group_letter(number)))
            _say(standings_text([r.as_dict() for r in rows], data["tournament"]["format"], locale))
        if not groups:
            _say(standings_text(data["standings"], data["tournament"]["format"], locale))
        link = await director.stages(tid)
        if "next" in link:
            _say(t("tournament.stage.of_next", locale, tournament=link["next"]))
        elif "first" in link:
            _say(t("tournament.stage.of_first", locale, tournament=link["first"]))
    elif verb == "results":
        for g in data["games"]:
            who = " — ".join(f"{names.get(p, p)} ({p})" for p in g["players"])
            score = " : ".join(points_text(g["points"][p]) for p in g["players"]) if g["points"] else "…"
            _say(t("tournament.term.game", locale, round=g["round"], board=g["board"], players=who, score=score,
                   table=g["table"] or "—", result=t(f"tournament.result.{g['result'] or 'playing'}", locale)))
    else:
        kind = args.format or ("csv" if args.out and args.out.endswith(".csv") else
                                  "trf" if args.out and args.out.endswith(".trf") else "json")
        if args.public or kind == "trf":  # the auditor's export: the TRF is written from it too
            data = await audit_export(director, tid)
            if isinstance(data, Rejection):
                return _refuse(data, locale)
        if kind == "trf":
            tour = known(await director.record.get(tid), f"tournament {tid}")  # the export above found it
            points = Director.points(tour)
            try:
                text = write_trf(data, win=points.win, draw=points.draw)
            except NotWritable:
                return _refuse(Rejection(Code.ILLEGAL, "tournament.term.trf_format",
                                         {"format": t(f"tournament.format.{tour.format}", locale)}), locale)
        elif kind == "csv":
            text = audit_csv(data) if args.public else export_csv(data)
        else:
            text = json.dumps(data, ensure_ascii=False, indent=1)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            _say(t("tournament.term.exported", locale, file=args.out))
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK
