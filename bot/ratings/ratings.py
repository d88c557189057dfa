"""What the front ends ask of ratings: every answer first brings the derived cache up to the record.

``scope`` is the Discord server's id, or '' for the terminal's own tables.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.engine.free_text import stored_name, stored_title
from bot.ratings import derive
from bot.ratings.model import PROVISIONAL_GAMES, shown
from bot.ratings.outcomes import listed_games
from bot.storage.store import Store

#: what the leaderboard shows on one page (phone width: one short line each)
PAGE = 10
RECENT = 5
HISTORY = 60



@dataclass(frozen=True)
class Change:
    """One player's rating at the end of one table: before, after, and whether it is still provisional."""

    user_id: str
    seat: int
    place: int
    before: int
    after: int
    games: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Standing:
    place: int
    user_id: str
    shown: int
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Board:
    game: str
    page: int          # 1-based, clamped to the pages there are
    pages: int
    rows: list[Standing]


@dataclass(frozen=True)
class Recent:
    table_id: int
    game: str
    finished_at: float
    place: int | None       # None: not rated (casual, a bot seat...) or a co-operative game
    won: bool
    delta: int | None
    guild_id: str | None
    thread_id: str | None


@dataclass
class GameRecord:
    game: str
    shown: int | None = None      # None: no rated game yet (or a statistics-only game)
    games: int = 0                # rated games
    played: int = 0               # finished tables, rated or not
    wins: int = 0
    places: dict[int, int] = field(default_factory=dict)
    history: list[tuple[float, int]] = field(default_factory=list)   # (finished_at, shown) oldest first

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass
class Profile:
    user_id: str
    name: str | None
    hidden: bool
    games: list[GameRecord]
    recent: list[Recent]
    current: list[tuple[int, str, str | None, str | None]]    # (table, game, guild, thread)
    tournaments: list[tuple[int, str, str | None]]            # (tournament, game, title)


class Ratings:
    def __init__(self, store: Store):
        self.store = store

    async def sync(self) -> int:
        """Bring the cache up to the record (a write only when a trigger marked something to derive)."""
        dirty = await self.store._in_thread(derive.dirty_from)
        if dirty is None:
            return 0
        return await self.store._write_in_thread(derive.sync)

    async def rebuild(self) -> tuple[int, int, float]:
        return await self.store._write_in_thread(derive.rebuild)

    async def _read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        await self.sync()
        return await self.store._in_thread(fn)

    async def table_changes(self, table_id: int) -> list[Change]:
        """Each player's rating before and after a finished table; empty when it was not rated."""
        def read(c: sqlite3.Connection) -> list[Change]:
            return [Change(u, seat, place, shown(mb, sb), shown(mu, sigma), games) for u, seat, place, mb, sb, mu,
                    sigma, games in c.execute(
                        "SELECT user_id, seat, place, mu_before, sigma_before, mu, sigma, games FROM rating_results"
                        " WHERE table_id = ? ORDER BY seat", (table_id,))]
        return await self._read(read)

    async def current(self, scope: str, game: str, user_ids: list[str]) -> dict[str, tuple[int, int]]:
        """{user: (shown, rated games)} for the players that have a rating here (seeding, standings)."""
        def read(c: sqlite3.Connection) -> dict[str, tuple[int, int]]:
            found = {}
            for u in user_ids:
                row = c.execute("SELECT shown, games FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
                                (scope, game, u)).fetchone()
                if row:
                    found[u] = (row[0], row[1])
            return found
        return await self._read(read)

    async def leaderboard(self, scope: str, game: str, page: int = 1, per_page: int = PAGE) -> Board:
        """The players by displayed rating, best first, hidden profiles left out; ties share a place."""
        def read(c: sqlite3.Connection) -> Board:
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
            return Board(game, at, pages, [Standing(place, u, s, g) for u, s, g, place in rows])
        return await self._read(read)

    async def names(self, user_ids: list[str]) -> dict[str, str]:
        """The name each player last sat down under."""
        def read(c: sqlite3.Connection) -> dict[str, str]:
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
        def read(c: sqlite3.Connection) -> list[tuple[str, str, int, int]]:
            return [tuple(r) for r in c.execute("SELECT scope, game, shown, games FROM ratings WHERE user_id = ?"
                                                " ORDER BY game, scope", (user_id,))]
        return await self._read(read)

    async def hidden(self, user_id: str) -> bool:
        return bool((await self.store.user(user_id)).get("profile_hidden"))

    async def set_hidden(self, user_id: str, hidden: bool) -> None:
        await self.store.set_user(user_id, profile_hidden=int(hidden))

    async def profile(self, scope: str, user_id: str, game: str | None = None) -> Profile:
        """Everything a profile shows of ``user_id`` on this server (one game, or every game they played)."""
        def read(c: sqlite3.Connection) -> Profile:
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
            records: dict[str, GameRecord] = {}
            recent: list[Recent] = []
            seen: set[int] = set()
            for tid, g, at, outcome, seat, guild, thread, place, mb, sb, mu, sigma in finished:
                if tid in seen:  # a hot-seat player's second seat
                    continue
                seen.add(tid)
                rec = records.setdefault(g, GameRecord(g))
                won = seat in ((json.loads(outcome) if outcome else {}).get("winners") or [])
                rec.played += 1
                rec.wins += won
                delta = None
                if place is not None:
                    rec.games += 1
                    rec.places[place] = rec.places.get(place, 0) + 1
                    rec.shown = shown(mu, sigma)
                    rec.history.append((at, rec.shown))
                    delta = rec.shown - shown(mb, sb)
                recent.append(Recent(tid, g, at, place, won, delta, guild, thread))
            for rec in records.values():
                rec.history = rec.history[-HISTORY:]
            current = c.execute(
                "SELECT t.id, t.game, t.guild_id, t.thread_id FROM tables t WHERE t.status IN ('lobby', 'active')"
                " AND coalesce(t.guild_id, '') = ? AND t.id IN (SELECT table_id FROM seats WHERE user_id = ?)"
                + where_game + " ORDER BY t.id DESC LIMIT 10", (scope, user_id, *((game,) if game else ()))).fetchall()
            tours = c.execute(
                "SELECT tr.id, tr.game, tr.title FROM tournaments tr JOIN entries e ON e.tournament_id = tr.id"
                " WHERE e.user_id = ? AND e.status = 'active' AND tr.status IN ('registration', 'running')"
                " AND coalesce(tr.guild_id, '') = ?" + (" AND tr.game = ?" if game else "") +
                " ORDER BY tr.id DESC LIMIT 10", (user_id, scope, *((game,) if game else ()))).fetchall()
            order = {g: i for i, g in enumerate(listed_games())}
            return Profile(user_id, stored_name(name[0]) if name else None, bool(hidden and hidden[0]),
                           sorted(records.values(), key=lambda r: order.get(r.game, 99)),
                           list(reversed(recent))[:RECENT], [tuple(r) for r in current],
                           [(r[0], r[1], stored_title(r[2])) for r in tours])
        return await self._read(read)
