"""The game's data: the card catalogue, the dice combinations and the rule book's numbers, each loaded once
from data/claygod/*.yaml and validated against the schemas below."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from bot.engine.catalog import CatalogError, Check, Either, IntRange, ListOf, OneOf, Record, load_data, validate

GAME = "claygod"
COLOURS = ("red", "orange", "yellow", "green", "light_blue", "blue", "violet")
#: language-neutral marks for the dice colours, used in labels, boards and messages in every locale
COLOUR_MARK = {"red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "light_blue": "🩵", "blue": "🟦",
               "violet": "🟪"}
STATS = ("health", "sphere")
WHO = OneOf("self", "enemy", "both")

_STAT = OneOf(*STATS)
_COLOUR = OneOf(*COLOURS)

# The effect vocabulary: one Record per "do".  effects.py interprets every one of them.
EFFECT_SCHEMAS: dict[str, Record] = {
    "change": Record({"who": WHO, "stat": _STAT, "by": int}),
    "change_if_below": Record({"who": WHO, "stat": _STAT, "below": int, "by": int, "else_by": int}),
    "set": Record({"who": WHO, "stat": _STAT, "to": int}),
    "raise_to_max": Record({"who": WHO, "stat": _STAT}),
    "raise_max": Record({"who": WHO, "stat": _STAT, "by": int}),
    "each_turn": Record({"who": WHO, "stat": _STAT, "by": int}),
    "extra_turns": Record({"n": IntRange(1, 10)}),
    "skip_turns": Record({"who": OneOf("self", "enemy"), "n": IntRange(1, 10)}, {"house_rule": str}),
    "lose_place": Record({}),
    "maximise": Record({"colour": _COLOUR, "turns": IntRange(1, 50)}),
    "max_and_freeze": Record({"colours": ListOf(_COLOUR, 1, 7)}),
    "freeze_all_dice": Record({"turns": IntRange(1, 50)}),
    "lift_curses": Record({}),
    "solomon": Record({}),
    "pandora": Record({}),
    "clock": Record({}),
    # combo-only steps
    "swap_spheres": Record({}),
    "freeze_one_each": Record({"rolls": IntRange(1, 50)}),
    "free_cast": Record({}),
    "redraw": Record({"up_to": IntRange(1, 10)}),
    "swap_card": Record({}),
}


def _check_effect(effect: Any) -> str | None:
    if not isinstance(effect, dict) or effect.get("do") not in EFFECT_SCHEMAS:
        return f"unknown effect {effect!r}; known: {', '.join(EFFECT_SCHEMAS)}"
    try:
        validate({k: v for k, v in effect.items() if k != "do"}, EFFECT_SCHEMAS[effect["do"]])
    except CatalogError as exc:
        return f"effect {effect['do']}: {exc}"
    return None


_EFFECTS = ListOf(Check(_check_effect), min_len=1)
_NAMES = {"name_ru": str, "name_uk": str, "name_en": str}

CARD_SCHEMA = Record({
    "id": str, **_NAMES,
    "cost": ListOf(IntRange(0, 6), 7, 7),
    "printed_cost": str, "text_ru": str, "effects": _EFFECTS,
}, {"rulings": ListOf(str)})

COMBO_SCHEMA = Record({
    "id": str, **_NAMES, "text_ru": str,
    "pattern": Either(
        Record({"value": IntRange(1, 6), "at_least": IntRange(1, 7)}),
        Record({"only": ListOf(IntRange(1, 6), 1, 6)}),
        Record({"sum": IntRange(7, 42)}),
        Record({"flush": OneOf(True)}),
    ),
    "effects": _EFFECTS,
})

RULES_SCHEMA = Record({
    "colours": Check(lambda v: None if v == list(COLOURS) else f"the dice are {list(COLOURS)}"),
    "dealt": IntRange(1, 10), "hand_size": IntRange(1, 10), "min_hand_size": IntRange(0, 10),
    "start_health": int, "start_sphere": int, "win_above": int,
    "lose_health_below": int, "lose_sphere_below": int, "drain": IntRange(0),
    "table_card_energy": IntRange(1, 6),
    "restore_health": Record({"health": int, "sphere": int}),
    "restore_sphere": Record({"health": int, "sphere": int}),
    "freeze_all_cost": IntRange(0), "freeze_all_rolls": IntRange(1), "attack_damage": IntRange(0),
    "live_turn_seconds": IntRange(1), "clock_live_seconds": IntRange(1),
})


def _unique_ids(items: list[dict[str, Any]]) -> str | None:
    ids = [i["id"] for i in items]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    return f"duplicate ids {dupes}" if dupes else None


@dataclass(frozen=True)
class Named:
    id: str
    names: Mapping[str, str]

    def name(self, locale: str) -> str:
        return self.names.get(locale) or self.names["ru"]


@dataclass(frozen=True)
class Card(Named):
    cost: tuple[int, ...]
    effects: tuple[Mapping[str, Any], ...]
    text_ru: str
    printed_cost: str

    def cost_of(self, colour: str) -> int:
        return self.cost[COLOURS.index(colour)]


@dataclass(frozen=True)
class Combo(Named):
    pattern: Mapping[str, Any]
    effects: tuple[Mapping[str, Any], ...]
    text_ru: str


@dataclass(frozen=True)
class Catalogue:
    cards: Mapping[str, Card]
    combos: tuple[Combo, ...]
    rules: Mapping[str, Any]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def combo(self, combo_id: str) -> Combo:
        return next(c for c in self.combos if c.id == combo_id)


def _names(raw: Mapping[str, Any]) -> dict[str, str]:
    return {"ru": raw["name_ru"], "uk": raw["name_uk"], "en": raw["name_en"]}


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    cards = load_data(GAME, "cards.yaml", Record({"cards": ListOf(CARD_SCHEMA, 1)}))["cards"]
    combos = load_data(GAME, "combos.yaml", Record({"combos": ListOf(COMBO_SCHEMA, 1)}))["combos"]
    rules = load_data(GAME, "rules.yaml", RULES_SCHEMA)
    for items, what in ((cards, "cards.yaml"), (combos, "combos.yaml")):
        problem = _unique_ids(items)
        if problem:
            raise CatalogError(f"data/claygod/{what}: {problem}")
    return Catalogue(
        cards={c["id"]: Card(c["id"], _names(c), tuple(c["cost"]), tuple(c["effects"]), c["text_ru"],
                             c["printed_cost"]) for c in cards},
        combos=tuple(Combo(c["id"], _names(c), c["pattern"], tuple(c["effects"]), c["text_ru"]) for c in combos),
        rules=rules,
    )


def rules() -> Mapping[str, Any]:
    return catalogue().rules


def card_ids() -> list[str]:
    """Every card id in catalogue order (the order of a fresh, unshuffled deck)."""
    return list(catalogue().cards)
