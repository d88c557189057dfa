"""A Swiss (or round robin) of two-seat tables as FIDE's Tournament Report File, TRF16 (the TRF-2006 layout),
so that established pairing checkers can read it (docs/tournaments.md "TRF").

Written from the auditor's export (bot/tournament/audit.py): the name field holds the player's pseudonymous id
(ASCII, so the fixed columns hold whatever the names' script; the same id as in the JSON and CSV).  Colours: seat
0 moves first and is written ``w``, seat 1 ``b`` — the pairing balances who sits first as a Swiss balances
colours (bot/tournament/pairing.py ``seat_order``).  Only the rounds whose every game is settled are written.
"""
from __future__ import annotations

from typing import Any

FORMATS = ("swiss", "round_robin")
#: a round's block: 4 digits of the opponent's starting rank, the colour, the result; the first starts at column 92
FIRST_ROUND_COLUMN = 92
ROUND_WIDTH = 10


class NotWritable(ValueError):
    """The tournament cannot be written as TRF: its format, or tables of more than two seats."""


def writable(data: dict[str, Any]) -> bool:
    tour = data["tournament"]
    return tour["format"] in FORMATS and all(len(g["players"]) <= 2 for g in data["games"])


def _put(line: list[str], column: int, text: str) -> None:
    """Write ``text`` into ``line`` from 1-based ``column`` on (the spec counts columns from 1)."""
    need = column - 1 + len(text)
    if len(line) < need:
        line.extend(" " * (need - len(line)))
    line[column - 1:need] = list(text)


def _result(mine: float, theirs: float, forfeit: bool) -> str:
    if forfeit:
        return "+" if mine > theirs else "-"
    return "1" if mine > theirs else "=" if mine == theirs else "0"


def _bye(result: str | None, points: float, win: float, draw: float) -> str:
    if result == "bye":
        return "U" if points >= win else "H" if points >= draw and points > 0 else "Z"  # pairing-allocated
    return "F" if points >= win else "H" if points > 0 else "Z"                       # requested, late entry, rest


def write_trf(data: dict[str, Any], *, win: float = 1.0, draw: float = 0.5) -> str:
    """The TRF16 text of an auditor's export (``audit_export``); NotWritable when it cannot be one."""
    if not writable(data):
        raise NotWritable(data["tournament"]["format"])
    tour = data["tournament"]
    players = sorted(data["players"], key=lambda p: p["number"])
    start = {p["id"]: i + 1 for i, p in enumerate(players)}  # the starting rank: the entry number's order
    standing = {s["player"]: s for s in data["standings"]}
    by_round: dict[int, list[dict[str, Any]]] = {}
    for g in data["games"]:
        by_round.setdefault(g["round"], []).append(g)
    complete = [r for r in sorted(by_round) if all(g["points"] is not None for g in by_round[r])]
    lines = [f"012 {tour['title'] or 'Tournament ' + str(tour['id'])}",
             f"062 {len(players)}",
             f"072 {sum(1 for s in data['standings'] if s.get('rating') is not None)}",
             f"092 {'Individual: Swiss-System' if tour['format'] == 'swiss' else 'Individual: Round-Robin'}",
             f"XXR {max(tour['settings'].get('rounds') or 0, len(complete))}"]
    for p in players:
        s = standing.get(p["id"], {})
        line: list[str] = []
        _put(line, 1, "001")
        _put(line, 5, f"{start[p['id']]:>4}")
        _put(line, 15, f"{p['id'][:33]:<33}")
        rating = s.get("rating")
        _put(line, 49, f"{max(0, min(9999, rating)):>4}" if rating is not None else "    ")
        _put(line, 81, f"{s.get('points', 0.0):>4.1f}")
        _put(line, 86, f"{s.get('rank', 0):>4}")
        for i, number in enumerate(complete):
            column = FIRST_ROUND_COLUMN + ROUND_WIDTH * i
            mine = next((g for g in by_round[number] if p["id"] in g["players"]), None)
            if mine is None:  # not paired this round (withdrawn, or not yet entered): a known absence
                block = ("0000", "-", "Z")
            elif len(mine["players"]) == 1:
                block = ("0000", "-", _bye(mine["result"], mine["points"].get(p["id"], 0.0), win, draw))
            else:
                seat = mine["players"].index(p["id"])
                other = mine["players"][1 - seat]
                block = (f"{start[other]:>4}", "w" if seat == 0 else "b",
                         _result(mine["points"][p["id"]], mine["points"][other], mine["forfeit"]))
            _put(line, column, block[0])
            _put(line, column + 5, block[1])
            _put(line, column + 7, block[2])
        lines.append("".join(line).rstrip())
    return "\n".join(lines) + "\n"
