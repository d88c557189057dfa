"""What the front ends ask of ratings: every answer first brings the derived cache up to the record.

``scope`` is the Discord server's id, or '' for the terminal's own tables.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Awaitable, Callable, TypeVar

from bot.ratings import derive
from bot.ratings.model import PROVISIONAL_GAMES, shown
from bot.storage.ratings import RatingRecord
from bot.ratings.outcomes import listed_games
from bot.storage.store import Store

T = TypeVar("T")

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
        self.record = RatingRecord(store)

    async def sync(self) -> int:
        """Bring the cache up to the record (a write only when a trigger marked something to derive)."""
        dirty = await self.record.read(derive.dirty_from)
        if dirty is None:
            return 0
        return await self.record.write(derive.sync)

    async def rebuild(self) -> tuple[int, int, float]:
        return await self.record.write(derive.rebuild)

    async def _read(self, read: Callable[[], Awaitable[T]]) -> T:
        await self.sync()
        return await read()

    async def table_changes(self, table_id: int) -> list[Change]:
        """Each player's rating before and after a finished table; empty when it was not rated."""
        return [Change(r.user_id, r.seat, r.place, shown(r.mu_before, r.sigma_before), shown(r.mu, r.sigma), r.games)
                for r in await self._read(lambda: self.record.table_results(table_id))]

    async def current(self, scope: str, game: str, user_ids: list[str]) -> dict[str, tuple[int, int]]:
        """{user: (shown, rated games)} for the players that have a rating here (seeding, standings)."""
        return await self._read(lambda: self.record.current(scope, game, user_ids))

    async def leaderboard(self, scope: str, game: str, page: int = 1, per_page: int = PAGE) -> Board:
        """The players by displayed rating, best first, hidden profiles left out; ties share a place."""
        at, pages, rows = await self._read(lambda: self.record.leaderboard(scope, game, page, per_page))
        return Board(game, at, pages, [Standing(r.place, r.user_id, r.shown, r.games) for r in rows])

    async def names(self, user_ids: list[str]) -> dict[str, str]:
        """The name each player last sat down under."""
        return await self.record.names(user_ids)

    async def figures(self, user_id: str) -> list[tuple[str, str, int, int]]:
        """(scope, game, shown, rated games) of each rating the player has, by game then server."""
        return await self._read(lambda: self.record.figures(user_id))

    async def finished_tables(self) -> int:
        return await self.record.finished_tables()

    async def hidden(self, user_id: str) -> bool:
        return bool((await self.store.user(user_id)).get("profile_hidden"))

    async def set_hidden(self, user_id: str, hidden: bool) -> None:
        await self.store.set_user(user_id, profile_hidden=int(hidden))

    async def profile(self, scope: str, user_id: str, game: str | None = None) -> Profile:
        """Everything a profile shows of ``user_id`` on this server (one game, or every game they played)."""
        rows = await self._read(lambda: self.record.profile(scope, user_id, game))
        records: dict[str, GameRecord] = {}
        recent: list[Recent] = []
        seen: set[int] = set()
        for f in rows.finished:
            if f.table_id in seen:  # a hot-seat player's second seat
                continue
            seen.add(f.table_id)
            rec = records.setdefault(f.game, GameRecord(f.game))
            won = f.seat in (f.outcome.get("winners") or [])
            rec.played += 1
            rec.wins += won
            delta = None
            if f.place is not None and f.mu is not None and f.sigma is not None and f.mu_before is not None \
                    and f.sigma_before is not None:  # a cached result: its row holds the place and all four
                rec.games += 1
                rec.places[f.place] = rec.places.get(f.place, 0) + 1
                rec.shown = shown(f.mu, f.sigma)
                rec.history.append((f.finished_at, rec.shown))
                delta = rec.shown - shown(f.mu_before, f.sigma_before)
            recent.append(Recent(f.table_id, f.game, f.finished_at, f.place, won, delta, f.guild_id, f.thread_id))
        for rec in records.values():
            rec.history = rec.history[-HISTORY:]
        order = {g: i for i, g in enumerate(listed_games())}
        return Profile(user_id, rows.name, rows.hidden, sorted(records.values(), key=lambda r: order.get(r.game, 99)),
                       list(reversed(recent))[:RECENT], rows.current, rows.tournaments)
