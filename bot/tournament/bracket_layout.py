"""A whole elimination bracket as it will be drawn (issue 38, item 1): every round from the start, with the
places nobody has reached yet as empty slots that say where their player comes from ("winner of match 3"),
byes labelled, and each match's link to the match its winner (and, in double elimination, its loser) goes to.

Pure functions of the seeding, the games and the settings; the public page (bot/web/pages.py) and the picture
Discord posts (bot/render/picture/bracket.py) both draw ``layout()``'s answer, so they never disagree.  The
places are walked exactly as the director walks them (``_bracket_places`` and ``brackets.double_elimination``):
a place is filled only from a round already closed (or a match nobody can lose: a lone player), so the drawing
never guesses.

Trees, each drawn on its own and labelled: ``W`` the bracket (the upper bracket in double elimination), ``L``
the lower bracket, ``F`` the grand final and its reset, ``3`` the match for third place.  A tree is a list of
columns (one per round of that tree); column c + 1 has half the matches of column c (a "join": matches 2i and
2i + 1 feed match i) or as many (a "straight" step: match i feeds match i, the lower bracket's rounds where the
upper bracket's losers drop in).  That is all a drawing needs to place the boxes and their lines.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.tournaments import GameRow

from .brackets import match_goes_on, match_result
from .pairing import bracket

TREES = ("W", "L", "F", "3")


@dataclass
class Slot:
    """One place of a match: a player (``player``), a place that stays empty (``bye``), or one not reached
    yet — a seed before the draw (``seed``), the winner or the loser of match ``ref`` (``winner``/``loser``)."""

    kind: str                     # player | bye | seed | winner | loser
    player: str | None = None
    ref: int | None = None        # the seed, or the feeding match's number
    score: str = ""               # the game's points, or the games won in a match of several
    advances: bool = False


@dataclass
class Match:
    number: int                   # 1.. in the order the matches are played (round, then tree, then place)
    round: int                    # the event's round it is played in
    tree: str                     # W | L | F | 3
    column: int                   # its column in its tree, from 0
    index: int                    # its place in the column, from 0
    slots: list[Slot] = field(default_factory=list)
    tables: list[int] = field(default_factory=list)
    winner: str | None = None
    loser: str | None = None
    decided: bool = False         # its round is closed, or nobody can lose it
    walkover: bool = False        # a player went on without a game (a bye, or an opponent who left)
    reset: bool = False           # the grand final's second match, played only when the lower champion wins
    # where the winner goes: (match number, slot); and the loser, in double elimination's upper bracket
    goes_to: tuple[int, int] | None = None
    loser_to: tuple[int, int] | None = None


@dataclass
class Tree:
    kind: str
    columns: list[list[Match]]

    def step(self, column: int) -> str:
        """How column ``column`` leads to the next: ``join`` (two matches feed one), ``straight`` or ``end``."""
        if column + 1 >= len(self.columns):
            return "end"
        return "join" if len(self.columns[column + 1]) < len(self.columns[column]) else "straight"


@dataclass
class Layout:
    trees: list[Tree]
    size: int                      # places in round 1 (a power of two)

    def matches(self) -> list[Match]:
        return sorted((m for tree in self.trees for col in tree.columns for m in col), key=lambda m: m.number)


def _size(players: int) -> int:
    size = 2
    while size < players:
        size *= 2
    return size


def _shape(size: int, double: bool, third_place: bool, reset: bool) -> list[Tree]:
    """The trees' columns with empty matches, their rounds and their links (numbers given after)."""
    k = size.bit_length() - 1
    w = [[Match(0, c + 1, "W", c, i) for i in range(size >> (c + 1))] for c in range(k)]
    trees = [Tree("W", w)]
    if double:
        lower: list[list[Match]] = []
        count = size // 4
        for step in range(1, 2 * (k - 1) + 1):
            if step > 1 and step % 2 == 1:
                count //= 2
            lower.append([Match(0, step + 1, "L", step - 1, i) for i in range(count)])
        if lower:
            trees.append(Tree("L", lower))
        final = [[Match(0, 2 * k, "F", 0, 0)]]
        if reset:
            final.append([Match(0, 2 * k + 1, "F", 1, 0, reset=True)])
        trees.append(Tree("F", final))
    elif third_place and k >= 2:
        trees.append(Tree("3", [[Match(0, k, "3", 0, 0)]]))
    order = sorted((m for t in trees for col in t.columns for m in col),
                   key=lambda m: (m.round, TREES.index(m.tree), m.column, m.index))
    for n, m in enumerate(order, start=1):
        m.number = n
    for tree in trees:
        for c, col in enumerate(tree.columns):
            for m in col:
                m.slots = [Slot("bye"), Slot("bye")]
                if tree.step(c) != "end":
                    straight = tree.step(c) == "straight"
                    target = tree.columns[c + 1][m.index if straight else m.index // 2]
                    m.goes_to = (target.number, 0 if straight else m.index % 2)
    if double:
        lower_cols = trees[1].columns if len(trees) > 2 else []
        grand = trees[-1].columns[0][0]
        for i, m in enumerate(w[0]):      # upper round 1's losers pair up in lower round 1
            m.loser_to = (lower_cols[0][i // 2].number, i % 2) if lower_cols else (grand.number, 1)
        for c in range(1, k):            # upper round c + 1's losers drop into lower round 2c (reversed every other)
            drops = w[c]
            into = lower_cols[2 * c - 1]
            for i, m in enumerate(drops):
                place = len(drops) - 1 - i if c % 2 == 1 else i
                m.loser_to = (into[place].number, 1)
        w[-1][0].goes_to = (grand.number, 0)
        if lower_cols:
            lower_cols[-1][0].goes_to = (grand.number, 1)
        if reset:
            grand.goes_to = None          # the reset is fed by both finalists, drawn as a line all the same
    elif third_place and k >= 2:
        third = trees[-1].columns[0][0]
        for i, m in enumerate(w[-2]):
            m.loser_to = (third.number, i)
    return trees


def _score(players: Sequence[str], played: Sequence[GameRow], points: Any) -> dict[str, str]:
    """Each player's figure in a match: the game's points, or in a match of several the games each won; none
    for a walkover (its points are the bye's, not a result: shown as a bye instead)."""
    tables = [g for g in played if g.kind == "table"]
    if not tables:
        return {}
    if len(tables) == 1:
        g = tables[0]
        return {p: f"{g.points[p]:g}" for p in players if g.points and p in g.points}
    won = {p: sum(1 for g in tables if g.points and g.points.get(p, 0) > points.loss
                  and g.points.get(p) == max(g.points.values())) for p in players}
    return {p: str(n) for p, n in won.items()}


def layout(order: Sequence[str] | None, games: Sequence[GameRow], points: Any, *, double: bool,
           entrants: int = 0, current_round: int = 0, finished: bool = False, best_of: int = 1,
           reset: bool = True, third_place: bool = False, active: Collection[str] | None = None) -> Layout:
    """The whole bracket.  ``order``: the seeding (None before the draw: ``entrants`` seeds are shown as
    such); ``current_round``: the event's round (0 before the start); a round before it (or every round, once
    ``finished``) is closed and its results send players on; ``active``: who is still in the event (a lone
    player who left does not go on)."""
    size = _size(len(order) if order else max(entrants, 2))
    trees = _shape(size, double, third_place, reset)
    by_number = {m.number: m for t in trees for col in t.columns for m in col}
    seeds = list(order) if order else [f"\x00seed{i}" for i in range(1, max(entrants, 2) + 1)]
    for i, (a, b) in enumerate(bracket(seeds)):
        m = trees[0].columns[0][i]
        for s, p in enumerate((a, b)):
            if p is None:
                m.slots[s] = Slot("bye")
            elif order:
                m.slots[s] = Slot("player", p)
            else:
                m.slots[s] = Slot("seed", ref=int(p[len("\x00seed"):]))
    # a place not reached yet names where it comes from; the walk below fills the ones that are known
    for m in by_number.values():
        for target, kind in ((m.goes_to, "winner"), (m.loser_to, "loser")):
            if target is not None:
                by_number[target[0]].slots[target[1]] = Slot(kind, ref=m.number)
    final = next((m for t in trees if t.kind == "F" for col in t.columns for m in col if not m.reset), None)
    again = next((m for t in trees if t.kind == "F" for col in t.columns for m in col if m.reset), None)
    if again is not None and final is not None:
        again.slots = [Slot("winner", ref=final.number), Slot("loser", ref=final.number)]  # as the walk seats them
    played = {r: [g for g in games if g.round == r] for r in {g.round for g in games}}
    for m in sorted(by_number.values(), key=lambda m: m.number):
        _settle(m, played.get(m.round, []), points, best_of,
                closed=m.round < current_round or (finished and m.round <= current_round), active=active)
        _send(m, by_number)
    if again is not None and final is not None and final.decided:
        if final.winner is None or final.winner == final.slots[0].player or final.loser is None:
            trees[-1].columns.pop()       # the upper champion won: no reset is played
        else:
            again.slots = [Slot("player", final.slots[1].player), Slot("player", final.slots[0].player)]
            _settle(again, played.get(again.round, []), points, best_of,
                    closed=again.round < current_round or finished, active=active)
    return Layout(trees, size)


def _settle(m: Match, played: Sequence[GameRow], points: Any, best_of: int, *, closed: bool,
            active: Collection[str] | None) -> None:
    """A match's games, scores and result, once its places are known."""
    places = [s.player for s in m.slots]
    if any(s.kind in ("seed", "winner", "loser") for s in m.slots):
        return                               # not reached yet
    present = [p for p in places if p is not None]
    mine = [g for g in played if g.players and set(g.players) <= set(present)]
    m.tables = [g.table_id for g in mine if g.kind == "table" and g.table_id]
    score = _score(present, mine, points)
    for s in m.slots:
        if s.player is not None:
            s.score = score.get(s.player, "")
    m.walkover = any(g.kind != "table" for g in mine)
    if len(present) < 2:                     # nobody can lose it: a lone player goes on (if still in)
        lone = present[0] if present else None
        m.winner = lone if lone is not None and (active is None or lone in active or closed) else None
        if closed and lone is not None:
            m.winner = match_result(places, mine, points, best_of)[0]
        m.walkover, m.decided = lone is not None, True
    elif closed or (mine and all(g.settled for g in mine) and not match_goes_on(present, mine, points, best_of)):
        m.winner, m.loser = match_result(places, mine, points, best_of)
        m.decided = closed or m.winner is not None
    for s in m.slots:
        s.advances = m.decided and s.player is not None and s.player == m.winner


def _send(m: Match, by_number: Mapping[int, Match]) -> None:
    """A decided match's winner and loser into the places they go to (empty when nobody goes: a bye)."""
    if not m.decided:
        return
    for target, who in ((m.goes_to, m.winner), (m.loser_to, m.loser)):
        if target is not None:
            by_number[target[0]].slots[target[1]] = Slot("player", who) if who is not None else Slot("bye")


def slot_text(slot: Slot, names: Mapping[str, str], t: Callable[..., str]) -> str:
    """What a slot says, in the reader's language (``t(key, **values)``): the name, or where its player comes
    from; "—" for a place left empty beside another empty one is the caller's choice."""
    if slot.kind == "player":
        return names.get(slot.player or "", "?")
    if slot.kind == "seed":
        return t("tournament.bracket.seed", seed=slot.ref)
    if slot.kind in ("winner", "loser"):
        return t(f"tournament.bracket.{slot.kind}_of", match=slot.ref)
    return t("tournament.bracket.bye")


def as_rows(lay: Layout, names: Mapping[str, str], t: Callable[..., str]) -> list[dict[str, Any]]:
    """The layout as plain data for a drawing: per tree its title and columns, per match its number, tag and
    slots with their text — what the page's template and the picture both read."""
    trees = []
    double = any(tree.kind == "L" or tree.kind == "F" for tree in lay.trees)
    for tree in lay.trees:
        columns = []
        for c, col in enumerate(tree.columns):
            matches = []
            for m in col:
                empty_pair = all(s.kind == "bye" for s in m.slots)
                slots = [{"text": "—" if empty_pair else slot_text(s, names, t), "kind": s.kind,
                          "user_id": s.player if s.kind == "player" else None, "score": s.score,
                          "ref": s.ref if s.kind in ("winner", "loser") else None,
                          "advances": s.advances} for s in m.slots]
                tag = t("tournament.bracket.reset") if m.reset else \
                    t("tournament.bracket.walkover") if m.walkover and m.decided and not empty_pair else ""
                matches.append({"number": m.number, "round": m.round, "slots": slots, "tables": list(m.tables),
                                "tag": tag, "decided": m.decided})
            columns.append({"title": t("tournament.bracket.round", round=col[0].round), "step": tree.step(c),
                            "matches": matches})
        title = t(f"tournament.bracket.tree_{tree.kind}" if double or tree.kind == "3" else "tournament.bracket.tree")
        trees.append({"kind": tree.kind, "title": title, "columns": columns})
    return trees


def for_event(t: Any, entries: Sequence[Any], games: Sequence[GameRow], points: Any) -> Layout | None:
    """The bracket of a single or double elimination event ``t`` (a TournamentRow) as the page and the picture
    Discord posts draw it: before the draw its entrants as seeds; None for another format, or before two have
    entered.  ``points``: the event's (``Director.points``)."""
    if t.format not in ("elimination", "double_elimination"):
        return None
    order = t.settings.get("order")
    active = [e.user_id for e in entries if e.status == "active"]
    if not order and len(active) < 2:
        return None
    return layout(order, games, points, double=t.format == "double_elimination", entrants=len(active),
                  current_round=t.round, finished=t.status == "finished", best_of=t.settings.get("best_of", 1) or 1,
                  reset=t.settings.get("reset", True), third_place=bool(t.settings.get("third_place")),
                  active=set(active))
