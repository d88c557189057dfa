"""Tables, seats and the game record: creating and joining tables, starting them, every step written
and read back, the standing passes, window preferences and deadlines."""
from __future__ import annotations

import sqlite3
from typing import Any, Callable, Iterable, Sequence

import aiosqlite

from bot.engine.canonical import dumps, loads
from bot.storage.base import StoreBase
from bot.storage.packing import load_packed, pack_state, unpack_state
from bot.storage.rows import (ActionRow, Dealt, EventRow, LobbyRefused, Message, SeatRow, Step, TableRow, _event_row,
                              _trigger_refusal, inserted_id, known, present)
from bot.storage.steprows import _INSERT_EVENTS, _event_rows, _StepRows


class TableQueries(StoreBase):
    """Tables and seats, then the game record."""

    # ------------------------------------------------------------------ tables and seats
    async def create_table(
        self, *, game: str, options: dict[str, Any], creator: str, origin: str, now: float,
        title: str | None = None, locale: str | None = None, guild_id: str | None = None,
        channel_id: str | None = None, max_seats: int | None = None, creator_name: str | None = None,
        per_user: int | None = None, per_server: int | None = None, auto_forced: bool = True,
        dispute_window: str = "next_move", time_control: dict[str, Any] | None = None, rules_version: int = 1,
        rated: bool = True,
    ) -> int:
        """A new lobby (with its creator seated when ``creator_name`` is given).  ``per_user`` / ``per_server``
        cap the open (lobby or active) tables of the creator and of the server; counted inside the
        transaction, so racing processes cannot exceed them."""
        async with self.transaction() as db:
            if per_user is not None and await self._count_open(db, "creator", creator) >= per_user:
                raise LobbyRefused("too_many_tables", per_user)
            if per_server is not None and guild_id is not None and \
                    await self._count_open(db, "guild_id", guild_id) >= per_server:
                raise LobbyRefused("too_many_tables_server", per_server)
            cur = await db.execute(
                "INSERT INTO tables (game, status, options, creator, origin, title, locale, guild_id, channel_id,"
                " created_at, max_seats, auto_forced, dispute_window, time_control, rules_version, rated)"
                " VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, dumps(options), creator, origin, title, locale, guild_id, channel_id, now, max_seats,
                 int(auto_forced), dispute_window, dumps(time_control) if time_control else None, rules_version,
                 int(rated)),
            )
            table_id = inserted_id(cur.lastrowid)
            if time_control:  # the clock's look-up finds a timed table by this row (bot/storage/clocks.py)
                await db.execute("INSERT INTO table_clocks (table_id, version) VALUES (?, -1)", (table_id,))
            if creator_name is not None:
                await db.execute("INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at)"
                                 " VALUES (?, 0, ?, ?, 0, ?)", (table_id, creator, creator_name, now))
            return table_id

    @staticmethod
    async def _count_open(db: aiosqlite.Connection, column: str, value: str) -> int:
        async with db.execute(f"SELECT COUNT(*) FROM tables WHERE {column} = ? AND status IN ('lobby', 'active')",
                              (value,)) as cur:
            (count,) = present(await cur.fetchone())
        return count

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return TableRow.from_row(row) if row else None

    async def known_table(self, table_id: int) -> TableRow:
        """A table known to exist (one the caller made, or a dispute's): none is the record contradicting
        itself, not an answer to give a user."""
        return known(await self.get_table(table_id), f"table {table_id}")

    async def find_tables(
        self, *, status: Iterable[str] | None = None, channel_id: str | None = None,
        thread_id: str | None = None, user_id: str | None = None, game: str | None = None, limit: int = 100,
    ) -> list[TableRow]:
        where, params = [], []
        if status is not None:
            status = list(status)
            where.append(f"status IN ({','.join('?' * len(status))})")
            params += status
        if channel_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            params += [channel_id, channel_id]
        if thread_id is not None:
            where.append("thread_id = ?")
            params.append(thread_id)
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if user_id is not None:
            where.append("id IN (SELECT table_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        sql = "SELECT * FROM tables" + (" WHERE " + " AND ".join(where) if where else "")
        rows = await self._all(sql + " ORDER BY id DESC LIMIT ?", (*params, limit))
        return [TableRow.from_row(r) for r in rows]

    async def active_with_bots(self) -> list[int]:
        """The active tables with a bot seat: the only ones that may move on their own after a restart (a
        human's table waits for its player), so the only ones a starting process needs to look into."""
        rows = await self._all("SELECT id FROM tables WHERE status = 'active' AND EXISTS (SELECT 1 FROM seats"
                               " WHERE seats.table_id = tables.id AND is_bot = 1)")
        return [r["id"] for r in rows]

    async def set_table_fields(self, table_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "title", "locale", "channel_id", "guild_id", "status", "options"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)}")
        values = [dumps(v) if k == "options" else v for k, v in fields.items()]
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE tables SET {', '.join(f'{k} = ?' for k in fields)} WHERE id = ?", (*values, table_id)
            )

    async def seats(self, table_id: int) -> list[SeatRow]:
        return [SeatRow.from_row(r) for r in await self._all(SeatRow.SQL, (table_id,))]

    async def add_seat(self, table_id: int, user_id: str | None, name: str, *, is_bot: bool, now: float,
                       max_seats: int, several: bool = False) -> int:
        """Append a player to a lobby; returns the seat number.  The lobby rules (still in the lobby, not full,
        one seat per person unless ``several`` (hot-seat)) are checked inside the transaction; a bot
        (``user_id`` None) gets the first free name bot:1, bot:2, ...  Raises LobbyRefused."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            cur = await db.execute("SELECT user_id FROM seats WHERE table_id = ?", (table_id,))
            rows = list(await cur.fetchall())
            taken = {r["user_id"] for r in rows}
            if len(rows) >= max_seats:
                raise LobbyRefused("table_full", max_seats)
            if is_bot and user_id is None:
                user_id = next(f"bot:{n}" for n in range(1, len(rows) + 2) if f"bot:{n}" not in taken)
            hotseat = user_id in taken
            if hotseat and not several:
                raise LobbyRefused("already_seated")
            try:
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, is_bot, joined_at, hotseat)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, len(rows), user_id, name, int(is_bot), now, int(hotseat)))
            except aiosqlite.IntegrityError as exc:
                refusal = _trigger_refusal(exc, max_seats)
                if refusal is None:
                    raise
                raise refusal from exc
            return len(rows)

    async def remove_seat(self, table_id: int, user_id: str) -> None:
        """Remove a player from a lobby and renumber the seats after them (seats stay 0..n-1).
        Raises LobbyRefused (no_table, not_in_lobby, not_seated)."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            async with db.execute("SELECT seat FROM seats WHERE table_id = ? AND user_id = ? ORDER BY seat DESC"
                                  " LIMIT 1", (table_id, user_id)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise LobbyRefused("not_seated")
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, row["seat"]))
            await db.execute("UPDATE seats SET seat = seat - 1 WHERE table_id = ? AND seat > ?",
                             (table_id, row["seat"]))

    @staticmethod
    async def _lobby_status(db: aiosqlite.Connection, table_id: int) -> None:
        async with db.execute("SELECT status FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise LobbyRefused("no_table")
        if row["status"] != "lobby":
            raise LobbyRefused("not_in_lobby")

    # ------------------------------------------------------------------ the game record
    async def start_table(self, table_id: int, deal: Callable[[list[SeatRow]], Dealt], *, now: float,
                          release: str | None = None) -> Dealt:
        """Deal and begin, in one transaction: ``deal`` gets exactly the seats this transaction reads and
        commits the table as active with them, so a join or leave racing the start from another process
        either lands before (and is dealt for) or is refused after.  ``deal`` may raise (a Reject): nothing
        is written then.  Raises LobbyRefused when the table is not in the lobby."""
        async with self.transaction() as db:
            await self._lobby_status(db, table_id)
            dealt = deal(await self.seats(table_id))  # read on the transaction's own connection
            await db.execute(
                "UPDATE tables SET status = 'active', seed = ?, seed_hash = ?, stack = ?, options = ?, version = 0,"
                " started_at = ?, next_deadline = ?, release = ?, started_rules = ?, rules_version = ?"
                " WHERE id = ? AND status = 'lobby'",
                (dealt.seed, dealt.seed_hash, dumps(dealt.stack) if dealt.stack else None,
                 dumps(dealt.state["options"]), now, dealt.next_deadline, release, dealt.state.get("rules", 1),
                 dealt.state.get("rules", 1), table_id),
            )
            await db.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)",
                             (table_id, pack_state(dealt.state)))
            await db.executemany(_INSERT_EVENTS, _event_rows(table_id, 0, dealt.events))
            await self._insert_messages(db, table_id, 0, dealt.messages, now)
            return dealt

    async def record_action(
        self, table_id: int, *, expected_version: int, seat: int, user_id: str, action: dict[str, Any], at: float,
        state: dict[str, Any], events: list[dict[str, Any]], messages: list[Message],
        next_deadline: float | None, outcome: dict[str, Any] | None,
    ) -> None:
        """Append one applied action with everything it caused, atomically.  Raises VersionConflict if the
        table is not at ``expected_version`` any more (another action won the race).  Seat -1 marks a
        moderator's action (a rollback, a correction), the only kind that may reopen a finished table."""
        await self.record_step(table_id, expected_version,
                               Step(seat, user_id, action, at, state, events, messages, next_deadline, outcome))

    async def record_step(self, table_id: int, expected_version: int, step: Step) -> None:
        # encoded here, while the database thread writes the batch before: it then only runs SQLite
        rows = _StepRows.of(table_id, expected_version, step)
        await self._steps.write(rows.check)
        if self.checkpoints is not None:
            self.checkpoints.committed()

    async def cancel_table(self, table_id: int, *, moderator: str, reason: str | None, now: float,
                           notice: Callable[[TableRow], Message]) -> bool:
        """Close a lobby or a running game; a running game's players hear ``notice(table)``, built from the
        table as this transaction reads it (so a start racing the cancel is not missed)."""
        async with self.transaction() as db:
            row = await (await db.execute("SELECT * FROM tables WHERE id = ?", (table_id,))).fetchone()
            if row is None or row["status"] not in ("lobby", "active"):
                return False
            table = TableRow.from_row(row)
            await db.execute("UPDATE tables SET status = 'cancelled', finished_at = ?, next_deadline = NULL"
                             " WHERE id = ?", (now, table_id))
            await db.execute("INSERT INTO moderation (table_id, moderator, action, reason, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, moderator, "cancel", reason, now))
            if table.status == "active":
                await self._insert_messages(db, table_id, table.version, [notice(table)], now)
            return True

    async def enqueue(self, table_id: int, version: int, messages: list[Message], now: float) -> None:
        """Messages that belong to no action (a moderator's announcement)."""
        async with self.transaction() as db:
            await self._insert_messages(db, table_id, version, messages, now)

    async def play_context(self, table_id: int, known_version: int | None = None,
                           ) -> tuple[TableRow, list[SeatRow], dict[str, Any] | None] | None:
        """The table, its seats and its latest state, read together in one trip; the state is None when
        nothing was dealt yet or when the table is at ``known_version`` (the caller keeps that state)."""
        def read(c: sqlite3.Connection) -> tuple[TableRow, list[SeatRow], dict[str, Any] | None] | None:
            row = c.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = [SeatRow.from_row(r) for r in c.execute(SeatRow.SQL, (table_id,))]
            state = None
            if row["version"] != known_version:
                found = c.execute("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC"
                                  " LIMIT 1", (table_id,)).fetchone()
                state = load_packed(found["state"]) if found else None
            return TableRow.from_row(row), seats, state

        return await self._read_snapshot(read)

    async def table_stamp(self, table_id: int) -> tuple[int, str, float | None] | None:
        """(version, status, paused_at): what another process may change of a table a referee keeps in memory
        (a pause does not move the version)."""
        row = await self._one("SELECT version, status, paused_at FROM tables WHERE id = ?", (table_id,))
        return None if row is None else (row["version"], row["status"], row["paused_at"])

    async def action_at(self, table_id: int, version: int) -> ActionRow | None:
        """The recorded action that made ``version`` (a writer unsure whether its commit landed reads it)."""
        r = await self._one("SELECT * FROM actions WHERE table_id = ? AND version = ?", (table_id, version))
        return None if r is None else ActionRow(r["version"], r["seat"], r["user_id"], loads(r["action"]), r["at"])

    async def table_version(self, table_id: int) -> int | None:
        row = await self._read_in_thread(
            lambda c: c.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone())
        return None if row is None else row["version"]

    async def state(self, table_id: int, version: int | None = None) -> dict[str, Any] | None:
        if version is None:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1",
                                  (table_id,))
        else:
            row = await self._one("SELECT state FROM snapshots WHERE table_id = ? AND version = ?",
                                  (table_id, version))
        return load_packed(row["state"]) if row else None

    async def known_state(self, table_id: int, version: int | None = None) -> dict[str, Any]:
        """The state of a table known to have one (a started table, a version it reached): none is the record
        contradicting itself, not an answer to give a user."""
        state = await self.state(table_id, version)
        if state is None:
            raise LookupError(f"table {table_id} has no snapshot" + ("" if version is None else f" at {version}"))
        return state

    async def snapshot_texts(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._all("SELECT version, state FROM snapshots WHERE table_id = ? ORDER BY version",
                               (table_id,))
        return [(r["version"], unpack_state(r["state"])) for r in rows]

    async def actions(self, table_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE table_id = ? ORDER BY version", (table_id,))
        return [ActionRow(r["version"], r["seat"], r["user_id"], loads(r["action"]), r["at"]) for r in rows]

    async def events(self, table_id: int, *, since: int = 0) -> list[EventRow]:
        rows = await self._all(
            "SELECT * FROM events WHERE table_id = ? AND version >= ? ORDER BY version, idx", (table_id, since))
        return [_event_row(r) for r in rows]

    async def public_steps(self, table_id: int) -> list[dict[str, Any]]:
        """One public event per version that has any, enough for bot/referee/moves.py to number the moves as the
        log does: a rollback's or an upgrade's own events in full, any other version a stub (its data is not
        read: this runs at every redraw of the live message, however long the game)."""
        versions = await self._all("SELECT DISTINCT version FROM events WHERE table_id = ? AND visible_to IS NULL",
                                   (table_id,))
        special: dict[int, list[dict[str, Any]]] = {}
        for r in await self._all("SELECT version, kind, data FROM events WHERE table_id = ? AND visible_to IS NULL"
                                 " AND kind IN ('rollback', 'upgrade') ORDER BY version, idx", (table_id,)):
            special.setdefault(r["version"], []).append({"version": r["version"], "kind": r["kind"], "to": None,
                                                          "data": loads(r["data"])})
        steps: list[dict[str, Any]] = []
        for r in sorted(versions, key=lambda r: r["version"]):
            steps += special.get(r["version"]) or [{"version": r["version"], "kind": "step", "to": None, "data": {}}]
        return steps

    async def set_standing_pass(self, table_id: int, seat: int, turn: str) -> None:
        """``seat`` passes every window of the turn ``turn`` (canonical JSON of the game's turn key)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO standing_passes (table_id, seat, turn) VALUES (?, ?, ?)"
                             " ON CONFLICT (table_id, seat) DO UPDATE SET turn = excluded.turn", (table_id, seat, turn))

    async def standing_passes(self, table_id: int) -> dict[int, str]:
        """Seat -> the turn whose windows it passes (canonical JSON), for the seats that set one."""
        rows = await self._all("SELECT seat, turn FROM standing_passes WHERE table_id = ?", (table_id,))
        return {r["seat"]: r["turn"] for r in rows}

    async def set_window_preference(self, user_id: str, mode: str, hours: float | None, *,
                                    table_id: int = 0) -> None:
        """How ``user_id``'s windows are answered for them (migration 0015): at every table (``table_id`` 0),
        or at one table, overriding their default there."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO window_preferences (user_id, table_id, mode, hours) VALUES (?, ?, ?, ?)"
                             " ON CONFLICT (user_id, table_id) DO UPDATE SET mode = excluded.mode,"
                             " hours = excluded.hours", (user_id, table_id, mode, hours))

    async def look_again(self, user_id: str, now: float, *, table_id: int = 0) -> None:
        """The referee's clock is to look at ``user_id``'s active tables (one, when ``table_id``) at once: a
        preference they changed may pass a window sooner than the table's stored next deadline says."""
        async with self.transaction() as db:
            await db.execute("UPDATE tables SET next_deadline = ? WHERE status = 'active' AND (? = 0 OR id = ?)"
                             " AND id IN (SELECT table_id FROM seats WHERE user_id = ?)"
                             " AND (next_deadline IS NULL OR next_deadline > ?)",
                             (now, table_id, table_id, user_id, now))

    async def set_next_deadline(self, table_id: int, version: int, when: float | None) -> None:
        """The table's next deadline as its clock found it on a look (at ``version`` only: a step in between
        wrote its own)."""
        async with self.transaction() as db:
            await db.execute("UPDATE tables SET next_deadline = ? WHERE id = ? AND version = ?",
                             (when, table_id, version))

    async def window_preferences(self, table_id: int, user_ids: Sequence[str]) -> dict[str, tuple[str, float | None]]:
        """User -> (mode, hours) in force at ``table_id`` for those of ``user_ids`` who set one: the table's own
        row, else their default."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(f"SELECT user_id, table_id, mode, hours FROM window_preferences WHERE user_id IN"
                               f" ({marks}) AND table_id IN (0, ?) ORDER BY table_id", (*user_ids, table_id))
        return {r["user_id"]: (r["mode"], r["hours"]) for r in rows}  # the table's row, read last, wins

    async def last_decision(self, table_id: int, seat: int, *, not_by: tuple[str, ...] = ()) -> int | None:
        """The version of ``seat``'s latest action, leaving out those recorded under the users ``not_by`` (the
        referee's steps for the seat); None when it took none."""
        marks = ", ".join("?" for _ in not_by) or "''"
        rows = await self._all(f"SELECT MAX(version) AS v FROM actions WHERE table_id = ? AND seat = ?"
                               f" AND user_id NOT IN ({marks})", (table_id, seat, *not_by))
        return rows[0]["v"] if rows and rows[0]["v"] is not None else None

    async def due_tables(self, now: float) -> list[int]:
        rows = await self._all(
            "SELECT id FROM tables WHERE status = 'active' AND next_deadline IS NOT NULL AND next_deadline <= ?"
            " AND frozen IS NULL ORDER BY next_deadline", (now,))
        return [r["id"] for r in rows]

    async def add_moderation(self, table_id: int | None, moderator: str, action: str, reason: str | None,
                             data: dict[str, Any] | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO moderation (table_id, moderator, action, reason, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, moderator, action, reason, dumps(data) if data is not None else None, now))
