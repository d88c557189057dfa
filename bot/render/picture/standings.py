"""A tournament's standings as a picture (PNG), beside their text in ``/tournament standings``: rank, player,
points as a bar, wins-draws-losses and the format's tie-breaks, the leaders marked.  Drawn on the same canvas,
fonts and theme as the table pictures, laid out for a phone (400 units wide, no text under 13 units: a
player's row is one line, the points in figures); the same rows always give the same bytes, kept for the next
reader."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping, Sequence

from bot.engine.canvas import ACCENT, FAINT, GOLD, INK, MUTED, PANEL, PANEL_LIGHT, PHONE, Canvas, fit, text_width
from bot.i18n import t
from bot.render.standings import SHOWN as COLUMNS

MOST_ROWS = 64          # a 256-player Swiss shows its top 64 and says how many more there are
WIDTH, ROW = PHONE, 26
_MEDALS = {1: GOLD, 2: (192, 197, 206), 3: (205, 127, 50)}


def standings_png(rows: Sequence[Mapping[str, Any]], fmt: str, locale: str, title: str) -> bytes:
    """The PNG of ``rows`` (``Standing.as_dict`` with ``rank``), cached by their content."""
    keep = [{**{k: r[k] for k in ("rank", "name", "status", "points", "wins", "draws", "losses", *COLUMNS[fmt])},
             "place": r.get("place") or str(r["rank"])} for r in rows]
    return _drawn(json.dumps(keep, ensure_ascii=False, sort_keys=True), fmt, locale, title)


@lru_cache(maxsize=32)
def _drawn(rows_json: str, fmt: str, locale: str, title: str) -> bytes:
    return standings_canvas(json.loads(rows_json), fmt, locale, title).png()


def standings_canvas(rows: Sequence[Mapping[str, Any]], fmt: str, locale: str, title: str) -> Canvas:
    columns = COLUMNS[fmt]
    canvas = Canvas(WIDTH, height=120 + ROW * (min(len(rows), MOST_ROWS) + 2))
    canvas.text(8, 8, title, size=18, bold=True, width=WIDTH - 16)
    # the columns from the right: the tie-breaks, wins-draws-losses, the points; the name takes the rest
    tie_w = 48
    x_tie = WIDTH - 8 - tie_w * len(columns)
    wdl_w = max(52, text_width(t("tournament.col.wdl", locale), 13, True) + 8)
    x_wdl = x_tie - wdl_w
    x_points = x_wdl - 44
    x_name = 38
    y = 40
    heads = [(8, "rank"), (x_name, "player"), (x_points, "points"), (x_wdl, "wdl")]
    for x, key in heads:
        canvas.text(x, y, t(f"tournament.col.{key}", locale), size=13, colour=MUTED, bold=True,
                    width=(x_points - x_name - 6) if key == "player" else 40 if key != "wdl" else wdl_w - 4)
    for i, c in enumerate(columns):
        canvas.text(x_tie + i * tie_w, y, t(f"tournament.col.{c}", locale), size=13, colour=MUTED, bold=True,
                    width=tie_w - 4)
    y += 22
    for n, r in enumerate(rows[:MOST_ROWS]):
        canvas.box(4, y - 3, WIDTH - 4, y + ROW - 5, fill=PANEL if n % 2 else PANEL_LIGHT, radius=4)
        place = r.get("place") or str(r["rank"])   # shared in a bracket: "3–4" both take bronze
        medal = _MEDALS.get(int(place.split("–")[0]))
        if medal:
            canvas.circle(18, y + 9, 10, fill=medal)
        canvas.text(18, y + 9, place, size=13 if len(place) < 4 else 9, bold=True, colour=PANEL if medal else INK,
                    anchor="mm")
        active = r["status"] == "active"
        canvas.text(x_name, y, r["name"] + ("" if active else " ✗"), size=15, colour=INK if active else FAINT,
                    width=x_points - x_name - 6)
        canvas.text(x_points, y, f"{r['points']:g}", size=15, bold=True, colour=ACCENT if medal else INK)
        canvas.text(x_wdl, y + 1, fit(f"{r['wins']}-{r['draws']}-{r['losses']}", 14, wdl_w - 4), size=14,
                    colour=MUTED)
        for i, c in enumerate(columns):
            canvas.text(x_tie + i * tie_w, y + 1, f"{round(r[c], 2):g}", size=14, colour=MUTED, width=tie_w - 4)
        y += ROW
    if len(rows) > MOST_ROWS:
        canvas.text(8, y + 2, t("tournament.picture.more", locale, n=len(rows) - MOST_ROWS), size=14, colour=MUTED)
    return canvas
