"""The ratings' share of the record: the finished tables as rating reads them, and the derived cache
(rating_results, ratings, rating_sync; migration 0011) as bot/ratings/derive.py keeps it.

Two kinds of call: functions of a connection, which the derivation composes into one transaction on the
database thread (``RatingRecord.write`` runs it), and ``RatingRecord``'s reads for the front ends, each one trip.
The openskill arithmetic stays in bot/ratings/; nothing here knows what a rating means.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, TypeVar

import orjson

from bot.engine.free_text import stored_name, stored_title
from bot.storage.store import Store

#: what the derivation's functions receive: the database thread's connection, to hand back to the functions here
Connection = sqlite3.Connection
Key = tuple[str, str, str]   # (scope, game, user_id)
#: a cached row as the derivation writes it: table, user, scope, game, finished_at, seat, place, mu_before,
#: sigma_before, mu, sigma, games
ResultRow = tuple[Any, ...]
T = TypeVar("T")


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


# ------------------------------------------------------------------------------------------- the derivation's
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
_INSERT = ("INSERT INTO rating_results (table_id, user_id, scope, game, finished_at, seat, place, mu_before,"
           " sigma_before, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_UPSERT = ("INSERT INTO ratings (scope, game, user_id, mu, sigma, shown, games) VALUES (?, ?, ?, ?, ?, ?, ?)"
           " ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
           " shown = excluded.shown, games = excluded.games")


def finishes(c: Connection, since: float) -> Iterator[Finish]:
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


def last_figures(c: Connection, key: Key) -> tuple[float, float, int] | None:
    """A player's last cached (mu, sigma, rated games) in a scope and game, or None."""
    row = c.execute("SELECT mu, sigma, games FROM rating_results WHERE scope = ? AND game = ? AND user_id = ?"
                    " ORDER BY finished_at DESC, table_id DESC LIMIT 1", key).fetchone()
    return (row[0], row[1], row[2]) if row else None


def sync_mark(c: Connection) -> tuple[float | None, str | None]:
    """(dirty_from, the model's fingerprint the cache was derived with)."""
    dirty, model = c.execute("SELECT dirty_from, model FROM rating_sync WHERE id = 1").fetchone()
    return dirty, model


def mark_clean(c: Connection, fingerprint: str | None = None) -> None:
    """Nothing left to derive (and, given, the model the cache now holds)."""
    if fingerprint is None:
        c.execute("UPDATE rating_sync SET dirty_from = NULL WHERE id = 1")
    else:
        c.execute("UPDATE rating_sync SET dirty_from = NULL, model = ? WHERE id = 1", (fingerprint,))


def mark_dirty(c: Connection, since: float, fingerprint: str) -> None:
    c.execute("UPDATE rating_sync SET dirty_from = ?, model = ? WHERE id = 1", (since, fingerprint))


def clear_cache(c: Connection) -> None:
    c.execute("DELETE FROM rating_results")
    c.execute("DELETE FROM ratings")


def keys_since(c: Connection, since: float) -> set[Key]:
    """The (scope, game, user) of every cached result from ``since`` on."""
    return {(r[0], r[1], r[2]) for r in c.execute(
        "SELECT DISTINCT scope, game, user_id FROM rating_results WHERE finished_at >= ?", (since,))}


def delete_results_since(c: Connection, since: float) -> None:
    c.execute("DELETE FROM rating_results WHERE finished_at >= ?", (since,))


def insert_results(c: Connection, rows: Iterable[ResultRow]) -> None:
    c.executemany(_INSERT, list(rows))


def put_ratings(c: Connection, rows: Iterable[tuple[str, str, str, float, float, int, int]]) -> None:
    """(scope, game, user, mu, sigma, shown, games) each: the player's current figure, inserted or replaced."""
    c.executemany(_UPSERT, list(rows))


def delete_rating(c: Connection, key: Key) -> None:
    c.execute("DELETE FROM ratings WHERE scope = ? AND game = ? AND user_id = ?", key)


def stored_results(c: Connection) -> list[ResultRow]:
    return [tuple(r) for r in c.execute(
        "SELECT table_id, user_id, scope, game, finished_at, seat, place, mu_before, sigma_before, mu, sigma, games"
        " FROM rating_results ORDER BY finished_at, table_id, seat")]


# ------------------------------------------------------------------------------------------- the front ends'
@dataclass(frozen=True)
class ResultFigures:
    """One player's cached result of one table: the raw figures before and after."""

    user_id: str
    seat: int
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class BoardRow:
    place: int
    user_id: str
    shown: int
    games: int


@dataclass(frozen=True)
class FinishedSeat:
    """A finished table the player sat at (a hot-seat player once per seat), with their cached result if any."""

    table_id: int
    game: str
    finished_at: float
    outcome: dict[str, Any]
    seat: int
    guild_id: str | None
    thread_id: str | None
    place: int | None
    mu_before: float | None
    sigma_before: float | None
    mu: float | None
    sigma: float | None


@dataclass(frozen=True)
class ProfileRows:
    """What a profile is made of, read in one trip."""

    name: str | None
    hidden: bool
    finished: list[FinishedSeat]
    current: list[tuple[int, str, str | None, str | None]]    # (table, game, guild, thread)
    tournaments: list[tuple[int, str, str | None]]            # (tournament, game, title)


class RatingRecord:
    """The ratings' reads and writes through one store."""

    def __init__(self, store: Store):
        self.store = store

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` (composed of this module's functions) with the connection, in one trip."""
        return await self.store._in_thread(fn)

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` (composed of this module's functions) as one write transaction."""
        return await self.store._write_in_thread(fn)

    async def table_results(self, table_id: int) -> list[ResultFigures]:
        return await self.store._in_thread(lambda c: [ResultFigures(*r) for r in c.execute(
            "SELECT user_id, seat, place, mu_before, sigma_before, mu, sigma, games FROM rating_results"
            " WHERE table_id = ? ORDER BY seat", (table_id,))])

    async def current(self, scope: str, game: str, user_ids: list[str]) -> dict[str, tuple[int, int]]:
        """{user: (shown, rated games)} for the players that have a rating here."""
        def read(c: Connection) -> dict[str, tuple[int, int]]:
            found = {}
            for u in user_ids:
                row = c.execute("SELECT shown, games FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
                                (scope, game, u)).fetchone()
                if row:
                    found[u] = (row[0], row[1])
            return found
        return await self.store._in_thread(read)

    async def leaderboard(self, scope: str, game: str, page: int, per_page: int) -> tuple[int, int, list[BoardRow]]:
        """(the page shown, clamped, the pages there are, its rows): by displayed rating, best first, hidden
        profiles left out; ties share a place."""
        def read(c: Connection) -> tuple[int, int, list[BoardRow]]:
            visible = ("FROM ratings r LEFT JOIN users u ON u.user_id = r.user_id WHERE r.scope = ? AND r.game = ?"
                       " AND coalesce(u.profile_hidden, 0) = 0")
            (count,) = c.execute("SELECT count(*) " + visible, (scope, game)).fetchone()
            pages = max(1, -(-count // per_page))
            at = min(max(1, page), pages)
            rows = c.execute(
                "SELECT r.user_id, r.shown, r.games, 1 + (SELECT count(*) FROM ratings x LEFT JOIN users v"
                " ON v.user_id = x.user_id WHERE x.scope = r.scope AND x.game = r.game"
                " AND coalesce(v.profile_hidden, 0) = 0 AND x.shown > r.shown) " + visible +
                " ORDER BY r.shown DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
                (scope, game, per_page, (at - 1) * per_page)).fetchall()
            return at, pages, [BoardRow(place, u, s, g) for u, s, g, place in rows]
        return await self.store._in_thread(read)

    async def names(self, user_ids: list[str]) -> dict[str, str]:
        """The name each player last sat down under."""
        def read(c: Connection) -> dict[str, str]:
            found = {}
            for u in user_ids:
                row = c.execute("SELECT name FROM seats WHERE user_id = ? ORDER BY joined_at DESC LIMIT 1",
                                (u,)).fetchone()
                if row:
                    found[u] = stored_name(row[0])
            return found
        return await self.store._in_thread(read)

    async def figures(self, user_id: str) -> list[tuple[str, str, int, int]]:
        """(scope, game, shown, rated games) of each rating the player has, by game then server."""
        return await self.store._in_thread(lambda c: [(r[0], r[1], r[2], r[3]) for r in c.execute(
            "SELECT scope, game, shown, games FROM ratings WHERE user_id = ? ORDER BY game, scope", (user_id,))])

    async def finished_tables(self) -> int:
        """How many tables have finished (what a rebuild replayed)."""
        return (await self.store._in_thread(
            lambda c: c.execute("SELECT count(*) FROM tables WHERE status = 'finished'").fetchone()))[0]

    async def profile(self, scope: str, user_id: str, game: str | None = None) -> ProfileRows:
        """The rows of ``user_id``'s profile on this server (one game, or every game)."""
        def read(c: Connection) -> ProfileRows:
            hidden = c.execute("SELECT profile_hidden FROM users WHERE user_id = ?", (user_id,)).fetchone()
            name = c.execute("SELECT name FROM seats WHERE user_id = ? ORDER BY joined_at DESC LIMIT 1",
                             (user_id,)).fetchone()
            where_game = " AND t.game = ?" if game else ""
            params: tuple = (user_id, scope, *((game,) if game else ()))
            finished = c.execute(
                "SELECT t.id, t.game, t.finished_at, t.outcome, s.seat, t.guild_id, t.thread_id,"
                " r.place, r.mu_before, r.sigma_before, r.mu, r.sigma FROM seats s JOIN tables t ON t.id = s.table_id"
                " LEFT JOIN rating_results r ON r.table_id = t.id AND r.user_id = s.user_id"
                " WHERE s.user_id = ? AND t.status = 'finished' AND coalesce(t.guild_id, '') = ?" + where_game +
                " ORDER BY t.finished_at, t.id", params).fetchall()
            current = c.execute(
                "SELECT t.id, t.game, t.guild_id, t.thread_id FROM tables t WHERE t.status IN ('lobby', 'active')"
                " AND coalesce(t.guild_id, '') = ? AND t.id IN (SELECT table_id FROM seats WHERE user_id = ?)"
                + where_game + " ORDER BY t.id DESC LIMIT 10", (scope, user_id, *((game,) if game else ()))).fetchall()
            tours = c.execute(
                "SELECT tr.id, tr.game, tr.title FROM tournaments tr JOIN entries e ON e.tournament_id = tr.id"
                " WHERE e.user_id = ? AND e.status = 'active' AND tr.status IN ('registration', 'running')"
                " AND coalesce(tr.guild_id, '') = ?" + (" AND tr.game = ?" if game else "") +
                " ORDER BY tr.id DESC LIMIT 10", (user_id, scope, *((game,) if game else ()))).fetchall()
            return ProfileRows(
                stored_name(name[0]) if name else None, bool(hidden and hidden[0]),
                [FinishedSeat(tid, g, at, orjson.loads(outcome) if outcome else {}, seat, guild, thread, place,
                              mb, sb, mu, sigma)
                 for tid, g, at, outcome, seat, guild, thread, place, mb, sb, mu, sigma in finished],
                [(r[0], r[1], r[2], r[3]) for r in current], [(r[0], r[1], stored_title(r[2])) for r in tours])
        return await self.store._in_thread(read)
