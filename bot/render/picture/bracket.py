"""An elimination bracket's path so far as a picture (PNG), in the record posted after each round: a column per
round, a box per match with both players, the score (games won, or the game's points) and the one who went on
in bold; in double elimination each box says its bracket (W winners', L losers', F the final).  Same canvas,
fonts and theme as the standings picture, laid out for a phone: the rounds one under another, two matches to a
line; the same matches always give the same bytes."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping, Sequence

from bot.engine.canvas import ACCENT, FAINT, INK, MUTED, PANEL, PANEL_LIGHT, PHONE, Canvas, text_width
from bot.i18n import t

WIDTH, BOX, GAP = PHONE, 50, 6
BOX_W = (WIDTH - 16 - GAP) // 2
MOST_MATCHES = 32        # per round: a 256-player bracket's first round shows 32 and says how many more


def bracket_png(columns: Sequence[Mapping[str, Any]], locale: str, title: str) -> bytes:
    """``columns``: per round ``{"round": n, "matches": [{"players": [..], "score": "2:1", "on": name | None,
    "bracket": "W" | "L" | "F" | ""}]}``."""
    return _drawn(json.dumps(list(columns), ensure_ascii=False, sort_keys=True), locale, title)


@lru_cache(maxsize=16)
def _drawn(columns_json: str, locale: str, title: str) -> bytes:
    return bracket_canvas(json.loads(columns_json), locale, title).png()


def bracket_canvas(columns: Sequence[Mapping[str, Any]], locale: str, title: str) -> Canvas:
    lines = sum((min(len(c["matches"]), MOST_MATCHES) + 1) // 2 for c in columns)
    canvas = Canvas(WIDTH, height=80 + 60 * len(columns) + (BOX + GAP) * lines)
    canvas.text(8, 8, title, size=18, bold=True, width=WIDTH - 16)
    y = 40
    for column in columns:
        canvas.text(8, y, t("tournament.record.bracket_round", locale, round=column["round"]), size=15,
                    colour=MUTED, bold=True, width=WIDTH - 16)
        y += 24
        shown = column["matches"][:MOST_MATCHES]
        for n, match in enumerate(shown):
            x = 8 + (n % 2) * (BOX_W + GAP)
            top = y + (n // 2) * (BOX + GAP)
            canvas.box(x, top, x + BOX_W, top + BOX, fill=PANEL if (n // 2) % 2 else PANEL_LIGHT, radius=5)
            names = match["players"] + ([t("tournament.record.walkover", locale)] if len(match["players"]) == 1
                                        else [])
            scores = (match.get("score") or "").split(":")
            mark = match.get("bracket") or ""
            score_w = max([text_width(s, 14) for s in scores if s] + [0]) + 8
            for row, name in enumerate(names[:2]):
                went_on = match.get("on") == name
                right = x + BOX_W - 6 - (text_width(mark, 13, True) + 6 if mark and row == 0 else 0)
                canvas.text(x + 6, top + 5 + row * 21, name, size=14, bold=went_on,
                            colour=INK if went_on or match.get("on") is None else FAINT,
                            width=right - score_w - x - 6)
                if row < len(scores) and scores[row]:
                    canvas.text(right, top + 5 + row * 21, scores[row], size=14, colour=MUTED, anchor="ra")
            if mark:
                canvas.text(x + BOX_W - 6, top + 5, mark, size=13, colour=ACCENT, bold=True, anchor="ra")
        y += (len(shown) + 1) // 2 * (BOX + GAP) + 8
        if len(column["matches"]) > MOST_MATCHES:
            canvas.text(8, y, t("tournament.picture.more", locale, n=len(column["matches"]) - MOST_MATCHES),
                        size=14, colour=MUTED)
            y += 24
    return canvas
