"""Preparing the table and the start of a turn: two decks never mixed, six fighters each, the trump card to
the bottom of the deck; a turn refills the hand to six and reveals a property when none is unguarded.

Hidden information: a drawn card goes only to the drawer ("drew"); the others learn the count ("drew_count").
"""
from __future__ import annotations

from typing import Any, Mapping, cast

from bot.engine import RECORD, Code, Ctx, Reject
from bot.engine.hands import draw_into

from .cards import set_names, table_cards
from .state import BASE_TARGET, HAND, unguarded

DECK_TAG = "raiders.deck"
PROPERTY_TAG = "raiders.properties"
FIRST_TAG = "raiders.first"
RESHUFFLE_TAG = "raiders.reshuffle"
#: a scenario may stack the fighter deck and the property deck (top first), and the first player
STACK_KEYS = ("deck", "properties", "first")


def copies_for(options: Mapping[str, Any], seats: int) -> int:
    """Two sets mixed for more than four players (the book's advice), unless the table says otherwise."""
    sets = options["sets"]
    return 2 if sets == "two" or (sets == "auto" and seats > 4) else 1


def target_for(options: Mapping[str, Any], seats: int) -> int:
    """36 бабки; the book's variant for 3+ players: 6 fewer for each player beyond two.  A pair plays for 36
    together whatever ``short_target`` says: «побеждает та пара, которая в сумме набрала 36 бабок» (RD-21)."""
    if options["pairs"]:
        return BASE_TARGET
    if options["short_target"] and seats > 2:
        return BASE_TARGET - 6 * (seats - 2)
    return BASE_TARGET


def check_seats(options: Mapping[str, Any], seats: int) -> None:
    if options["pairs"] and seats != 4:
        raise Reject("raiders.reject.pairs_need_four", code=Code.BAD_SETUP, rule="Варианты игры", seats=seats)


def setup(state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
    options, seats = state["options"], state["seats"]
    check_seats(options, seats)
    name = options["deck"]
    if name not in set_names():
        raise Reject("raiders.reject.no_deck", code=Code.BAD_SETUP, deck=name)
    copies = copies_for(options, seats)
    cards = table_cards(name, copies)
    deck, pdeck = _ordered(stack, "deck", list(cards.fighters)), _ordered(stack, "properties", list(cards.properties))
    if "deck" not in stack:
        ctx.rng.shuffle(deck, DECK_TAG)
    if "properties" not in stack:
        ctx.rng.shuffle(pdeck, PROPERTY_TAG)
    if len(deck) < HAND * seats + 1:
        raise Reject("raiders.reject.small_deck", code=Code.BAD_SETUP, cards=len(deck), seats=seats)
    state.update({
        "deck_set": name, "copies": copies, "deck": deck, "discard": [], "pdeck": pdeck,
        "players": [{"hand": []} for _ in range(seats)], "props": [], "mods": {}, "window": None,
        "target": target_for(options, seats), "teams": [[0, 2], [1, 3]] if options["pairs"] else None,
        "turn": {"seat": 0, "number": 0, "captured": False},
    })
    ctx.emit("shuffled", to=RECORD, deck=list(deck), properties=list(pdeck))
    for seat in range(seats):
        draw(state, seat, HAND, ctx)
    trump_card = state["deck"].pop(0)
    state["deck"].append(trump_card)
    state["trump"] = cards.fighters[trump_card].suit
    state["trump_card"] = trump_card
    state["trump_shown"] = True
    ctx.emit("trump", card=trump_card, suit=state["trump"], rule="Козыри")
    first = stack.get("first")
    if first is None:
        first = ctx.rng.randint(0, seats - 1, FIRST_TAG)
    elif not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats:
        raise Reject("raiders.reject.bad_first", code=Code.BAD_SETUP, seats=seats)
    ctx.emit("set_up", deck=name, copies=copies, target=state["target"], teams=state["teams"], first=first)
    start_turn(state, first, ctx)


def _ordered(stack: Mapping[str, Any], key: str, cards: list[str]) -> list[str]:
    """A stacked deck: the named cards on top in that order, the rest after them (unshuffled)."""
    if key not in stack:
        return cards
    top = stack[key]
    if not isinstance(top, list) or len(set(map(str, top))) != len(top) or any(c not in cards for c in top):
        raise Reject("raiders.reject.bad_stack", code=Code.BAD_SETUP, key=key)
    return list(top) + [c for c in cards if c not in top]


def draw_one(state: dict[str, Any], ctx: Ctx) -> str | None:
    """The top fighter; an empty deck is first rebuilt from its shuffled discards («Конец колоды»)."""
    if not state["deck"]:
        if not state["discard"]:
            return None
        pile = list(state["discard"])
        ctx.rng.shuffle(pile, RESHUFFLE_TAG)
        state["deck"], state["discard"] = pile, []
        ctx.emit("shuffled", to=RECORD, deck=list(pile))
        ctx.emit("reshuffled", count=len(pile), rule="Конец колоды")
    if len(state["deck"]) == 1:
        state["trump_shown"] = False  # the card everyone saw at the bottom leaves the deck
    return cast("str | None", state["deck"].pop(0))


def draw(state: dict[str, Any], seat: int, n: int, ctx: Ctx) -> list[str]:
    return draw_into(state["players"][seat]["hand"], n, lambda: draw_one(state, ctx), ctx, seat)


def start_turn(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """«В начале вашего хода доберите в руку до 6-и карт ... откройте собственность, если нет не охраняемой»."""
    state["turn"] = {"seat": seat, "number": state["turn"]["number"] + 1, "captured": False}
    state["mods"] = {}
    ctx.emit("turn", seat=seat, number=state["turn"]["number"])
    missing = HAND - len(state["players"][seat]["hand"])
    if missing > 0:
        draw(state, seat, missing, ctx)
    if not unguarded(state):
        if state["pdeck"]:
            card = state["pdeck"].pop(0)
            state["props"].append({"card": card, "guard": None, "owner": None})
            ctx.emit("revealed", card=card, rule="Ход")
        else:
            ctx.emit("no_property", ruling="RD-5")
