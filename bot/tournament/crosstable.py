"""The published record of a round as monospace text (docs/tournaments.md, "Published record"): the round's
results, a crosstable (Swiss, round-robin) and the path through an elimination bracket.  Pure functions of the
standings and the games, so the terminal and Discord print the same thing.

Crosstable cells, one per round: the opponent's rank and the result — ``+`` win, ``=`` draw, ``-`` loss, ``>``
forfeit win, ``<`` forfeit loss; ``B`` with the points of a bye, ``L`` a late entry's score, ``·`` no game.
Names are cut so a row stays narrow on a phone.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.i18n import t
from bot.storage.tournaments import GameRow

from .standings import scored

NAME = 10


def _pts(value: float) -> str:
    return "½" if value == 0.5 else f"{value:g}".replace(".5", "½")


def _mark(mine: float, theirs: float, forfeit: bool) -> str:
    if forfeit:
        return ">" if mine > theirs else "<" if mine < theirs else "<"
    return "+" if mine > theirs else "=" if mine == theirs else "-"


def crosstable(rows: Sequence[Mapping[str, Any]], games: Sequence[GameRow], rounds: int) -> str:
    """Rank, name, points and one cell per round, best first (``rows``: standings as dicts, ranked)."""
    rank = {r["user_id"]: r["rank"] for r in rows}
    cells: dict[str, list[str]] = {r["user_id"]: ["·"] * rounds for r in rows}
    for g in games:
        if not g.settled or g.round > rounds:
            continue
        for p in g.players:
            if p not in cells:
                continue
            got = scored(g).get(p, 0.0)
            if g.kind == "table" and len(g.players) == 2:
                other = next(o for o in g.players if o != p)
                cells[p][g.round - 1] = f"{rank.get(other, '?')}{_mark(got, scored(g).get(other, 0.0), g.result == 'forfeit')}"
            elif g.kind == "bye" and g.result != "rest":
                cells[p][g.round - 1] = "B" + ("+" if got >= 1 else "=" if got > 0 else "-")
            elif g.kind == "late":
                cells[p][g.round - 1] = "L="
    width = max([len(c) for cs in cells.values() for c in cs] + [2])
    lines = []
    for r in rows:
        name = r["name"][:NAME].ljust(NAME)
        row = [f"{r['rank']:>3}", name, f"{_pts(r['points']):>3}", *(c.rjust(width) for c in cells[r["user_id"]])]
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines)


def bracket_path(names: Mapping[str, str], games: Sequence[GameRow], locale: str) -> str:
    """Each round of an elimination: its matches and who went on (byes and walkovers too)."""
    lines = []
    for number in sorted({g.round for g in games}):
        lines.append(t("tournament.record.bracket_round", locale, round=number))
        for g in (g for g in games if g.round == number):
            who = " — ".join(names.get(p, p)[:NAME] for p in g.players)
            if g.kind != "table":
                lines.append(f" {who} ⇒ {t('tournament.record.walkover', locale)}")
            elif not g.settled:
                lines.append(f" {who} …")
            else:
                score = ":".join(_pts(scored(g)[p]) for p in g.players)
                best = max(scored(g).values())
                top = [p for p in g.players if scored(g)[p] == best]
                on = names.get(top[0], top[0])[:NAME] if len(top) == 1 and best > 0 else "—"
                lines.append(f" {who} {score} ⇒ {on}")
    return "\n".join(lines)


def round_results(names: Mapping[str, str], games: Sequence[GameRow], locale: str) -> list[str]:
    """One line per game of a round: table, players, score and how it was decided."""
    out = []
    for g in games:
        who = " — ".join(names.get(p, p) for p in g.players)
        score = ":".join(_pts(scored(g)[p]) for p in g.players) if g.points else "…"
        out.append(t("tournament.record.result", locale, board=g.board, players=who, score=score,
                     result=t(f"tournament.result.{g.result or 'playing'}", locale)))
    return out
