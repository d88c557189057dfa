"""Corrections that redo what they invalidate (issue 37, item 2; docs/tournaments.md "Correcting a result").

A bracket's later rounds are a function of its earlier results: correcting a result whose winner has already
played on makes the games that winner went on to play wrong.  ``invalidated`` finds them — every later game
whose players are no longer a match the bracket, walked again with the correction, would pair — by walking
round after round with the games found wrong taken out (so a winner of a wrong game is no longer anyone's
opponent either).  The director shows that list to the organiser, and on their confirmation cancels those
tables, takes the rounds after the first wrong one back, and pairs the bracket again from there.

Swiss and round robin keep their later pairings (FIDE's practice: a corrected result changes scores, never a
pairing already published), so nothing is invalidated there.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from bot.i18n import t

from bot.storage.tournaments import GameRow

#: (games, round number) → the matches the bracket pairs in that round, as sets of players (empty places left out)
Matches = Callable[[Sequence[GameRow], int], list[frozenset[str]]]


@dataclass
class Undo:
    """What a bracket correction would undo, for the organiser to confirm: the games found wrong (their tables
    cancelled), the first round paired again, and the later rounds taken back whole."""

    tournament_id: int
    round: int                      # the corrected game's round and board
    board: int
    games: list[GameRow] = field(default_factory=list)
    from_round: int = 0             # the first round with a wrong game: paired again from here
    dropped_rounds: list[int] = field(default_factory=list)
    done: bool = False              # False: a dry run, nothing changed yet
    progress: Any = None            # once done: the director's Progress of the re-paired round
    shown: int = 0                  # a dry run's log entry, which a later confirmation names


def corrected(games: Sequence[GameRow], round: int, board: int, points: dict[str, float], how: str) -> list[GameRow]:
    """The games as they stand once the correction is made."""
    return [replace(g, points=dict(points), result=how) if (g.round, g.board) == (round, board) else g
            for g in games]


def invalidated(games: Sequence[GameRow], round: int, last_round: int, matches: Matches) -> list[GameRow]:
    """The games after ``round`` that the corrected bracket would not have paired (``games`` already carry the
    correction), in round and board order."""
    kept = [g for g in games if g.round <= round]
    wrong: list[GameRow] = []
    for number in range(round + 1, last_round + 1):
        expected = matches(kept, number)
        for g in (g for g in games if g.round == number):
            # a replay of a drawn game (T-8) or a best-of-N game sits with its match's players
            if any(frozenset(g.players) <= m for m in expected):
                kept.append(g)
            else:
                wrong.append(g)
    return wrong


def dropped_after(first: int, last_round: int) -> list[int]:
    """The rounds taken back whole when the bracket is paired again from ``first``: every later round, since a
    round is paired only once the one before it is complete."""
    return list(range(first + 1, last_round + 1))


def describe(undo: Undo, names: dict[str, str], locale: str | None) -> list[str]:
    """The organiser's view of what a correction undoes, line by line (the front end adds how to confirm)."""
    lines = [t("tournament.correction.preview", locale, round=undo.round, board=undo.board)]
    lines += ["• " + t("tournament.correction.game", locale, round=g.round, board=g.board,
                       players=" — ".join(names.get(p, p) for p in g.players)) for g in undo.games]
    if undo.dropped_rounds:
        lines.append(t("tournament.correction.dropped", locale, rounds=", ".join(map(str, undo.dropped_rounds))))
    lines.append(t("tournament.correction.repair", locale, first=undo.from_round))
    return lines
