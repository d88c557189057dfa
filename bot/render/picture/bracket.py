"""An elimination bracket's path so far as a picture (PNG), in the record posted after each round: a column per
round, a box per match with both players, the score (games won, or the game's points) and the one who went on
in bold; in double elimination each box says its bracket (W winners', L losers', F the final).  Same canvas,
fonts and theme as the standings picture; the same matches always give the same bytes."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping, Sequence

from bot.i18n import t

from .canvas import ACCENT, FAINT, INK, MUTED, PANEL, PANEL_LIGHT, Canvas, fit

COLUMN, BOX, GAP = 210, 50, 10
MOST_MATCHES = 32        # per column: a 256-player bracket's first round shows 32 and says how many more


def bracket_png(columns: Sequence[Mapping[str, Any]], locale: str, title: str) -> bytes:
    """``columns``: per round ``{"round": n, "matches": [{"players": [..], "score": "2:1", "on": name | None,
    "bracket": "W" | "L" | "F" | ""}]}``."""
    return _drawn(json.dumps(list(columns), ensure_ascii=False, sort_keys=True), locale, title)


@lru_cache(maxsize=16)
def _drawn(columns_json: str, locale: str, title: str) -> bytes:
    columns = json.loads(columns_json)
    tallest = max((min(len(c["matches"]), MOST_MATCHES) for c in columns), default=1)
    width = 16 + COLUMN * max(len(columns), 1)
    canvas = Canvas(max(width, 420), height=110 + (BOX + GAP) * (tallest + 1))
    canvas.text(16, 12, fit(title, 20, max(width, 420) - 32, bold=True), size=20, bold=True)
    for i, column in enumerate(columns):
        x = 16 + i * COLUMN
        canvas.text(x, 48, t("tournament.record.bracket_round", locale, round=column["round"]), size=14,
                    colour=MUTED, bold=True)
        y = 74
        for n, match in enumerate(column["matches"][:MOST_MATCHES]):
            canvas.box(x, y, x + COLUMN - 14, y + BOX, fill=PANEL if n % 2 else PANEL_LIGHT, radius=5)
            if match.get("bracket"):
                canvas.text(x + COLUMN - 20, y + 4, match["bracket"], size=11, colour=ACCENT, bold=True, anchor="ra")
            names = match["players"] + ([t("tournament.record.walkover", locale)] if len(match["players"]) == 1
                                        else [])
            scores = (match.get("score") or "").split(":")
            for row, name in enumerate(names[:2]):
                went_on = match.get("on") == name
                canvas.text(x + 8, y + 6 + row * 21, name, size=13, bold=went_on,
                            colour=INK if went_on or match.get("on") is None else FAINT, width=COLUMN - 80)
                if row < len(scores) and scores[row]:
                    canvas.text(x + COLUMN - 40, y + 6 + row * 21, scores[row], size=13, colour=MUTED,
                                anchor="ra")
            y += BOX + GAP
        if len(column["matches"]) > MOST_MATCHES:
            canvas.text(x, y, t("tournament.picture.more", locale, n=len(column["matches"]) - MOST_MATCHES),
                        size=12, colour=MUTED)
    return canvas.png()
