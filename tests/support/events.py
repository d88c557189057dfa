"""Tournaments for the tests: an event of ``n`` players made through the director, its bots' tables played
until it ends, and the terminal's ``tournament`` command."""
from collections import Counter

from bot.engine import Rejection
from bot.terminal.cli import main
from bot.tournament.director import Director


def tournament_cli(db, *args, capsys=None):
    """``python -m bot tournament ARGS`` on ``db`` in English: (exit code, what it printed if ``capsys``)."""
    code = main(["--db", str(db), "--locale", "en", "tournament", *args])
    out = capsys.readouterr() if capsys else None
    return code, out


async def new_event(referee, n, fmt="swiss", game="toy", settings=None, bots=True, options=None):
    director = Director(referee)
    tour = await director.create(game, fmt, creator="u:org", settings=settings, options=options, origin="terminal",
                                 locale="en")
    assert not isinstance(tour, Rejection), tour
    for i in range(n):
        assert await director.join(tour.id, f"u:p{i:02}", f"P{i:02}", is_bot=bots) == i + 1
    return director, tour.id


async def play_out(director, tid, limit=50):
    """Let the bots play every table and the results flow until the tournament ends."""
    for _ in range(limit):
        t = await director.record.get(tid)
        if t.status != "running":
            return t
        for g in await director.record.games(tid, t.round):
            if g.table_id:
                await director.referee.drive_bots(g.table_id)
        await director.sync(tid)
    raise AssertionError("the tournament did not end")


def matches(games):
    """Each match (round, players) with its winner: whoever won more of those players' games that round."""
    wins: dict = {}
    for g in sorted(games, key=lambda g: (g.round, g.board)):
        if g.kind != "table":
            continue
        best = max(g.points.values())
        top = [p for p in g.players if g.points[p] == best]
        tally = wins.setdefault((g.round, frozenset(g.players)), Counter())
        if len(top) == 1:
            tally[top[0]] += 1
    return {key: tally.most_common(1)[0][0] for key, tally in wins.items() if tally}
