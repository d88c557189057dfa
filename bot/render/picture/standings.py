"""A tournament's standings as a picture (PNG), beside their text in ``/tournament standings``: rank, player,
points as a bar, wins-draws-losses and the format's tie-breaks, the leaders marked.  Drawn on the same canvas,
fonts and theme as the table pictures; the same rows always give the same bytes, kept for the next reader."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping, Sequence

from bot.i18n import t
from bot.render.standings import SHOWN as COLUMNS

from .canvas import ACCENT, FAINT, GOLD, INK, MUTED, PANEL, PANEL_LIGHT, Canvas, fit

MOST_ROWS = 64          # a 256-player Swiss shows its top 64 and says how many more there are
WIDTH, ROW = 760, 26
_MEDALS = {1: GOLD, 2: (192, 197, 206), 3: (205, 127, 50)}


def standings_png(rows: Sequence[Mapping[str, Any]], fmt: str, locale: str, title: str) -> bytes:
    """The PNG of ``rows`` (``Standing.as_dict`` with ``rank``), cached by their content."""
    keep = [{k: r[k] for k in ("rank", "name", "status", "points", "wins", "draws", "losses", *COLUMNS[fmt])}
            for r in rows]
    return _drawn(json.dumps(keep, ensure_ascii=False, sort_keys=True), fmt, locale, title)


@lru_cache(maxsize=32)
def _drawn(rows_json: str, fmt: str, locale: str, title: str) -> bytes:
    rows = json.loads(rows_json)
    columns = COLUMNS[fmt]
    canvas = Canvas(WIDTH, height=120 + ROW * (min(len(rows), MOST_ROWS) + 2))
    canvas.text(16, 12, fit(title, 20, WIDTH - 32, bold=True), size=20, bold=True)
    x_name, x_bar, x_wdl, x_tie = 64, 330, 470, 560
    tie_w = (WIDTH - 16 - x_tie) // max(1, len(columns))
    y = 48
    heads = [(16, "rank"), (x_name, "player"), (x_bar, "points"), (x_wdl, "wdl")]
    for x, key in heads:
        canvas.text(x, y, t(f"tournament.col.{key}", locale), size=13, colour=MUTED, bold=True)
    for i, c in enumerate(columns):
        canvas.text(x_tie + i * tie_w, y, fit(t(f"tournament.col.{c}", locale), 13, tie_w - 6, bold=True), size=13,
                    colour=MUTED, bold=True)
    y += 24
    best = max((r["points"] for r in rows), default=0) or 1
    for n, r in enumerate(rows[:MOST_ROWS]):
        canvas.box(8, y - 3, WIDTH - 8, y + ROW - 5, fill=PANEL if n % 2 else PANEL_LIGHT, radius=4)
        medal = _MEDALS.get(r["rank"])
        if medal:
            canvas.circle(26, y + 9, 10, fill=medal)
        canvas.text(26, y + 9, str(r["rank"]), size=13, bold=True, colour=PANEL if medal else INK, anchor="mm")
        active = r["status"] == "active"
        canvas.text(x_name, y, r["name"] + ("" if active else " ✗"), size=15, colour=INK if active else FAINT,
                    width=x_bar - x_name - 10)
        canvas.bar(x_bar, y + 1, 120, 16, round(r["points"] * 100), round(best * 100), colour=ACCENT,
                   label=f"{r['points']:g}", size=12)
        canvas.text(x_wdl, y, f"{r['wins']}-{r['draws']}-{r['losses']}", size=14, colour=MUTED)
        for i, c in enumerate(columns):
            canvas.text(x_tie + i * tie_w, y, f"{r[c]:g}", size=14, colour=MUTED)
        y += ROW
    if len(rows) > MOST_ROWS:
        canvas.text(16, y + 2, t("tournament.picture.more", locale, n=len(rows) - MOST_ROWS), size=13, colour=MUTED)
    return canvas.png()
