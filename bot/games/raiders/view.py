"""What each seat may know, the no-leak variant the tests use, the judge's numbers and the invariants.

Hidden: each hand (its owner sees it), the order of both decks.  Public: the board (properties, guards, who
holds what), the trump and the trump card while it lies at the bottom of the deck, the discards, the window
(every applied шняга, who passed), the крутизна changes, everyone's бабки.
"""
from __future__ import annotations

from typing import Any

from bot.engine import clone
from bot.engine.hands import redeal_hands

from .cards import cards_of
from .state import all_fighters, babki, board_fighters, krutizna, side_total, sides

_PUBLIC = ("deck_set", "copies", "trump", "discard", "props", "turn", "window", "mods", "target", "teams")


def build(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    shown = {k: clone(state[k]) if isinstance(state[k], (dict, list)) else state[k] for k in _PUBLIC}
    deck = state["deck"]
    shown.update(
        deck_count=len(deck), pdeck_count=len(state["pdeck"]),
        trump_card=state["trump_card"] if state["trump_shown"] else None,
        hand_counts=[len(p["hand"]) for p in state["players"]],
        hand=list(state["players"][seat]["hand"]) if seat is not None else None,
        babki=[babki(state, s) for s in range(state["seats"])],
        krutizna={c: krutizna(state, c) for c in _on_board(state)},
    )
    return shown


def _on_board(state: dict[str, Any]) -> list[str]:
    return [c for c, _, _ in board_fighters(state)]


def unseen_variant(state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
    """Re-deal the fighter deck (the trump card stays at the bottom while it is known to lie there), every hand
    but the seat's own, and the property deck."""
    new = clone(state)
    others = [s for s in range(new["seats"]) if s != seat]
    deck = new["deck"]
    bottom = [deck.pop()] if new["trump_shown"] else []
    new["deck"] = redeal_hands(new["players"], others, deck, rng) + bottom
    rng.shuffle(new["pdeck"])
    return new


def judge_table(state: dict[str, Any]) -> dict[str, Any]:
    return {"babki": [babki(state, s) for s in range(state["seats"])],
            "sides": [side_total(state, side) for side in sides(state)], "target": state["target"],
            "krutizna": {c: krutizna(state, c) for c in _on_board(state)}}


def check_invariants(state: dict[str, Any]) -> None:
    cards = cards_of(state)
    fighters = all_fighters(state)
    assert sorted(fighters) == sorted(cards.fighters), "fighter cards were created or lost"
    props = list(state["pdeck"]) + [p["card"] for p in state["props"]]
    assert sorted(props) == sorted(cards.properties), "property cards were created or lost"
    for p in state["props"]:
        assert (p["guard"] is None) == (p["owner"] is None), f"{p['card']}: a guard without an owner or back"
    assert all(card in set(_on_board(state)) for card in state["mods"]), "a change of крутизна off the board"
    assert not state["trump_shown"] or state["deck"][-1] == state["trump_card"], "the trump card left the bottom"
    w = state["window"]
    if state["outcome"] is not None:
        return
    if w is not None:
        assert not (w["owe"] and w["vote"]), "a step owed during a vote"
        assert len(set(w["passed"])) == len(w["passed"]) < state["seats"] or w["owe"] or w["vote"]
