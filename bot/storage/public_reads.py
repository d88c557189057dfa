"""The public pages' reads (bot/web/public.py): every query the pages run, typed, on the Store's reader.

The rows come back as they are stored; deciding what of them the public may see stays with bot/web/public.py
(the public events only are *read* here: ``visible_to IS NULL``, so a hidden event never leaves the database
for the pages).  The ``*_marks`` readers give, in one cheap query each, what a page depends on: the pages keep a
rendered page until its marks change.

A ``Scope`` says whose tables a reader counts: every server's (``Scope.all_servers()``) or one server's
(``Scope.server(guild_id)``; None: the ones played outside any server, from the terminal or the demo).

A server whose moderators took it off the public pages (``guilds.public`` 0, migration 0017) is left out of every
reader here, as if its tables and tournaments had never been: ``shown`` is the condition each query adds.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.canonical import loads
from bot.engine.free_text import stored_name, stored_title

from .store import Store, TableRow
from .tournaments import Entry, GameRow, TournamentRow


def shown(column: str = "guild_id") -> str:
    """The SQL condition that the server in ``column`` is on the public pages (a table outside any server is)."""
    return f"coalesce({column}, '') NOT IN (SELECT guild_id FROM guilds WHERE public = 0)"


@dataclass(frozen=True)
class Scope:
    """Whose tables: ``every`` server's, else the one ``guild_id`` names (None: outside any server)."""

    every: bool
    guild_id: str | None

    @classmethod
    def all_servers(cls) -> Scope:
        return cls(True, None)

    @classmethod
    def server(cls, guild_id: str | None) -> Scope:
        return cls(False, guild_id)

    def where(self) -> tuple[str, tuple[Any, ...]]:
        if self.every:
            return shown(), ()
        if self.guild_id is None:
            return "guild_id IS NULL", ()
        return f"guild_id = ? AND {shown()}", (self.guild_id,)


@dataclass(frozen=True)
class TableMarks:
    """What a table's pages depend on."""

    status: str
    version: int
    paused_at: float | None


@dataclass(frozen=True)
class PublicEvent:
    """An event every seat and every onlooker heard (``visible_to`` NULL)."""

    version: int
    kind: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Moved:
    """Who took the action of a version (a negative seat: the referee's own step), and when."""

    seat: int
    at: float


@dataclass(frozen=True)
class TableEvent:
    """The tournament a table is a game of."""

    tournament_id: int
    title: str | None
    round: int
    board: int


@dataclass(frozen=True)
class ServerCount:
    """A server's started tables and tournaments (``guild_id`` None: outside any server)."""

    guild_id: str | None
    tables: int
    tournaments: int


async def ping(store: Store) -> None:
    """One trip to the database and back (the health check's): raises when it does not answer."""
    await store._one("SELECT 1")


# ---------------------------------------------------------------------------------------------- tables
async def table_marks(store: Store, table_id: int) -> TableMarks | None:
    row = await store._one(f"SELECT status, version, paused_at FROM tables WHERE id = ? AND {shown()}", (table_id,))
    return None if row is None else TableMarks(row["status"], row["version"], row["paused_at"])


async def public_events(store: Store, table_id: int) -> list[PublicEvent]:
    """A table's public events in the order they happened."""
    return [PublicEvent(r["version"], r["kind"], loads(r["data"]))
            for r in await store._all("SELECT version, kind, data FROM events WHERE table_id = ?"
                                      " AND visible_to IS NULL ORDER BY version, idx", (table_id,))]


async def movers(store: Store, table_id: int) -> dict[int, Moved]:
    """Of a table's actions only who and when, by version (an action's JSON names hidden cards)."""
    return {r["version"]: Moved(r["seat"], r["at"])
            for r in await store._all("SELECT version, seat, at FROM actions WHERE table_id = ?", (table_id,))}


async def table_event(store: Store, table_id: int) -> TableEvent | None:
    row = await store._one("SELECT g.tournament_id, t.title, g.round, g.board FROM tournament_games g"
                           " JOIN tournaments t ON t.id = g.tournament_id WHERE g.table_id = ?", (table_id,))
    return None if row is None else TableEvent(row[0], stored_title(row[1]), row[2], row[3])


async def table_statuses(store: Store, table_ids: list[int]) -> dict[int, str]:
    if not table_ids:
        return {}
    marks = ",".join("?" * len(table_ids))
    return {r["id"]: r["status"] for r in await store._all(f"SELECT id, status FROM tables WHERE id IN ({marks})",
                                                           table_ids)}


async def seat_names(store: Store, table_ids: list[int]) -> dict[int, list[str]]:
    """Each table's players' names in seat order."""
    names: dict[int, list[str]] = {tid: [] for tid in table_ids}
    if table_ids:
        for r in await store._all(f"SELECT table_id, name FROM seats WHERE table_id IN"
                                  f" ({','.join('?' * len(table_ids))}) ORDER BY table_id, seat", table_ids):
            names[r["table_id"]].append(stored_name(r["name"]))
    return names


# ---------------------------------------------------------------------------------------------- tournaments
async def next_stage_id(store: Store, tournament_id: int) -> int | None:
    """The second stage a first stage went on into (its log's ``next_stage``), if any (T-24)."""
    row = await store._one("SELECT data FROM tournament_log WHERE tournament_id = ? AND action = 'next_stage'"
                           " ORDER BY id DESC LIMIT 1", (tournament_id,))
    return None if row is None else int(json.loads(row["data"])["tournament"])


async def tournament_marks(store: Store, tournament_id: int) -> tuple[Any, ...] | None:
    """What a tournament's page depends on: its row, entries, rounds, games and their tables' versions."""
    # (a name's head is enough: the page shows it cut to 32 characters, and an old record's name may be 10,000)
    row = await store._one(
        "SELECT t.status, t.round, t.settings, t.title,"
        " (SELECT count(*) || ':' || coalesce(group_concat(status || substr(name, 1, 64), ','), '') FROM entries e"
        "   WHERE e.tournament_id = t.id),"
        " (SELECT count(*) || ':' || coalesce(sum(deadline), 0) || ':' || coalesce(sum(finished_at), 0)"
        "   FROM rounds r WHERE r.tournament_id = t.id),"
        " (SELECT count(*) || ':' || coalesce(group_concat(coalesce(points, '') || coalesce(table_id, ''), ','), '')"
        "   FROM tournament_games g WHERE g.tournament_id = t.id),"
        " (SELECT coalesce(sum(x.version), 0) || ':' || coalesce(group_concat(x.status, ''), '') FROM tables x"
        "   WHERE x.id IN (SELECT table_id FROM tournament_games g WHERE g.tournament_id = t.id))"
        f" FROM tournaments t WHERE t.id = ? AND {shown('t.guild_id')}", (tournament_id,))
    return None if row is None else tuple(row)


# ---------------------------------------------------------------------------------------------- index
async def server_counts(store: Store) -> list[ServerCount]:
    """Every server with started tables or tournaments, in no particular order."""
    counts: dict[str | None, list[int]] = {}
    for r in await store._all(f"SELECT guild_id, count(*) AS n FROM tables WHERE status != 'lobby'"
                              f" AND seed_hash IS NOT NULL AND {shown()} GROUP BY guild_id"):
        counts.setdefault(r["guild_id"] or None, [0, 0])[0] += r["n"]
    for r in await store._all(f"SELECT guild_id, count(*) AS n FROM tournaments WHERE {shown()} GROUP BY guild_id"):
        counts.setdefault(r["guild_id"] or None, [0, 0])[1] += r["n"]
    return [ServerCount(g, n, m) for g, (n, m) in counts.items()]


async def index_marks(store: Store, scope: Scope) -> tuple[Any, ...]:
    """What an index depends on: its tables' count, versions and statuses, its tournaments' statuses and rounds."""
    where, params = scope.where()
    row = await store._one(f"SELECT count(*), coalesce(sum(version), 0), coalesce(group_concat(status, ''), '')"
                           f" FROM tables WHERE {where}", params)
    tours = await store._one(f"SELECT count(*), coalesce(group_concat(status || round, ','), '') FROM tournaments"
                             f" WHERE {where}", params)
    return (*tuple(row or ()), *tuple(tours or ()))


async def scope_tournaments(store: Store, scope: Scope, limit: int, offset: int = 0) -> list[TournamentRow]:
    """The tournaments newest first, ``limit`` of them from the ``offset``-th."""
    where, params = scope.where()
    return [TournamentRow.from_row(r) for r in await store._all(
        f"SELECT * FROM tournaments WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?", (*params, limit, offset))]


#: the tables an index lists: started (dealt: a seed's digest recorded)
STARTED = "status != 'lobby' AND seed_hash IS NOT NULL"


async def started_tables(store: Store, scope: Scope, limit: int, offset: int = 0) -> list[TableRow]:
    """The started tables newest first, ``limit`` of them from the ``offset``-th."""
    where, params = scope.where()
    return [TableRow.from_row(r) for r in await store._all(
        f"SELECT * FROM tables WHERE {where} AND {STARTED} ORDER BY id DESC LIMIT ? OFFSET ?",
        (*params, limit, offset))]


async def scope_sizes(store: Store, scope: Scope) -> tuple[int, int]:
    """How many started tables and tournaments an index has (its page count follows)."""
    where, params = scope.where()
    row = await store._one(f"SELECT (SELECT count(*) FROM tables WHERE {where} AND {STARTED}),"
                           f" (SELECT count(*) FROM tournaments WHERE {where})", (*params, *params))
    return (row[0], row[1]) if row else (0, 0)


# ---------------------------------------------------------------------------------------------- players
async def player_marks(store: Store, user_id: str) -> tuple[Any, ...]:
    """What a player's page depends on: their tables' versions and statuses, their events' statuses and rounds."""
    row = await store._one(f"SELECT count(*), coalesce(sum(version), 0), coalesce(group_concat(status, ''), '')"
                           f" FROM tables WHERE id IN (SELECT table_id FROM seats WHERE user_id = ?) AND {shown()}",
                           (user_id,))
    tours = await store._one(f"SELECT count(*), coalesce(group_concat(t.status || t.round || e.status, ','), '')"
                             f" FROM entries e JOIN tournaments t ON t.id = e.tournament_id"
                             f" WHERE e.user_id = ? AND {shown('t.guild_id')}", (user_id,))
    return (*tuple(row or ()), *tuple(tours or ()))


async def player_tables(store: Store, user_id: str, limit: int) -> list[TableRow]:
    """The started tables a player sat at (dealt: a seed's digest recorded), newest first."""
    return [TableRow.from_row(r) for r in await store._all(
        f"SELECT * FROM tables WHERE id IN (SELECT table_id FROM seats WHERE user_id = ?)"
        f" AND status IN ('active', 'finished', 'cancelled') AND seed_hash IS NOT NULL AND {shown()}"
        f" ORDER BY id DESC LIMIT ?", (user_id, limit))]


async def hidden_servers(store: Store) -> frozenset[str]:
    """The servers off the public pages (a player page leaves out their ratings too)."""
    return frozenset(r["guild_id"] for r in await store._all("SELECT guild_id FROM guilds WHERE public = 0"))


async def player_entries(store: Store, user_id: str, limit: int) -> list[tuple[TournamentRow, Entry]]:
    """The tournaments a player entered, newest first, each with their entry."""
    found = []
    for r in await store._all(f"SELECT t.*, e.name AS e_name, e.is_bot AS e_bot, e.number AS e_number,"
                              " e.status AS e_status, e.joined_round AS e_round FROM entries e"
                              f" JOIN tournaments t ON t.id = e.tournament_id WHERE e.user_id = ?"
                              f" AND {shown('t.guild_id')} ORDER BY t.id DESC LIMIT ?", (user_id, limit)):
        d = dict(r)
        entry = Entry(user_id, stored_name(d.pop("e_name")), bool(d.pop("e_bot")), d.pop("e_number"),
                      d.pop("e_status"), d.pop("e_round"))
        found.append((TournamentRow.from_row(d), entry))
    return found


async def player_games(store: Store, user_id: str, tournament_ids: list[int]) -> dict[int, list[GameRow]]:
    """A player's games (tables, byes, late entries) in each of the tournaments, by round and board."""
    found: dict[int, list[GameRow]] = {tid: [] for tid in tournament_ids}
    if not tournament_ids:
        return found
    for r in await store._all(
            f"SELECT g.* FROM tournament_games g WHERE g.tournament_id IN ({','.join('?' * len(tournament_ids))})"
            f" AND EXISTS (SELECT 1 FROM json_each(g.players) p WHERE p.value = ?)"
            f" ORDER BY g.tournament_id, g.round, g.board", (*tournament_ids, user_id)):
        found[r["tournament_id"]].append(GameRow(r["round"], r["board"], r["kind"], json.loads(r["players"]),
                                                 r["table_id"], None if r["points"] is None else json.loads(r["points"]),
                                                 r["result"]))
    return found


async def entry_names(store: Store, tournament_ids: list[int]) -> dict[int, dict[str, str]]:
    """Each tournament's players' names by user."""
    found: dict[int, dict[str, str]] = {tid: {} for tid in tournament_ids}
    if tournament_ids:
        for r in await store._all(f"SELECT tournament_id, user_id, name FROM entries WHERE tournament_id IN"
                                  f" ({','.join('?' * len(tournament_ids))})", tournament_ids):
            found[r["tournament_id"]][r["user_id"]] = stored_name(r["name"])
    return found
