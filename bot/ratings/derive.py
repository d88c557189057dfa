"""Ratings derived from the record: the finished tables replayed in finish order into a cache.

The cache (rating_results, ratings; migration 0011) is never a second truth.  SQLite triggers move
``rating_sync.dirty_from`` back to the earliest finish any change touched (a table finishing, a rollback
reopening it, a dispute settling it again, a corrected tournament result, a tournament's rating switched off);
``sync`` deletes the cached rows from that finish on and replays every finished table from there, starting from
each player's last cached figure before it.  ``replay`` is one pure function used by both ``sync`` and
``rebuild``, so the two cannot differ but by their starting point.

Everything here runs on a plain sqlite3 connection (the store's database thread, or a script's own).
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import orjson

from bot.ratings.model import FINGERPRINT, Skill, rate_ratings, rating, shown
from bot.ratings.outcomes import Standing, Unrated, places, standing

Key = tuple[str, str, str]   # (scope, game, user_id)
BEGINNING = -1e300
CLEAN = 1e300


@dataclass(frozen=True)
class Finish:
    """What the record says of one finished table, as rating needs it."""

    table_id: int
    game: str
    scope: str
    finished_at: float
    options: dict
    outcome: dict
    users: list[str]          # by seat
    rated: bool               # the table's setting
    moved: bool               # a player made at least one move
    tournament_rated: bool    # False when its tournament's organiser switched rating off
    adjusted: dict | None     # an organiser's corrected points {user_id: points}, when there are


@dataclass(frozen=True)
class Result:
    table_id: int
    user_id: str
    scope: str
    game: str
    finished_at: float
    seat: int
    place: int
    before: Skill
    after: Skill
    games: int

    def row(self) -> tuple:
        return (self.table_id, self.user_id, self.scope, self.game, self.finished_at, self.seat, self.place,
                self.before.mu, self.before.sigma, self.after.mu, self.after.sigma, self.games)


def judge(f: Finish) -> Standing:
    """The standing a finished table is rated by, or Unrated with the rule's reason (docs/ratings.md)."""
    if not f.rated:
        raise Unrated("casual")
    if any(u.startswith("bot:") for u in f.users):
        raise Unrated("bot_seat")
    if len(set(f.users)) != len(f.users):
        raise Unrated("hot_seat")
    if not f.tournament_rated:
        raise Unrated("tournament_casual")
    if not f.moved:
        raise Unrated("no_move")
    found = standing(f.game, f.options, len(f.users), f.outcome)
    if f.adjusted is not None:  # the organiser's corrected points decide, each player alone
        try:
            points = [float(f.adjusted[u]) for u in f.users]
        except (KeyError, TypeError, ValueError):
            raise Unrated("malformed") from None
        return Standing([[s] for s in range(len(f.users))], places(points))
    return found


def replay(finishes: Iterable[Finish], before: Callable[[Key], tuple[Skill, int]]) -> tuple[list[Result], dict[Key, tuple[Skill, int]]]:
    """Rate ``finishes`` (in finish order) one after another; ``before`` gives a player's skill and rated games
    before the first of them.  Returns the rows and every touched player's figures after the last."""
    now: dict[Key, tuple[Any, int]] = {}   # openskill's rating objects, kept from game to game
    out: list[Result] = []
    for f in finishes:
        try:
            st = judge(f)
        except Unrated:
            continue
        keys = [(f.scope, f.game, u) for u in f.users]
        for key in keys:
            if key not in now:
                skill, games = before(key)
                now[key] = (rating(skill), games)
        after = rate_ratings([[now[keys[s]][0] for s in team] for team in st.teams], st.ranks)
        for team, new_team, rank in zip(st.teams, after, st.ranks):
            for seat, new in zip(team, new_team):
                key = keys[seat]
                old, games = now[key]
                now[key] = (new, games + 1)
                out.append(Result(f.table_id, f.users[seat], f.scope, f.game, f.finished_at, seat, rank,
                                  Skill(old.mu, old.sigma), Skill(new.mu, new.sigma), games + 1))
    return out, {key: (Skill(r.mu, r.sigma), games) for key, (r, games) in now.items()}


_FINISHES = """
SELECT t.id, t.game, coalesce(t.guild_id, ''), t.finished_at, t.options, t.outcome, t.rated,
       EXISTS (SELECT 1 FROM actions a WHERE a.table_id = t.id AND a.seat >= 0
               AND a.user_id NOT IN ('system', 'auto')) AS moved,
       g.result, g.points, tr.settings
FROM tables t
LEFT JOIN tournament_games g ON g.table_id = t.id
LEFT JOIN tournaments tr ON tr.id = g.tournament_id
WHERE t.status = 'finished' AND t.finished_at >= ?
ORDER BY t.finished_at, t.id
"""
_SEATS = """
SELECT s.table_id, s.seat, s.user_id FROM seats s JOIN tables t ON t.id = s.table_id
WHERE t.status = 'finished' AND t.finished_at >= ? ORDER BY s.table_id, s.seat
"""


def finishes(c: sqlite3.Connection, since: float = BEGINNING) -> Iterator[Finish]:
    """The finished tables from ``since`` on, in finish order (ties by table number)."""
    users: dict[int, list[str]] = {}
    for table_id, _seat, user_id in c.execute(_SEATS, (since,)):
        users.setdefault(table_id, []).append(user_id)
    seen: set[int] = set()
    for (table_id, game, scope, finished_at, options, outcome, rated, moved, result, points,
         settings) in c.execute(_FINISHES, (since,)):
        if table_id in seen:  # a table in two tournament games (never, but the join must not rate it twice)
            continue
        seen.add(table_id)
        tournament = orjson.loads(settings) if settings else {}
        yield Finish(table_id, game, scope, finished_at, orjson.loads(options) if options else {},
                     orjson.loads(outcome) if outcome else {}, users.get(table_id, []), bool(rated), bool(moved),
                     tournament.get("rated", True) is not False,
                     orjson.loads(points) if result == "adjusted" and points else None)


def _stored_before(c: sqlite3.Connection) -> Callable[[Key], tuple[Skill, int]]:
    def before(key: Key) -> tuple[Skill, int]:
        row = c.execute("SELECT mu, sigma, games FROM rating_results WHERE scope = ? AND game = ? AND user_id = ?"
                        " ORDER BY finished_at DESC, table_id DESC LIMIT 1", key).fetchone()
        return (Skill(row[0], row[1]), row[2]) if row else (Skill(), 0)
    return before


def _fresh(_key: Key) -> tuple[Skill, int]:
    return Skill(), 0


_INSERT = ("INSERT INTO rating_results (table_id, user_id, scope, game, finished_at, seat, place, mu_before,"
           " sigma_before, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_UPSERT = ("INSERT INTO ratings (scope, game, user_id, mu, sigma, shown, games) VALUES (?, ?, ?, ?, ?, ?, ?)"
           " ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
           " shown = excluded.shown, games = excluded.games")


def dirty_from(c: sqlite3.Connection) -> float | None:
    dirty, model = c.execute("SELECT dirty_from, model FROM rating_sync WHERE id = 1").fetchone()
    if model != FINGERPRINT:
        return BEGINNING
    return None if dirty is None or dirty >= CLEAN else dirty


def sync(c: sqlite3.Connection) -> int:
    """Bring the cache up to the record (inside the caller's write transaction); returns how many finished
    tables were replayed (rated or not)."""
    since = dirty_from(c)
    if since is None:
        c.execute("UPDATE rating_sync SET dirty_from = NULL WHERE id = 1")
        return 0
    if since <= BEGINNING:
        affected: set[Key] = set()
        c.execute("DELETE FROM rating_results")
        c.execute("DELETE FROM ratings")
        before = _fresh
    else:
        affected = {tuple(r) for r in c.execute(
            "SELECT DISTINCT scope, game, user_id FROM rating_results WHERE finished_at >= ?", (since,))}
        c.execute("DELETE FROM rating_results WHERE finished_at >= ?", (since,))
        before = _stored_before(c)
    replayed = list(finishes(c, since))
    results, now = replay(replayed, before)
    c.executemany(_INSERT, [r.row() for r in results])
    c.executemany(_UPSERT, [(*key, s.mu, s.sigma, shown(s.mu, s.sigma), games) for key, (s, games) in now.items()])
    for key in affected - set(now):  # players whose only later games went: their figure before them, or none
        row = c.execute("SELECT mu, sigma, games FROM rating_results WHERE scope = ? AND game = ? AND user_id = ?"
                        " ORDER BY finished_at DESC, table_id DESC LIMIT 1", key).fetchone()
        if row is None:
            c.execute("DELETE FROM ratings WHERE scope = ? AND game = ? AND user_id = ?", key)
        else:
            c.execute(_UPSERT, (*key, row[0], row[1], shown(row[0], row[1]), row[2]))
    c.execute("UPDATE rating_sync SET dirty_from = NULL, model = ? WHERE id = 1", (FINGERPRINT,))
    return len(replayed)


def recompute(c: sqlite3.Connection) -> list[Result]:
    """Every rated table's figures computed from the record alone, from nothing (what ``rebuild`` compares)."""
    return replay(list(finishes(c)), _fresh)[0]


def stored(c: sqlite3.Connection) -> list[tuple]:
    return [tuple(r) for r in c.execute(
        "SELECT table_id, user_id, scope, game, finished_at, seat, place, mu_before, sigma_before, mu, sigma, games"
        " FROM rating_results ORDER BY finished_at, table_id, seat")]


def compare(fresh: list[Result], cached: list[tuple]) -> tuple[int, float]:
    """(rows that differ, the largest difference of a figure) between a recomputation and the cache."""
    a = sorted((r.row() for r in fresh), key=lambda r: (r[4], r[0], r[5]))
    differ, most = abs(len(a) - len(cached)), 0.0
    for x, y in zip(a, cached):
        if x[:7] != y[:7] or x[11] != y[11]:
            differ += 1
            continue
        gap = max(abs(p - q) for p, q in zip(x[7:11], y[7:11]))
        most = max(most, gap)
        differ += gap > 1e-9
    return differ, most


def rebuild(c: sqlite3.Connection) -> tuple[int, int, float]:
    """Sync, recompute everything from nothing and compare with the cache; where they differ (they should not),
    the recomputation is stored.  Inside the caller's write transaction.  Returns (rated rows, rows that
    differed, the largest difference of a figure)."""
    sync(c)
    fresh = recompute(c)
    differ, most = compare(fresh, stored(c))
    if differ:
        c.execute("UPDATE rating_sync SET dirty_from = ?, model = ? WHERE id = 1", (BEGINNING, FINGERPRINT))
        sync(c)
    return len(fresh), differ, most
