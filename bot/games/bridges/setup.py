"""Preparing the table (§1.1): the characters (chosen or dealt), then the team's start from the d6 table, the
Burilla's coins, the Master's blueprints, the island bosses placed by the book's dice, Krabulon, the chests,
everyone on the Base (BR-2, BR-3)."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import Code, Ctx, Reject

from .data import CLASSES, catalogue
from .flow import begin_round
from .state import State, bank_add, give_fresh, max_hp

CLASS_TAG = "bridges.classes"
KIT_TAG = "bridges.start"
PLACE_TAGS = ("bridges.place1", "bridges.place2", "bridges.place3")
STACK_KEYS = ("classes", "placement", "bank")


def new_keys(seats: int) -> dict[str, Any]:
    cat = catalogue()
    return {
        "phase": "choose", "round": 0,
        "chars": [{"cls": None, "at": None, "hp": 0, "ap": 0, "hands": [], "armour": None, "done": False,
                   "risky": False, "moves": 0, "shield": 0, "guard": False} for _ in range(seats)],
        "bosses": {bid: {"at": None, "hp": 0, "mhp": 0, "marked": False, "last_attacker": None, "attacked": False,
                         "angry": False} for bid in cat.bosses},
        "provoked": False, "base_hp": cat.chars["base_hp"],
        "bank": {"coins": 0, "items": {}}, "buildings": {}, "camp": False, "blueprints": False, "arm_trade": False,
        "tier2_sold": [], "chests": cat.island_of_role("chest"), "traps": [], "bombs": [],
        "fresh": [[] for _ in range(seats)], "recent": {"acted": [], "moved": []}, "setup": None, "opened": 0.0,
    }


def setup(state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
    seats = state["seats"]
    state.update(new_keys(seats))
    state["opened"] = ctx.now
    _check_stack(stack, seats)
    if "classes" in stack:
        for seat, cls in enumerate(stack["classes"]):
            state["chars"][seat]["cls"] = cls
        ctx.emit("classes_dealt", classes=list(stack["classes"]), how="stacked", rule="§1.1")
        start_team(state, ctx, stack)
    elif state["options"]["classes"] == "random":
        deal_classes(state, ctx)
        start_team(state, ctx, stack)
    else:
        state["pending_stack"] = {k: v for k, v in stack.items() if k in ("placement", "bank")}
        ctx.emit("choose_classes", seats=seats, rule="§1.1")


def _check_stack(stack: Mapping[str, Any], seats: int) -> None:
    cat = catalogue()
    if "classes" in stack:
        classes = stack["classes"]
        if not isinstance(classes, list) or len(classes) != seats or any(c not in CLASSES for c in classes):
            raise Reject("bridges.reject.stack_classes", code=Code.BAD_SETUP, seats=seats, classes=", ".join(CLASSES))
        if seats <= len(CLASSES) and len(set(classes)) != seats:
            raise Reject("bridges.reject.stack_unique", code=Code.BAD_SETUP, rule="§1.1")
    if "placement" in stack:
        placement = stack["placement"]
        if not isinstance(placement, list) or sorted(map(str, placement)) != sorted(cat.placement_list()):
            raise Reject("bridges.reject.stack_placement", code=Code.BAD_SETUP,
                         bosses=", ".join(cat.placement_list()))
    if "bank" in stack:
        bank = stack["bank"]
        ok = isinstance(bank, dict) and set(bank) <= {"coins", "items"}
        ok = ok and isinstance(bank.get("coins", 0), int) and not isinstance(bank.get("coins", 0), bool)
        ok = ok and 0 <= bank.get("coins", 0) <= 10_000 and isinstance(bank.get("items", {}), dict)
        ok = ok and all(i in cat.items and isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100
                        for i, n in bank.get("items", {}).items())
        if not ok:
            raise Reject("bridges.reject.stack_bank", code=Code.BAD_SETUP, items=", ".join(cat.items))


def class_counts(state: State) -> dict[str, int]:
    counts = {c: 0 for c in CLASSES}
    for ch in state["chars"]:
        if ch["cls"]:
            counts[ch["cls"]] += 1
    return counts


def open_classes(state: State) -> list[str]:
    """The classes a seat may still choose (§1.1.4, BR-2): unique up to four players; beyond that, with
    ``duplicates: even`` a class is taken again only once every class has been taken as often."""
    counts = class_counts(state)
    if state["seats"] <= len(CLASSES):
        return [c for c in CLASSES if counts[c] == 0]
    if state["options"]["duplicates"] == "free":
        return list(CLASSES)
    low = min(counts.values())
    return [c for c in CLASSES if counts[c] == low]


def deal_classes(state: State, ctx: Ctx) -> None:
    """``classes: random``: each round of four classes is shuffled and dealt in seat order (BR-2)."""
    dealt: list[str] = []
    while len(dealt) < state["seats"]:
        batch = list(CLASSES)
        ctx.rng.shuffle(batch, CLASS_TAG)
        dealt += batch
    for seat in range(state["seats"]):
        state["chars"][seat]["cls"] = dealt[seat]
    ctx.emit("classes_dealt", classes=dealt[:state["seats"]], how="lot", rule="§1.1")


def choose_class(state: State, ctx: Ctx, seat: int, cls: str) -> None:
    state["chars"][seat]["cls"] = cls
    ctx.emit("class_chosen", seat=seat, cls=cls)
    if all(c["cls"] for c in state["chars"]):
        start_team(state, ctx, state.pop("pending_stack", {}))


def start_team(state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
    cat = catalogue()
    n = state["seats"]
    state.pop("pending_stack", None)
    if "bank" in stack:
        items = {i: k for i, k in stack["bank"].get("items", {}).items() if k}
        bank_add(state, items)
        state["bank"]["coins"] = stack["bank"].get("coins", 0)
        ctx.emit("kit", roll=None, items=items, coins=state["bank"]["coins"], how="stacked", rule="§1.1")
        kit_roll = None
    else:
        kit_roll = ctx.rng.randint(1, 6, KIT_TAG)
        kit = cat.chars["start_kit"][kit_roll]
        items = {i: k * n for i, k in kit.get("items", {}).items()}
        bank_add(state, items)
        state["bank"]["coins"] = kit.get("coins", 0) * n
        ctx.emit("kit", roll=kit_roll, items=items, coins=state["bank"]["coins"], how="roll", rule="§1.1")
    give_fresh(state, range(n), items)
    for seat, ch in enumerate(state["chars"]):
        extra = cat.chars["classes"][ch["cls"]].get("coins", 0)
        if extra:
            state["bank"]["coins"] += extra
            ctx.emit("class_coins", seat=seat, cls=ch["cls"], coins=extra, rule="§1.3")
    if any(cat.chars["classes"][ch["cls"]].get("blueprints") for ch in state["chars"]):
        state["blueprints"] = True
        ctx.emit("master_blueprints", rule="§1.3")
    rolls = _place_bosses(state, ctx, stack)
    state["setup"] = {"kit": kit_roll, "placement": rolls}
    final = cat.final_boss
    crb = cat.island_of_role("krabulon")[0]
    state["bosses"][final]["at"] = crb
    for bid, b in state["bosses"].items():
        b["mhp"] = b["hp"] = cat.bosses[bid]["hp"] * n
    ctx.emit("bosses_ready", hp={bid: b["hp"] for bid, b in state["bosses"].items()}, final=final, island=crb,
             rule="§3")
    for seat, ch in enumerate(state["chars"]):
        ch["at"] = cat.base
        ch["hp"] = max_hp(state, seat)
        ch["guard"] = bool(cat.chars["classes"][ch["cls"]].get("guard"))
    begin_round(state, ctx)


def _place_bosses(state: State, ctx: Ctx, stack: Mapping[str, Any]) -> list[int] | None:
    """§1.1.6: d4 for island [1]; d3 read from a d6 (1-2, 3-4, 5-6) for [2]; d2 read from a d6 (1-3, 4-6) for
    [3]; the last boss goes to [4].  Every roll is public."""
    cat = catalogue()
    islands = cat.boss_islands
    if "placement" in stack:
        for island, bid in zip(islands, stack["placement"]):
            state["bosses"][bid]["at"] = island
            ctx.emit("boss_placed", boss=bid, island=island, die=None, roll=None, how="stacked", rule="§1.1")
        return None
    left = cat.placement_list()
    rolls = []
    for island, tag in zip(islands, PLACE_TAGS):
        if len(left) == 4:
            roll = ctx.rng.randint(1, 4, tag)
            index, die = roll - 1, "d4"
        else:
            roll = ctx.rng.randint(1, 6, tag)
            per = 6 // len(left)
            index, die = (roll - 1) // per, f"d{len(left)}"
        rolls.append(roll)
        bid = left.pop(index)
        state["bosses"][bid]["at"] = island
        ctx.emit("boss_placed", boss=bid, island=island, die=die, roll=roll, how="roll", rule="§1.1")
    bid = left.pop()
    state["bosses"][bid]["at"] = islands[-1]
    ctx.emit("boss_placed", boss=bid, island=islands[-1], die=None, roll=None, how="last", rule="§1.1")
    return rolls
