"""A Raiders position set up directly (a scenario's ``state`` / ``position``): the invariants the engine keeps,
each refused with the key at fault (bot/engine/position.py).  Pure: no Discord, no storage."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.position import (
    PositionError,
    conserved,
    flag,
    integer,
    listing,
    mapping,
    one_of,
    seat,
    want,
)

from .cards import SUITS, Fighter, cards_of
from .state import board_fighters

PROP_KEYS = ("card", "guard", "owner")
WINDOW_KEYS = ("capture", "queue", "passed", "owe", "vote", "since")


def check(state: dict[str, Any], template: dict[str, Any]) -> None:
    n = state["seats"]
    want(isinstance(state["deck_set"], str), "deck_set", "names a deck file")
    integer(state["copies"], "copies", 1, 2)
    try:
        cards = cards_of(state)
    except Exception:  # noqa: BLE001 an unknown deck file or a deck that does not load
        raise PositionError("deck_set", f"no deck {state['deck_set']!r} with {state['copies']} copies") from None
    fighters, properties = cards.fighters, cards.properties
    for zone in ("deck", "discard"):
        for j, card in enumerate(listing(state[zone], zone)):
            one_of(card, f"{zone}.{j}", fighters, "fighter card")
    for s, p in enumerate(listing(state["players"], "players", n)):
        mapping(p, f"players.{s}", ("hand",))
        for j, card in enumerate(listing(p["hand"], f"players.{s}.hand")):
            one_of(card, f"players.{s}.hand.{j}", fighters, "fighter card")
    for j, card in enumerate(listing(state["pdeck"], "pdeck")):
        one_of(card, f"pdeck.{j}", properties, "property card")
    for j, p in enumerate(listing(state["props"], "props")):
        key = f"props.{j}"
        mapping(p, key, PROP_KEYS)
        one_of(p["card"], f"{key}.card", properties, "property card")
        seat(p["owner"], f"{key}.owner", n, optional=True)
        if p["guard"] is not None:
            one_of(p["guard"], f"{key}.guard", fighters, "fighter card")
        want((p["guard"] is None) == (p["owner"] is None), key, "a guard without an owner, or an owner without one")
    _window(state, n, fighters)
    _where_once(state)
    conserved("deck", [c for c, _, _ in board_fighters(state)] + list(state["deck"]) + list(state["discard"])
              + [c for p in state["players"] for c in p["hand"]], list(fighters), "fighter card")
    conserved("pdeck", list(state["pdeck"]) + [p["card"] for p in state["props"]], list(properties), "property card")
    for card, change in mapping(state["mods"], "mods").items():
        integer(change, f"mods.{card}", -100, 100)
        want(card in {c for c, _, _ in board_fighters(state)}, f"mods.{card}", "a change of крутизна off the board")
    one_of(state["trump"], "trump", SUITS, "suit")
    one_of(state["trump_card"], "trump_card", fighters, "fighter card")
    want(fighters[state["trump_card"]].suit == state["trump"], "trump_card", "its suit is not the trump")
    if flag(state["trump_shown"], "trump_shown"):
        want(bool(state["deck"]) and state["deck"][-1] == state["trump_card"], "trump_shown",
             "the trump card is shown but is not at the bottom of the deck")
    integer(state["target"], "target", 1)
    if state["teams"] is not None:
        teams = listing(state["teams"], "teams")
        flat = [s for team in teams for s in listing(team, "teams")]
        want(sorted(flat) == list(range(n)), "teams", "every seat in exactly one pair")
    turn = mapping(state["turn"], "turn", ("seat", "number", "captured"))
    seat(turn["seat"], "turn.seat", n)
    integer(turn["number"], "turn.number", 1)
    flag(turn["captured"], "turn.captured")


def _window(state: dict[str, Any], n: int, fighters: Mapping[str, Fighter]) -> None:
    w = state["window"]
    if w is None:
        return
    mapping(w, "window", WINDOW_KEYS)
    if w["capture"] is not None:
        capture = mapping(w["capture"], "window.capture", ("seat", "fighter", "prop"))
        seat(capture["seat"], "window.capture.seat", n)
        want(capture["seat"] == state["turn"]["seat"], "window.capture.seat", "only the seat to move captures")
        if capture["fighter"] is not None:
            one_of(capture["fighter"], "window.capture.fighter", fighters, "fighter card")
    passed = listing(w["passed"], "window.passed")
    for j, s in enumerate(passed):
        seat(s, f"window.passed.{j}", n)
    want(len(set(passed)) == len(passed), "window.passed", "a seat passed twice")
    want(len(passed) < n or bool(w["owe"]) or bool(w["vote"]), "window.passed",
         "everyone has passed: the window would have closed")
    want(not (w["owe"] and w["vote"]), "window", "a step owed during a vote")
    if w["owe"] is not None:
        owe = mapping(w["owe"], "window.owe")
        seat(owe.get("seat"), "window.owe.seat", n)
    listing(w["queue"], "window.queue")


def _where_once(state: dict[str, Any]) -> None:
    """A fighter in two places is named where it is found the second time."""
    seen: dict[str, str] = {}
    places = [("deck", c) for c in state["deck"]] + [("discard", c) for c in state["discard"]]
    places += [(f"players.{s}.hand", c) for s, p in enumerate(state["players"]) for c in p["hand"]]
    places += [("props" if prop else "window.capture", c) for c, _, prop in board_fighters(state)]
    for key, card in places:
        if card in seen:
            raise PositionError(key, f"fighter card {card!r} is also in {seen[card]} (every card exactly once)")
        seen[card] = key
