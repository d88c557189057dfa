"""The Bloodwood catalogue (data/bloodwood/cards.yaml): cards, roles and rule constants, validated on load."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from bot.engine.catalog import CatalogError, IntRange, MapOf, OneOf, Record, load_data

GAME = "bloodwood"
DECKS = ("day", "night")
TEAMS = ("vampires", "werewolves")
KINDS = ("vaccine", "candle", "keys", "pandora", "thief", "blood_test", "confession", "amulet", "eclipse",
         "time_loop", "bite", "curse_mark", "chains", "tranquilizer", "voodoo", "leshy", "hunter", "mirror")
#: night cards that attack one chosen player: the only cards Mirror and Amulet answer (§6.8, §7.8)
ATTACKS = ("bite", "curse_mark", "chains", "tranquilizer", "voodoo")
COUNTERS = ("mirror", "amulet")
SPECIALS = ("eclipse", "time_loop")

_CARD = Record(required={
    "name": str, "deck": OneOf(*DECKS), "copies": IntRange(1, 68), "kind": OneOf(*KINDS),
    "phase": OneOf("day", "night", "any", "never"), "target": OneOf("none", "other", "any"), "rule": str,
})
_ROLE = Record(required={"name": str, "team": OneOf(*TEAMS), "leader": bool})
_RULES = Record(required={
    "min_seats": IntRange(2, 20), "max_seats": IntRange(2, 20), "hand_size": IntRange(1, 10),
    "deal_day": IntRange(0, 10), "deal_night": IntRange(0, 10), "curse_turns": IntRange(1, 10),
    "leshy_discards": IntRange(1, 10), "keep_limit": IntRange(1, 10), "pandora_draws": IntRange(1, 10),
    "special_draws": IntRange(0, 10),
})


def check_catalogue(data: Any) -> str | None:
    """Cross-checks the schema cannot express: deck sizes, ids, phases, the two teams."""
    cards = data["cards"]
    for deck, size in data["decks"].items():
        total = sum(c["copies"] for c in cards.values() if c["deck"] == deck)
        if total != size:
            return f"the {deck} deck has {total} cards, not {size}"
    for cid, c in cards.items():
        if c["kind"] not in SPECIALS and cid != c["kind"]:
            return f"card {cid}: only special cards may have an id other than their kind"
        if (c["kind"] in SPECIALS) != (c["phase"] == "any"):
            return f"card {cid}: exactly the special cards are played in any phase"
        if (c["kind"] in COUNTERS) != (c["phase"] == "never"):
            return f"card {cid}: exactly the counter cards are never played on one's own turn"
        if c["phase"] in DECKS and c["phase"] != c["deck"]:
            return f"card {cid}: a {c['deck']} card cannot be played in the {c['phase']} phase"
    missing = set(KINDS) - {c["kind"] for c in cards.values()}
    if missing:
        return f"no card of kind {sorted(missing)[0]}"
    for team in TEAMS:
        members = [r for r in data["roles"].values() if r["team"] == team]
        if sorted(r["leader"] for r in members) != [False, True]:
            return f"team {team} needs one plain role and one leader"
    return None


SCHEMA = Record(required={
    "decks": Record(required={"day": IntRange(1, 200), "night": IntRange(1, 200)}),
    "cards": MapOf(_CARD), "roles": MapOf(_ROLE), "rules": _RULES,
})


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str
    copies: int
    kind: str
    phase: str
    target: str
    rule: str


@dataclass(frozen=True)
class Catalogue:
    cards: dict[str, Card]
    roles: dict[str, dict[str, Any]]
    rules: dict[str, int]
    #: card id -> its deck, which is also the back everyone sees (looked up very often)
    backs: dict[str, str]

    def deck_list(self, deck: str) -> list[str]:
        """Every card of a deck, one entry per copy, in catalogue order (before shuffling)."""
        return [c.id for c in self.cards.values() if c.deck == deck for _ in range(c.copies)]

    def role_name(self, role: str) -> str:
        return cast("str", self.roles[role]["name"])

    def team(self, role: str) -> str:
        return cast("str", self.roles[role]["team"])

    def is_leader(self, role: str) -> bool:
        return bool(self.roles[role]["leader"])

    def role_of(self, team: str, leader: bool) -> str:
        return next(r for r, info in self.roles.items() if info["team"] == team and info["leader"] == leader)


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    data = load_data(GAME, "cards.yaml", SCHEMA)
    problem = check_catalogue(data)
    if problem:
        raise CatalogError(f"data/{GAME}/cards.yaml: {problem}")
    cards = {cid: Card(id=cid, **info) for cid, info in data["cards"].items()}
    return Catalogue(cards=cards, roles=dict(data["roles"]), rules=dict(data["rules"]),
                     backs={cid: c.deck for cid, c in cards.items()})


def card(cid: str) -> Card:
    return catalogue().cards[cid]


def kind(cid: str) -> str:
    return catalogue().cards[cid].kind


def name(cid: str) -> str:
    """The printed name of a card (the same in every language)."""
    return catalogue().cards[cid].name


def kind_name(what: str) -> str:
    """The printed name of a kind of card (Eclipse and Time Loop have a card in each deck)."""
    return next(c.name for c in catalogue().cards.values() if c.kind == what)


def rule(key: str) -> int:
    """A number of the rules (hand size, Curse Mark turns, …) from the data file."""
    return catalogue().rules[key]
