"""Two-stage events (docs/tournaments.md, T-24): a first stage — Swiss, or round-robin groups drawn from seeding
pots — whose best ``advance`` (per event, or per group) go into a single or double elimination seeded by the
first stage's standings.

Pure functions; the director (bot/tournament/director.py) calls them.  The second stage is a tournament of its
own, linked both ways (its settings name ``first_stage``, the first stage's log ``next_stage``), so the first
stage's standings, groups and crosstable stay exactly as they ended, and every tool that runs a bracket runs it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from bot.engine import Code, Reject

from .pairing import bracket, round_robin
from .standings import Standing

SECOND = ("elimination", "double_elimination")
FIRST = ("swiss", "round_robin")
MAX_GROUPS = 64
MAX_ADVANCE = 256
#: the settings the second stage takes over from the first (the rest are the bracket's defaults)
CARRIED = ("round_hours", "expiry", "bye", "best_of", "reset", "third_place", "rated", "withdraw_after")


def check(fmt: str, s: dict[str, Any]) -> None:
    """Validate ``stage2``, ``advance`` and ``groups`` in place; raises Reject."""
    for name, high in (("advance", MAX_ADVANCE), ("groups", MAX_GROUPS)):
        value = s[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name=name, min=0, max=high)
    if s["stage2"] in ("", None, "no", False):
        s["stage2"] = ""
        if s["advance"]:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="advance")
    elif s["stage2"] not in SECOND:
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="stage2", choices=", ".join(SECOND))
    elif fmt not in FIRST:
        raise Reject("tournament.reject.stage_format", code=Code.BAD_OPTIONS, formats=", ".join(FIRST))
    elif s["advance"] < (1 if s["groups"] > 1 else 2):
        raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name="advance",
                     min=1 if s["groups"] > 1 else 2, max=MAX_ADVANCE)
    if s["groups"] == 1:
        s["groups"] = 0  # one group is the plain round robin
    if s["groups"] and fmt != "round_robin":
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="groups")


def pools(order: Sequence[str], groups: int) -> list[list[str]]:
    """The groups drawn from seeding pots: the best ``groups`` seeds are pot 1, one to each group, the next
    pot goes back the other way (a snake), and so on — each group gets one player of each strength."""
    drawn: list[list[str]] = [[] for _ in range(min(groups, len(order)))]
    for i, p in enumerate(order):
        pot, place = divmod(i, len(drawn))
        drawn[place if pot % 2 == 0 else len(drawn) - 1 - place].append(p)
    return drawn


def group_letter(number: int) -> str:
    """Group 1 is A, 27 is AA: the name a group goes by on every front end."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def least_players(groups: int) -> int:
    """A group needs two players to play."""
    return max(2, 2 * groups)


def group_rounds(drawn: Sequence[Sequence[str]]) -> int:
    """The rounds the groups need: the largest group's round robin (the smaller ones rest at the end)."""
    return max(len(g) - 1 + len(g) % 2 for g in drawn)


def schedule(drawn: Sequence[Sequence[str]]) -> list[list[tuple[str, str | None]]]:
    """Each round's pairs of every group (Berger tables per group), group by group."""
    tables = [round_robin(g) for g in drawn]
    return [[pair for t in tables if number < len(t) for pair in t[number]] for number in range(group_rounds(drawn))]


def by_group(rows: Sequence[Standing], drawn: Sequence[Sequence[str]]) -> list[list[Standing]]:
    """The standings of each group, ranked inside it (the group's games are all its players played, so the
    event's order restricted to a group is the group's own order)."""
    return [[replace(r, rank=i) for i, r in enumerate((r for r in rows if r.user_id in set(g)), start=1)]
            for g in drawn]


def qualifiers(rows: Sequence[Standing], drawn: Sequence[Sequence[str]], advance: int) -> tuple[list[str], dict[str, int]]:
    """The second stage's players, best seed first, and each one's group (0 without groups).  Without groups:
    the best ``advance`` still in the event.  With groups: the best ``advance`` of each group; the group
    winners are the top seeds (by points, then the group's order), then the runners-up, and so on; inside each
    such tier the seeds are exchanged where that keeps two players of one group from meeting in round 1."""
    if not drawn:
        chosen = [r.user_id for r in rows if r.status == "active"][:advance]
        return chosen, {p: 0 for p in chosen}
    tiers: list[list[tuple[Standing, int]]] = []
    for index, group in enumerate(by_group(rows, drawn)):
        for place, r in enumerate([r for r in group if r.status == "active"][:advance]):
            while len(tiers) <= place:
                tiers.append([])
            tiers[place].append((r, index))
    group_of = {r.user_id: index for tier in tiers for r, index in tier}
    seeded = [[r.user_id for r, index in sorted(tier, key=lambda x: (-x[0].points, x[1]))] for tier in tiers]
    return spread(seeded, group_of), group_of


def clashes(order: Sequence[str], group_of: Mapping[str, int]) -> int:
    return sum(1 for a, b in bracket(order) if b is not None and group_of[a] == group_of[b])


def spread(tiers: Sequence[Sequence[str]], group_of: Mapping[str, int]) -> list[str]:
    """The tiers one after another, with seeds of one tier exchanged while that lowers the number of round-1
    meetings inside a group (a local search: small fields, a handful of passes)."""
    order = [p for tier in tiers for p in tier]
    bounds, start = [], 0
    for tier in tiers:
        bounds.append(range(start, start + len(tier)))
        start += len(tier)
    best = clashes(order, group_of)
    improved = True
    while improved and best:
        improved = False
        for span in bounds:
            for i in span:
                for j in span:
                    if j <= i:
                        continue
                    order[i], order[j] = order[j], order[i]
                    now = clashes(order, group_of)
                    if now < best:
                        best, improved = now, True
                    else:
                        order[i], order[j] = order[j], order[i]
    return order
