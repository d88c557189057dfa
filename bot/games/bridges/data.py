"""The Bridges catalogue (data/bridges/*.yaml): the map, the items and shops, the bosses, the characters and the
team's start, validated on load (schemas, then the cross-checks a schema cannot express)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from bot.engine.catalog import CatalogError, IntRange, ListOf, MapOf, OneOf, Record, load_data

GAME = "bridges"
CLASSES = ("mage", "master", "scout", "burilla")
CONDITIONS = ("here_2plus", "here_1", "here_any", "adjacent_any", "attacker_adjacent", "always")
_ITEM_COUNTS = MapOf(IntRange(1, 20))

_MAP = Record(
    required={"islands": MapOf(Record(required={"role": OneOf("base", "chest", "boss", "shop", "krabulon")})),
              "links": ListOf(ListOf(str, 2, 2), 1), "rows": ListOf(ListOf(str, 1, 4), 1)})

_ITEM = Record(
    required={"kind": OneOf("melee", "ranged", "staff", "armour", "consumable"), "rule": str},
    optional={"hands": IntRange(1, 2), "bonus": IntRange(0, 10), "damage": IntRange(0, 10), "mhp": IntRange(0, 10),
              "provokes": OneOf("melee", "ranged", "none"), "reach": OneOf("here", "connected"),
              "no_counter": bool, "mage_only": bool, "move_cost": IntRange(1, 4), "thorns": IntRange(0, 10),
              "moves_per_phase": IntRange(1, 4), "use": OneOf("jump", "bomb", "heal", "shield"),
              "per_player": IntRange(1, 10), "ap": IntRange(0, 2), "heal": IntRange(1, 10),
              "absorb": IntRange(1, 10)})
_PRICES = MapOf(IntRange(0, 20))
_ITEMS = Record(required={
    "items": MapOf(_ITEM),
    "craftsman": Record(required={"island": str, "tier1": _PRICES, "tier2": _PRICES, "blueprints": IntRange(0, 20),
                                  "camp": IntRange(0, 20),
                                  "arm_trade": Record(required={"item": str, "price": IntRange(0, 20)})}),
    "troll": Record(required={"island": str, "stock": _PRICES}),
})

_LINE = Record(required={"if": OneOf(*CONDITIONS), "use": str},
               optional={"needs": OneOf("hunting"), "all_adjacent": bool})
_ABILITY = Record(required={}, optional={"damage": IntRange(0, 20), "all": bool,
                                         "reach": OneOf("here", "connected"), "answer": bool, "first": bool,
                                         "heal": IntRange(1, 10)})
_DROP = Record(required={"coins": IntRange(0, 50)}, optional={"items": _ITEM_COUNTS})
_BOSS = Record(
    required={"hp": IntRange(1, 100), "rule": str, "abilities": MapOf(_ABILITY),
              "priorities": ListOf(ListOf(_LINE, 1), 1),
              "counter": Record(required={"melee": ListOf(_LINE, 1), "ranged": ListOf(_LINE, 1)})},
    optional={"list_no": IntRange(1, 4), "drops": MapOf(_DROP, key=int), "base_lasers": str,
              "peaceful_while_dead": str, "hunts_when_dead": str, "no_attack_when_visited": bool})
_BOSSES = Record(required={"bosses": MapOf(_BOSS)})

_CLASS = Record(required={}, optional={
    "mhp": IntRange(-2, 5), "damage": IntRange(-1, 5), "staves": bool, "free_buildings": bool, "blueprints": bool,
    "dismantle": bool, "mark": bool, "trap": bool, "push": bool, "no_counter": bool, "coins": IntRange(0, 20),
    "guard": bool})
_KIT = Record(required={}, optional={"items": _ITEM_COUNTS, "coins": IntRange(0, 50)})
_CHARACTERS = Record(required={
    "base_stats": Record(required={"mhp": IntRange(1, 10), "damage": IntRange(0, 10), "ap": IntRange(1, 10)}),
    "classes": MapOf(_CLASS),
    "start_kit": MapOf(_KIT, key=int),
    "base_hp": IntRange(1, 100),
    "chest_coins": IntRange(0, 20),
    "buildings": Record(required={
        "fort": Record(required={"coins": IntRange(0, 20), "hits": IntRange(1, 20), "reduce": IntRange(0, 5)}),
        "catapult": Record(required={"coins": IntRange(0, 20), "items": _ITEM_COUNTS})}),
    "risky": MapOf(IntRange(-3, 3), key=int),
})


@dataclass(frozen=True)
class Catalogue:
    islands: tuple[str, ...]
    roles: dict[str, str]
    links: dict[str, tuple[str, ...]]
    rows: tuple[tuple[str, ...], ...]
    items: dict[str, dict[str, Any]]
    craftsman: dict[str, Any]
    troll: dict[str, Any]
    bosses: dict[str, dict[str, Any]]
    chars: dict[str, Any]

    def neighbours(self, island: str) -> tuple[str, ...]:
        return self.links[island]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.links[a]

    def island_of_role(self, role: str) -> list[str]:
        return [i for i in self.islands if self.roles[i] == role]

    @property
    def base(self) -> str:
        return self.island_of_role("base")[0]

    @property
    def boss_islands(self) -> list[str]:
        return self.island_of_role("boss")

    def placement_list(self) -> list[str]:
        """The numbered list of §1.1.6 (1 Archer, 2 Bum, 3 Casserole, 4 Golemko)."""
        placed = [b for b, d in self.bosses.items() if "list_no" in d]
        return sorted(placed, key=lambda b: self.bosses[b]["list_no"])

    @property
    def final_boss(self) -> str:
        return next(b for b, d in self.bosses.items() if "list_no" not in d)

    def price(self, item: str) -> int | None:
        """What the item costs in a shop (its value for the Master's dismantling, §1.3)."""
        for table in (self.craftsman["tier1"], self.craftsman["tier2"], self.troll["stock"]):
            if item in table:
                return cast("int | None", table[item])
        if item == self.craftsman["arm_trade"]["item"]:
            return cast("int | None", self.craftsman["arm_trade"]["price"])
        return None


def _check(maps: dict[str, Any], items: dict[str, Any], bosses: dict[str, Any], chars: dict[str, Any]) -> str | None:
    islands = maps["islands"]
    for a, b in maps["links"]:
        if a not in islands or b not in islands or a == b:
            return f"link {a}-{b} names an unknown island or a loop"
    seen, todo = set(), [next(iter(islands))]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo += [b for a, b in maps["links"] if a == here] + [a for a, b in maps["links"] if b == here]
    if seen != set(islands):
        return "the map is not connected"
    if sorted(i for row in maps["rows"] for i in row) != sorted(islands):
        return "the drawing rows must name every island once"
    roles = [v["role"] for v in islands.values()]
    if roles.count("base") != 1 or roles.count("krabulon") != 1 or roles.count("shop") != 1:
        return "the map needs one base, one shop and one Krabulon island"
    all_items = items["items"]
    for iid, it in all_items.items():
        wields = it["kind"] in ("melee", "ranged", "staff")
        if wields != ("hands" in it):
            return f"item {iid}: exactly the weapons take hands"
        if wields and ("bonus" in it) == ("damage" in it):
            return f"item {iid}: a weapon has either a +bonus or its own damage"
        if wields and ("provokes" not in it or "reach" not in it):
            return f"item {iid}: a weapon says what counter it provokes and how far it reaches"
        if (it["kind"] == "consumable") != ("use" in it):
            return f"item {iid}: exactly the consumables have a use"
    shops = [items["craftsman"]["tier1"], items["craftsman"]["tier2"], items["troll"]["stock"],
             {items["craftsman"]["arm_trade"]["item"]: 0}]
    for table in shops:
        for iid in table:
            if iid not in all_items:
                return f"shop item {iid} is not an item"
    for island in (items["craftsman"]["island"], items["troll"]["island"]):
        if island not in islands:
            return f"shop island {island} is not on the map"
    numbers = sorted(b["list_no"] for b in bosses.values() if "list_no" in b)
    if numbers != list(range(1, roles.count("boss") + 1)):
        return "the placement list must number one boss per boss island, 1..n"
    finals = [b for b in bosses.values() if "list_no" not in b]
    if len(finals) != 1 or "base_lasers" not in finals[0]:
        return "exactly one boss (Krabulon) is not placed by lot, and it has the base lasers"
    for bid, b in bosses.items():
        lines = [line for group in b["priorities"] for line in group] + b["counter"]["melee"] + b["counter"]["ranged"]
        for line in lines:
            if line["use"] not in b["abilities"]:
                return f"boss {bid}: ability {line['use']} is not defined"
        for name in ("base_lasers",):
            if name in b and b[name] not in b["abilities"]:
                return f"boss {bid}: {name} names an unknown ability"
        for key in ("peaceful_while_dead", "hunts_when_dead"):
            if key in b and b[key] not in bosses:
                return f"boss {bid}: {key} names an unknown boss"
        needs = any(line.get("needs") for group in b["priorities"] for line in group)
        if needs != ("hunts_when_dead" in b):
            return f"boss {bid}: lines that need hunting and hunts_when_dead go together"
        if "list_no" in b:
            if sorted(b.get("drops", {})) != [1, 2, 3, 4]:
                return f"boss {bid}: the drop table needs the d4 results 1-4"
            for roll, drop in b["drops"].items():
                for iid in drop.get("items", {}):
                    if iid not in all_items:
                        return f"boss {bid}: drop {roll} names unknown item {iid}"
    if set(chars["classes"]) != set(CLASSES):
        return f"the classes must be {', '.join(CLASSES)}"
    if sorted(chars["start_kit"]) != [1, 2, 3, 4, 5, 6] or sorted(chars["risky"]) != [1, 2, 3, 4, 5, 6]:
        return "the start kit and the experimental technique need the d6 results 1-6"
    for kit in list(chars["start_kit"].values()) + [chars["buildings"]["catapult"]]:
        for iid in kit.get("items", {}):
            if iid not in all_items:
                return f"unknown item {iid}"
    return None


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    maps = load_data(GAME, "map.yaml", _MAP)
    items = load_data(GAME, "items.yaml", _ITEMS)
    bosses = load_data(GAME, "bosses.yaml", _BOSSES)["bosses"]
    chars = load_data(GAME, "characters.yaml", _CHARACTERS)
    problem = _check(maps, items, bosses, chars)
    if problem:
        raise CatalogError(f"data/{GAME}: {problem}")
    links: dict[str, list[str]] = {i: [] for i in maps["islands"]}
    order = list(maps["islands"])
    for a, b in maps["links"]:
        links[a].append(b)
        links[b].append(a)
    return Catalogue(
        islands=tuple(order), roles={i: v["role"] for i, v in maps["islands"].items()},
        links={i: tuple(sorted(v, key=order.index)) for i, v in links.items()},
        rows=tuple(tuple(r) for r in maps["rows"]), items=items["items"], craftsman=items["craftsman"],
        troll=items["troll"], bosses=bosses, chars=chars)


def item(iid: str) -> dict[str, Any]:
    return catalogue().items[iid]


def boss(bid: str) -> dict[str, Any]:
    return catalogue().bosses[bid]


__all__ = ["CLASSES", "CatalogError", "Catalogue", "catalogue", "item", "boss"]
