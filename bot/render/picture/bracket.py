"""An elimination bracket as a picture (PNG), in the record posted after each round: the whole bracket from the
start, drawn from the same layout as the public page (bot/tournament/bracket_layout.py, ``as_rows``), so the two
never disagree.  Each tree on its own under its title (the bracket, or the upper bracket, the lower bracket and
the grand final; the match for third place), a column per round, a box per match with its number, both places
(a player, "bye", or where the player comes from: "winner of match 3") and the score, the one who went on in
bold, and lines from each match to the one its winner goes to.  A match sits level with the middle of the two
that feed it, as on the page.  Same canvas, fonts and theme as the standings picture; the same bracket always
gives the same bytes."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.engine.canvas import ACCENT, FAINT, INK, LINE, MUTED, PANEL, PANEL_LIGHT, PHONE, Canvas, text_width
from bot.i18n import t

BOX_W, BOX_H, GAP_X, GAP_Y = 196, 64, 34, 12
COLUMN, UNIT = BOX_W + GAP_X, BOX_H + GAP_Y
HEAD = 24                 # a tree's title, and again its round headers
MOST_MATCHES = 16         # in a tree's first column drawn: a bigger bracket's first rounds are left to the page


def bracket_png(trees: Sequence[Mapping[str, Any]], locale: str, title: str) -> bytes:
    """``trees``: ``bracket_layout.as_rows`` — per tree ``{"kind", "title", "columns": [{"title", "step",
    "matches": [{"number", "tag", "slots": [{"text", "kind", "score", "advances"}]}]}]}``."""
    return _drawn(json.dumps(list(trees), ensure_ascii=False, sort_keys=True), locale, title)


@lru_cache(maxsize=16)
def _drawn(trees_json: str, locale: str, title: str) -> bytes:
    return bracket_canvas(json.loads(trees_json), locale, title).png()


def _shown(tree: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], int]:
    """The columns drawn (the first ones dropped while there are more than ``MOST_MATCHES`` in the first), and
    how many matches the first of all had when some were dropped (0 when none)."""
    columns = list(tree["columns"])
    first = len(columns[0]["matches"]) if columns else 0
    while columns and len(columns[0]["matches"]) > MOST_MATCHES:
        columns.pop(0)
    return columns, first if len(columns) < len(tree["columns"]) else 0


def size(trees: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """(width, height) in canvas units."""
    width, height = PHONE, 44
    for tree in trees:
        columns, dropped = _shown(tree)
        width = max(width, 16 + len(columns) * COLUMN)
        height += 2 * HEAD + (HEAD if dropped else 0) + len(columns[0]["matches"]) * UNIT + 16
    return width, height


def bracket_canvas(trees: Sequence[Mapping[str, Any]], locale: str, title: str) -> Canvas:
    width, height = size(trees)
    canvas = Canvas(width, height=height + 40)
    canvas.text(8, 8, title, size=18, bold=True, width=width - 16)
    y = 44
    for tree in trees:
        columns, dropped = _shown(tree)
        canvas.text(8, y, tree["title"], size=16, bold=True, colour=INK, width=width - 16)
        y += HEAD
        if dropped:
            canvas.text(8, y, t("tournament.bracket.later", locale, n=dropped), size=13, colour=MUTED,
                        width=width - 16)
            y += HEAD
        for c, column in enumerate(columns):
            canvas.text(8 + c * COLUMN, y, column["title"], size=13, colour=MUTED, bold=True, width=BOX_W)
        y += HEAD
        rows = len(columns[0]["matches"])
        for c, column in enumerate(columns):
            x = 8 + c * COLUMN
            for i, match in enumerate(column["matches"]):
                cy = _middle(y, rows, len(column["matches"]), i)
                if column["step"] != "end" and c + 1 < len(columns):
                    j = i if column["step"] == "straight" else i // 2
                    ny, mid = _middle(y, rows, len(columns[c + 1]["matches"]), j), x + BOX_W + GAP_X / 2
                    canvas.line([(x + BOX_W, cy), (mid, cy), (mid, ny), (x + COLUMN, ny)], colour=LINE, width=2)
                _match(canvas, x, cy - BOX_H / 2, match, locale)
        y += rows * UNIT + 16
    return canvas


def _middle(top: float, rows: int, count: int, index: int) -> float:
    """Where match ``index`` of a column of ``count`` sits: level with the middle of the two that feed it (the
    page's equal shares of a column's height, ``rows`` boxes tall)."""
    return top + (2 * index + 1) * rows * UNIT / (2 * count)


def _match(canvas: Canvas, x: float, top: float, match: Mapping[str, Any], locale: str) -> None:
    canvas.box(x, top, x + BOX_W, top + BOX_H, fill=PANEL_LIGHT, radius=5)
    head = t("tournament.bracket.match", locale, match=match["number"])
    used = canvas.text(x + 6, top + 3, head, size=13, colour=MUTED)
    if match.get("tag"):
        canvas.text(x + 12 + used, top + 3, match["tag"], size=13, colour=ACCENT, width=BOX_W - 18 - used)
    decided = any(s.get("advances") for s in match["slots"])
    for row, slot in enumerate(match["slots"][:2]):
        line = top + 21 + row * 21
        if row:
            canvas.box(x + 4, line - 1, x + BOX_W - 4, line, fill=PANEL, radius=0)
        waiting = slot["kind"] != "player"
        colour = MUTED if waiting else INK if slot.get("advances") or not decided else FAINT
        score = slot.get("score") or ""
        score_w = text_width(score, 14) + 8 if score else 0
        canvas.text(x + 6, line + 2, slot["text"], size=14, bold=bool(slot.get("advances")), colour=colour,
                    width=BOX_W - 12 - score_w)
        if score:
            canvas.text(x + BOX_W - 6, line + 2, score, size=14, colour=MUTED, anchor="ra")
