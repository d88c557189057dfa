"""``python -m bot rules GAME [CITATION | WORD ...] [--full]``: a game's rules at the terminal, as ``/rules``
shows them in Discord — the guide by section, any citation the referee prints (``§1.6``, ``Козыри``, ``CG-14``)
with its rule or ruling, or the entries a word is found in.  An unknown citation is answered with the nearest
ones and exit status 1."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from bot.i18n import LOCALES
from bot.rules import GAMES


def add_parser(sub: Any, number: Callable[[int, int, str], Any], locale: str) -> None:
    s = sub.add_parser("rules", help="a game's rules by section, a citation (§1.6, CG-14, Захват) or a word")
    s.add_argument("game", choices=GAMES)
    s.add_argument("query", nargs="*", help="a citation the referee prints, or words to look for")
    # also after the command (``rules claygod §6 --locale en``); suppressed when absent, so that the top-level
    # --locale given before the command still counts
    s.add_argument("--locale", choices=LOCALES, default=argparse.SUPPRESS, help="language of the output")
    s.add_argument("--full", action="store_true", help="the guide with every paragraph's text and every ruling")
    s.set_defaults(func=cmd_rules)


async def cmd_rules(args: argparse.Namespace, settings: Any) -> int:
    from bot.rules import catalogue, lookup
    from bot.rules.text import guide_text, lookup_text
    from bot.terminal.common import EXIT_FAILED, EXIT_OK
    from bot.web.links import base_url

    locale = args.locale or settings.locale
    query = " ".join(args.query).strip()
    if not query:
        sys.stdout.write(guide_text(catalogue(args.game), locale, full=args.full) + "\n")
        return EXIT_OK
    found = lookup(args.game, query)
    # the Markdown bold Discord shows as such reads as asterisks at a terminal
    sys.stdout.write(lookup_text(found, locale, base_url=base_url(settings)).replace("**", "") + "\n")
    return EXIT_OK if found.entry is not None or found.matches else EXIT_FAILED
