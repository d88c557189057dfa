"""The rulings' translations (data/rules/rulings/<game>.yaml): which are missing or made from an older English
text, and the English of those, with the fingerprint a new translation must carry.

    python scripts/ruling_translations.py [GAME ...]          # what is missing or stale, per game
    python scripts/ruling_translations.py --english GAME      # the English to translate, as YAML

A translation carries ``source:``, the fingerprint of the English ruling it was made from (bot/rules/catalogue.py
``Entry.fingerprint``): when docs/rulings/<game>.md changes a ruling, its translation reads stale here, the
ruling is shown in English with a note, and tests/rules/test_catalogue.py fails until it is translated again.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.catalogue import GAMES, PARTS, RULINGS, parse_rulings, translations  # noqa: E402


def english(game: str) -> list:
    return parse_rulings(game, (RULINGS / f"{game}.md").read_text(encoding="utf-8"))


def behind(game: str) -> list[str]:
    """The ruling ids whose translation is missing or was made from other English."""
    found = translations(game)
    return [e.cite for e in english(game) if found.get(e.cite, {}).get("source") != e.fingerprint]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"one of {', '.join(GAMES)} (all without)")
    parser.add_argument("--english", action="store_true", help="print the English of what is behind, as YAML")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    games = args.games or list(GAMES)
    late = 0
    for game in games:
        ids = behind(game)
        late += len(ids)
        if args.english:
            out = {e.cite: {"source": e.fingerprint, "en": {"title": e.title["en"],
                                                             **{p: getattr(e, p) for p in PARTS if getattr(e, p)}}}
                   for e in english(game) if e.cite in ids}
            print(yaml.safe_dump(out, allow_unicode=True, sort_keys=False, width=120))
        else:
            print(f"{game}: {len(english(game)) - len(ids)} translated, {len(ids)} missing or stale"
                  + (f": {', '.join(ids)}" if ids else ""))
    return 1 if late and not args.english else 0


if __name__ == "__main__":
    sys.exit(main())
