"""Points of a finished table and the standings with their tie-breaks: pure functions of the games.

Tie-breaks (docs/tournaments.md, T-5):
    swiss        points, Buchholz cut-1, Buchholz, Sonneborn–Berger, wins, lot
    round_robin  points, Sonneborn–Berger, wins, lot
    elimination  rounds survived, points, lot
    multiseat    points, opponents' average, wins, lot
A round without an opponent (bye, late entry) counts for the player's own Buchholz as a virtual opponent with
the player's score before that round.  The lot is drawn from the tournament's seed, so it is reproducible.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from bot.storage.tournaments import Entry, GameRow

from .pairing import History


@dataclass(frozen=True)
class Points:
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0


def table_points(outcome: Mapping[str, Any] | None, players: Sequence[str], points: Points, *,
                 cooperative: bool) -> tuple[dict[str, float], str]:
    """(points per player, how) for a finished table.  Competitive games: the winners score a win, the
    others a loss; no winner, or everyone winning, is a draw for all.  Co-operative games: all win or all
    lose together."""
    winners = set((outcome or {}).get("winners") or [])
    seats = range(len(players))
    if cooperative:
        score = points.win if winners else points.loss
        return {p: score for p in players}, "played"
    if not winners or winners >= set(seats):
        return {p: points.draw for p in players}, "draw"
    return {players[s]: points.win if s in winners else points.loss for s in seats}, "played"


@dataclass
class Standing:
    user_id: str
    name: str
    number: int
    status: str
    points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    opponents_average: float = 0.0
    survived: int = 0
    lot: str = ""
    rank: int = 0
    opponents: list[tuple[str, ...]] = field(default_factory=list)   # per played game: the others at the table

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "opponents"}


TIEBREAKS = {
    "swiss": ("points", "buchholz_cut1", "buchholz", "sonneborn_berger", "wins"),
    "round_robin": ("points", "sonneborn_berger", "wins"),
    "elimination": ("survived", "points"),
    "multiseat": ("points", "opponents_average", "wins"),
}


def _lot(seed: str, user_id: str) -> str:
    return hashlib.sha256(f"{seed}:lot:{user_id}".encode()).hexdigest()


def standings(fmt: str, entries: Sequence[Entry], games: Iterable[GameRow], seed: str,
              points: Points) -> list[Standing]:
    """Everyone entered (dropped players too, marked), best first, ranked 1..n."""
    rows = {e.user_id: Standing(e.user_id, e.name, e.number, e.status, lot=_lot(seed, e.user_id)) for e in entries}
    settled = [g for g in games if g.settled and all(p in rows for p in g.players)]
    virtual: dict[str, list[float]] = {u: [] for u in rows}
    running = {u: 0.0 for u in rows}
    for g in sorted(settled, key=lambda g: (g.round, g.board)):
        for p in g.players:
            row, got = rows[p], g.points.get(p, 0.0)
            row.points += got
            if g.kind != "table":
                row.byes += 1
                virtual[p].append(running[p])
            else:
                row.played += 1
                others = tuple(o for o in g.players if o != p)
                row.opponents.append(others)
                if got >= points.win:
                    row.wins += 1
                elif got > points.loss:
                    row.draws += 1
                else:
                    row.losses += 1
        for p in g.players:
            running[p] += g.points.get(p, 0.0)
    _tiebreaks(rows, settled, virtual, points)
    if fmt == "elimination":
        for g in settled:
            for p in g.players:
                if g.points.get(p, 0.0) > points.loss or g.kind != "table":
                    rows[p].survived = max(rows[p].survived, g.round)
    keys = TIEBREAKS[fmt]
    ordered = sorted(rows.values(), key=lambda r: (*(-getattr(r, k) for k in keys), r.lot))
    for i, row in enumerate(ordered, start=1):
        row.rank = i
    return ordered


def _tiebreaks(rows: dict[str, Standing], settled: list[GameRow], virtual: dict[str, list[float]],
               points: Points) -> None:
    final = {u: r.points for u, r in rows.items()}
    for g in settled:
        if g.kind != "table":
            continue
        for p in g.players:
            for o in g.players:
                if o == p:
                    continue
                got, theirs = g.points.get(p, 0.0), g.points.get(o, 0.0)
                if got > theirs:
                    rows[p].sonneborn_berger += final[o]
                elif got == theirs and got > points.loss:
                    rows[p].sonneborn_berger += final[o] / 2
    for u, row in rows.items():
        opponent_scores = [final[o] for others in row.opponents for o in others]
        if row.opponents:
            row.opponents_average = round(sum(opponent_scores) / len(opponent_scores), 3)
        per_round = [sum(final[o] for o in others) for others in row.opponents] + virtual[u]
        row.buchholz = sum(per_round)
        row.buchholz_cut1 = row.buchholz - min(per_round) if per_round else 0.0


def histories(players: Iterable[str], games: Iterable[GameRow], points: Points) -> dict[str, History]:
    """What the Swiss pairing needs per player: score in half-points of a win, meetings, byes, seats."""
    history = {p: History() for p in players}
    scale = 2 / points.win if points.win else 2
    for g in sorted(games, key=lambda g: (g.round, g.board)):
        for i, p in enumerate(g.players):
            h = history.get(p)
            if h is None:
                continue
            if g.points is not None:
                h.score += round(g.points.get(p, 0.0) * scale)
            if g.kind != "table":
                h.byes += 1
                continue
            for o in g.players:
                if o != p:
                    h.met[o] = h.met.get(o, 0) + 1
            if len(g.players) == 2:
                h.first += 1 if i == 0 else -1
                h.last_first = i == 0
            if g.result == "forfeit" and g.points and g.points.get(p, 0.0) > points.loss:
                h.byes += 1  # a forfeit win counts as a bye for the bye rule (FIDE C.04.1)
    return history
