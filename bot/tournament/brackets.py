"""Elimination brackets walked from the seeding and the games played: pure functions (docs/tournaments.md,
T-8a, T-20).

A bracket is a list of *places*, two per match, in bracket order; a place holds a player or None (empty: a
seeding bye, or a match nobody won).  Each round's places are computed again from round 1's seeding and the
games of every round before, so nothing but the games is stored and a bracket can always be redrawn.  In any
round a player has one game: a table with their opponent, or a walkover (a ``bye`` game of theirs alone);
that is how a game is found for its match.

Double elimination over a bracket of S = 2^k places:

* the winners' bracket (W) plays its round w in tournament round w (w = 1..k);
* the losers' bracket (L) plays its round m in tournament round m + 1 (m = 1..2(k-1)): round 1 pairs the
  losers of W1; an even round 2j pairs the winners of L(2j-1) with the losers of W(j+1), dropped in reverse
  order every other time (so players from the same part of W meet as late as possible); an odd round pairs
  the winners of the round before;
* the grand final (tournament round 2k): W's champion against L's; when L's champion wins it and ``reset``
  is on, both have lost once and a second final is played (round 2k + 1).

A match lost by forfeit of both (0–0) sends nobody on: both are out of the event (T-8a), and a player sent to
L from W who withdrew is an empty place there.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from bot.storage.tournaments import GameRow

from .pairing import bracket
from .standings import scored


def _loss(points) -> float:
    return points.loss


def _tally(wanted: set[str], played: Sequence[GameRow], points) -> tuple[Counter, str | None, bool, bool]:
    """(wins per player, a walkover's player, a double forfeit seen, a game still playing) of one match."""
    wins: Counter = Counter()
    walkover, double, open_game = None, False, False
    for g in played:
        if not g.players or not set(g.players) <= wanted:
            continue
        if not g.settled:
            open_game = True
            continue
        if g.kind != "table":
            walkover = g.players[0]
            continue
        best = max(scored(g).values())
        top = [p for p in g.players if scored(g)[p] == best]
        if best <= _loss(points):
            double = True
        elif len(top) == 1:
            wins[top[0]] += 1
    return wins, walkover, double, open_game


def match_result(places: Sequence[str | None], played: Sequence[GameRow], points,
                 best_of: int = 1) -> tuple[str | None, str | None]:
    """(winner, loser) of one match from the round's games: a lone player's walkover wins with no loser; at a
    table, the first to win the majority of ``best_of`` games (a drawn game does not count and another is
    played, T-8); a game both lost (a double forfeit) ends the match with neither.  A match cut short (an
    organiser's adjustment, a deadline) goes to whoever won more of its games; level, to neither."""
    wanted = {p for p in places if p is not None}
    if not wanted:
        return None, None
    wins, walkover, double, _ = _tally(wanted, played, points)
    if walkover is not None:
        return walkover, None
    if double or not wins:
        return None, None
    ranked = wins.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None, None
    winner = ranked[0][0]
    others = sorted(wanted - {winner})
    return winner, others[0] if others else None


def match_goes_on(players: Sequence[str], played: Sequence[GameRow], points, best_of: int = 1) -> bool:
    """Whether a match needs another game: nobody has won the majority of ``best_of`` yet, no game is still
    playing, and no game was lost by both."""
    wins, walkover, double, open_game = _tally(set(players), played, points)
    return not (open_game or double or walkover or (wins and max(wins.values()) >= best_of // 2 + 1))


def fold_matches(games: Sequence[GameRow], points, best_of: int) -> list[GameRow]:
    """Swiss and round robin with ``best_of`` N (T-20): each match's games as one row, scored as one game — its
    winner a win, its loser a loss, a match left level (cut short by a deadline or an organiser) a draw, a double
    forfeit a loss for both.  A match is unsettled while one of its games is (the director adds a match's next
    game in the step that settles the one before).  Byes and best-of-1 pass as they are; the row keeps the
    first game's seats and board."""
    if best_of <= 1:
        return list(games)
    folded: list[GameRow] = []
    matches: dict[tuple[int, frozenset], list[GameRow]] = {}
    for g in sorted(games, key=lambda g: (g.round, g.board)):
        if g.kind == "table" and len(g.players) == 2:
            matches.setdefault((g.round, frozenset(g.players)), []).append(g)
        else:
            folded.append(g)
    for played in matches.values():
        first = played[0]
        _, _, double, open_game = _tally(set(first.players), played, points)
        if open_game:
            folded.append(replace(first, points=None, result=None))
            continue
        forfeit = all(g.result == "forfeit" for g in played)
        winner, loser = match_result(first.players, played, points, best_of)
        if double:
            got, how = {p: _loss(points) for p in first.players}, "forfeit"
        elif winner is None:
            got, how = {p: points.draw for p in first.players}, "draw"
        else:
            assert loser is not None  # a table of two: whoever did not win the match lost it
            got, how = {winner: points.win, loser: _loss(points)}, "forfeit" if forfeit else "played"
        folded.append(replace(first, points=got, result=how))
    return sorted(folded, key=lambda g: (g.round, g.board))


@dataclass
class Walk:
    """Where a double-elimination event stands before round ``number``: that round's matches (pairs of
    places, W's first, then L's, then the final), whether the event is over, and its champion."""

    matches: list[tuple[str | None, str | None]] = field(default_factory=list)
    over: bool = False
    champion: str | None = None
    brackets: list[str] = field(default_factory=list)       # "W", "L" or "F" for each match


def _pairs(places: Sequence[str | None]) -> list[tuple[str | None, str | None]]:
    return [(places[i], places[i + 1] if i + 1 < len(places) else None) for i in range(0, len(places), 2)]


def double_elimination(order: Sequence[str], games: Sequence[GameRow], number: int, points, *,
                       reset: bool = True, best_of: int = 1) -> Walk:
    """The matches of round ``number`` of a double-elimination event (see the module's docstring)."""
    played = {r: [g for g in games if g.round == r] for r in {g.round for g in games}}
    first = bracket(order)
    size = 2 * len(first)
    k = size.bit_length() - 1
    w_places: list[str | None] = [p for pair in first for p in pair]
    w_losers: dict[int, list[str | None]] = {}
    walk = Walk()
    for w in range(1, k + 1):
        if w == number:
            walk.matches += _pairs(w_places)
            walk.brackets += ["W"] * (len(w_places) // 2)
            break
        results = [match_result(pair, played.get(w, []), points, best_of) for pair in _pairs(w_places)]
        w_losers[w] = [loser for _, loser in results]
        w_places = [winner for winner, _ in results]
    w_champion = w_places[0] if len(w_places) == 1 else None

    lb_rounds = 2 * (k - 1)
    l_winners: list[str | None] = list(w_losers.get(1, [])) if k == 1 else []
    for m in range(1, lb_rounds + 1):
        t = m + 1
        if t > number:
            break
        if m == 1:
            places = list(w_losers[1])
        elif m % 2 == 0:
            j = m // 2
            drops = list(w_losers.get(j + 1, []))
            if j % 2 == 1:
                drops.reverse()
            places = [x for i in range(len(drops)) for x in (l_winners[i], drops[i])]
        else:
            places = list(l_winners)
        if t == number:
            walk.matches += _pairs(places)
            walk.brackets += ["L"] * (len(places) // 2)
            break
        l_winners = [winner for winner, _ in (match_result(pair, played.get(t, []), points, best_of)
                                              for pair in _pairs(places))]
    l_champion = l_winners[0] if len(l_winners) == 1 else None

    final = 2 * k
    if number < final:
        return walk
    if number == final:
        walk.matches, walk.brackets = [(w_champion, l_champion)], ["F"]
        if w_champion is None and l_champion is None:
            walk.over, walk.matches, walk.brackets = True, [], []
        return walk
    winner, loser = match_result((w_champion, l_champion), played.get(final, []), points, best_of)
    if winner is None or winner == w_champion or not reset or loser is None:
        walk.over, walk.champion = True, winner
        return walk
    if number == final + 1:  # the reset: the winners' champion has lost once, as the other has
        walk.matches, walk.brackets = [(l_champion, w_champion)], ["F"]
        return walk
    again, _ = match_result((w_champion, l_champion), played.get(final + 1, []), points, best_of)
    walk.over, walk.champion = True, again
    return walk


def rounds(players: int, reset: bool) -> int:
    """The most rounds a double-elimination event of ``players`` can take."""
    size = 1
    while size < max(players, 2):
        size *= 2
    k = size.bit_length() - 1
    return 2 * k + (1 if reset else 0)


def survival(order: Sequence[str], games: Sequence[GameRow], points, *, reset: bool = True,
             best_of: int = 1) -> dict[str, int]:
    """How far each player went: the last round they had a game in (a table or a walkover), and the champion
    one more — the order of the standings (the later out, the higher)."""
    last: dict[str, int] = {}
    for g in games:
        for p in g.players:
            last[p] = max(last.get(p, 0), g.round)
    top = max((g.round for g in games), default=0)
    walk = double_elimination(order, games, top + 1, points, reset=reset, best_of=best_of)
    if walk.over and walk.champion is not None:
        last[walk.champion] = top + 1
    return last
