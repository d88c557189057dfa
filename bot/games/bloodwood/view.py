"""What each seat may know, the no-leak variant used by the tests, and the invariants.

Public: the phase, direction and count, DNA and the marks in front of players, the day/night backs of
every hand (BW-5), deck sizes, the face-up discard pile (BW-6: every card in it was seen going there), the card waiting
in a counter window, who has seen whose role, and the composition of the teams (BW-4).  Secret: roles,
hands, deck order, and the private half of a decision in progress (the card picked before its target, the
cards chosen to keep, the names of a declaration not yet confirmed, the roles given out so far by the
host)."""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from bot.engine import clone

from .cards import catalogue
from .state import State, all_cards, known_roles, public_player

#: the public fields of each kind of step (the rest is seen only by the seat that owes it)
_PUBLIC_STEP = {
    "assign": ("seat",), "first": ("seat",), "turn": ("seat",), "thief_back": ("seat", "target"),
    "counter": ("seat",), "keep": ("seat", "source", "target"), "give": ("seat", "owed"),
    "leshy": ("seat", "owed"), "confess": ("seat", "player"), "draw": ("seat", "left"), "trim": ("seat",),
    "declare": ("seat",),
}
_PRIVATE_STEP = {"assign": ("roles",), "turn": ("card",), "keep": ("kept",), "declare": ("named",)}


def build(state: State, seat: int | None) -> dict[str, Any]:
    roles = state["roles"]
    known = known_roles(state, seat)
    players = [{**public_player(state, s), "role": roles[s] if s in known else None} for s in range(state["seats"])]
    discard = state["discard"]
    return {
        "phase": state["phase"], "direction": state["direction"], "phase_turns": state["phase_turns"],
        "turn": dict(state["turn"]) if state["turn"] else None, "composition": dict(state["composition"]),
        "players": players,
        "decks": {d: len(cards) for d, cards in state["decks"].items()},
        "discard": {"count": len(discard), "top": discard[-1] if discard else None, "cards": list(discard)},
        "in_flight": dict(state["in_flight"]) if state["in_flight"] else None,
        "known": [list(pair) for pair in state["known"]],
        "step": _step_view(state, seat),
        "hand": list(state["hands"][seat]) if seat is not None else None,
    }


def _step_view(state: State, seat: int | None) -> dict[str, Any] | None:
    step = state["step"]
    if step is None:
        return None
    fields = list(_PUBLIC_STEP[step["kind"]])
    if seat is not None and step.get("seat") == seat:
        fields += _PRIVATE_STEP.get(step["kind"], ())
    shown = {"kind": step["kind"]}
    for key in fields:
        if key in step:
            value = step[key]
            shown[key] = list(value) if isinstance(value, list) else value
    return shown


# ------------------------------------------------------------------------------------------ no-leak variant
def unseen_variant(state: State, seat: int | None, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the roles it does not know (among their seats, so the composition
    stays), and every card of the decks and of the other hands (keeping each hand's backs, which are
    public, and the cards a pending private choice refers to)."""
    new = clone(state)
    if new["roles"] is not None and new["outcome"] is None:
        seen = known_roles(new, seat)
        hidden = [s for s in range(new["seats"]) if s not in seen]
        roles = [new["roles"][s] for s in hidden]
        rng.shuffle(roles)
        for s, role in zip(hidden, roles):
            new["roles"][s] = role
    backs = catalogue().backs
    pools = new["decks"]
    # (seat, cards kept in place, day cards to deal, night cards to deal)
    shapes: list[tuple[int, list[str], int, int]] = []
    reserved = _reserved(new)
    for s, hand in enumerate(new["hands"]):
        if s == seat:
            continue
        keep = list(reserved.get(s, []))
        rest = list(hand)
        for cid in keep:
            rest.remove(cid)
        for cid in rest:
            pools[backs[cid]].append(cid)
        night = sum(backs[c] == "night" for c in rest)
        shapes.append((s, keep, len(rest) - night, night))
    dealt = {deck: _random_prefix(pools[deck], sum(sh[2] if deck == "day" else sh[3] for sh in shapes), rng)
             for deck in ("day", "night")}
    for s, keep, day, night in shapes:
        new["hands"][s] = sorted(keep + [dealt["day"].pop() for _ in range(day)]
                                 + [dealt["night"].pop() for _ in range(night)])
    return new


def _random_prefix(cards: list[str], k: int, rng: random.Random) -> list[str]:
    """Move ``k`` cards chosen at random out of ``cards`` (a partial Fisher-Yates shuffle) and return them;
    the rest stays as the deck."""
    for i in range(k):
        j = rng.randrange(i, len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    chosen = cards[:k]
    del cards[:k]
    return chosen


def _reserved(state: State) -> dict[int, list[str]]:
    """Cards of a hand that the pending step names (they must stay in that hand)."""
    step = state["step"]
    if not step:
        return {}
    if step["kind"] == "turn" and step["card"]:
        return {step["seat"]: [step["card"]]}
    if step["kind"] == "keep":
        return {step["seat"]: list(step["kept"])}
    return {}


# ------------------------------------------------------------------------------------------ invariants
@lru_cache(maxsize=1)
def _every_card() -> list[str]:
    return sorted(catalogue().deck_list("day") + catalogue().deck_list("night"))


def check_invariants(state: State) -> None:
    cat = catalogue()
    assert sorted(all_cards(state)) == _every_card(), "cards were created or lost"
    n = state["seats"]
    for key in ("dna", "curse", "chains", "sleep", "hands", "confessed"):
        assert len(state[key]) == n, f"{key} has the wrong length"
    for s in range(n):
        assert state["hands"][s] == sorted(state["hands"][s]), "a hand is not sorted"
        assert state["dna"][s] in ("pure", "mutated", "forever")
        assert not (state["dna"][s] == "forever" and state["curse"][s]), "a forever-mutated player carries a curse"
        if state["curse"][s]:
            assert 1 <= state["curse"][s]["left"] <= cat.rules["curse_turns"]
    backs = cat.backs
    for deck, cards in state["decks"].items():
        assert {backs[c] for c in cards} <= {deck}, "a card is in the wrong deck"
    if state["roles"] is not None:
        assert Counter(state["roles"]) == +Counter(state["composition"]), "the roles do not match the composition"
    step = state["step"]
    if state["outcome"] is not None:
        assert step is None
        return
    assert step is not None, "the game is running but nothing is pending"
    if step["kind"] == "turn" and step["card"]:
        assert step["card"] in state["hands"][step["seat"]]
    if step["kind"] == "keep":
        assert not Counter(step["kept"]) - Counter(state["hands"][step["seat"]]), "kept cards are not held"
        assert len(step["kept"]) <= cat.rules["keep_limit"]
    assert (state["in_flight"] is not None) == (step["kind"] == "counter"), "a card is in flight outside a window"
