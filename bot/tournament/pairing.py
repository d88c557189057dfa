"""Who plays whom in a round: pure functions of the players, their history and a seeded random source.

Swiss (duels): one maximum-weight perfect matching (networkx, integer weights) over the players plus a
phantom "bye" node when their number is odd.  Each possible pair costs, in tiers that never mix (a worse
tier outweighs every possible sum of the tiers below it):

    earlier meetings (a rematch, or a second bye)  ≫  a third seat in a row (or a seat imbalance of three)
    ≫  squared score difference  ≫  seat imbalance  ≫  lot

so a pairing never repeats an opponent or a bye while one without exists, never gives anyone the same seat a
third time running while another pairing avoids it (FIDE's absolute colour rule, C.04.1), keeps players inside
their score group where it can, and only then balances who sits first.  The matching is tried first among neighbours in
the standings (``WINDOW`` places either side, no meetings), then among all who never met, then among all:
the first that seats everyone is taken.  The windowed try is what keeps 256 players under a second.

Round-robin: the circle method (Berger tables).  Single elimination: a bracket from the seeding with byes to
the top seeds.  Multi-seat rounds: the table sizes first (as equal as possible within the game's limits),
then leaders together, then a swap search that lowers Σ (times two players met)² over every table.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable, Sequence

BYE = "\x00bye"          # the phantom opponent of an odd player out (never a user id: user ids are printable)
WINDOW = 12              # places in the standings either side tried first

_LOT = 100               # a lot in 0..99 per pair
_SEAT = 10 ** 5          # > the largest sum of lots (512 pairs × 99)
_SCORE = 10 ** 9         # > the largest sum of seat costs (512 pairs × 3 × _SEAT)
_ABSOLUTE = 10 ** 15     # > the largest sum of score costs (512 pairs × 40² × _SCORE)
_MEETING = 10 ** 18      # > the largest sum of absolute seat conflicts (512 pairs × _ABSOLUTE)


@dataclass
class History:
    """What the pairing needs to know of one player.  Scores are in half-points (integers)."""

    score: int = 0
    met: dict[str, int] = field(default_factory=dict)     # opponent → times met
    byes: int = 0                                          # byes, late-entry scores and forfeit wins
    first: int = 0                                         # games in seat 0 minus games in seat 1
    last_first: bool | None = None                         # seat 0 in the latest game?
    seats: list[int] = field(default_factory=list)         # the seat of each two-seat game, in order

    def wants_first(self) -> int:
        """How much this player should sit first next: -3 (must not) .. 3 (must).  ±3 is FIDE's absolute
        preference: the last two games in the same seat, or two more games in one seat than the other."""
        if self.seats[-2:] == [0, 0] or self.first >= 2:
            return -3
        if self.seats[-2:] == [1, 1] or self.first <= -2:
            return 3
        if self.first <= -1 or self.last_first is False:
            return 2 if self.first <= -1 else 1
        if self.first >= 1 or self.last_first is True:
            return -2 if self.first >= 1 else -1
        return 0


def _seat_cost(a: History, b: History) -> int:
    """0 when the two want different seats, up to 3 when both badly want the same one; an absolute conflict
    (both must not, or both must, sit first: one of them would sit there a third time) costs a tier of its
    own above the score difference."""
    wa, wb = a.wants_first(), b.wants_first()
    if wa * wb <= 0:
        return 0
    if abs(wa) == abs(wb) == 3:
        return _ABSOLUTE
    return (min(abs(wa), abs(wb), 2) + (1 if min(abs(wa), abs(wb)) >= 2 else 0)) * _SEAT


def seat_order(a: str, b: str, history: dict[str, History], board: int) -> tuple[str, str]:
    """Who sits first (seat 0): the one who wants it more; on a tie, alternate by board."""
    wa, wb = history[a].wants_first(), history[b].wants_first()
    if wa != wb:
        return (a, b) if wa > wb else (b, a)
    return (a, b) if board % 2 == 0 else (b, a)


def swiss_pairs(ranked: Sequence[str], history: dict[str, History], rng: random.Random,
                ) -> tuple[list[tuple[str, str]], str | None]:
    """The next Swiss round: (pairs in board order, each (seat 0, seat 1)), and the player with the bye.

    ``ranked`` is the players in standing order (the best first): boards are numbered in that order."""
    players = list(ranked)
    if len(players) < 2:
        return [], players[0] if players else None
    salt = rng.getrandbits(32)
    low = min(history[p].score for p in players)
    position = {p: i for i, p in enumerate(players)}

    def cost(a: str, b: str) -> int:
        if b == BYE or a == BYE:
            p = b if a == BYE else a
            h = history[p]
            # the bye goes to the lowest score, and within it to the lowest-ranked player
            return (h.byes * _MEETING + (h.score - low) ** 2 * _SCORE
                    + (len(players) - position[p]) * _SEAT // len(players) + _lot(salt, a, b))
        ha, hb = history[a], history[b]
        return (ha.met.get(b, 0) * _MEETING + (ha.score - hb.score) ** 2 * _SCORE + _seat_cost(ha, hb)
                + _lot(salt, a, b))

    nodes = players + ([BYE] if len(players) % 2 else [])
    position[BYE] = len(players)

    def new(a: str, b: str) -> bool:
        if BYE in (a, b):
            return history[b if a == BYE else a].byes == 0
        return history[a].met.get(b, 0) == 0

    matching = (_best(nodes, cost, lambda a, b: abs(position[a] - position[b]) <= WINDOW and new(a, b))
                or _best(nodes, cost, new) or _best(nodes, cost, lambda a, b: True))
    assert matching is not None  # a complete graph on an even number of nodes always has a perfect matching
    bye = None
    pairs = []
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairs.append((a, b) if position[a] < position[b] else (b, a))
    pairs.sort(key=lambda ab: position[ab[0]])
    return [seat_order(a, b, history, board) for board, (a, b) in enumerate(pairs)], bye


def _lot(salt: int, a: str, b: str) -> int:
    """The pair's lot, 0..99: the same for (a, b) and (b, a), reproducible from the salt."""
    return zlib.crc32(f"{salt}:{min(a, b)}:{max(a, b)}".encode()) % _LOT


def _best(nodes: list[str], cost, allowed) -> list[tuple[str, str]] | None:
    """The cheapest perfect matching using only ``allowed`` pairs, or None if there is none."""
    # imported here: networkx takes about half a second to import, which every command of the terminal (and each
    # test that launches one) paid when only Swiss pairing needs it
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    edges = [(a, b, cost(a, b)) for a, b in combinations(nodes, 2) if allowed(a, b)]
    if not edges:
        return None if nodes else []
    top = max(c for _, _, c in edges) + 1
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(tuple(sorted(e)) for e in matching) if 2 * len(matching) == len(nodes) else None


# ---------------------------------------------------------------------------------------------- round-robin
def round_robin(order: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Every round of a round-robin by the circle method: each round a list of (seat 0, seat 1), where
    seat 1 is None for the player who sits out (odd fields).  Seat 0 goes to whoever of the two wants it more
    by the seat rule (``History.wants_first``: no third seat in a row where the other can take it, then who
    sat first less often; a tie by round and board), so seats alternate as far as the fixed pairings allow."""
    players: list[str | None] = list(order) + ([None] if len(order) % 2 else [])
    n = len(players)
    seats = {p: History() for p in players if p is not None}
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[str, str | None]] = []
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if a is None:
                a, b = b, a
            elif b is not None:
                wa, wb = seats[a].wants_first(), seats[b].wants_first()
                if wb > wa or (wa == wb and (r + i) % 2):
                    a, b = b, a
            assert a is not None  # an odd field has one empty place: it is never met by another
            if b is not None:
                for p, seat in ((a, 0), (b, 1)):
                    h = seats[p]
                    h.first += 1 if seat == 0 else -1
                    h.last_first = seat == 0
                    h.seats.append(seat)
            pairs.append((a, b))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


# ---------------------------------------------------------------------------------------------- elimination
def bracket(seeded: Sequence[str]) -> list[tuple[str, str | None]]:
    """The first round of a single-elimination bracket: the usual seeding (1 v 16, 8 v 9, ...) in a bracket of
    the next power of two, with the missing places as byes (None) for the top seeds."""
    size = 1
    while size < len(seeded):
        size *= 2
    slots = [1]
    while len(slots) < size:
        slots = [x for s in slots for x in (s, 2 * len(slots) + 1 - s)]
    players = list(seeded)
    out = []
    for i in range(0, size, 2):
        a, b = slots[i], slots[i + 1]
        pa = players[a - 1] if a <= len(players) else None
        pb = players[b - 1] if b <= len(players) else None
        if pa is None:  # a place beyond the field: the other player has a bye
            pa, pb = pb, None
        assert pa is not None  # a bracket is less than twice the field: each pair holds a player
        out.append((pa, pb))
    return out


# ---------------------------------------------------------------------------------------------- multi-seat
def table_sizes(players: int, preferred: int, least: int, most: int) -> tuple[list[int], int]:
    """How many tables of which size: (sizes, players left over for a bye).  The number of tables whose size
    comes nearest the preferred one, sizes differing by at most one and each within the game's limits;
    leftovers only when the players cannot all be seated (fewer than ``least``, or no split fits)."""
    preferred = max(least, min(most, preferred))
    for seated in range(players, least - 1, -1):
        counts = sorted(range(1, seated // least + 1), key=lambda k: (abs(seated / k - preferred), k))
        for tables in counts:
            small, extra = divmod(seated, tables)
            if least <= small and small + (extra > 0) <= most:
                return [small + 1] * extra + [small] * (tables - extra), players - seated
    return [], players


def seat_tables(ranked: Sequence[str], sizes: Sequence[int], met: dict[frozenset[str], int],
                rng: random.Random, *, swaps: int = 3000, restarts: int = 4) -> list[list[str]]:
    """Players into tables of ``sizes``: leaders together (``ranked`` order), then random swaps between
    tables kept unless they raise Σ (times met)² over pairs at the same table (sideways moves walk off a
    plateau); a few restarts from random seatings, and the best is taken (the first on a tie, so leaders stay
    together where repeats allow).  Seat order inside a table is drawn by lot (the games draw their own
    first player)."""
    best: list[list[str]] = []
    best_cost: int | None = None
    for attempt in range(restarts + 1 if met else 1):
        order = list(ranked)
        if attempt:
            rng.shuffle(order)
        tables = _search(_split(order, sizes), met, rng, swaps) if met else _split(order, sizes)
        cost = sum(_table_cost(t, met) for t in tables)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    for t in best:
        rng.shuffle(t)
    return best


def _split(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start:start + size]))
        start += size
    return tables


def _search(tables: list[list[str]], met: dict[frozenset[str], int], rng: random.Random,
            swaps: int) -> list[list[str]]:
    if len(tables) < 2:
        return tables

    def weight(x: str, table: list[str], skip: str) -> int:
        return sum(met.get(frozenset((x, o)), 0) ** 2 for o in table if o != skip)

    for _ in range(swaps):
        i, j = rng.sample(range(len(tables)), 2)
        a, b = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
        x, y = tables[i][a], tables[j][b]
        change = (weight(y, tables[i], x) - weight(x, tables[i], x)
                  + weight(x, tables[j], y) - weight(y, tables[j], y))
        if change <= 0:
            tables[i][a], tables[j][b] = y, x
    return tables


def _table_cost(table: Iterable[str], met: dict[frozenset[str], int]) -> int:
    return sum(met.get(frozenset(pair), 0) ** 2 for pair in combinations(table, 2))
