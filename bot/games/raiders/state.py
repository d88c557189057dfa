"""The shape of a Raiders table and small helpers over it: the fighters on the board, their крутизна, the
property each player holds and what it brings (bonuses per kind), the win.

    deck_set, copies   which deck file, and 1 or 2 copies of it (two sets mixed for a large table)
    trump, trump_card  the trump suit, and the card that showed it (at the bottom of the deck until drawn)
    deck, discard      the fighter deck (top first) and its битые карты (public, oldest first)
    pdeck              the property deck (top first); properties never leave the board once revealed
    players[i].hand    fighter cards in hand (the owner sees them)
    props              revealed properties in order: {card, guard (fighter id or None), owner (seat or None)}
    turn               seat, number, captured (the turn's one attempt is spent)
    window             None, or the interrupt window: see window.py
    mods               крутизна changes of fighters until the end of the current capture (or of the turn)
    target, teams      бабки needed to win, and the pairs (None when everyone plays for themselves)
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, cast

from .cards import fighter, prop

HAND = 6
BASE_TARGET = 36


def guard_of(state: dict[str, Any], prop_card: str) -> dict[str, Any]:
    return next(p for p in state["props"] if p["card"] == prop_card)


def board_fighters(state: Mapping[str, Any]) -> Iterator[tuple[str, int, str | None]]:
    """Every fighter on the board: (card, owner, the property it guards or None for the attacker)."""
    for p in state["props"]:
        if p["guard"] is not None:
            yield p["guard"], p["owner"], p["card"]
    w = state["window"]
    if w and w["capture"] and w["capture"]["fighter"] is not None:
        yield w["capture"]["fighter"], w["capture"]["seat"], None


def on_board(state: Mapping[str, Any], card: str) -> tuple[int, str | None] | None:
    """(owner, guarded property) of a fighter on the board, or None."""
    return next(((o, p) for c, o, p in board_fighters(state) if c == card), None)


def krutizna(state: dict[str, Any], card: str) -> int:
    """A fighter's крутизна now (its changes of this capture or turn included).  A шняга-only card has none and
    never reaches the board; counted as 0 where a bot weighs the cards in a hand."""
    return cast("int", (fighter(state, card).krutizna or 0) + state["mods"].get(card, 0))


def unguarded(state: dict[str, Any]) -> list[str]:
    return [p["card"] for p in state["props"] if p["guard"] is None]


def held(state: dict[str, Any], seat: int) -> list[str]:
    return [p["card"] for p in state["props"] if p["owner"] == seat]


def kind_value(values: list[int], bonuses: dict[int, int]) -> int:
    """What n properties of one kind bring: their бабки, or a bonus for k of them plus the rest, whichever is
    more for the owner (ruling RD-12: a table stops at 3 but you hold 4)."""
    values = sorted(values, reverse=True)
    best = sum(values)
    for k, bonus in bonuses.items():
        if k <= len(values):
            best = max(best, bonus + sum(values[:len(values) - k]))
    return best


def babki(state: dict[str, Any], seat: int) -> int:
    """A player's бабки: bonuses are counted per player, also in the pairs variant."""
    kinds: dict[str, list[str]] = {}
    for card in held(state, seat):
        kinds.setdefault(prop(state, card).kind, []).append(card)
    total = 0
    for cards in kinds.values():
        bonuses = prop(state, cards[0]).bonuses
        total += kind_value([prop(state, c).babki for c in cards], dict(bonuses))
    return total


def sides(state: dict[str, Any]) -> list[list[int]]:
    """Who wins together: the pairs, or each player alone."""
    return state["teams"] or [[s] for s in range(state["seats"])]


def side_total(state: dict[str, Any], side: list[int]) -> int:
    return sum(babki(state, s) for s in side)


def active(state: dict[str, Any]) -> int:
    return cast("int", state["turn"]["seat"])


def turn_order_from(state: dict[str, Any], seat: int) -> list[int]:
    n = state["seats"]
    return [(seat + i) % n for i in range(n)]


def all_fighters(state: dict[str, Any]) -> list[str]:
    """Every fighter card wherever it is (the invariants' count)."""
    cards = list(state["deck"]) + list(state["discard"])
    for p in state["players"]:
        cards += p["hand"]
    cards += [c for c, _, _ in board_fighters(state)]
    return cards

