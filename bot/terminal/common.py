"""What every terminal command family shares: exit codes, the usage error, reading --option pairs and the
terminal user, refusing with a localised line, opening the store, and the argparse types for numbers and
texts.  (The helpers keep the names they had when every command lived in one module.)"""
from __future__ import annotations

import argparse
import getpass
import re
import shlex
import sys
from typing import Any, Sequence

import yaml

from bot.engine import Reject, Rejection, get_game
from bot.i18n import t
from bot.process.config import Settings
from bot.engine.free_text import clean_name
from bot.referee.service import Referee
from bot.referee.upgrade import open_store
from bot.rules import GAMES as RULE_GAMES, catalogue as rules_catalogue, find_cites
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
            # YAML 1.1 reads off/on as false/true, but they are also words some settings take (dispute_window=off,
            # clock_remind=off): kept as text, and a yes/no option takes off/on as words too (Option.coerce)
            parsed = value.strip() if value.strip().lower() in ("off", "on") else yaml.safe_load(value)
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
    count = seats if seats is not None else game.demo_seat_count()
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


def _cited_game(rejection: Rejection, game: str | None) -> str | None:
    """The game whose rules a refusal cites: the table's, else its key's (``gwent.reject.…``), else the game whose
    rulings carry the id (``CG-14``)."""
    head = rejection.key.split(".", 1)[0]
    if game in RULE_GAMES or head in RULE_GAMES:
        return game if game in RULE_GAMES else head
    for name in RULE_GAMES:
        entry = rules_catalogue(name).find(rejection.rule or "")
        if entry is not None and entry.source == "ruling":
            return name
    return None


def _shell_word(word: str) -> str:
    """``§9`` and ``CG-14`` as they are; «Захват мира» quoted for the shell."""
    return shlex.quote(word) if re.search(r"[\s'\"$`\\|&;<>()*?!#~]", word) else word


def refusal_text(rejection: Rejection, locale: str, game: str | None = None) -> str:
    """A refusal, and for each rule it cites the command that opens it (the terminal's "Why?" button):
    ``(см. §9)`` alone leads nowhere."""
    text = rejection.message(locale)
    cited = _cited_game(rejection, game) if rejection.rule else None
    if cited is not None:
        for entry in find_cites(cited, text):
            text += "\n  " + t("rules.term.open", locale, cite=entry.cite,
                                command=f"python -m bot rules {cited} {_shell_word(entry.cite)}")
    return text


def _refuse(rejection: Rejection, locale: str, game: str | None = None) -> int:
    sys.stderr.write("✗ " + refusal_text(rejection, locale, game) + "\n")
    return EXIT_FAILED


async def _open(settings: Settings) -> tuple[Store, Referee]:
    store = await open_store(settings.database)  # open tables brought to this release's rules
    return store, Referee(store)


def _number(low: int, high: int, locale: str):
    """An argparse type: a whole number in [low, high], refused with a localised message otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(t("core.cli.not_a_number", locale, text=clean_name(text, limit=30))) \
                from None
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
