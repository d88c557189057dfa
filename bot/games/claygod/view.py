"""What each seat may know, the no-leak variant used by the tests, and the state's invariants.

Hidden: each hand (its owner sees it), both face-down table cards (nobody sees them, rule 1), the deck order.
Public: health, sphere, dice, ongoing spells, hand and deck counts, the used pile.
"""
from __future__ import annotations

from typing import Any

from bot.engine import clone
from bot.engine.hands import redeal_hands

from .cards import COLOURS, card_ids, rules
from .state import STAGES

_PUBLIC_PLAYER_KEYS = ("health", "sphere", "max_health", "max_sphere", "hand_size", "dice", "effects",
                       "extra_turns", "skip_turns", "last_roll_sum", "turns")


def build(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    players = []
    for s, p in enumerate(state["players"]):
        entry = clone({k: p[k] for k in _PUBLIC_PLAYER_KEYS})  # one copy of the lot: a sixth of a deepcopy per key
        entry.update(hand_count=len(p["hand"]), hand=list(p["hand"]) if s == seat else None,
                     table_card="face_down" if p["table_card"] is not None else None,
                     table_place=p.get("table_place", True))
        players.append(entry)
    turn = state["turn"]
    return {
        "players": players,
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "turn": {**clone({k: turn[k] for k in ("seat", "number", "stage", "free_cast", "combos", "steps", "give")}),
                 "extra": turn.get("extra", False)},
    }


def unseen_variant(state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
    """Re-deal the deck, both table cards and every hand but the seat's own."""
    new = clone(state)
    others = [s for s in (0, 1) if s != seat]
    table_cards = [p["table_card"] for p in new["players"] if p["table_card"] is not None]
    pool = redeal_hands(new["players"], others, list(new["deck"]) + table_cards, rng)
    for p in new["players"]:
        if p["table_card"] is not None:
            p["table_card"], pool = pool[0], pool[1:]
    new["deck"] = pool
    return new


def check_invariants(state: dict[str, Any]) -> None:
    zones = list(state["deck"]) + list(state["discard"])
    for p in state["players"]:
        zones += p["hand"]
        if p["table_card"] is not None:
            zones.append(p["table_card"])
        assert p["hand_size"] >= rules()["min_hand_size"], "hand size below the floor"
        assert p.get("table_place", True) or p["table_card"] is None, "a table card on a place taken for good"
        assert set(p["dice"]) == set(COLOURS), "a die is missing"
        for colour, die in p["dice"].items():
            assert die["value"] is None or 1 <= die["value"] <= 6, f"{colour} die shows {die['value']}"
            assert not die["frozen"] or die["value"] is not None, "a die frozen before its first roll"
            terms = [die["frozen_turns"], die.get("frozen_rolls")]
            assert die["frozen"] or terms == [None, None], "a thawed die with a hold left"
            assert all(n is None or n >= 0 for n in terms), "a negative hold"
            assert None in terms, "a hold counted both in turns and in rolls"
        for e in p["effects"]:
            assert e.get("turns_left") is None or e["turns_left"] >= 0, "an effect past its term"
        assert p["extra_turns"] >= 0 and p["skip_turns"] >= 0
    assert sorted(zones) == sorted(card_ids()), "cards were created or lost"
    if state["outcome"] is None:
        assert state["turn"]["stage"] in STAGES
        assert (state["turn"]["stage"] == "give") == (state["turn"]["give"] is not None)
