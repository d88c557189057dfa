"""The card catalogue: cards, leaders, variant constants and preset decks, loaded from data/gwent/ and
validated on load (schema plus cross-checks such as muster groups and preset legality)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from bot.engine.catalog import CatalogError, IntRange, ListOf, MapOf, OneOf, Record, load_data

GAME = "gwent"
ROWS = ("melee", "ranged", "siege")
FACTIONS = ("nilfgaard", "northern_realms", "scoiatael", "monsters", "skellige")
VARIANTS = ("standard", "hardgwent")
ABILITIES = ("tight_bond", "morale_boost", "spy", "medic", "muster", "agile", "scorch_row", "horn", "scorch",
             "mardroeme", "berserker", "avenger")
EFFECTS = ("decoy", "horn", "scorch", "mardroeme", "faction_card", "frost", "fog", "rain", "storm", "clear")
WEATHER = ("frost", "fog", "rain", "storm", "clear")
#: the rows each weather hits
WEATHER_ROWS = {"frost": ("melee",), "fog": ("ranged",), "rain": ("siege",), "storm": ("ranged", "siege"),
                "clear": ()}
LEADER_ABILITIES = ("weather", "reveal_hand", "white_flame", "take_from_discard", "leader_horn", "row_scorch",
                    "enemy_scorch", "extra_card", "draw", "agile_moves", "exchange_for_deck_card", "revive",
                    "double_spies", "weaken_horn", "discards_to_decks", "horn_any_row", "half_weather")

_CARD_SCHEMA = Record(
    required={"id": str, "name_en": str, "name_ru": str, "faction": OneOf(*FACTIONS, "neutral", "special"),
              "type": OneOf("unit", "hero", "special", "weather")},
    optional={"name_ru_source": str, "strength": IntRange(0, 20), "rows": ListOf(OneOf(*ROWS), 1, 2),
              "abilities": ListOf(OneOf(*ABILITIES), 1), "effect": OneOf(*EFFECTS), "musters": str, "group": str,
              "summons": str, "transforms_to": str, "token": bool, "copies": IntRange(1, 20),
              "forum_change": str, "expansion": str, "house_rule": OneOf("cow")},
)
_LEADER_VARIANT = Record(
    required={"ability": OneOf(*LEADER_ABILITIES)},
    optional={"passive": bool, "kind": OneOf(*WEATHER, "choice"), "count": IntRange(1, 10), "row": OneOf(*ROWS),
              "pile": OneOf("own", "enemy"), "piles": ListOf(OneOf("own", "enemy"), 1), "heroes": bool,
              "discard": IntRange(1, 5), "pile_choice": bool, "no_summon": bool},
)
_LEADER_SCHEMA = Record(
    required={"id": str, "faction": OneOf(*FACTIONS), "name_ru": str, "name_en": str},
    optional={"standard": _LEADER_VARIANT, "hardgwent": _LEADER_VARIANT, "forum_change": str,
              "name_ru_source": str},
)
_VARIANT_SCHEMA = Record(
    required={"hand": IntRange(1, 40), "mulligans": IntRange(0, 10), "spy_draw": IntRange(0, 5),
              "row_scorch_min": IntRange(0, 100), "cards_per_turn": IntRange(1, 2),
              "leaders_per_game": IntRange(1, 5)},
    optional={"min_units": IntRange(0, 60), "max_specials": IntRange(0, 60), "row_scorch_cap_unit": IntRange(1, 20),
              "row_scorch_cap_leader": IntRange(1, 20), "bond_scorch_half": bool},
)


@dataclass(frozen=True)
class Card:
    id: str
    name_ru: str
    name_en: str
    faction: str
    type: str
    strength: int
    rows: tuple[str, ...]
    abilities: frozenset[str]
    effect: str | None
    musters: str | None
    group: str | None
    summons: str | None
    transforms_to: str | None
    token: bool
    copies: int
    house_rule: str | None

    @property
    def is_unit(self) -> bool:
        return self.type in ("unit", "hero")

    @property
    def is_hero(self) -> bool:
        return self.type == "hero"

    @property
    def agile(self) -> bool:
        return "agile" in self.abilities

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def name(self, locale: str) -> str:
        # Ukrainian players use the Russian card names: the game had no Ukrainian localisation (ruling GW-3).
        return self.name_en if locale == "en" else self.name_ru


@dataclass(frozen=True)
class Leader:
    id: str
    faction: str
    name_ru: str
    name_en: str
    by_variant: Mapping[str, Mapping[str, Any]]

    def rule(self, variant: str) -> Mapping[str, Any] | None:
        return self.by_variant.get(variant)

    def name(self, locale: str) -> str:
        return self.name_en if locale == "en" else self.name_ru


@dataclass(frozen=True)
class Catalogue:
    cards: Mapping[str, Card]
    leaders: Mapping[str, Leader]
    variants: Mapping[str, Mapping[str, Any]]
    presets: Mapping[str, Mapping[str, Any]]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def faction_card(self, faction: str) -> str:
        return f"faction_card_{faction}"

    def deck_pool(self, faction: str, options: Mapping[str, Any]) -> dict[str, int]:
        """Every card a deck of ``faction`` may hold, with its number of copies: the faction's own cards
        (faction card included), the neutral cards and the special cards (ruling GW-1)."""
        pool = {}
        for card in self.cards.values():
            if card.token or card.faction not in (faction, "neutral", "special"):
                continue
            if card.house_rule and not options.get(card.house_rule):
                continue
            pool[card.id] = card.copies
        return pool

    def leaders_of(self, faction: str, variant: str) -> list[str]:
        return [lid for lid, ld in self.leaders.items() if ld.faction == faction and ld.rule(variant)]

    def muster_group(self, group: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.group == group]


def deck_problem(cat: Catalogue, faction: str, deck: Mapping[str, int], variant: str,
                 options: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Why a hand-built standard deck is not legal (an i18n key and its parameters), or None."""
    pool = cat.deck_pool(faction, options)
    for card_id, n in deck.items():
        if card_id not in pool:
            return "gwent.reject.not_in_pool", {"card": card_id}
        if n > pool[card_id]:
            return "gwent.reject.too_many_copies", {"card": card_id, "n": pool[card_id]}
    rules = cat.variants[variant]
    units = sum(n for cid, n in deck.items() if cat.card(cid).is_unit)
    specials = sum(n for cid, n in deck.items() if not cat.card(cid).is_unit)
    if units < rules["min_units"]:
        return "gwent.reject.deck_units", {"n": units, "min": rules["min_units"]}
    if specials > rules["max_specials"]:
        return "gwent.reject.deck_specials", {"n": specials, "max": rules["max_specials"]}
    return None


def _card(raw: Mapping[str, Any]) -> Card:
    return Card(
        id=raw["id"], name_ru=raw["name_ru"], name_en=raw["name_en"], faction=raw["faction"], type=raw["type"],
        strength=raw.get("strength", 0), rows=tuple(raw.get("rows", ())),
        abilities=frozenset(raw.get("abilities", ())), effect=raw.get("effect"), musters=raw.get("musters"),
        group=raw.get("group"), summons=raw.get("summons"), transforms_to=raw.get("transforms_to"),
        token=raw.get("token", False), copies=raw.get("copies", 0), house_rule=raw.get("house_rule"),
    )


def _check_cards(raw: list[dict[str, Any]]) -> str | None:
    ids = [c["id"] for c in raw]
    if len(set(ids)) != len(ids):
        return "duplicate card id"
    known = set(ids)
    for c in raw:
        unit = c["type"] in ("unit", "hero")
        if unit != ("strength" in c and "rows" in c):
            return f"{c['id']}: units need strength and rows, specials have neither"
        if not unit and "effect" not in c:
            return f"{c['id']}: a special card needs an effect"
        if c.get("token") == ("copies" in c):
            return f"{c['id']}: a card has copies unless it is a token"
        for ref in ("summons", "transforms_to"):
            if ref in c and c[ref] not in known:
                return f"{c['id']}: {ref} names unknown card {c[ref]!r}"
        if ("agile" in c.get("abilities", ())) != (len(c.get("rows", ())) == 2):
            return f"{c['id']}: exactly the agile cards have two rows"
        if ("musters" in c) != ("muster" in c.get("abilities", ())):
            return f"{c['id']}: muster cards name the group they summon"
    groups = {c["group"] for c in raw if "group" in c}
    for c in raw:
        if "musters" in c and c["musters"] not in groups:
            return f"{c['id']}: musters unknown group {c['musters']!r}"
    return None


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    raw_cards = load_data(GAME, "cards.yaml", Record({"cards": ListOf(_CARD_SCHEMA, 1)}))["cards"]
    problem = _check_cards(raw_cards)
    if problem:
        raise CatalogError(f"data/gwent/cards.yaml: {problem}")
    cards = {c["id"]: _card(c) for c in raw_cards}
    raw_leaders = load_data(GAME, "leaders.yaml", Record({"leaders": ListOf(_LEADER_SCHEMA, 1)}))["leaders"]
    leaders = {
        ld["id"]: Leader(ld["id"], ld["faction"], ld["name_ru"], ld["name_en"],
                         {v: ld[v] for v in VARIANTS if v in ld})
        for ld in raw_leaders
    }
    variants = load_data(GAME, "variants.yaml", Record({"variants": Record({v: _VARIANT_SCHEMA for v in VARIANTS})}))
    presets_schema = Record({"decks": Record({f: Record({"leader": str, "cards": MapOf(IntRange(1, 20))})
                                              for f in FACTIONS})})
    presets = load_data(GAME, "decks.yaml", presets_schema)["decks"]
    cat = Catalogue(cards, leaders, variants["variants"], presets)
    _check_catalogue(cat)
    return cat


def _check_catalogue(cat: Catalogue) -> None:
    for faction in FACTIONS:
        if cat.faction_card(faction) not in cat.cards:
            raise CatalogError(f"data/gwent/cards.yaml: no faction card for {faction}")
        for variant in VARIANTS:
            if not cat.leaders_of(faction, variant):
                raise CatalogError(f"data/gwent/leaders.yaml: {faction} has no {variant} leader")
        preset = cat.presets[faction]
        if preset["leader"] not in cat.leaders_of(faction, "standard"):
            raise CatalogError(f"data/gwent/decks.yaml: {faction}: leader {preset['leader']!r} is not a standard "
                               f"{faction} leader")
        problem = deck_problem(cat, faction, preset["cards"], "standard", {})
        if problem:
            raise CatalogError(f"data/gwent/decks.yaml: {faction}: {problem[0]} {problem[1]}")
