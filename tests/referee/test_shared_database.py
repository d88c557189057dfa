"""One database, many hands (issue 25): what another process writes reaches the running referee, a busy
database waits instead of failing, a transaction is invisible until it commits, vacations add up, only a
player's own decisions close their dispute window, and a moderator seated at a table is a player there."""
from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time

import pytest

from bot.referee import disputes, moderation
from bot.engine import Code, Rejection, get_game
from bot.referee.moves import Moves
from bot.referee.service import AUTO, Accepted, Referee
from bot.storage.clocks import Clocks
from bot.storage.store import Store
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one

HOUR, DAY = 3600, 86400


async def _other(store: Store, clock) -> tuple[Store, Referee]:
    """A second process's store and referee on the same file (its own connections, its own memory)."""
    path = (await store._one("PRAGMA database_list"))["file"]
    other = await Store.open(path)
    return other, Referee(other, clock=clock)


# ---------------------------------------------------------------------------------------------- 1. pause
async def test_a_pause_and_a_resume_made_by_another_process_reach_the_running_referee(env):
    store, bot, clock = env
    tid = await new_toy(bot)
    assert isinstance(await play_one(bot, store, tid), Accepted)   # the bot keeps the table in memory now
    other, terminal = await _other(store, clock)
    try:
        assert await moderation.pause(terminal, tid, moderator="cli:mod", reason="checking a ruling") is True
        refused = await play_one(bot, store, tid)
        assert isinstance(refused, Rejection) and refused.key == "clock.reject.paused", refused
        assert (await store.get_table(tid)).version == 1              # nothing went through the pause
        assert await moderation.resume(terminal, tid, moderator="cli:mod") is True
        assert isinstance(await play_one(bot, store, tid), Accepted)  # resumed for the bot's players too
        assert (await moderation.resume(bot, tid, moderator="mod:m")).key == "clock.reject.not_paused"
    finally:
        await other.close()


async def test_a_cancel_by_another_process_stops_the_running_referee(env):
    store, bot, clock = env
    tid = await new_toy(bot)
    assert isinstance(await play_one(bot, store, tid), Accepted)
    other, terminal = await _other(store, clock)
    try:
        assert await terminal.cancel(tid, "cli:mod", moderator=True, reason="abandoned") is True
        refused = await play_one(bot, store, tid)
        assert isinstance(refused, Rejection) and refused.code == Code.GAME_OVER, refused
        assert (await store.get_table(tid)).status == "cancelled"
    finally:
        await other.close()


# ---------------------------------------------------------------------------------------------- 2. vacations
async def test_a_second_vacation_adds_to_the_first_and_never_ends_the_game(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "1d", "vacation": 7, "clock_remind": "off"})
    turn = (await store.state(tid))["turn"]
    user = (await store.seats(tid))[turn].user_id
    assert isinstance(await referee.timekeeper.vacation(tid, user, 5), float)
    clock.t += 5.5 * DAY                      # back from five days, half a day of the clock used
    await referee.tick()
    assert (await store.get_table(tid)).status == "active"
    granted = await referee.timekeeper.vacation(tid, user, 0.1)
    assert isinstance(granted, float), granted
    await referee.tick()
    assert (await store.get_table(tid)).status == "active"  # the second vacation did not forfeit the game
    clock.t += 0.55 * DAY                     # 0.1 away, 0.45 of the clock: 0.95 used
    await referee.tick()
    assert (await store.get_table(tid)).status == "active"
    clock.t += 0.1 * DAY
    await referee.tick()
    assert (await store.get_table(tid)).status == "finished"  # the clock still runs out in the end


async def test_a_vacation_that_cannot_help_any_more_is_refused_with_the_reason(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "1d", "vacation": 3, "clock_remind": "off"})
    turn = (await store.state(tid))["turn"]
    user = (await store.seats(tid))[turn].user_id
    clock.t += 1.5 * DAY                      # the time ran out before the clock looked (an outage)
    refused = await referee.timekeeper.vacation(tid, user, 1)
    assert isinstance(refused, Rejection) and refused.key == "clock.reject.time_up", refused
    assert (await Clocks(store).seat_clocks(tid))[turn].away_used == 0   # nothing taken from the allowance


async def test_no_reminder_for_a_deadline_already_past(env):
    store, referee, clock = env
    await new_toy(referee, options={"clock": "4h", "clock_remind": "30m", "clock_expiry": "moderator"})
    clock.t += 7 * HOUR                       # an outage: the deadline passed three hours ago
    await referee.tick()
    reminders = [m for m in await pending_messages(store, limit=100) if m.kind == "reminder"]
    assert reminders == []
    assert [m.payload["what"] for m in await pending_messages(store, limit=100) if m.kind == "clock"] == ["expired"]


# ---------------------------------------------------------------------------------------------- 3. busy file
def _hammer(path: str, stop: threading.Event, hold: float) -> None:
    """Another process's writer: short write transactions one after another, as a second referee's."""
    db = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        while not stop.is_set():
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO moderation (table_id, moderator, action, at) VALUES (NULL, 'other', 'x', 0)")
            time.sleep(hold)
            db.execute("COMMIT")
            time.sleep(0.0005)
    finally:
        db.close()


async def test_a_busy_file_waits_instead_of_refusing_and_reads_never_break_a_write(env):
    store, referee, _ = env
    tables = [await new_toy(referee, players=(f"a{i}", f"b{i}")) for i in range(4)]
    path = (await store._one("PRAGMA database_list"))["file"]
    stop = threading.Event()
    other = threading.Thread(target=_hammer, args=(path, stop, 0.002), daemon=True)
    other.start()
    errors: list[BaseException] = []

    async def reader() -> None:
        while not stop.is_set():
            for tid in tables:
                await store.get_table(tid)
                await store.seats(tid)
            await pending_messages(store, limit=20)

    async def player(tid: int) -> None:
        for _ in range(6):
            if (await store.get_table(tid)).status != "active":
                return
            try:
                result = await play_one(referee, store, tid)
            except sqlite3.Error as exc:
                errors.append(exc)
                continue
            if isinstance(result, Rejection) and result.code != Code.GAME_OVER:
                errors.append(AssertionError(result))
    readers = [asyncio.create_task(reader()) for _ in range(3)]
    try:
        await asyncio.gather(*(player(tid) for tid in tables))
    finally:
        stop.set()
        other.join()
        await asyncio.gather(*readers)
    assert errors == [], errors[:3]


async def test_a_transaction_is_invisible_until_committed_and_a_failed_commit_delivers_nothing(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    before = {m.id for m in await pending_messages(store, limit=1000)}
    inside, seen = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with store.transaction() as db:
                await db.execute("INSERT INTO outbox (table_id, version, target, seat, kind, payload, created_at)"
                                 " VALUES (?, 0, 'table', NULL, 'cancelled', '{\"seed\": \"SECRET\"}', 0)", (tid,))
                inside.set()
                await seen.wait()
                raise RuntimeError("the COMMIT fails")

    task = asyncio.create_task(writer())
    await inside.wait()
    during = [m for m in await pending_messages(store, limit=1000) if m.id not in before]
    seen.set()
    await task
    after = [m for m in await pending_messages(store, limit=1000) if m.id not in before]
    assert during == [] and after == []


async def test_a_move_is_acknowledged_exactly_when_it_is_stored(env, monkeypatch):
    """An error that leaves the outcome of COMMIT unknown: the referee reads the record to answer."""
    store, referee, _ = env
    tid = await new_toy(referee)
    real = store.record_step

    async def stored_then_fails(table_id, expected_version, step):
        await real(table_id, expected_version, step)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "record_step", stored_then_fails)
    result = await play_one(referee, store, tid)
    assert isinstance(result, Accepted) and (await store.get_table(tid)).version == 1

    async def fails(table_id, expected_version, step):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "record_step", fails)
    refused = await play_one(referee, store, tid)
    assert isinstance(refused, Rejection) and refused.key == "core.reject.busy", refused
    assert (await store.get_table(tid)).version == 1
    async def disk_full(table_id, expected_version, step):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "record_step", disk_full)  # the machine's failure: said as such, nothing stored
    with pytest.raises(sqlite3.OperationalError):
        await play_one(referee, store, tid)
    monkeypatch.setattr(store, "record_step", real)
    assert (await store.get_table(tid)).version == 1
    assert isinstance(await play_one(referee, store, tid), Accepted)


# ---------------------------------------------------------------------------------------------- 4. disputes
async def test_a_forced_roll_does_not_close_the_window_of_the_move_that_handed_the_turn_over(env):
    store, referee, _ = env
    table = await referee.create_table("claygod", creator="u:a", creator_name="A", origin="terminal")
    assert isinstance(await referee.join(table.id, "u:b", "B"), int)
    assert isinstance(await referee.start(table.id, "u:a", seed="window-1"), Accepted)
    game = get_game("claygod")
    users = {0: "u:a", 1: "u:b"}
    for step in range(400):
        actions = await store.actions(table.id)
        handed = [(a, b) for a, b in zip(actions, actions[1:])
                  if a.user_id not in (AUTO,) and b.user_id == AUTO and b.seat != a.seat]
        if handed:
            break
        state = await store.state(table.id)
        seat = game.to_act(state)[0].seat
        action = game.bot_action(state, seat, random.Random(step))
        assert isinstance(await referee.act(table.id, users[seat], action, seat=seat), Accepted)
    move, roll = handed[0]
    number = Moves(await referee.history(table.id)).number_at(move.version)
    raised = await disputes.raise_dispute(referee, table.id, users[roll.seat], move=number, text="that was wrong")
    assert not isinstance(raised, Rejection), raised


async def test_a_rejected_dispute_cannot_be_raised_again(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    assert isinstance(await play_one(referee, store, tid), Accepted)
    state = await store.state(tid)
    waiting = (await store.seats(tid))[state["turn"]].user_id
    first = await disputes.raise_dispute(referee, tid, waiting, move=1, text="x")
    done = await disputes.decide(referee, first.id, moderator="mod:m", kind="reject", reason="it was right")
    assert done.status == "rejected"
    again = await disputes.raise_dispute(referee, tid, waiting, move=1, text="x, once more")
    assert isinstance(again, Rejection) and again.key == "disputes.reject.already_decided", again


# ---------------------------------------------------------------------------------------------- 5. seated moderator
async def test_a_seated_moderator_sees_no_hidden_state_and_decides_no_dispute_of_their_table(env):
    from bot.referee import oversight

    store, referee, _ = env
    tid = await new_toy(referee)
    assert isinstance(await play_one(referee, store, tid), Accepted)
    refused = await oversight.hidden_state(referee, tid, moderator="u:alice")
    assert isinstance(refused, Rejection) and refused.key == "moderation.reject.seated"
    seen = await oversight.hidden_state(referee, tid, moderator="mod:m")
    assert not isinstance(seen, Rejection)
    table, seats, state = seen
    assert state["version"] == 1 and [s.user_id for s in seats] == ["u:alice", "u:bob"]
    rows = await store._all("SELECT moderator, action FROM moderation WHERE table_id = ? ORDER BY id", (tid,))
    assert [(r["moderator"], r["action"]) for r in rows] == [("mod:m", "hidden_view")]

    state = await store.state(tid)
    waiting = (await store.seats(tid))[state["turn"]].user_id
    other = "u:alice" if waiting == "u:bob" else "u:bob"
    d = await disputes.raise_dispute(referee, tid, waiting, move=1, text="x")
    own = await disputes.decide(referee, d.id, moderator=other, kind="reject", reason="mine is right")
    assert isinstance(own, Rejection) and own.key == "disputes.reject.own_table"
    ev = await oversight.evidence(referee, d.id, moderator=waiting)
    assert isinstance(ev, Rejection) and ev.key == "moderation.reject.seated"
    assert (await disputes.decide(referee, d.id, moderator="mod:m", kind="reject", reason="ok")).status == "rejected"


# ---------------------------------------------------------------------------------------------- 6. drop in pairing
async def test_a_player_who_drops_while_the_round_is_paired_is_not_paired(env):
    from tests.support.events import new_event

    store, referee, clock = env
    director, tid = await new_event(referee, 8, bots=False)
    await director.start(tid, by="u:org")
    other, terminal = await _other(store, clock)
    try:
        from bot.tournament.director import Director
        theirs = Director(terminal)
        real_plan = director._plan
        dropped = []

        async def plan_then_drop(t, number, attempt=0):
            plan = await real_plan(t, number, attempt)
            if not dropped:  # the drop lands between the pairing's reading and its write
                victim = next(p for g in plan if g.kind == "table" for p in g.players)
                assert await theirs.leave(tid, victim, by=victim) is True
                dropped.append(victim)
            return plan

        director._plan = plan_then_drop
        for g in await director.record.games(tid, 1):
            if g.kind == "table":  # the round's results, so that the next round is paired
                await director.adjust(tid, 1, g.board, {p: 1.0 if i == 0 else 0.0 for i, p in enumerate(g.players)},
                                      by="u:org", reason="played over the board")
        await director.sync(tid)
        t = await director.record.get(tid)
        assert t.round == 2 and dropped
        paired = [p for g in await director.record.games(tid, 2) for p in g.players]
        assert dropped[0] not in paired and len(paired) == 7
    finally:
        await other.close()


# ---------------------------------------------------------------------------------------------- 8. smaller ones
def test_off_and_on_are_words_in_table_options():
    from bot.terminal.common import _options

    opts = _options(["dispute_window=off", "clock_remind=off", "auto_forced=off", "x=on", "y=yes", "n=10"], "en")
    assert opts == {"dispute_window": "off", "clock_remind": "off", "auto_forced": "off", "x": "on", "y": True,
                    "n": 10}


async def test_off_reaches_the_table_settings_as_off(env):
    from bot.terminal.common import _options

    store, referee, _ = env
    opts = _options(["dispute_window=off", "clock=2h", "clock_remind=off", "auto_forced=off"], "en")
    table = await referee.create_table("toy", creator="u:a", creator_name="a", options=opts, origin="terminal")
    assert not isinstance(table, Rejection), table
    assert table.dispute_window == "off" and table.time_control["remind"] == [] and table.auto_forced is False


def test_config_role_ids_tokens_and_lists(tmp_path):
    from bot.process.config import ConfigError, load_settings

    def load(text):
        f = tmp_path / "c.yaml"
        f.write_text(text, encoding="utf-8")
        return load_settings(f, env={})

    assert load("moderator_role: 123456789012345678\n").moderator_role == "123456789012345678"
    assert load("moderator_role: Judges\n").moderator_role == "Judges"
    with pytest.raises(ConfigError, match="moderator_role"):
        load("moderator_role: [Judges, Referees]\n")
    with pytest.raises(ConfigError, match="token"):
        load("discord:\n  token: 1234567890\n")
    assert load("discord:\n  token: 'abc.def'\n").token == "abc.def"


def test_processes_opening_a_new_database_at_once_migrate_it_once(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = ("import asyncio, os, sys, time; from bot.storage.store import Store\n"
              "time.sleep(max(0.0, float(os.environ['GO']) - time.time()))\n"
              "async def main():\n"
              "    store = await Store.open(sys.argv[1])\n"
              "    await store.close()\n"
              "asyncio.run(main())\n")
    for round_no in range(3):
        db = tmp_path / f"new-{round_no}.db"
        env = {**os.environ, "GO": str(time.time() + 1.0)}
        procs = [subprocess.Popen([sys.executable, "-c", script, str(db)], cwd=root, env=env,
                                  stderr=subprocess.PIPE, text=True) for _ in range(6)]
        errors = [p.communicate(timeout=60)[1] for p in procs]
        assert all(p.returncode == 0 for p in procs), [e for e in errors if e][:1]
        with sqlite3.connect(db) as check:
            from bot.storage.db import migration_files
            assert check.execute("PRAGMA user_version").fetchone()[0] == len(migration_files())


async def test_switching_a_new_file_to_wal_waits_for_another_process_switching_it(tmp_path):
    # the race the test above loses now and then, made certain: another process holds the write lock of the
    # new file while this one switches it to WAL (SQLite refuses that switch at once, without its busy wait)
    db = tmp_path / "new.db"
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE claim (x)")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        store = await Store.open(db)
        await store.close()
    finally:
        release.join()
        other.close()
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_killed_demos_lobby_is_marked_abandoned_by_the_next_demo(env):
    from bot.terminal.session import DEMO_LOBBY_STALE, abandon_demo_lobbies

    store, referee, clock = env
    left = await referee.create_table("toy", creator="cli:demo", creator_name="demo", origin="demo", join=False)
    fresh_clock = clock.t
    clock.t += DEMO_LOBBY_STALE + 1
    beside = await referee.create_table("toy", creator="cli:demo", creator_name="demo", origin="demo", join=False)
    mine = await referee.create_table("toy", creator="u:x", creator_name="x", origin="terminal")
    assert await abandon_demo_lobbies(referee) == [left.id] and fresh_clock < clock.t
    assert (await store.get_table(left.id)).status == "cancelled"
    assert (await store.get_table(beside.id)).status == "lobby" and (await store.get_table(mine.id)).status == "lobby"
    rows = await store._all("SELECT action, reason FROM moderation WHERE table_id = ?", (left.id,))
    assert [r["action"] for r in rows] == ["cancel"] and "abandoned" in rows[0]["reason"]


def test_the_terminal_refuses_hidden_state_to_a_seated_moderator_and_logs_every_look(tmp_path, capsys):
    from bot.terminal import cli

    db = str(tmp_path / "j.db")
    run = lambda *a: cli.main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "toy", "--user", "ann") == 0
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ann", "--seed", "x") == 0
    capsys.readouterr()
    assert run("replay", "1", "--moderator", "--user", "ann") == 1
    assert "You play at table #1" in capsys.readouterr().err
    assert run("export", "1", "--moderator", "--user", "ben") == 1
    assert run("replay", "1", "--moderator", "--user", "op") == 0
    assert run("export", "1", "--moderator", "--user", "op") == 0
    assert run("replay", "1", "--user", "ann") == 0                 # a player's own replay is no hidden look
    with sqlite3.connect(db) as check:
        rows = check.execute("SELECT moderator, action, data FROM moderation ORDER BY id").fetchall()
    assert [(m, a) for m, a, _ in rows] == [("cli:op", "hidden_view"), ("cli:op", "hidden_view")]
    assert ['"replay"' in rows[0][2], '"export"' in rows[1][2]] == [True, True]
