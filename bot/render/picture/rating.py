"""A player's rating over their rated games: a small line chart for ``/profile``, laid out for a phone (400
units wide, no text under 13 units)."""
from __future__ import annotations

from typing import Sequence

from bot.engine.canvas import ACCENT, LINE, MUTED, PANEL, PHONE, Canvas
from bot.i18n import t

WIDTH = PHONE
HEIGHT = 160


def rating_history(game_title: str, shown: Sequence[int], locale: str) -> bytes:
    """``shown``: the displayed figure after each rated game, oldest first (at least one)."""
    c = Canvas(WIDTH)
    c.text(0, 0, t("ratings.picture.title", locale, game=game_title, n=len(shown)), size=15, colour=MUTED,
           width=WIDTH)
    top, left, right, bottom = 26, 48, WIDTH - 6, 26 + HEIGHT
    c.box(left, top, right, bottom, fill=PANEL, radius=4)
    low, high = min(shown), max(shown)
    if high - low < 20:  # a flat line still gets a scale
        low, high = low - 10, high + 10
    for value in (low, high):
        y = bottom - 6 - (value - low) / (high - low) * (HEIGHT - 12)
        c.text(left - 4, y, str(value), size=13, colour=MUTED, anchor="rm")
        c.line([(left + 2, y), (right - 2, y)], colour=LINE, width=1)
    points = [(left + 6 + (i / max(1, len(shown) - 1)) * (right - left - 12),
               bottom - 6 - (v - low) / (high - low) * (HEIGHT - 12)) for i, v in enumerate(shown)]
    if len(points) > 1:
        c.line(points, colour=ACCENT, width=2)
    x, y = points[-1]
    c.circle(x, y, 3, fill=ACCENT)
    return c.png()
