"""The deck, the used pile and the hands: drawing, the reshuffle of rule 4, refilling after a turn.

Hidden information: a drawn card's id goes only to the drawer ("drew"); everyone else learns the count
("drew_count").  A face-down table card is seen by nobody, so its id is kept in the record only.
"""
from __future__ import annotations

from typing import Any, cast

from bot.engine import RECORD, Ctx
from bot.engine.hands import draw_into

from .state import player

RESHUFFLE_TAG = "claygod.reshuffle"


def draw_one(state: dict[str, Any], ctx: Ctx) -> str | None:
    """The top card of the deck, or None when the deck and the used pile are both empty.  Rule 4: «когда
    игральная колода заканчивается, использованные карты перемешиваются» — the used pile becomes the new deck
    as soon as the last card is taken (or at the next draw, if the pile was empty then)."""
    if not state["deck"]:
        _rebuild(state, ctx)
    if not state["deck"]:
        return None
    card = state["deck"].pop(0)
    if not state["deck"]:
        _rebuild(state, ctx)
    return cast("str | None", card)


def _rebuild(state: dict[str, Any], ctx: Ctx) -> None:
    if not state["discard"]:
        return
    pile = list(state["discard"])
    ctx.rng.shuffle(pile, RESHUFFLE_TAG)
    state["deck"], state["discard"] = pile, []
    ctx.emit("shuffled", to=RECORD, order=list(pile))
    ctx.emit("reshuffled", count=len(pile), ruling="§4")


def draw(state: dict[str, Any], seat: int, n: int, ctx: Ctx) -> list[str]:
    """Draw up to ``n`` cards into the seat's hand."""
    return draw_into(player(state, seat)["hand"], n, lambda: draw_one(state, ctx), ctx, seat)


def refill(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """Rule 5: after the turn the hand is filled up to the hand size, then an empty table place gets a new
    face-down card (ruling CG-19) — unless a card played from it took the place for good (CG-20)."""
    p = player(state, seat)
    missing = p["hand_size"] - len(p["hand"])
    if missing > 0:
        draw(state, seat, missing, ctx)
    if p["table_card"] is None and p.get("table_place", True):
        card = draw_one(state, ctx)
        if card is not None:
            p["table_card"] = card
            ctx.emit("table_card_set", to=RECORD, seat=seat, card=card)
            ctx.emit("table_card_laid", seat=seat)


def discard(state: dict[str, Any], card: str) -> None:
    state["discard"].append(card)
