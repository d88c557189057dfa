"""Places in the standings (docs/tournaments.md, T-8b, T-4a): shared places in a bracket, and the
round robin's rule for a player who withdrew.  Pure functions of the standings and the games."""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from bot.storage.tournaments import Entry, GameRow

from .standings import Standing

WITHDRAWAL = ("annul", "keep")
DASH = "–"


def ordered_places(rows: list[Standing], reached: Mapping[str, int],
                   decided: Iterable[Sequence[str]] = ()) -> list[Standing]:
    """The rows re-ordered and placed: players out in the same round of a bracket (``reached``: how far each
    went, as the standings' ``survived``) share a place, shown as a range ("5–8"); a group a placement match
    decided (``decided``: its players best first, e.g. the 3rd-place match's winner and loser) gets a place
    each, in that order.  Ranks follow the new order."""
    decided = [tuple(seq) for seq in decided]
    sets = {frozenset(seq): seq for seq in decided}
    out: list[Standing] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and reached.get(rows[j + 1].user_id, 0) == reached.get(rows[i].user_id, 0):
            j += 1
        group = rows[i:j + 1]
        seq = sets.get(frozenset(r.user_id for r in group)) if len(group) > 1 else None
        if seq is not None:
            group = sorted(group, key=lambda r: seq.index(r.user_id))
            for k, r in enumerate(group):
                r.place = str(i + k + 1)
        else:
            for r in group:
                r.place = str(i + 1) if len(group) == 1 else f"{i + 1}{DASH}{j + 1}"
        out.extend(group)
        i = j + 1
    for k, r in enumerate(out, start=1):
        r.rank = k
    return out


def annulled(entries: Sequence[Entry], games: Iterable[GameRow], order: Sequence[str]) -> set[str]:
    """Round robin, ``withdrawal: annul`` (FIDE): the players who left the event (dropped or removed)
    having played fewer than half their games; a forfeit is not a game played."""
    games = list(games)
    half = (len(order) - 1) / 2
    out = set()
    for e in entries:
        if e.status == "active" or e.user_id not in order:
            continue
        played = sum(1 for g in games if g.settled and g.kind == "table" and g.result != "forfeit"
                     and e.user_id in g.players)
        if played < half:
            out.add(e.user_id)
    return out


def without(games: Iterable[GameRow], gone: set[str],
            schedule: Sequence[Sequence[tuple[str, str | None]]]) -> list[GameRow]:
    """The games that still count when the results of ``gone`` are annulled: none of their tables, and
    none of the byes their opponents got because they had left (the schedule says whom each was to meet)."""
    if not gone:
        return list(games)
    due: dict[tuple[int, str], str | None] = {}
    for number, pairs in enumerate(schedule, start=1):
        for a, b in pairs:
            due[(number, a)] = b
            if b is not None:
                due[(number, b)] = a
    kept = []
    for g in games:
        if gone & set(g.players):
            continue
        if g.kind == "bye" and g.result != "rest" and len(g.players) == 1 \
                and due.get((g.round, g.players[0])) in gone:
            continue
        kept.append(g)
    return kept
