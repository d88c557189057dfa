"""The record of tournaments (migration 0006): every read and write of them, on the Store's connection.

Each change is one transaction of the Store (its lock serialises them with the tables' own writes), and the
checks a change depends on (still in registration, not entered twice, the round not yet paired) are made
inside it, so two clicks or two processes cannot both pass them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from bot.engine.canonical import dumps
from bot.engine.free_text import stored_name, stored_text, stored_title

from .rows import inserted_id, present
from .store import Refused, Store


class TournamentRefused(Refused):
    """A tournament change the record does not allow; ``reason`` is a tournament.reject.* key's last part."""


@dataclass(frozen=True)
class TournamentRow:
    id: int
    game: str
    format: str
    status: str
    title: str | None
    creator: str
    settings: dict[str, Any]
    options: dict[str, Any]
    seed: str
    origin: str
    locale: str | None
    guild_id: str | None
    channel_id: str | None
    message_id: str | None
    round: int
    created_at: float
    started_at: float | None
    finished_at: float | None

    @classmethod
    def from_row(cls, row: Any) -> "TournamentRow":
        d = dict(row)
        d["settings"], d["options"] = json.loads(d["settings"]), json.loads(d["options"])
        d["title"] = stored_title(d["title"])
        return cls(**d)


@dataclass(frozen=True)
class Entry:
    user_id: str
    name: str
    is_bot: bool
    number: int
    status: str
    joined_round: int


@dataclass(frozen=True)
class RoundRow:
    number: int
    status: str
    deadline: float | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class GameRow:
    round: int
    board: int
    kind: str                     # table | bye | late
    players: list[str]            # seat order
    table_id: int | None
    points: dict[str, float] | None
    result: str | None

    @property
    def settled(self) -> bool:
        return self.points is not None


@dataclass(frozen=True)
class NewGame:
    """A game of a round being paired: a table to create, or a bye / late-entry score settled at once."""

    kind: str
    players: list[str]
    points: dict[str, float] | None = None
    result: str | None = None


class Tournaments:
    def __init__(self, store: Store):
        self.store = store

    # ------------------------------------------------------------------ tournaments
    async def create(self, *, game: str, format: str, creator: str, settings: dict[str, Any],
                     options: dict[str, Any], seed: str, origin: str, now: float, title: str | None = None,
                     locale: str | None = None, guild_id: str | None = None, channel_id: str | None = None) -> int:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "INSERT INTO tournaments (game, format, status, title, creator, settings, options, seed, origin,"
                " locale, guild_id, channel_id, created_at) VALUES (?, ?, 'registration', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, format, title, creator, dumps(settings), dumps(options), seed, origin, locale, guild_id,
                 channel_id, now))
            return inserted_id(cur.lastrowid)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self.store._one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return TournamentRow.from_row(row) if row else None

    async def find(self, *, status: Sequence[str] | None = None, guild_id: str | None = None,
                   limit: int = 100) -> list[TournamentRow]:
        where, params = [], []
        if status is not None:
            where.append(f"status IN ({', '.join('?' * len(status))})")
            params += list(status)
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        sql = "SELECT * FROM tournaments" + (" WHERE " + " AND ".join(where) if where else "")
        rows = await self.store._all(sql + " ORDER BY id DESC LIMIT ?", (*params, limit))
        return [TournamentRow.from_row(r) for r in rows]

    async def set_message(self, tournament_id: int, message_id: str) -> None:
        """The tournament's own message on Discord (its registration post), edited as it goes on."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def finish(self, tournament_id: int, *, status: str, now: float, by: str, reason: str | None) -> bool:
        """Close a registering or running tournament (finished or cancelled); False if it was closed already."""
        async with self.store.transaction() as db:
            cur = await db.execute("UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?"
                                   " AND status IN ('registration', 'running')", (status, now, tournament_id))
            if cur.rowcount != 1:
                return False
            await self._log(db, tournament_id, by, status, reason, None, now)
            return True

    # ------------------------------------------------------------------ entries
    async def entries(self, tournament_id: int) -> list[Entry]:
        rows = await self.store._all("SELECT * FROM entries WHERE tournament_id = ? ORDER BY number",
                                     (tournament_id,))
        return [Entry(r["user_id"], stored_name(r["name"]), bool(r["is_bot"]), r["number"], r["status"],
                      r["joined_round"])
                for r in rows]

    async def enter(self, tournament_id: int, user_id: str, name: str, *, is_bot: bool, now: float,
                    late: NewGame | None = None, latest_round: int | None = None, limit: int | None = None) -> int:
        """Enter a player (or bring a dropped one back); returns their pairing number.  A late entry
        (``late``, while the tournament runs) is allowed only while the latest round is ``latest_round``
        and comes with its score for the rounds missed, written in the same transaction."""
        async with self.store.transaction() as db:
            t = await self._status(db, tournament_id)
            if t["status"] == "running":
                if late is None or t["round"] != latest_round:
                    raise TournamentRefused("closed")
            elif t["status"] != "registration":
                raise TournamentRefused("closed")
            row = await (await db.execute("SELECT status FROM entries WHERE tournament_id = ? AND user_id = ?",
                                          (tournament_id, user_id))).fetchone()
            if row is not None:
                if row["status"] == "active":
                    raise TournamentRefused("already_entered")
                if row["status"] == "removed":
                    raise TournamentRefused("removed")
                await db.execute("UPDATE entries SET status = 'active' WHERE tournament_id = ? AND user_id = ?",
                                 (tournament_id, user_id))
            else:
                (count,) = present(await (await db.execute("SELECT COUNT(*) FROM entries WHERE tournament_id = ?",
                                                           (tournament_id,))).fetchone())
                if limit is not None and count >= limit:
                    raise TournamentRefused("full")
                await db.execute(
                    "INSERT INTO entries (tournament_id, user_id, name, is_bot, number, joined_round, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, user_id, name, int(is_bot), count + 1, t["round"], now))
                if late is not None and t["round"] > 0:
                    await self._insert_games(db, tournament_id, t["round"], [late])
            number = present(await (await db.execute(
                "SELECT number FROM entries WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id))).fetchone())
            return number["number"]

    async def leave(self, tournament_id: int, user_id: str, *, status: str, by: str, reason: str | None,
                    now: float) -> None:
        """Before the start the entry is deleted; after it the player is marked ``status`` (dropped or
        removed) and is not paired again."""
        async with self.store.transaction() as db:
            t = await self._status(db, tournament_id)
            row = await (await db.execute("SELECT status FROM entries WHERE tournament_id = ? AND user_id = ?",
                                          (tournament_id, user_id))).fetchone()
            if row is None or (row["status"] != "active" and status != "removed"):
                raise TournamentRefused("not_entered")
            if t["status"] == "registration":
                await db.execute("DELETE FROM entries WHERE tournament_id = ? AND user_id = ?",
                                 (tournament_id, user_id))
                await self._renumber(db, tournament_id)
            elif t["status"] == "running":
                await db.execute("UPDATE entries SET status = ? WHERE tournament_id = ? AND user_id = ?",
                                 (status, tournament_id, user_id))
            else:
                raise TournamentRefused("closed")
            await self._log(db, tournament_id, by, status, reason, {"user": user_id}, now)

    @staticmethod
    async def _renumber(db: Any, tournament_id: int) -> None:
        rows = await (await db.execute("SELECT user_id FROM entries WHERE tournament_id = ? ORDER BY number",
                                       (tournament_id,))).fetchall()
        for i, r in enumerate(rows, start=1):
            await db.execute("UPDATE entries SET number = ? WHERE tournament_id = ? AND user_id = ?",
                             (i, tournament_id, r["user_id"]))

    # ------------------------------------------------------------------ rounds and games
    async def add_round(self, tournament_id: int, number: int, games: list[NewGame], *, deadline: float | None,
                        now: float, start: bool = False, settings: dict[str, Any] | None = None) -> None:
        """Write round ``number`` with all its games, in one transaction; refused (``paired``) if the
        tournament is not at round ``number - 1`` any more.  ``start`` also moves it from registration to
        running (round 1), with the ``settings`` fixed at the start (the seeding)."""
        async with self.store.transaction() as db:
            t = await self._status(db, tournament_id)
            if t["round"] != number - 1 or t["status"] != ("registration" if start else "running"):
                raise TournamentRefused("paired")
            # the pairing was read before this transaction: a player who dropped meanwhile (another process)
            # must not be paired, so the entries are checked again here and the round planned anew if needed
            paired = {p for g in games for p in g.players}
            active = {r["user_id"] for r in await (await db.execute(
                "SELECT user_id FROM entries WHERE tournament_id = ? AND status = 'active'", (tournament_id,))
            ).fetchall()}
            if paired - active:
                raise TournamentRefused("entries_changed")
            if start:
                await db.execute("UPDATE tournaments SET status = 'running', started_at = ?, settings = ?"
                                 " WHERE id = ?", (now, dumps(settings), tournament_id))
            await db.execute("UPDATE tournaments SET round = ? WHERE id = ?", (number, tournament_id))
            await db.execute("INSERT INTO rounds (tournament_id, number, status, deadline, created_at)"
                             " VALUES (?, ?, 'playing', ?, ?)", (tournament_id, number, deadline, now))
            await self._insert_games(db, tournament_id, number, games)

    async def add_games(self, tournament_id: int, number: int, games: list[NewGame]) -> None:
        """More games in a running round (an elimination replay after a draw)."""
        async with self.store.transaction() as db:
            await self._insert_games(db, tournament_id, number, games)

    async def _insert_games(self, db: Any, tournament_id: int, number: int, games: list[NewGame]) -> None:
        (last,) = await (await db.execute("SELECT COALESCE(MAX(board), 0) FROM tournament_games"
                                          " WHERE tournament_id = ? AND round = ?", (tournament_id, number))).fetchone()
        await db.executemany(
            "INSERT INTO tournament_games (tournament_id, round, board, kind, players, points, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(tournament_id, number, last + i, g.kind, dumps(g.players),
              None if g.points is None else dumps(g.points), g.result) for i, g in enumerate(games, start=1)])

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        rows = await self.store._all("SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number",
                                     (tournament_id,))
        return [RoundRow(r["number"], r["status"], r["deadline"], r["created_at"], r["finished_at"]) for r in rows]

    async def games(self, tournament_id: int, round: int | None = None) -> list[GameRow]:
        sql = "SELECT * FROM tournament_games WHERE tournament_id = ?"
        params: list[Any] = [tournament_id]
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        rows = await self.store._all(sql + " ORDER BY round, board", params)
        return [GameRow(r["round"], r["board"], r["kind"], json.loads(r["players"]), r["table_id"],
                        None if r["points"] is None else json.loads(r["points"]), r["result"]) for r in rows]

    async def link_table(self, tournament_id: int, round: int, board: int, table_id: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE tournament_games SET table_id = ? WHERE tournament_id = ? AND round = ?"
                             " AND board = ? AND table_id IS NULL", (table_id, tournament_id, round, board))

    async def orphan_table(self, creator: str, title: str) -> int | None:
        """A table created for a game whose link was never recorded (a crash in between): still a lobby, since
        the link is recorded before anyone is seated (a re-paired round's old tables are cancelled)."""
        row = await self.store._one("SELECT id FROM tables WHERE creator = ? AND title = ? AND status = 'lobby'"
                                    " AND id NOT IN"
                                    " (SELECT table_id FROM tournament_games WHERE table_id IS NOT NULL)"
                                    " ORDER BY id LIMIT 1", (creator, title))
        return None if row is None else row["id"]

    async def settle(self, tournament_id: int, round: int, board: int, points: dict[str, float], result: str,
                     *, by: str | None = None, reason: str | None = None, now: float = 0.0,
                     overwrite: bool = False) -> bool:
        """Record a game's points; False if it was settled already (unless ``overwrite``: an organiser's
        adjustment, which is logged with its reason and the points it replaced)."""
        async with self.store.transaction() as db:
            row = await (await db.execute("SELECT points FROM tournament_games WHERE tournament_id = ? AND round = ?"
                                          " AND board = ?", (tournament_id, round, board))).fetchone()
            if row is None or (row["points"] is not None and not overwrite):
                return False
            await db.execute("UPDATE tournament_games SET points = ?, result = ? WHERE tournament_id = ?"
                             " AND round = ? AND board = ?", (dumps(points), result, tournament_id, round, board))
            if by is not None:
                await self._log(db, tournament_id, by, result, reason,
                                {"round": round, "board": board, "points": points,
                                 "before": None if row["points"] is None else json.loads(row["points"])}, now)
            return True

    async def finish_round(self, tournament_id: int, number: int, now: float) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute("UPDATE rounds SET status = 'finished', finished_at = ? WHERE tournament_id = ?"
                                   " AND number = ? AND status = 'playing'", (now, tournament_id, number))
            return cur.rowcount == 1

    async def drop_round(self, tournament_id: int, number: int, *, by: str, reason: str | None, now: float) -> None:
        """Take back the latest round before it is played (a re-pairing): its games and the round go."""
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM tournament_games WHERE tournament_id = ? AND round = ?",
                             (tournament_id, number))
            await db.execute("DELETE FROM rounds WHERE tournament_id = ? AND number = ?", (tournament_id, number))
            await db.execute("UPDATE tournaments SET round = ? WHERE id = ? AND round = ?",
                             (number - 1, tournament_id, number))
            await self._log(db, tournament_id, by, "repair", reason, {"round": number}, now)

    async def redo(self, tournament_id: int, round: int, board: int, points: dict[str, float], result: str, *,
                   first: int, removed: list[tuple[int, int]], fresh: list[NewGame], deadline: float | None,
                   by: str, reason: str | None, data: dict[str, Any], now: float) -> None:
        """A bracket correction that redoes what it invalidates (bot/tournament/corrections.py), in one
        transaction: the corrected game's points (logged with what they replaced, as ``settle``), the wrong
        games and every round after ``first`` taken back, round ``first`` open again with its ``fresh`` games
        (its new ``deadline``, when given), and the redo logged with what it undid."""
        async with self.store.transaction() as db:
            t = await self._status(db, tournament_id)
            if t["status"] != "running" or t["round"] < first:
                raise TournamentRefused("paired")
            row = await (await db.execute("SELECT points FROM tournament_games WHERE tournament_id = ? AND round = ?"
                                          " AND board = ?", (tournament_id, round, board))).fetchone()
            await db.execute("UPDATE tournament_games SET points = ?, result = ? WHERE tournament_id = ?"
                             " AND round = ? AND board = ?", (dumps(points), result, tournament_id, round, board))
            await self._log(db, tournament_id, by, result, reason,
                            {"round": round, "board": board, "points": points,
                             "before": None if row is None or row["points"] is None else json.loads(row["points"])},
                            now)
            await db.executemany("DELETE FROM tournament_games WHERE tournament_id = ? AND round = ? AND board = ?",
                                 [(tournament_id, r, b) for r, b in removed])
            await db.execute("DELETE FROM tournament_games WHERE tournament_id = ? AND round > ?",
                             (tournament_id, first))
            await db.execute("DELETE FROM rounds WHERE tournament_id = ? AND number > ?", (tournament_id, first))
            await db.execute("UPDATE rounds SET status = 'playing', finished_at = NULL,"
                             " deadline = COALESCE(?, deadline) WHERE tournament_id = ? AND number = ?",
                             (deadline, tournament_id, first))
            await db.execute("UPDATE tournaments SET round = ? WHERE id = ?", (first, tournament_id))
            await self._insert_games(db, tournament_id, first, fresh)
            await self._log(db, tournament_id, by, "redo", reason, data, now)

    async def rewrite_games(self, tournament_id: int, number: int, games: list[tuple[int, NewGame]], *, by: str,
                            reason: str | None, data: dict[str, Any], now: float) -> None:
        """An organiser's edit of a round's pairing (a swap, T-22): the given boards get new players (and
        points, for a bye) and lose their tables, which the caller cancelled; logged in the same transaction."""
        async with self.store.transaction() as db:
            for board, g in games:
                await db.execute("UPDATE tournament_games SET kind = ?, players = ?, points = ?, result = ?,"
                                 " table_id = NULL WHERE tournament_id = ? AND round = ? AND board = ?",
                                 (g.kind, dumps(g.players), None if g.points is None else dumps(g.points), g.result,
                                  tournament_id, number, board))
            await self._log(db, tournament_id, by, "swap", reason, data, now)

    async def clear_deadline(self, tournament_id: int, number: int) -> None:
        """The round's deadline was handled: the clock does not come back to it."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE rounds SET deadline = NULL WHERE tournament_id = ? AND number = ?",
                             (tournament_id, number))

    async def set_deadline(self, tournament_id: int, number: int, deadline: float | None) -> None:
        """Move a round's deadline (a vacation in it, T-16; the organiser's pause of the round clock)."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE rounds SET deadline = ? WHERE tournament_id = ? AND number = ?",
                             (deadline, tournament_id, number))

    async def due_rounds(self, now: float) -> list[tuple[int, int]]:
        rows = await self.store._all("SELECT tournament_id, number FROM rounds WHERE status = 'playing'"
                                     " AND deadline IS NOT NULL AND deadline <= ?", (now,))
        return [(r["tournament_id"], r["number"]) for r in rows]

    async def log(self, tournament_id: int) -> list[dict[str, Any]]:
        rows = await self.store._all("SELECT * FROM tournament_log WHERE tournament_id = ? ORDER BY id",
                                     (tournament_id,))
        return [{**dict(r), "reason": stored_text(r["reason"]),
                 "data": None if r["data"] is None else json.loads(r["data"])} for r in rows]

    async def add_log(self, tournament_id: int, by: str, action: str, reason: str | None,
                      data: dict[str, Any] | None, now: float) -> int:
        """The entry's id (a confirmation that comes back later names it)."""
        async with self.store.transaction() as db:
            return await self._log(db, tournament_id, by, action, reason, data, now)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    async def _status(db: Any, tournament_id: int) -> Any:
        row = await (await db.execute("SELECT status, round FROM tournaments WHERE id = ?",
                                      (tournament_id,))).fetchone()
        if row is None:
            raise TournamentRefused("no_tournament")
        return row

    @staticmethod
    async def _log(db: Any, tournament_id: int, by: str, action: str, reason: str | None,
                   data: dict[str, Any] | None, now: float) -> int:
        cur = await db.execute("INSERT INTO tournament_log (tournament_id, by, action, reason, data, at)"
                               " VALUES (?, ?, ?, ?, ?, ?)",
                               (tournament_id, by, action, reason, None if data is None else dumps(data), now))
        return inserted_id(cur.lastrowid)
