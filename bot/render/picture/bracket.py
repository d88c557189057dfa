"""An elimination bracket as a picture (PNG), in the record posted after each round: the whole bracket from the
start, drawn from the same layout as the public page (bot/tournament/bracket_layout.py, ``as_rows``), so the two
never disagree.  Each tree on its own under its title (the bracket, or the upper bracket, the lower bracket and
the grand final; the match for third place), and in it the rounds stacked one under the other, two matches to
a row: a picture in Discord is shown at a phone's width, so it is drawn at that width (a tree's columns side by
side would be shrunk past reading).  A box per match with its number, both places (a player, "bye", or where
the player comes from: "winner of match 3", which is what the page's lines draw) and the score, the one who
went on in bold.  Same canvas, fonts and theme as the standings picture; the same bracket always gives the same
bytes."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import ceil
from typing import Any

from bot.engine.canvas import ACCENT, FAINT, INK, MUTED, PANEL, PANEL_LIGHT, PHONE, Canvas, text_width
from bot.i18n import t

PER_ROW, GAP_X, BOX_H, GAP_Y = 2, 10, 64, 10
BOX_W = (PHONE - 16 - GAP_X) // PER_ROW   # two matches side by side on a phone-wide canvas
UNIT = BOX_H + GAP_Y
HEAD = 24                 # a tree's title, and again each round's header
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
    """(width, height) in canvas units: always a phone's width."""
    height = 44
    for tree in trees:
        columns, dropped = _shown(tree)
        height += HEAD + (HEAD if dropped else 0) + 8
        height += sum(HEAD + _rows(column) * UNIT for column in columns)
    return PHONE, height


def _rows(column: Mapping[str, Any]) -> int:
    return ceil(len(column["matches"]) / PER_ROW)


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
        for column in columns:
            canvas.text(8, y, column["title"], size=13, colour=MUTED, bold=True, width=width - 16)
            y += HEAD
            for i, match in enumerate(column["matches"]):
                _match(canvas, 8 + (i % PER_ROW) * (BOX_W + GAP_X), y + (i // PER_ROW) * UNIT, match, locale)
            y += _rows(column) * UNIT
        y += 8
    return canvas


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
