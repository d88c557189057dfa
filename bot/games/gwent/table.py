"""The judge's table: the numbers the forum judge writes on the table after every move (scores, row totals,
each unit's strength, hand and deck counts, the discard piles) and the judge's own copy of the hands by card
id, all by card id and in points.  Derived from the state when asked (``Game.judge_table``), never stored:
scenario checks read it as ``@table.…`` (docs/games/gwent.md, "The state, for scenario checks")."""
from __future__ import annotations

from typing import Any

from .cards import ROWS
from .scoring import row_totals, strengths


def points(tenths: int) -> int | float:
    """Tenths as a number of points: 12, or 12.5 / 12.3 with King Bran or a weakened horn (GW-12)."""
    return tenths // 10 if tenths % 10 == 0 else tenths / 10


def _id(state: dict[str, Any], uid: str | None) -> str | None:
    return state["cards"][uid]["id"] if uid else None


def build(state: dict[str, Any]) -> dict[str, Any]:
    values = strengths(state)
    totals = row_totals(state, values)
    return {
        "score": [points(sum(t.values())) for t in totals],
        "rows": [{row: points(t[row]) for row in ROWS} for t in totals],
        "strength": [{row: [points(values[u]) for u in state["rows"][s][row]] for row in ROWS} for s in (0, 1)],
        "units": [{row: [state["cards"][u]["id"] for u in state["rows"][s][row]] for row in ROWS} for s in (0, 1)],
        "hand": [len(state["hand"][s]) for s in (0, 1)],
        # The judge's copy of each player's hand (the rule book's Hand case): hidden, never in a view.
        "hands": [[state["cards"][u]["id"] for u in state["hand"][s]] for s in (0, 1)],
        "deck": [len(state["deck"][s]) + len(state["aside"][s]) + len(state["cand"][s]) for s in (0, 1)],
        "discard": [[state["cards"][u]["id"] for u in state["discard"][s]] for s in (0, 1)],
        "weather": sorted({w["kind"] for w in state["weather"]}),
        # Each row's special slots by card id: the Commander's Horn and the Mardroeme (or null), and the
        # horns that are no card (a leader's, Crach an Craite's HardGwent horn).
        "slots": [{row: {"horn": _id(state, slot["horn"]), "mardroeme": _id(state, slot["mardroeme"]),
                         "leader_horn": slot["leader_horn"], "horn_crach": slot["horn_crach"]}
                   for row, slot in state["slots"][s].items()} for s in (0, 1)],
    }
