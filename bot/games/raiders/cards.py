"""The deck format (data/raiders/decks/<set>.yaml) and its validation, the effect language of the шняги, and
the cards of a table (one set, or two mixed for a large table).

No printed card list is public (shared/notes/seed-games-data.md), so a set is a file: the house set ships with
the bot, a transcribed printed deck is another file beside it.  Validation reports every mistake at once, one
line each, naming the file, the card and the field, so a transcriber fixes a file in one pass.

A fighter card: id, suit, rank, krutizna, optional shnyaga {name, text (ru/uk/en), timing, effects | manual}.  A
card without krutizna is not a fighter («Боец – это карта из колоды бойцов, у которой есть крутизна»): it is a
шняга only, and its шняга is then required.
A property: id, name (ru/uk/en), kind, babki, krutizna, bonuses {count: babki} ("2 клуба = 6" is {2: 6}).
The effect language is documented in docs/games/raiders.md.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import yaml

from bot.engine.catalog import DATA_DIR, CatalogError

GAME = "raiders"
DECK_DIR = DATA_DIR / GAME / "decks"
SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_MARK = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
LOCALES = ("ru", "uk", "en")
#: when a шняга may be applied: any time a window is open, only in the player's own turn, only in a capture
TIMINGS = ("any", "own_turn", "capture")
#: which fighters on the board an effect may point at
TARGETS = ("fighter", "own_fighter", "enemy_fighter", "guard", "enemy_guard", "capture_fighter")
#: a fighter's printed крутизна, and what an effect may set it to («крутизна становится 1»)
KRUTIZNA_RANGE = (-20, 50)
#: the primitives: their parameters, and the targets each one accepts (None: it takes no target)
PRIMITIVES: dict[str, tuple[dict[str, tuple[int, int]], tuple[str, ...] | None]] = {
    "krutizna": ({"by": (-20, 20), "to": KRUTIZNA_RANGE}, TARGETS),
    "recall": ({}, ("own_fighter",)),
    "take": ({}, ("enemy_guard",)),
    "kill": ({}, TARGETS),
    "discard": ({"count": (1, 3)}, None),
    "draw": ({"count": (1, 3)}, None),
}
#: parameters of which a primitive takes exactly one: крутизна changes «by» (+2, −4) or becomes a value «to»
ONE_OF = {"krutizna": ("by", "to")}


@dataclass(frozen=True)
class Shnyaga:
    names: Mapping[str, str]
    texts: Mapping[str, str]
    timing: str
    effects: tuple[Mapping[str, Any], ...]
    manual: bool

    def name(self, locale: str) -> str:
        return self.names.get(locale) or self.names["ru"]

    def text(self, locale: str) -> str:
        return self.texts.get(locale) or self.texts["ru"]

    @property
    def targeted(self) -> Mapping[str, Any] | None:
        """The one effect that points at a fighter (a шняга has at most one), or None."""
        return next((e for e in self.effects if "target" in e), None)

    @property
    def cost(self) -> int:
        """Cards the player discards from hand to apply it (Кабан's «Сбросьте любую карту с руки»)."""
        return sum(e["count"] for e in self.effects if e["do"] == "discard")


@dataclass(frozen=True)
class Fighter:
    id: str
    suit: str
    rank: str
    krutizna: int | None  # None: a шняга-only card, not a fighter (it can neither capture nor guard)
    shnyaga: Shnyaga | None

    @property
    def is_fighter(self) -> bool:
        return self.krutizna is not None

    @property
    def played_shnyaga(self) -> Shnyaga:
        """The шняга of a card played, disputed or weighed as one (only cards with a шняга are offered so)."""
        if self.shnyaga is None:
            raise ValueError(f"{self.id} has no шняга")
        return self.shnyaga


@dataclass(frozen=True)
class Property:
    id: str
    names: Mapping[str, str]
    kind: str
    babki: int
    krutizna: int
    bonuses: Mapping[int, int]

    def name(self, locale: str) -> str:
        return self.names.get(locale) or self.names["ru"]


@dataclass(frozen=True)
class DeckSet:
    name: str
    titles: Mapping[str, str]
    house: bool
    fighters: tuple[Fighter, ...]
    properties: tuple[Property, ...]


# ------------------------------------------------------------------------------------------ validation
class _Problems:
    """Collects every mistake of one file, each naming the card and the field."""

    def __init__(self, where: str):
        self.where = where
        self.lines: list[str] = []

    def add(self, place: str, message: str) -> None:
        self.lines.append(f"{self.where}: {place}: {message}")


def _int(value: Any, lo: int, hi: int) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return f"expected a whole number, got {value!r}"
    if not lo <= value <= hi:
        return f"{value} is outside {lo}..{hi}"
    return None


def _texts(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"expected texts in {', '.join(LOCALES)}, got {value!r}"
    missing = [loc for loc in LOCALES if not isinstance(value.get(loc), str) or not value[loc].strip()]
    if missing:
        return f"missing the {', '.join(missing)} text"
    extra = sorted(set(value) - set(LOCALES))
    return f"unknown language {extra[0]!r}" if extra else None


def _unknown(raw: Mapping[str, Any], known: set[str]) -> list[str]:
    return sorted(str(k) for k in raw if k not in known)


def _check_effect(effect: Any, place: str, p: _Problems) -> None:
    if not isinstance(effect, dict) or effect.get("do") not in PRIMITIVES:
        got = effect.get("do") if isinstance(effect, dict) else effect
        p.add(place, f"unknown effect {got!r}; the effect language has {', '.join(PRIMITIVES)}")
        return
    params, targets = PRIMITIVES[effect["do"]]
    known = {"do", *params} | ({"target", "same_suit"} if targets else set())
    for field in _unknown(effect, known):
        p.add(f"{place}.{field}", f"{effect['do']} takes no {field!r}")
    alternatives = ONE_OF.get(effect["do"], ())
    given = [field for field in alternatives if field in effect]
    if alternatives and len(given) != 1:
        p.add(place, f"{effect['do']} needs exactly one of {', '.join(repr(f) for f in alternatives)}"
                     + (f", not {' and '.join(repr(f) for f in given)}" if given else ""))
    for field, (lo, hi) in params.items():
        if field in alternatives and field not in effect:
            continue
        problem = _int(effect.get(field), lo, hi) if field in effect else f"{effect['do']} needs {field!r}"
        if problem:
            p.add(f"{place}.{field}", problem)
    if targets:
        if effect.get("target") not in targets:
            p.add(f"{place}.target", f"{effect.get('target')!r} is not one of {', '.join(targets)}")
        if "same_suit" in effect and not isinstance(effect["same_suit"], bool):
            p.add(f"{place}.same_suit", f"expected true or false, got {effect['same_suit']!r}")


def _check_shnyaga(raw: Any, place: str, p: _Problems) -> None:
    if not isinstance(raw, dict):
        p.add(place, f"expected a шняга (name, text, timing, effects or manual), got {raw!r}")
        return
    for field in _unknown(raw, {"name", "text", "timing", "effects", "manual"}):
        p.add(f"{place}.{field}", "unknown field")
    for field in ("name", "text"):
        problem = _texts(raw.get(field))
        if problem:
            p.add(f"{place}.{field}", problem)
    if raw.get("timing") not in TIMINGS:
        p.add(f"{place}.timing", f"{raw.get('timing')!r} is not one of {', '.join(TIMINGS)}")
    manual = raw.get("manual", False)
    if not isinstance(manual, bool):
        p.add(f"{place}.manual", f"expected true or false, got {manual!r}")
    effects = raw.get("effects")
    if manual:
        if effects is not None:
            p.add(f"{place}.effects", "a manual шняга states its outcome at the table; it has no effects")
        return
    if not isinstance(effects, list) or not effects:
        p.add(f"{place}.effects", "a шняга needs a list of effects, or manual: true")
        return
    for i, effect in enumerate(effects):
        _check_effect(effect, f"{place}.effects[{i}]", p)
    good = [e for e in effects if isinstance(e, dict)]
    if sum("target" in e for e in good) > 1:
        p.add(f"{place}.effects", "at most one effect may point at a fighter")
    if good and all(e.get("do") == "discard" for e in good):
        p.add(f"{place}.effects", "a шняга that only discards is not allowed (the book forbids playing for discard)")


def _check_fighter(raw: Any, i: int, p: _Problems) -> None:
    place = f"fighters[{i}]" + (f" (id {raw.get('id')!r})" if isinstance(raw, dict) and "id" in raw else "")
    if not isinstance(raw, dict):
        p.add(place, f"expected a fighter card, got {raw!r}")
        return
    for field in _unknown(raw, {"id", "suit", "rank", "krutizna", "shnyaga"}):
        p.add(f"{place}.{field}", "unknown field")
    if not isinstance(raw.get("id"), str) or not raw.get("id"):
        p.add(f"{place}.id", "every card needs a text id")
    if raw.get("suit") not in SUITS:
        p.add(f"{place}.suit", f"{raw.get('suit')!r} is not one of {', '.join(SUITS)}")
    if str(raw.get("rank")) not in RANKS:
        p.add(f"{place}.rank", f"{raw.get('rank')!r} is not one of {', '.join(RANKS)}")
    if raw.get("krutizna") is not None:
        problem = _int(raw["krutizna"], *KRUTIZNA_RANGE)
        if problem:
            p.add(f"{place}.krutizna", problem)
    elif raw.get("shnyaga") is None:
        p.add(f"{place}.krutizna", "missing: a card without крутизна is a шняга only, so it needs a shnyaga")
    if "shnyaga" in raw and raw["shnyaga"] is not None:
        _check_shnyaga(raw["shnyaga"], f"{place}.shnyaga", p)


def _check_property(raw: Any, i: int, p: _Problems) -> None:
    place = f"properties[{i}]" + (f" (id {raw.get('id')!r})" if isinstance(raw, dict) and "id" in raw else "")
    if not isinstance(raw, dict):
        p.add(place, f"expected a property card, got {raw!r}")
        return
    for field in _unknown(raw, {"id", "name", "kind", "babki", "krutizna", "bonuses"}):
        p.add(f"{place}.{field}", "unknown field")
    if not isinstance(raw.get("id"), str) or not raw.get("id"):
        p.add(f"{place}.id", "every card needs a text id")
    problem = _texts(raw.get("name"))
    if problem:
        p.add(f"{place}.name", problem)
    if not isinstance(raw.get("kind"), str) or not raw.get("kind"):
        p.add(f"{place}.kind", "every property needs a kind (properties of one kind earn the bonus together)")
    for field, lo, hi in (("babki", 0, 100), ("krutizna", -20, 50)):
        problem = _int(raw.get(field), lo, hi) if field in raw else "missing"
        if problem:
            p.add(f"{place}.{field}", problem)
    bonuses = raw.get("bonuses", {})
    if not isinstance(bonuses, dict):
        p.add(f"{place}.bonuses", f"expected a table such as {{2: 6}} (two of this kind bring 6), got {bonuses!r}")
        return
    for count, value in bonuses.items():
        if _int(count, 2, 20):
            p.add(f"{place}.bonuses", f"count {count!r} must be a whole number 2..20")
        elif problem := _int(value, 0, 500):
            p.add(f"{place}.bonuses.{count}", problem)


def _check_set(raw: Any, p: _Problems) -> None:
    if not isinstance(raw, dict):
        p.add("$", "expected a mapping with title, fighters and properties")
        return
    for field in _unknown(raw, {"title", "house", "fighters", "properties"}):
        p.add(field, "unknown field")
    problem = _texts(raw.get("title"))
    if problem:
        p.add("title", problem)
    if "house" in raw and not isinstance(raw["house"], bool):
        p.add("house", f"expected true or false, got {raw['house']!r}")
    for key, check, least in (("fighters", _check_fighter, 12), ("properties", _check_property, 6)):
        cards = raw.get(key)
        if not isinstance(cards, list) or len(cards) < least:
            p.add(key, f"expected a list of at least {least} cards")
            continue
        for i, card in enumerate(cards):
            check(card, i, p)
    ids = [c.get("id") for key in ("fighters", "properties") for c in raw.get(key) or [] if isinstance(c, dict)]
    for dup in sorted({i for i in ids if isinstance(i, str) and ids.count(i) > 1}):
        p.add(f"id {dup!r}", "used by more than one card")
    kinds: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for i, card in enumerate(raw.get("properties") or []):
        if isinstance(card, dict) and isinstance(card.get("kind"), str) and isinstance(card.get("bonuses", {}), dict):
            kinds.setdefault(card["kind"], []).append((i, card))
    for kind, members in kinds.items():
        tables = [repr(c.get("bonuses", {})) for _, c in members]
        usual = max(set(tables), key=tables.count)  # the odd card out is the mistake, not the others
        for (i, card), table in zip(members, tables):
            if table != usual:
                p.add(f"properties[{i}] (id {card.get('id')!r}).bonuses",
                      f"differs from the other {kind!r} cards' bonuses {usual}")


def _read(path: Path) -> tuple[Any, list[str]]:
    """The parsed file and every mistake in it, one line each (empty when the file is good)."""
    where = str(path.relative_to(DATA_DIR.parent)) if path.is_relative_to(DATA_DIR.parent) else str(path)
    p = _Problems(where)
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except FileNotFoundError:
        return None, [f"{where}: file not found"]
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        return None, [f"{where}: not valid YAML: {exc}"]
    _check_set(raw, p)
    return raw, p.lines


def problems(path: Path) -> list[str]:
    """Every mistake in a deck file, one line each (empty when the file is good)."""
    return _read(path)[1]


# ------------------------------------------------------------------------------------------ loading
def _shnyaga(raw: Mapping[str, Any] | None) -> Shnyaga | None:
    if not raw:
        return None
    return Shnyaga(dict(raw["name"]), dict(raw["text"]), raw["timing"], tuple(raw.get("effects") or ()),
                   bool(raw.get("manual", False)))


def load_set(path: Path) -> DeckSet:
    """A validated deck set; CatalogError listing every mistake otherwise."""
    raw, found = _read(path)
    if found:
        raise CatalogError("\n".join(found))
    fighters = tuple(Fighter(f["id"], f["suit"], str(f["rank"]), f.get("krutizna"), _shnyaga(f.get("shnyaga")))
                     for f in raw["fighters"])
    properties = tuple(Property(c["id"], dict(c["name"]), c["kind"], c["babki"], c["krutizna"],
                                {int(k): v for k, v in (c.get("bonuses") or {}).items()}) for c in raw["properties"])
    return DeckSet(path.stem, dict(raw["title"]), bool(raw.get("house", False)), fighters, properties)


def shipped_names() -> tuple[str, ...]:
    """The deck sets shipped in data/raiders/decks, the house set first."""
    names = sorted(p.stem for p in DECK_DIR.glob("*.yaml"))
    return tuple(sorted(names, key=lambda n: n != "house"))


def set_names() -> tuple[str, ...]:
    """The table option's choices: the shipped sets, then any deck file a scenario brought (``use_file``)."""
    return shipped_names() + tuple(_FILES)


#: deck files a scenario brought, by name (this process only: a bot's tables choose among the shipped sets)
_FILES: dict[str, DeckSet] = {}
#: a deck file's name: the file's stem, usable in a card id ``<name>:<id>``
_FILE_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def use_file(path: Path) -> str:
    """Load a deck file of one's own (a scenario's ``deck_file``), validated like a shipped one, and make it a
    choice of the ``deck`` option under its file stem; returns that name.  CatalogError lists every mistake,
    and refuses a stem that is a shipped set's name or cannot be part of a card id."""
    path = Path(path)
    name = path.stem
    if not _FILE_NAME.fullmatch(name):
        raise CatalogError(f"{path}: a deck file's name (without .yaml) is 1..40 letters, digits, '-' or '_', "
                           f"since card ids are <name>:<id>; not {name!r}")
    if name in shipped_names():
        raise CatalogError(f"{path}: {name!r} is the name of a shipped deck set; rename the file")
    loaded = load_set(path)
    if _FILES.get(name) != loaded:
        _FILES[name] = loaded
        deck_set.cache_clear()
        table_cards.cache_clear()
    return name


def forget_files() -> None:
    """Every deck file ``use_file`` loaded forgotten: the option's choices are the shipped sets again."""
    if _FILES:
        _FILES.clear()
        deck_set.cache_clear()
        table_cards.cache_clear()


@lru_cache(maxsize=None)
def deck_set(name: str) -> DeckSet:
    if name in _FILES:
        return _FILES[name]
    return load_set(DECK_DIR / f"{name}.yaml")


# ------------------------------------------------------------------------------------------ a table's cards
SECOND = "~2"  # the suffix of the second copy's ids when two sets are mixed


@dataclass(frozen=True)
class Cards:
    """The cards of one table by id: one set, or the same set twice (ids of the second copy end in ``~2``)."""

    fighters: Mapping[str, Fighter]
    properties: Mapping[str, Property]


@lru_cache(maxsize=None)
def table_cards(name: str, copies: int) -> Cards:
    """A table's cards by id: ``<set>:<card id>``, so that a card id names its set wherever it is shown."""
    s = deck_set(name)
    suffixes = ["", SECOND][:copies]
    return Cards({f"{name}:{f.id}{x}": f for x in suffixes for f in s.fighters},
                 {f"{name}:{c.id}{x}": c for x in suffixes for c in s.properties})


def lookup(card: str) -> Fighter:
    """A fighter by its table id alone (events carry ids, not the table)."""
    return table_cards(card.split(":", 1)[0], 2).fighters[card]


def lookup_prop(card: str) -> Property:
    return table_cards(card.split(":", 1)[0], 2).properties[card]


def cards_of(state: Mapping[str, Any]) -> Cards:
    return table_cards(state["deck_set"], state["copies"])


def fighter(state: Mapping[str, Any], card: str) -> Fighter:
    return cards_of(state).fighters[card]


def prop(state: Mapping[str, Any], card: str) -> Property:
    return cards_of(state).properties[card]


def main(argv: list[str]) -> int:
    """``python -m bot.games.raiders.cards FILE...``: every mistake in each deck file, one per line."""
    if not argv:
        print("usage: python -m bot.games.raiders.cards FILE...", file=sys.stderr)
        return 2
    bad = 0
    for name in argv:
        found = problems(Path(name).resolve())
        bad += bool(found)
        print("\n".join(found) if found else f"{name}: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
