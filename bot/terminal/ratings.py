"""``python -m bot ratings …``: the terminal's ratings (its own "server": tables without a Discord server).

    show [--user U] [--game G]          a profile (your own by default)
    leaderboard --game G [--page N]     the game's leaderboard
    rebuild                             recompute every rating from the record and compare with the stored ones
    hide / unhide [--user U]            hide your profile from others (and yourself from leaderboards)
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

from bot.i18n import t
from bot.ratings.outcomes import listed_games, rated_games, statistics_only
from bot.ratings.ratings import Ratings
from bot.ratings.render import board_text, game_name, profile_text
from bot.storage.store import Store
from bot.terminal.common import EXIT_OK, UsageError, _user

VERBS = ("show", "leaderboard", "rebuild", "hide", "unhide")
TERMINAL_SCOPE = ""


def add_parser(sub: Any, number: Callable[[int, int, str], Any], locale: str) -> None:
    s = sub.add_parser("ratings", help="ratings, profiles and leaderboards (docs/ratings.md)")
    s.add_argument("verb", choices=VERBS)
    s.add_argument("--game", help="for show: one game; for leaderboard: the game")
    s.add_argument("--page", type=number(1, 100_000, locale), default=1, help="for leaderboard")
    s.add_argument("--user", help="whose profile, or who hides theirs (default: your login)")
    s.add_argument("--server", default=TERMINAL_SCOPE, help="a Discord server's id (default: the terminal's tables)")
    s.set_defaults(func=cmd_ratings)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")


async def cmd_ratings(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    games = list(listed_games())
    if args.game is not None and args.game not in games:
        raise UsageError(t("ratings.unknown_game", locale, game=args.game[:40], games=", ".join(games)))
    store = await Store.open(settings.database)
    ratings = Ratings(store)
    try:
        user = _user(args)
        if args.verb == "rebuild":
            began = time.perf_counter()
            rows, differ, most = await ratings.rebuild()
            took = time.perf_counter() - began
            tables = await ratings.finished_tables()
            _say(t("ratings.rebuilt", locale, tables=tables, rows=rows,
                   same=t("ratings.yes" if differ == 0 else "ratings.no", locale))
                 + f" ({took:.2f} s)")
            if differ:
                _say(t("ratings.rebuilt_differ", locale, differ=differ, most=f"{most:.3g}"))
            return EXIT_OK
        if args.verb in ("hide", "unhide"):
            await ratings.set_hidden(user, args.verb == "hide")
            _say(t("ratings.visibility_set." + ("hidden" if args.verb == "hide" else "shown"), locale))
            return EXIT_OK
        if args.verb == "leaderboard":
            game = args.game or rated_games()[0]
            if game in statistics_only():
                _say(t("ratings.board.unrated", locale, game=game_name(game, locale)))
                return EXIT_OK
            board = await ratings.leaderboard(args.server, game, args.page)
            names = await ratings.names([r.user_id for r in board.rows])
            _say(board_text(board, names, locale))
            return EXIT_OK
        profile = await ratings.profile(args.server, user, args.game)
        name = profile.name or user.split(":", 1)[-1]
        _say(profile_text(profile, name, locale, own=True))
        return EXIT_OK
    finally:
        await store.close()
