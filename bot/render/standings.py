"""A tournament's standings as text: the monospace table the terminal prints and Discord posts in a code block.

The render layer's: it is given the standings as rows (``Standing.as_dict``, bot/tournament/standings.py) and
imports nothing of the tournament package above it."""
from __future__ import annotations

import csv
import io
from typing import Any

from bot.i18n import t

#: the tie-breaks the standings show for each format (as text: ``standings_text``; as a picture:
#: bot/render/picture/standings.py)
SHOWN = {"swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger"), "round_robin": ("sonneborn_berger",),
         "elimination": ("survived",), "double_elimination": ("survived",), "multiseat": ("opponents_average",)}


def points_text(value: float) -> str:
    return f"{value:g}"


def standings_text(rows: list[dict[str, Any]], fmt: str, locale: str) -> str:
    """The standings as monospace lines: place (shared in a bracket: "5–8"), name, points, W-D-L, and the
    format's tie-breaks."""
    columns = SHOWN[fmt]
    rated = any(r.get("rating") is not None for r in rows)  # the ratings at the start, when it was seeded so
    head = [t("tournament.col.rank", locale), t("tournament.col.player", locale),
            *([t("ratings.col.rating", locale)] if rated else []), t("tournament.col.points", locale),
            t("tournament.col.wdl", locale), *(t(f"tournament.col.{c}", locale) for c in columns)]
    lines = [head]
    for r in rows:
        name = r["name"] + ("" if r["status"] == "active" else " ✗")
        lines.append([r.get("place") or str(r["rank"]), name, *([str(r.get("rating") or "—")] if rated else []),
                      points_text(r["points"]), f"{r['wins']}-{r['draws']}-{r['losses']}",
                      *(points_text(r[c]) for c in columns)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines)


def export_csv(data: dict[str, Any]) -> str:
    """A tournament's export (``Director.export``) as CSV, for the terminal's ``export`` and Discord's
    ``/organise export``: two tables in one file, the standings, a blank line, then every game."""
    out = io.StringIO()
    writer = csv.writer(out)
    fields = list(data["standings"][0]) if data["standings"] else ["rank"]
    writer.writerow(fields)
    for row in data["standings"]:
        writer.writerow([row[f] for f in fields])
    writer.writerow([])
    writer.writerow(["round", "board", "kind", "players", "table", "status", "points", "result"])
    for g in data["games"]:
        writer.writerow([g["round"], g["board"], g["kind"], " ".join(g["players"]), g["table"] or "", g["status"] or "",
                         " ".join(f"{p}={points_text(v)}" for p, v in (g["points"] or {}).items()), g["result"] or ""])
    return out.getvalue()
