"""A tournament's standings as text: the monospace table the terminal prints and Discord posts in a code block.

The render layer's: it is given the standings as rows (``Standing.as_dict``, bot/tournament/standings.py) and
imports nothing of the tournament package above it."""
from __future__ import annotations

from typing import Any

from bot.i18n import t

#: the tie-breaks the standings show for each format (as text: ``standings_text``; as a picture:
#: bot/render/picture/standings.py)
SHOWN = {"swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger"), "round_robin": ("sonneborn_berger",),
         "elimination": ("survived",), "multiseat": ("opponents_average",)}


def points_text(value: float) -> str:
    return f"{value:g}"


def standings_text(rows: list[dict[str, Any]], fmt: str, locale: str) -> str:
    """The standings as monospace lines: rank, name, points, W-D-L, and the format's tie-breaks."""
    columns = SHOWN[fmt]
    head = [t("tournament.col.rank", locale), t("tournament.col.player", locale), t("tournament.col.points", locale),
            t("tournament.col.wdl", locale), *(t(f"tournament.col.{c}", locale) for c in columns)]
    lines = [head]
    for r in rows:
        name = r["name"] + ("" if r["status"] == "active" else " ✗")
        lines.append([str(r["rank"]), name, points_text(r["points"]), f"{r['wins']}-{r['draws']}-{r['losses']}",
                      *(points_text(r[c]) for c in columns)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines)
