"""Bad databases, bad arguments, bad names: each gets one clear line and a non-zero exit, never a traceback or
a hang, and the record stays as it was.  (Random inputs: tests/terminal/test_fuzz.py; several processes on one
database: tests/storage/test_process_races.py.)"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.engine import Code, Rejection
from bot.process.config import TableLimits
from bot.engine.free_text import NAME_MAX, clean_name, clean_text
from bot.referee.record import verify_table
from bot.referee.service import Referee
from bot.storage.db import DatabaseUnavailable, migration_files
from bot.storage.store import Store
from bot.terminal.cli import main
from tests.support.tables import Clock, new_toy

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_clear_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, "no message at all"
    return lines[-1]


@pytest.fixture
def played(tmp_path, capsys) -> Path:
    """A database with one finished Clay God table (1) and a lobby (2)."""
    db = tmp_path / "judge.db"
    assert run_cli(capsys, "--db", str(db), "demo", "--game", "claygod")[0] == 0
    assert run_cli(capsys, "--db", str(db), "table", "new", "--game", "gwent", "--user", "ann")[0] == 0
    return db


# ---------------------------------------------------------------------------------------------- databases
def damaged_files(tmp_path: Path, played: Path) -> dict[str, Path]:
    files = {}
    files["random bytes"] = tmp_path / "random.db"
    files["random bytes"].write_bytes(bytes(range(256)) * 40)
    files["text"] = tmp_path / "notes.db"
    files["text"].write_text("just some notes\n" * 100)
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(played.read_bytes()[:9000])
    files["truncated"] = truncated
    header_only = tmp_path / "header.db"
    header_only.write_bytes(played.read_bytes()[:100])
    files["header only"] = header_only
    scrambled = bytearray(played.read_bytes())
    scrambled[4096:8192] = b"\xff" * 4096  # the pages after the schema page
    files["scrambled page"] = tmp_path / "scrambled.db"
    files["scrambled page"].write_bytes(bytes(scrambled))
    return files


@pytest.mark.parametrize("command", [["table", "list"], ["replay", "1"], ["verify", "1"], ["demo", "--game", "toy"]])
def test_a_damaged_database_is_one_line_and_exit_1(tmp_path, capsys, played, command):
    # the WAL of the good file is checkpointed by closing it, so the copy holds everything
    for what, path in damaged_files(tmp_path, played).items():
        code, _, err = run_cli(capsys, "--locale", "en", "--db", str(path), *command)
        line = one_clear_line(err)
        assert code == 1, (what, err)
        assert str(path) in line and ("damaged" in line or "not a Judge database" in line), (what, line)


def test_a_damaged_database_does_not_hang_the_process(tmp_path, played):
    """The aiosqlite worker thread is not a daemon: a connection left open after a failed open kept the
    process alive forever.  Run the real entry point and give it a deadline."""
    for what, path in damaged_files(tmp_path, played).items():
        proc = subprocess.run([sys.executable, "-m", "bot", "--db", str(path), "table", "list"], cwd=ROOT,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 1, (what, proc.stderr)
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, (what, proc.stderr)


def test_a_database_from_a_newer_release_is_refused_not_written(tmp_path, capsys, played):
    newer = len(migration_files()) + 1
    with closing(sqlite3.connect(played)) as conn, conn:  # closing: the with-block only commits
        conn.execute(f"PRAGMA user_version = {newer}")
    before = played.read_bytes()
    code, _, err = run_cli(capsys, "--locale", "en", "--db", str(played), "table", "new", "--game", "toy")
    assert code == 1 and f"schema {newer}" in one_clear_line(err) and "newer release" in err
    assert played.read_bytes() == before

    async def opened():
        await Store.open(played)
    with pytest.raises(DatabaseUnavailable) as refused:
        asyncio.run(opened())
    assert refused.value.reason == "core.db.newer_schema"


def test_missing_folder_a_folder_and_an_empty_name(tmp_path, capsys):
    code, _, err = run_cli(capsys, "--locale", "en", "--db", str(tmp_path / "nowhere" / "j.db"), "table", "list")
    assert code == 1 and "does not exist" in one_clear_line(err)
    code, _, err = run_cli(capsys, "--locale", "en", "--db", str(tmp_path), "table", "list")
    assert code == 1 and "not a file name" in one_clear_line(err)
    code, _, err = run_cli(capsys, "--locale", "en", "--db", "", "table", "list")
    assert code == 2 and "--db" in one_clear_line(err)
    assert not (tmp_path / "nowhere").exists()


def test_an_older_database_with_a_duplicate_seat_still_opens(tmp_path):
    """Migration 0003 keeps its rules with triggers, which do not re-check old rows: a database that the
    lobby race of older releases left with a duplicate seat opens, and the duplicate is visible to repair."""
    db = tmp_path / "old.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        for _number, path in migration_files()[:2]:
            conn.executescript(path.read_text())
        conn.execute("PRAGMA user_version = 2")
        conn.execute("INSERT INTO tables (id, game, status, options, creator, created_at) VALUES"
                     " (1, 'toy', 'lobby', '{}', 'u:a', 0)")
        conn.executemany("INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES (1, ?, 'u:a', 'A', 0)",
                         [(0,), (1,)])

    async def check():
        store = await Store.open(db)
        try:
            assert [s.user_id for s in await store.seats(1)] == ["u:a", "u:a"]
            referee = Referee(store)
            assert (await referee.leave(1, "u:a")) is True
            refused = await referee.join(1, "u:a", "A")
            assert isinstance(refused, Rejection) and refused.key == "core.reject.already_seated"
        finally:
            await store.close()
    asyncio.run(check())


# ---------------------------------------------------------------------------------------------- the record's own rules
async def test_the_database_refuses_seat_changes_outside_the_lobby(env):
    store, referee, _ = env
    table_id = await new_toy(referee)
    for sql in ("INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES (?, 2, 'u:eve', 'Eve', 0)",
                "DELETE FROM seats WHERE table_id = ? AND seat = 1",
                "UPDATE seats SET name = 'Mallory' WHERE table_id = ?"):
        with pytest.raises(sqlite3.IntegrityError, match="only in the lobby"):
            async with store.transaction() as db:
                await db.execute(sql, (table_id,))
    assert [s.name for s in await store.seats(table_id)] == ["alice", "bob"]


async def test_the_database_refuses_a_second_seat_and_an_overfull_table(env):
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:a", creator_name="A", origin="terminal")
    insert = "INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES (?, ?, ?, 'X', 0)"
    with pytest.raises(sqlite3.IntegrityError, match="already seated"):
        async with store.transaction() as db:
            await db.execute(insert, (table.id, 1, "u:a"))
    with pytest.raises(sqlite3.IntegrityError, match="numbered in order"):
        async with store.transaction() as db:
            await db.execute(insert, (table.id, 5, "u:b"))
    for n in range(1, 4):  # the toy game seats 2 to 4
        async with store.transaction() as db:
            await db.execute(insert, (table.id, n, f"u:{n}"))
    with pytest.raises(sqlite3.IntegrityError, match="full"):
        async with store.transaction() as db:
            await db.execute(insert, (table.id, 4, "u:5"))


async def test_lobby_refusals_name_the_rule(env):
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:a", creator_name="A", origin="terminal")
    assert (await referee.join(table.id, "u:a", "A")).key == "core.reject.already_seated"
    assert isinstance(await referee.join(table.id, "u:a", "A again", allow_several_seats=True), int)
    for _ in range(2):
        assert isinstance(await referee.add_bot(table.id), int)
    full = await referee.join(table.id, "u:z", "Z")
    assert full.key == "core.reject.table_full" and "4" in full.message("en")
    assert (await referee.leave(table.id, "u:nobody")).code == Code.NOT_A_PLAYER
    assert (await referee.join(10**12, "u:z", "Z")).code == Code.NOT_FOUND
    assert isinstance(await referee.start(table.id, "u:a"), object)
    late = await referee.join(table.id, "u:z", "Z")
    assert late.key == "core.reject.not_in_lobby"
    assert (await referee.leave(table.id, "u:a")).key == "core.reject.not_in_lobby"
    assert [s.user_id for s in await store.seats(table.id)] == ["u:a", "u:a", "bot:1", "bot:2"]


async def test_open_tables_are_limited_per_person_and_per_server(tmp_path):
    store = await Store.open(tmp_path / "j.db")
    try:
        referee = Referee(store, clock=Clock(), limits=TableLimits(per_user=2, per_server=3))
        made = [await referee.create_table("toy", creator="u:a", creator_name="A", guild_id="g1") for _ in range(3)]
        assert [isinstance(m, Rejection) for m in made] == [False, False, True]
        assert made[2].key == "core.reject.too_many_tables" and "2 open tables" in made[2].message("en")
        assert "2 открытых стола" in made[2].message("ru")
        assert not isinstance(await referee.create_table("toy", creator="u:b", creator_name="B", guild_id="g1"),
                              Rejection)
        crowded = await referee.create_table("toy", creator="u:c", creator_name="C", guild_id="g1")
        assert crowded.key == "core.reject.too_many_tables_server"
        assert not isinstance(await referee.create_table("toy", creator="u:c", creator_name="C", guild_id="g2"),
                              Rejection)
        # a closed table frees its place
        assert await referee.cancel(made[0].id, "u:a") is True
        assert not isinstance(await referee.create_table("toy", creator="u:a", creator_name="A", guild_id="g2"),
                              Rejection)
        assert len(await store.find_tables(status=["lobby"])) == 4
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- free text
@pytest.mark.parametrize("raw, clean", [
    ("\x1b[31mRed\x1b[0m", "Red"),
    ("Ann\nDROP TABLE", "Ann DROP TABLE"),
    ("a\u200bb\u200dc\ufeff", "abc"),
    ("\u202eevil\u202c", "evil"),
    ("\x1b]0;title\x07Bob", "Bob"),
    ("  many   spaces\t", "many spaces"),
    ("e\u0301", "é"),
    ("\x00\x07\x1b", "?"),
    ("Дмитро", "Дмитро"),
])
def test_names_are_cleaned(raw, clean):
    assert clean_name(raw) == clean


def test_names_and_texts_are_bounded():
    assert len(clean_name("x" * 100_000)) == NAME_MAX and clean_name("x" * 100_000).endswith("…")
    text = clean_text("line\n" * 100 + "y" * 5000)
    assert text.count("\n") < 12 and len(text) <= 1000
    assert clean_text("first\n\n\n\n\nsecond") == "first\n\nsecond"
    assert clean_text(" \u200b\n ") is None


async def test_names_reach_the_record_clean(env):
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:a", creator_name="\x1b[2J\x1b[HAnn\n" + "z" * 500,
                                       origin="terminal", title="\u202eTitle\r\nnext")
    await referee.join(table.id, "u:b", "B\u200bob\x07")
    assert [s.name for s in await store.seats(table.id)] == ["Ann " + "z" * (NAME_MAX - 5) + "…", "Bob"]
    assert (await store.get_table(table.id)).title == "Title next"
    assert await referee.cancel(table.id, "u:a", reason="\x1b[1mno\x1b[0m\n" * 50) is True


# ---------------------------------------------------------------------------------------------- arguments
BAD_ARGUMENTS = [
    (["table", "status", str(2**63)], 2), (["table", "status", "-1"], 2), (["table", "status", "1e3"], 2),
    (["export", str(2**64)], 2), (["replay", "99999999999999999999999"], 2),
    (["demo", "--games", "-5"], 2), (["demo", "--games", "0"], 2), (["demo", "--game", "nope"], 2),
    (["demo", "--game", "claygod", "--seats", "0"], 2), (["demo", "--game", "claygod", "--seats", "9"], 2),
    (["demo", "--game", "bloodwood", "--seats", "99"], 2), (["demo", "--game", "claygod", "--option", "x=1"], 2),
    (["demo", "--game", "claygod", "--option", "novalue"], 2), (["demo", "--option", "=1"], 2),
    (["play", "--table", "77"], 1), (["play", "nope"], 2), (["play", "claygod", "--seats", "7"], 2),
    (["play", "claygod", "--hotseat", "3"], 2), (["play", "--seed", "s" * 5000], 2),
    (["replay", "2"], 1), (["replay", "1", "--seat", "99"], 2), (["replay", "404"], 1),
    (["export", "2"], 1), (["export", "1", "--out", "/nonexistent/dir/x.json"], 1),
    (["verify"], 2), (["verify", "404"], 1), (["verify", "--file", "/nonexistent.json"], 1),
    (["mod", "rollback", "2", "--to", "0"], 1), (["mod", "rollback", "1", "--to", str(2**63)], 2),
    (["mod", "rollback", "1", "--to", "99999"], 1), (["mod", "ruling", "1", "--reason", "\u200b"], 1),
    (["mod", "cancel", "404"], 1), (["table", "join", "1"], 1), (["table", "act", "2", "1"], 1),
    (["table", "act", "1", "1"], 1), (["table", "start", "404"], 1), (["table", "act", "2", "x" * 5000], 1),
    (["table", "actions", "2"], 1), (["table", "new", "--game", "nope"], 1),
    (["table", "new", "--option", "a" * 300 + "=1"], 2),
]


@pytest.mark.parametrize("argv, expected", BAD_ARGUMENTS, ids=[" ".join(a)[:50] for a, _ in BAD_ARGUMENTS])
def test_bad_arguments_get_one_line(capsys, played, argv, expected):
    before = played.read_bytes()
    code, _, err = run_cli(capsys, "--db", str(played), "--locale", "en", *argv)
    line = one_clear_line(err)
    assert code == expected, err
    assert len(line) < 400
    if argv[0] not in ("mod", "table") or argv[1] not in ("ruling", "cancel", "join"):
        assert played.read_bytes() == before  # a refusal writes nothing


def test_usage_errors_speak_the_chosen_language(capsys, played):
    code, _, err = run_cli(capsys, "--db", str(played), "--locale", "uk", "demo", "--games", "-5")
    assert code == 2 and "від 1 до 1000" in one_clear_line(err)
    code, _, err = run_cli(capsys, "--db", str(played), "demo", "--game", "claygod", "--seats", "9")
    assert code == 2 and "нужно от 2 до 2 игроков" in one_clear_line(err)


def test_out_of_turn_says_so(capsys, played):
    """The toy game has one player to move; the other's "1" is answered "not your turn", not "there is no
    choice number 1: there are 0"."""
    db = ["--db", str(played), "--locale", "en"]
    assert run_cli(capsys, *db, "table", "new", "--game", "toy", "--user", "ann")[0] == 0
    assert run_cli(capsys, *db, "table", "join", "3", "--user", "bob")[0] == 0
    assert run_cli(capsys, *db, "table", "start", "3", "--user", "ann", "--seed", "s")[0] == 0
    waiting = [user for user in ("ann", "bob")
               if "not your turn" in run_cli(capsys, *db, "table", "actions", "3", "--user", user)[1].lower()]
    assert len(waiting) == 1
    code, _, err = run_cli(capsys, *db, "table", "act", "3", "1", "--user", waiting[0])
    assert code == 1 and "not your turn" in one_clear_line(err).lower() and "choice" not in err


def test_a_non_player_cannot_play_a_table(capsys, played):
    code, _, err = run_cli(capsys, "--db", str(played), "--locale", "en", "play", "--table", "1", "--user", "zed")
    assert code == 1 and "not playing at this table" in one_clear_line(err)


def test_typed_json_with_fields_no_action_has_is_refused(capsys, played):
    assert run_cli(capsys, "--db", str(played), "table", "bot", "2")[0] == 0
    assert run_cli(capsys, "--db", str(played), "table", "start", "2", "--user", "ann")[0] == 0
    for typed in ['{"type": "pass", "smuggled": "x"}', '{' * 5000, '{"type": {"a": 1}}', '[1, 2]']:
        code, _, err = run_cli(capsys, "--db", str(played), "--locale", "en", "table", "act", "2", typed,
                               "--user", "ann")
        assert code in (1, 2) and one_clear_line(err)


def test_a_malformed_export_is_a_clear_refusal(tmp_path, capsys, played):
    good = tmp_path / "good.json"
    assert run_cli(capsys, "--db", str(played), "export", "1", "--out", str(good))[0] == 0
    doc = json.loads(good.read_text())
    variants = {
        "binary.json": b"\x00\xff\xfe" * 100,
        "deep.json": b"[" * 200_000 + b"]" * 200_000,
        "list.json": b"[1, 2]",
        "seats.json": json.dumps({**doc, "table": {**doc["table"], "seats": [{}] * 10**5}}).encode(),
        "actions.json": json.dumps({**doc, "actions": [{"version": "x"}]}).encode(),
        "garbage_action.json": json.dumps({**doc, "actions": [{**doc["actions"][0], "action": {"type": "play",
                                                                                           "card": [[[]]]}}]}).encode(),
        "rollback.json": json.dumps({**doc, "actions": [{"version": 1, "seat": -1, "at": 0,
                                                         "action": {"type": "rollback", "to": 10**30}}]}).encode(),
        "stack.json": json.dumps({**doc, "table": {**doc["table"], "stack": {"dice": "nonsense" * 10}}}).encode(),
    }
    for name, content in variants.items():
        path = tmp_path / name
        path.write_bytes(content)
        code, out, err = run_cli(capsys, "--db", str(played), "verify", "--file", str(path))
        assert code == 1, (name, out, err)
        assert "Traceback" not in err + out
    assert run_cli(capsys, "--db", str(played), "verify", "--file", str(good))[0] == 0


def test_a_full_disk_is_one_line_and_the_record_stays_whole(tmp_path, capsys, played, monkeypatch):
    """SQLite says "database or disk is full" mid-command (here: a page limit on the connection, which SQLite
    reports exactly like a full disk): one line, exit 1, and the transaction that failed left nothing half
    written."""
    from bot.storage import base as store_module  # where the store opens its connection

    opened = store_module.open_db

    async def cramped(path):
        conn = await opened(path)
        async with conn.execute("PRAGMA page_count") as cur:
            (pages,) = await cur.fetchone()
        await conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        return conn

    monkeypatch.setattr(store_module, "open_db", cramped)
    code, _, err = run_cli(capsys, "--locale", "en", "--db", str(played), "demo", "--game", "gwent", "--games", "3")
    assert code == 1 and "the disk is full" in one_clear_line(err)
    monkeypatch.setattr(store_module, "open_db", opened)

    async def check():
        store = await Store.open(played)
        try:
            for table in await store.find_tables(status=["active", "finished"], limit=100):
                report = await verify_table(store, table.id, moderator=True)
                assert report.ok, report.problems
        finally:
            await store.close()
    asyncio.run(check())


@pytest.mark.parametrize("game, stack", [
    ("claygod", {"hands": [[["x"]], []]}), ("claygod", {"used": [{"a": 1}]}), ("claygod", {"deck_top": [[1]]}),
    ("claygod", {"rolls": {"claygod.deck": [5]}}), ("claygod", {"rolls": {"claygod.deck": 5}}),
    ("claygod", {"rolls": [1, 2]}), ("toy", {"deck": 5}), ("toy", {"rolls": {"toy.first": [None]}}),
    ("toy", {"rolls": {"toy.first": [99]}}), ("toy", {"deck": ["1"] * 12}),
])
async def test_a_moderators_stack_that_does_not_fit_is_refused_not_a_crash(env, game, stack):
    store, referee, _ = env
    table = await referee.create_table(game, creator="u:a", creator_name="A", origin="terminal")
    await referee.add_bot(table.id)
    refused = await referee.start(table.id, "u:a", moderator=True, stack=stack)
    assert isinstance(refused, Rejection) and refused.code == Code.BAD_SETUP, refused
    assert refused.message("en") and (await store.get_table(table.id)).status == "lobby"


def test_a_null_stacked_value_is_an_error_not_a_silent_fallback():
    from bot.engine.rng import Rng, StackError, rng_state
    rng = Rng(rng_state("s"))
    rng.push("die", [None, 3])
    with pytest.raises(StackError, match="null"):
        rng.randint(1, 6, "die")
    assert rng.randint(1, 6, "die") == 3
