"""A Bridges position set up directly (a scenario's ``state`` / ``position``): every health level, position, dead
boss, building (a fort's wear), provocation, bank and upgrade may be set; the invariants the engine keeps are
checked, each refused with the key at fault (bot/engine/position.py).  Pure: no Discord, no storage."""
from __future__ import annotations

from typing import Any

from bot.engine.position import flag, integer, listing, mapping, one_of, seat, want

from .data import CLASSES, Catalogue, catalogue, item
from .state import hands_used, max_hp

CHAR_KEYS = ("cls", "at", "hp", "ap", "hands", "armour", "done", "risky", "moves", "shield", "guard")
BOSS_KEYS = ("at", "hp", "mhp", "marked", "last_attacker", "attacked", "angry")


def check(state: dict[str, Any], template: dict[str, Any]) -> None:
    cat = catalogue()
    n = state["seats"]
    phase = one_of(state["phase"], "phase", ("choose", "actions"), "phase")
    integer(state["round"], "round", 1 if phase == "actions" else 0)
    chars = listing(state["chars"], "chars", n)
    fresh = listing(state["fresh"], "fresh", n)
    for s, c in enumerate(chars):
        _char(state, s, c, phase, cat)
        for j, iid in enumerate(listing(fresh[s], f"fresh.{s}")):
            one_of(iid, f"fresh.{s}.{j}", cat.items, "item")
    _bosses(state, phase, cat)
    flag(state["provoked"], "provoked")
    integer(state["base_hp"], "base_hp", 0, cat.chars["base_hp"])
    bank = mapping(state["bank"], "bank", ("coins", "items"))
    integer(bank["coins"], "bank.coins", 0)
    for iid, count in mapping(bank["items"], "bank.items").items():
        one_of(iid, f"bank.items.{iid}", cat.items, "item")
        integer(count, f"bank.items.{iid}", 1)
    for island, b in mapping(state["buildings"], "buildings").items():
        key = f"buildings.{island}"
        one_of(island, key, cat.islands, "island")
        kind = one_of(mapping(b, key).get("kind"), f"{key}.kind", ("fort", "catapult"), "building")
        if kind == "fort":
            mapping(b, key, ("kind", "hits"))
            integer(b["hits"], f"{key}.hits", 0, cat.chars["buildings"]["fort"]["hits"] - 1)
        else:
            mapping(b, key, ("kind", "charged"))
            flag(b["charged"], f"{key}.charged")
    for upgrade in ("camp", "blueprints", "arm_trade"):
        flag(state[upgrade], upgrade)
    sold = listing(state["tier2_sold"], "tier2_sold")
    for j, iid in enumerate(sold):
        one_of(iid, f"tier2_sold.{j}", cat.craftsman["tier2"], "tier-2 item")
    want(len(set(sold)) == len(sold), "tier2_sold", "a tier-2 item made twice")
    chests = listing(state["chests"], "chests")
    for j, island in enumerate(chests):
        one_of(island, f"chests.{j}", cat.island_of_role("chest"), "chest island")
    want(len(set(chests)) == len(chests), "chests", "one chest per island")
    traps = listing(state["traps"], "traps")
    for j, island in enumerate(traps):
        one_of(island, f"traps.{j}", cat.islands, "island")
    want(len(set(traps)) == len(traps), "traps", "two traps on one island")
    for j, bomb in enumerate(listing(state["bombs"], "bombs")):
        mapping(bomb, f"bombs.{j}", ("at", "round", "by"))
        one_of(bomb["at"], f"bombs.{j}.at", cat.islands, "island")
        integer(bomb["round"], f"bombs.{j}.round", 0, state["round"])
        seat(bomb["by"], f"bombs.{j}.by", n)
    recent = mapping(state["recent"], "recent", ("acted", "moved"))
    for kind, order in recent.items():
        for j, s in enumerate(listing(order, f"recent.{kind}")):
            seat(s, f"recent.{kind}.{j}", n)
        want(len(set(order)) == len(order), f"recent.{kind}", "a seat twice in the order")
    if state["outcome"] is None and phase == "actions":
        want(not all(c["done"] for c in chars), "chars",
             "every seat has ended its phase: the neutral phase would have been played (set 'done' false)")
        want(state["base_hp"] > 0, "base_hp", "the Base is destroyed while the game runs (set 'outcome' too)")
        for s, c in enumerate(chars):
            want(c["hp"] > 0, f"chars.{s}.hp", "a fallen character while the game runs: the team has lost"
                                               " (set 'outcome' too)", rule="§1.6")
        want(state["bosses"][cat.final_boss]["hp"] > 0, f"bosses.{cat.final_boss}.hp",
             "the final boss is dead while the game runs (set 'outcome' too)")


def _char(state: dict[str, Any], s: int, c: Any, phase: str, cat: Catalogue) -> None:
    key = f"chars.{s}"
    mapping(c, key, CHAR_KEYS)
    if phase == "choose":
        want(c["at"] is None, f"{key}.at", "nobody is on the map while the classes are chosen")
        if c["cls"] is not None:
            one_of(c["cls"], f"{key}.cls", CLASSES, "class")
        return
    one_of(c["cls"], f"{key}.cls", CLASSES, "class")
    one_of(c["at"], f"{key}.at", cat.islands, "island")
    for j, iid in enumerate(listing(c["hands"], f"{key}.hands")):
        one_of(iid, f"{key}.hands.{j}", cat.items, "item")
        want(item(iid)["kind"] in ("melee", "ranged", "staff"), f"{key}.hands.{j}", f"{iid!r} is not held in hands")
        want(c["cls"] == "mage" or not item(iid).get("mage_only"), f"{key}.hands.{j}", "only the Mage holds staves")
    want(hands_used(state, s) <= 2, f"{key}.hands", "more than two hands in use")
    if c["armour"] is not None:
        one_of(c["armour"], f"{key}.armour", cat.items, "item")
        want(item(c["armour"])["kind"] == "armour", f"{key}.armour", f"{c['armour']!r} is no armour")
    integer(c["hp"], f"{key}.hp", 0, max_hp(state, s))
    integer(c["ap"], f"{key}.ap", 0, cat.chars["base_stats"]["ap"])
    integer(c["moves"], f"{key}.moves", 0)
    integer(c["shield"], f"{key}.shield", 0, item("shield_ball")["absorb"])
    for name in ("done", "risky", "guard"):
        flag(c[name], f"{key}.{name}")
    want(not c["guard"] or c["cls"] == "burilla", f"{key}.guard", "only Burilla guards")


def _bosses(state: dict[str, Any], phase: str, cat: Catalogue) -> None:
    bosses = mapping(state["bosses"], "bosses", cat.bosses)
    for bid, b in bosses.items():
        key = f"bosses.{bid}"
        mapping(b, key, BOSS_KEYS)
        if phase == "choose":
            continue
        want(b["mhp"] == cat.bosses[bid]["hp"] * state["seats"], f"{key}.mhp",
             f"must be {cat.bosses[bid]['hp'] * state['seats']} (the book's health times the seats)")
        integer(b["hp"], f"{key}.hp", 0, b["mhp"])
        one_of(b["at"], f"{key}.at", cat.islands, "island")
        for name in ("marked", "attacked", "angry"):
            flag(b[name], f"{key}.{name}")
        want(not (b["marked"] and b["hp"] == 0), f"{key}.marked", "a dead boss keeps no mark")
        seat(b["last_attacker"], f"{key}.last_attacker", state["seats"], optional=True)
    if phase == "actions":
        placed = sorted(b["at"] for bid, b in bosses.items() if bid != cat.final_boss)
        want(placed == sorted(cat.boss_islands), "bosses", "one boss on each boss island "
             f"({', '.join(sorted(cat.boss_islands))}); a dead one stays where it fell")
