"""Building Raiders tables for the rule tests: a dealt table, then cards moved into place (hands, guards, the
centre) from wherever they are, so that every card still exists exactly once."""
from __future__ import annotations

import pytest

from bot.engine import Applied, Rejection, get_game
from bot.games.raiders import cards as raiders_cards

GAME = get_game("raiders")


def card(short: str) -> str:
    return f"house:{short}"


def new_table(seats: int = 2, *, first: int = 0, options: dict | None = None, seed: str = "t") -> dict:
    return GAME.initial_state(seats, seed=seed, options=options, stack={"first": first}).state


def _take(state: dict, cid: str) -> None:
    """Remove a fighter or property from wherever it is."""
    for pile in (state["deck"], state["discard"], state["pdeck"], *[p["hand"] for p in state["players"]]):
        if cid in pile:
            pile.remove(cid)
            return
    for p in list(state["props"]):
        if p["card"] == cid:
            state["props"].remove(p)
            if p["guard"]:
                state["discard"].append(p["guard"])
            return
        if p["guard"] == cid:
            p["guard"], p["owner"] = None, None
            return
    raise AssertionError(f"{cid} is nowhere")


def arrange(state: dict, *, hands: dict | None = None, guarded: dict | None = None, free: list | None = None) -> dict:
    """Hands replaced (old cards to the deck's top), properties on the board: ``guarded`` {prop: (fighter,
    owner)} and ``free`` [prop]; any property already on the board goes back under the property deck."""
    for p in state["props"]:
        if p["guard"]:
            state["discard"].append(p["guard"])
        state["pdeck"].append(p["card"])
    state["props"] = []
    for seat, cards in (hands or {}).items():
        old = state["players"][seat]["hand"]
        state["players"][seat]["hand"] = []
        state["deck"][:0] = old
        for c in cards:
            _take(state, card(c))
            state["players"][seat]["hand"].append(card(c))
    for prop, (guard, owner) in (guarded or {}).items():
        _take(state, card(prop))
        _take(state, card(guard))
        state["props"].append({"card": card(prop), "guard": card(guard), "owner": owner})
    for prop in free or []:
        _take(state, card(prop))
        state["props"].append({"card": card(prop), "guard": None, "owner": None})
    state["trump_shown"] = bool(state["deck"]) and state["deck"][-1] == state["trump_card"]
    GAME.check_invariants(state)
    return state


def act(state: dict, seat: int, action: dict) -> tuple[dict, list]:
    result = GAME.apply(state, seat, action)
    assert isinstance(result, Applied), result
    GAME.check_invariants(result.state)
    return result.state, result.events


def refused(state: dict, seat: int, action: dict) -> Rejection:
    result = GAME.apply(state, seat, action)
    assert isinstance(result, Rejection), f"{action} was accepted"
    return result


def all_pass(state: dict, first: int | None = None) -> tuple[dict, list]:
    """Everyone still asked passes (from ``first`` on, in seat order): the window resolves."""
    events: list = []
    while state["window"] and not state["window"]["owe"] and not state["window"]["vote"]:
        seats = sorted(p.seat for p in GAME.to_act(state))
        if first in seats:
            seats = seats[seats.index(first):] + seats[:seats.index(first)]
        state, ev = act(state, seats[0], {"type": "pass"})
        events += ev
    return state, events


def kinds(events: list) -> list[str]:
    return [e["kind"] for e in events]


MANUAL = "timing: any\n      manual: true"


@pytest.fixture
def judged_deck(tmp_path, monkeypatch):
    """The house set with the ♥10's Откатиться turned into a judge-assisted card."""
    text = (raiders_cards.DECK_DIR / "house.yaml").read_text(encoding="utf-8")
    marker = "- id: h10\n"
    head, tail = text.split(marker)
    tail = tail.replace("timing: any\n      effects:\n        - {do: recall, target: own_fighter}", MANUAL, 1)
    (tmp_path / "house.yaml").write_text(head + marker + tail, encoding="utf-8")
    monkeypatch.setattr(raiders_cards, "DECK_DIR", tmp_path)
    raiders_cards.deck_set.cache_clear(), raiders_cards.table_cards.cache_clear()
    yield
    raiders_cards.deck_set.cache_clear(), raiders_cards.table_cards.cache_clear()
