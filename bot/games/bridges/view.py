"""What a seat may know (everything but the random source: the game is open, §1.1.2), the judge's numbers and
the invariants the tests check after every action."""
from __future__ import annotations

from typing import Any

from bot.engine import clone

from .data import CLASSES, catalogue, item
from .state import State, equipped, hands_used, max_hp

#: keys of the state that are the framework's or bookkeeping, not the table
_HIDDEN = {"game", "version", "seats", "options", "rng", "outcome", "pending_stack"}


def build(state: State, seat: int | None) -> dict[str, Any]:
    shown = {k: clone(v) if isinstance(v, (dict, list)) else v for k, v in state.items() if k not in _HIDDEN}
    shown["mhp"] = [max_hp(state, s) if c["cls"] else 0 for s, c in enumerate(state["chars"])]
    return shown


def unseen_variant(state: State, seat: int | None, rng: Any) -> State:
    """Nothing on the table is hidden from anyone; only the random source is, and no view shows it."""
    return clone(state)


def judge_table(state: State) -> dict[str, Any]:
    return {
        "round": state["round"], "base_hp": state["base_hp"], "coins": state["bank"]["coins"],
        "bosses": {b: v["hp"] for b, v in state["bosses"].items()},
        "hp": [c["hp"] for c in state["chars"]],
    }


def check_invariants(state: State) -> None:
    cat = catalogue()
    n = state["seats"]
    assert len(state["chars"]) == n and len(state["fresh"]) == n
    assert state["bank"]["coins"] >= 0, "the bank is in debt"
    assert all(k in cat.items and v > 0 for k, v in state["bank"]["items"].items()), "bad bank items"
    assert 0 <= state["base_hp"] <= cat.chars["base_hp"]
    for s, c in enumerate(state["chars"]):
        if state["phase"] == "choose":
            assert c["at"] is None and (c["cls"] is None or c["cls"] in CLASSES)
            continue
        assert c["cls"] in CLASSES and c["at"] in cat.islands
        assert 0 <= c["hp"] <= max_hp(state, s), f"seat {s} health {c['hp']} outside 0..{max_hp(state, s)}"
        assert 0 <= c["ap"] <= cat.chars["base_stats"]["ap"], "action points out of range"
        assert hands_used(state, s) <= 2, "more than two hands in use"
        assert all(item(i)["kind"] in ("melee", "ranged", "staff") for i in c["hands"])
        assert c["armour"] is None or item(c["armour"])["kind"] == "armour"
        if c["cls"] != "mage":
            assert not any(item(i).get("mage_only") for i in c["hands"]), "only the Mage holds staves"
        assert 0 <= c["shield"] <= item("shield_ball")["absorb"]
        assert all(i in cat.items for i in state["fresh"][s])
        if c["guard"]:
            assert c["cls"] == "burilla"
        assert len(equipped(state, s)) <= 3
    for bid, b in state["bosses"].items():
        assert 0 <= b["hp"] <= b["mhp"], f"{bid} health out of range"
        if state["phase"] == "actions":
            assert b["at"] in cat.islands and b["mhp"] == cat.bosses[bid]["hp"] * n
            assert not (b["marked"] and b["hp"] == 0), "a dead boss keeps a mark"
    if state["phase"] == "actions":
        placed = sorted(b["at"] for bid, b in state["bosses"].items() if bid != cat.final_boss)
        assert placed == sorted(cat.boss_islands), "one boss per boss island"
    for island, b in state["buildings"].items():
        assert island in cat.islands and b["kind"] in ("fort", "catapult")
        if b["kind"] == "fort":
            assert 0 <= b["hits"] < cat.chars["buildings"]["fort"]["hits"]
    assert len(set(state["traps"])) == len(state["traps"]), "two traps on one island"
    assert set(state["tier2_sold"]) <= set(cat.craftsman["tier2"]) and len(set(state["tier2_sold"])) == \
        len(state["tier2_sold"]), "a tier-2 item made twice"
    assert all(b["at"] in cat.islands for b in state["bombs"])
    if state["outcome"] is None and state["phase"] == "actions":
        assert not all(c["done"] for c in state["chars"]), "the action phase waits for nobody"
