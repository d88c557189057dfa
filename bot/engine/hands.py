"""Card steps that more than one engine takes the same way: drawing into a hand, and re-dealing the hands a
seat cannot see (for ``unseen_variant``)."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from .contract import Ctx


def draw_into(hand: list[str], n: int, take: Callable[[], str | None], ctx: Ctx, seat: int) -> list[str]:
    """Up to ``n`` cards from ``take`` (None: nothing left to take) into ``hand``; the drawing seat is told
    which, the table how many."""
    drawn = []
    for _ in range(n):
        card = take()
        if card is None:
            break
        hand.append(card)
        drawn.append(card)
    if drawn:
        ctx.emit("drew", to=[seat], seat=seat, cards=drawn)
        ctx.emit("drew_count", seat=seat, count=len(drawn))
    return drawn


def redeal_hands(players: Sequence[dict[str, Any]], seats: Iterable[int], pool: list[str], rng: Any) -> list[str]:
    """The hands of ``seats`` go into ``pool`` with the cards already there, which is shuffled and deals each
    hand as many cards as it had; returns the rest of the pool."""
    seats = list(seats)
    pool = list(pool)
    for s in seats:
        pool += players[s]["hand"]
    rng.shuffle(pool)
    for s in seats:
        n = len(players[s]["hand"])
        players[s]["hand"], pool = pool[:n], pool[n:]
    return pool
