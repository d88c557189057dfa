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
    places: tuple[float, ...] = ()   # multi-seat place points (T-21): 1st, 2nd, …; empty: win/draw/loss


def scored(g: GameRow) -> dict[str, float]:
    """A game's points by player; {} while it is not settled (the callers read settled games only)."""
    return g.points if g.points is not None else {}


FORFEIT_REASON = "clock.outcome.forfeit"   # a table's outcome when the move clock ran out (bot/referee/timecontrol.py)


def table_points(outcome: Mapping[str, Any] | None, players: Sequence[str], points: Points, *,
                 cooperative: bool, zombies: Iterable[int] = ()) -> tuple[dict[str, float], str]:
    """(points per player, how) for a finished table.  Competitive games: the winners score a win, the
    others a loss; no winner, or everyone winning, is a draw for all.  Co-operative games: all win or all
    lose together.

    Forfeits (T-6, T-15): a table ended by the move clock scores a loss for each seat out of time and a win
    for the others — 0–0 when every seat forfeited, never a draw.  A *zombie* seat (a bot took it when its
    player's time ran out) scores a loss for its absent player whatever its bot did; in a duel the player
    who stayed wins by forfeit, at a bigger table the others keep the game's result.  Both are recorded as
    ``forfeit``."""
    outcome = outcome or {}
    winners = set(outcome.get("winners") or [])
    seats = range(len(players))
    absent = set(zombies)
    if outcome.get("reason") == FORFEIT_REASON:
        absent |= set((outcome.get("params") or {}).get("seats") or [])
        return {players[s]: points.loss if s in absent else points.win for s in seats}, "forfeit"
    if cooperative:
        score = points.win if winners else points.loss
        got, how = {p: score for p in players}, "played"
    elif points.places and len(players) > 2:
        got, how = _place_points(outcome, players, winners, points.places), "played"
    elif not winners or winners >= set(seats):
        got, how = {p: points.draw for p in players}, "draw"
    else:
        got, how = {players[s]: points.win if s in winners else points.loss for s in seats}, "played"
    if absent:
        for s in seats:
            if s in absent:
                got[players[s]] = points.loss
            elif len(players) == 2:
                got[players[s]] = points.win
        how = "forfeit"
    return got, how


def _place_points(outcome: Mapping[str, Any], players: Sequence[str], winners: set[int],
                  places: Sequence[float]) -> dict[str, float]:
    """Place points at a multi-seat table: the winners share the first places, the others follow by their
    score where the game gives one per seat (``outcome.scores`` as seat → number), else share the rest;
    tied players share the points of the places they take (their average).  Places beyond the list score
    its last value."""
    raw = outcome.get("scores")
    score = {}
    if isinstance(raw, Mapping) and all(str(s) in raw and isinstance(raw[str(s)], (int, float))
                                        for s in range(len(players))):
        score = {s: raw[str(s)] for s in range(len(players))}
    key = {s: (s not in winners, -score.get(s, 0)) for s in range(len(players))}
    ordered = sorted(range(len(players)), key=key.__getitem__)
    value = [places[min(i, len(places) - 1)] for i in range(len(players))]
    got: dict[str, float] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and key[ordered[j + 1]] == key[ordered[i]]:
            j += 1
        share = round(sum(value[i:j + 1]) / (j - i + 1), 3)
        for s in ordered[i:j + 1]:
            got[players[s]] = share
        i = j + 1
    return got


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
    forfeits: int = 0            # games lost by forfeit (not played: T-15)
    byes: int = 0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    opponents_average: float = 0.0
    survived: int = 0
    direct_encounter: float = 0.0  # points against the others of a tie, when all of them met (T-5)
    lot: str = ""
    rank: int = 0
    place: str = ""              # the place shown: "3", or shared by players out in the same round, "5–8"
    rating: int | None = None    # the player's rating at the tournament's start (None: unrated, or rating off)
    opponents: list[tuple[str, ...]] = field(default_factory=list)   # per played game: the others at the table

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "opponents"}


#: what an organiser may put in a tournament's tie-break order (T-21), per format
ALLOWED_TIEBREAKS = {
    "swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger", "wins", "opponents_average", "direct_encounter"),
    "round_robin": ("sonneborn_berger", "wins", "buchholz", "direct_encounter"),
    "elimination": ("points", "wins"),
    "double_elimination": ("points", "wins"),
    "multiseat": ("opponents_average", "wins", "sonneborn_berger"),
}

TIEBREAKS = {
    "swiss": ("points", "buchholz_cut1", "buchholz", "sonneborn_berger", "wins"),
    "round_robin": ("points", "sonneborn_berger", "wins"),
    "elimination": ("survived", "points"),
    "double_elimination": ("survived", "points"),
    "multiseat": ("points", "opponents_average", "wins"),
}


#: ``tiebreak_rules: fide`` (T-5a): FIDE's recommended order (Handbook C.07) and its rule for unplayed rounds
FIDE_TIEBREAKS = {
    "swiss": ("points", "buchholz_cut1", "buchholz", "direct_encounter", "wins"),
    "round_robin": ("points", "direct_encounter", "wins", "sonneborn_berger"),
}
TIEBREAK_RULES = ("classic", "fide")


def tiebreak_order(fmt: str, tiebreaks: Sequence[str] | None = None, rules: str = "classic") -> tuple[str, ...]:
    """The sort keys of the standings before the lot: the organiser's order after the format's first key,
    else the format's default (FIDE's under ``rules='fide'``)."""
    default = FIDE_TIEBREAKS[fmt] if rules == "fide" and fmt in FIDE_TIEBREAKS else TIEBREAKS[fmt]
    return default if not tiebreaks else (TIEBREAKS[fmt][0], *tiebreaks)


def _lot(seed: str, user_id: str) -> str:
    return hashlib.sha256(f"{seed}:lot:{user_id}".encode()).hexdigest()


def standings(fmt: str, entries: Sequence[Entry], games: Iterable[GameRow], seed: str,
              points: Points, *, survived: Mapping[str, int] | None = None,
              tiebreaks: Sequence[str] | None = None, rules: str = "classic") -> list[Standing]:
    """Everyone entered (dropped players too, marked), best first, ranked 1..n.  ``survived``: how far each
    player went in a bracket, when the caller walked it (bot/tournament/brackets.py).  ``rules``: how
    unplayed rounds count for Buchholz — ``classic`` (the virtual opponent, T-5) or ``fide`` (T-5a)."""
    rows = {e.user_id: Standing(e.user_id, e.name, e.number, e.status, lot=_lot(seed, e.user_id)) for e in entries}
    settled = [g for g in games if g.settled and all(p in rows for p in g.players)]
    virtual: dict[str, list[float]] = {u: [] for u in rows}
    running = {u: 0.0 for u in rows}
    for g in sorted(settled, key=lambda g: (g.round, g.board)):
        for p in g.players:
            row, got = rows[p], scored(g).get(p, 0.0)
            row.points += got
            if g.kind != "table":
                row.byes += 1
                virtual[p].append(running[p])
            else:
                if g.result != "forfeit":
                    row.played += 1
                elif got <= points.loss:
                    row.forfeits += 1
                others = tuple(o for o in g.players if o != p)
                row.opponents.append(others)
                if got >= points.win:
                    row.wins += 1
                elif got > points.loss:
                    row.draws += 1
                else:
                    row.losses += 1
        for p in g.players:
            running[p] += scored(g).get(p, 0.0)
    _tiebreaks(rows, settled, virtual, points)
    if rules == "fide":
        _fide_buchholz(rows, settled, points)
    if survived is not None:
        for p, r in survived.items():
            if p in rows:
                rows[p].survived = r
    elif fmt == "elimination":
        for g in settled:
            for p in g.players:
                if scored(g).get(p, 0.0) > points.loss or g.kind != "table":
                    rows[p].survived = max(rows[p].survived, g.round)
    keys = tiebreak_order(fmt, tiebreaks, rules)
    if "direct_encounter" in keys:
        _direct_encounter(rows, settled, keys[:keys.index("direct_encounter")])
    ordered = sorted(rows.values(), key=lambda r: (*(-getattr(r, k) for k in keys), r.lot))
    for i, row in enumerate(ordered, start=1):
        row.rank = i
        row.place = str(i)
    return ordered


def _direct_encounter(rows: dict[str, Standing], settled: list[GameRow], before: Sequence[str]) -> None:
    """Each player's points in the games among those tied with them on every key ``before`` it, counted only
    when every two of the tie met (else it breaks nothing: 0 for all, and the next key decides)."""
    groups: dict[tuple, list[str]] = {}
    for u, row in rows.items():
        groups.setdefault(tuple(getattr(row, k) for k in before), []).append(u)
    for tied in groups.values():
        if len(tied) < 2:
            continue
        members = set(tied)
        among = [g for g in settled if g.kind == "table" and len(g.players) == 2 and set(g.players) <= members]
        met = {frozenset(g.players) for g in among}
        if len(met) < len(tied) * (len(tied) - 1) // 2:
            continue
        for g in among:
            for p in g.players:
                rows[p].direct_encounter += scored(g).get(p, 0.0)


def _fide_buchholz(rows: dict[str, Standing], settled: list[GameRow], points: Points) -> None:
    """Buchholz and Buchholz cut-1 by FIDE's rule for unplayed rounds (Handbook C.07, art. 16): in an
    opponent's score each of *their* unplayed rounds (a bye of any kind, a forfeit either way) counts as a
    draw; each of the player's own unplayed rounds counts as a dummy opponent with the player's own final
    score; cut-1 drops a voluntarily unplayed round (a requested bye, a late entry, a forfeit lost) before
    the lowest opponent."""
    played = {u: 0.0 for u in rows}
    unplayed = {u: 0 for u in rows}
    for g in settled:
        for p in g.players:
            if g.kind != "table" or g.result == "forfeit":
                unplayed[p] += 1
            else:
                played[p] += scored(g).get(p, 0.0)
    adjusted = {u: played[u] + unplayed[u] * points.draw for u in rows}
    for u, row in rows.items():
        values: list[float] = []
        voluntary: list[float] = []
        for g in settled:
            if u not in g.players:
                continue
            if g.kind == "table" and g.result != "forfeit":
                values.append(sum(adjusted[o] for o in g.players if o != u))
                continue
            values.append(row.points)  # the dummy opponent
            got = scored(g).get(u, 0.0)
            if g.result == "requested" or g.kind == "late" or (g.kind == "table" and got <= points.loss):
                voluntary.append(row.points)
        row.buchholz = sum(values)
        row.buchholz_cut1 = row.buchholz - (voluntary[0] if voluntary else min(values)) if values else 0.0


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
                got, theirs = scored(g).get(p, 0.0), scored(g).get(o, 0.0)
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
                h.score += round(scored(g).get(p, 0.0) * scale)
            if g.kind != "table":
                h.byes += g.result != "requested"  # a bye asked for is not the pairing's bye (FIDE C.04.1)
                continue
            for o in g.players:
                if o != p:
                    h.met[o] = h.met.get(o, 0) + 1
            if len(g.players) == 2:
                h.first += 1 if i == 0 else -1
                h.last_first = i == 0
                h.seats.append(i)
            if g.result == "forfeit" and g.points and scored(g).get(p, 0.0) > points.loss:
                h.byes += 1  # a forfeit win counts as a bye for the bye rule (FIDE C.04.1)
    return history
