"""A Bloodwood position set up directly (a scenario's ``state`` / ``position``): the invariants the engine keeps,
each refused with the key at fault (bot/engine/position.py).  Pure: no Discord, no storage."""
from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine.position import PositionError, conserved, flag, integer, listing, mapping, one_of, seat, want

from .cards import catalogue
from .state import mark_cards
from .view import _every_card

DNA = ("pure", "mutated", "forever")
STEPS = ("turn", "counter", "keep", "thief_back", "confess", "leshy", "give", "draw", "trim", "declare",
         "assign", "first")


def check(state: dict[str, Any], template: dict[str, Any]) -> None:
    cat = catalogue()
    n = state["seats"]
    per_seat = {key: listing(state[key], key, n) for key in ("dna", "curse", "chains", "sleep", "hands",
                                                              "confessed")}
    roles = state["roles"]
    if roles is not None:
        for s, role in enumerate(listing(roles, "roles", n)):
            one_of(role, f"roles.{s}", cat.roles, "role")
        comp = mapping(state["composition"], "composition", cat.roles)
        want(Counter(roles) == +Counter({r: k for r, k in comp.items() if isinstance(k, int)}), "roles",
             "the roles dealt are not the table's composition")
    for s in range(n):
        one_of(per_seat["dna"][s], f"dna.{s}", DNA, "DNA")
        curse = per_seat["curse"][s]
        if curse is not None:
            mapping(curse, f"curse.{s}", ("left", "since"))
            integer(curse["left"], f"curse.{s}.left", 1, cat.rules["curse_turns"])
            want(per_seat["dna"][s] != "forever", f"curse.{s}", "a forever-mutated player carries no curse")
        flag(per_seat["chains"][s], f"chains.{s}")
        flag(per_seat["sleep"][s], f"sleep.{s}")
        for j, card in enumerate(listing(per_seat["hands"][s], f"hands.{s}")):
            one_of(card, f"hands.{s}.{j}", cat.cards, "card id")
        want(per_seat["hands"][s] == sorted(per_seat["hands"][s]), f"hands.{s}",
             "a hand is kept sorted (write its cards in alphabetical order)")
        for j, other in enumerate(listing(per_seat["confessed"][s], f"confessed.{s}")):
            seat(other, f"confessed.{s}.{j}", n)
    decks = mapping(state["decks"], "decks", ("day", "night"))
    for deck, cards in decks.items():
        for j, card in enumerate(listing(cards, f"decks.{deck}")):
            one_of(card, f"decks.{deck}.{j}", cat.cards, "card id")
            want(cat.backs[card] == deck, f"decks.{deck}.{j}", f"{card!r} has the other back: it is no {deck} card")
    for j, card in enumerate(listing(state["discard"], "discard")):
        one_of(card, f"discard.{j}", cat.cards, "card id")
    flight = state["in_flight"]
    if flight is not None:
        mapping(flight, "in_flight", ("card", "player", "target"))
        one_of(flight["card"], "in_flight.card", cat.cards, "card id")
        seat(flight["player"], "in_flight.player", n)
        seat(flight["target"], "in_flight.target", n)
    everywhere = [*decks["day"], *decks["night"], *state["discard"], *mark_cards(state),
                  *(card for hand in per_seat["hands"] for card in hand), *([flight["card"]] if flight else [])]
    conserved("decks", everywhere, _every_card())
    one_of(state["phase"], "phase", ("day", "night"), "phase")
    one_of(state["direction"], "direction", (1, -1), "direction")
    integer(state["phase_turns"], "phase_turns", 0)
    integer(state["turn_no"], "turn_no", 0)
    for j, pair in enumerate(listing(state["known"], "known")):
        want(isinstance(pair, list) and len(pair) == 2, f"known.{j}", "a [viewer, subject] pair")
        seat(pair[0], f"known.{j}.0", n)
        seat(pair[1], f"known.{j}.1", n)
    _step(state, n)


def _step(state: dict[str, Any], n: int) -> None:
    step = state["step"]
    if state["outcome"] is not None:
        want(step is None, "step", "must be null once there is an outcome")
        return
    step = mapping(step, "step")
    kind = one_of(step.get("kind"), "step.kind", STEPS, "step")
    if kind in ("assign", "first"):  # the host (-1) decides these
        return
    seat(step.get("seat"), "step.seat", n)
    turn = mapping(state["turn"], "turn", ("seat", "no", "extra"))
    seat(turn["seat"], "turn.seat", n)
    integer(turn["no"], "turn.no", 1)
    want(isinstance(step.get("opened"), (int, float)) and not isinstance(step.get("opened"), bool),
         "step.opened", "when the step opened, in epoch seconds")
    if kind == "turn" and step.get("card") is not None:
        want(step["card"] in state["hands"][step["seat"]], "step.card", "the card named is not in that hand")
    if kind in ("leshy", "give"):
        owed = listing(step.get("owed"), "step.owed", n)
        want(any(owed), "step.owed", "nobody owes anything in this step")
    if kind == "keep":
        kept = listing(step.get("kept"), "step.kept")
        want(not Counter(kept) - Counter(state["hands"][step["seat"]]), "step.kept", "kept cards are not held")
    want((state["in_flight"] is not None) == (kind == "counter"), "in_flight",
         "a card is in flight exactly while a counter window is open")
    if kind == "counter" and state["in_flight"]:
        want(state["in_flight"]["target"] == step["seat"], "step.seat", "the counter window is the target's")


__all__ = ["check", "PositionError"]
