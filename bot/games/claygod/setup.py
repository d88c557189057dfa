"""Rule 1 and 2: the shuffle, the deal (five cards to the hand and one face down, each), the lot for the
first turn.  A moderator or a scenario may fix the deal with the stack keys below (docs/games/claygod.md):

    deck         the full order of all 74 cards, top first: seat 0's hand (5) and table card, seat 1's hand (5)
                 and table card, then the deck from the top
    hands        [[ids], [ids]]: cards that must be in each hand (up to 5; the rest is dealt at random)
    table_cards  [id or null, id or null]: each seat's face-down card (null: dealt at random)
    deck_top     [ids]: the first cards of the deck after the deal, top first
    used         [ids]: cards that start in the used pile (oldest first), taken out of the deck
    deck_size    N: the deck keeps only its top N cards, the others join the used pile (to reach the reshuffle)
    stats        [{health, sphere}, {health, sphere}]: starting numbers other than 50 / 50 (a disputed position)
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import RECORD, Code, Ctx, Reject

from .cards import card_ids, rules
from .state import new_player
from .turns import begin_turn

DECK_TAG = "claygod.deck"
FIRST_TAG = "claygod.first"
STACK_KEYS = ("deck", "hands", "table_cards", "deck_top", "used", "deck_size", "stats")


def _bad(key: str, detail: str) -> Reject:
    return Reject("claygod.reject.bad_stack", code=Code.BAD_SETUP, key=key, detail=detail)


def _ids(value: Any, key: str, size: int | None = None, nulls: bool = False) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _bad(key, f"a list of {size} card ids" if size else "a list of card ids")
    known = set(card_ids())
    for item in value:
        if not ((isinstance(item, str) and item in known) or (nulls and item is None)):
            raise _bad(key, f"unknown card {item!r}")
    return value


def _placed_cards(stack: Mapping[str, Any]) -> tuple[list[list[str]], list[str | None], list[str], list[str]]:
    """The partial deal a stack asks for, validated: hands, table cards, top of the deck, used pile."""
    hands = stack.get("hands", [[], []])
    if not isinstance(hands, list) or len(hands) != 2:
        raise _bad("hands", "two lists, one per seat")
    hands = [_ids(h, "hands") for h in hands]
    if any(len(h) > rules()["hand_size"] for h in hands):
        raise _bad("hands", f"at most {rules()['hand_size']} cards a hand")
    tables = _ids(stack.get("table_cards", [None, None]), "table_cards", 2, nulls=True)
    top = _ids(stack.get("deck_top", []), "deck_top")
    used = _ids(stack.get("used", []), "used")
    _no_twice({"hands": [*hands[0], *hands[1]], "table_cards": tables, "deck_top": top, "used": used})
    return hands, tables, top, used


def _no_twice(places: dict[str, Sequence[str | None]]) -> None:
    """Each card is in one place only; the refusal names the card and where it was asked for."""
    seen: dict[str, str] = {}
    for key, cards in places.items():
        for card in cards:
            if card is None:
                continue
            if card in seen:
                where = key if seen[card] == key else f"{seen[card]} and {key}"
                raise _bad(key, f"{card} is placed twice ({where})")
            seen[card] = key


def _deck_size(rest: list[str], used: list[str], stack: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The stack key ``deck_size``: the deck keeps its top N cards, the others go under the used pile."""
    size = stack.get("deck_size")
    if size is None:
        return rest, used
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= len(rest):
        raise _bad("deck_size", f"a whole number from 0 to {len(rest)}")
    return rest[:size], [*used, *rest[size:]]


def deal(state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
    every = card_ids()
    hand_size = rules()["hand_size"]
    if "deck" in stack:
        if set(stack) & {"hands", "table_cards", "deck_top"}:
            raise _bad("deck", "a full deck order excludes hands, table_cards and deck_top")
        order = _ids(stack["deck"], "deck", len(every))
        if sorted(order) != sorted(every):
            raise _bad("deck", "not a permutation of the 74 cards")
        block = hand_size + 1
        hands = [order[:hand_size], order[block:block + hand_size]]
        tables = [order[hand_size], order[block + hand_size]]
        used = _ids(stack.get("used", []), "used")
        _no_twice({"used": used})
        stray = [c for c in used if c not in order[2 * block:]]
        if stray:
            raise _bad("used", f"{stray[0]} is dealt to a hand or the table, not left in the deck")
        rest = [c for c in order[2 * block:] if c not in used]
    else:
        hands, tables, top, used = _placed_cards(stack)
        placed = {c for c in [*hands[0], *hands[1], *tables, *top, *used] if c is not None}
        pool = [c for c in every if c not in placed]
        ctx.rng.shuffle(pool, DECK_TAG)
        hands = [list(h) for h in hands]
        for seat in (0, 1):
            while len(hands[seat]) < hand_size:
                hands[seat].append(pool.pop(0))
        tables = [t if t is not None else pool.pop(0) for t in tables]
        rest = [*top, *pool]
    rest, used = _deck_size(rest, used, stack)
    ctx.emit("shuffled", to=RECORD, order=[*hands[0], tables[0], *hands[1], tables[1], *rest, *used])
    for seat in (0, 1):
        state["players"][seat]["hand"] = list(hands[seat])
        state["players"][seat]["table_card"] = tables[seat]
        ctx.emit("dealt", to=[seat], seat=seat, cards=list(hands[seat]))
    ctx.emit("table_cards_set", to=RECORD, cards=list(tables))
    state["deck"] = list(rest)
    if used:
        state["discard"] = list(used)
        ctx.emit("used_pile_set", count=len(used), cards=list(used))


def _stats(stack: Mapping[str, Any]) -> list[dict[str, Any]]:
    stats = stack.get("stats", [{}, {}])
    if not isinstance(stats, list) or len(stats) != 2 or not all(isinstance(s, dict) for s in stats):
        raise _bad("stats", "two mappings, one per seat")
    for s in stats:
        if set(s) - {"health", "sphere"} or not all(isinstance(v, int) and not isinstance(v, bool)
                                                     for v in s.values()):
            raise _bad("stats", "only whole-number health and sphere")
    return stats


def setup(state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
    stats = _stats(stack)
    state["players"] = [new_player(s) for s in stats]
    if state["options"]["maximum"] == "win_line":  # ruling CG-4
        for p in state["players"]:
            p["max_health"] = p["max_sphere"] = rules()["win_above"]
    state["deck"], state["discard"], state["turn"] = [], [], None
    deal(state, ctx, stack)
    first = ctx.rng.randint(0, 1, FIRST_TAG)
    ctx.emit("first", seat=first)
    begin_turn(state, first, ctx)
