"""Issue 33, item 3: no migration without a proven backup (bot/storage/backup.py).

Each finding of the red team, reproduced: a file-size limit (B1), a process killed while writing (P1), a file in
the way of the backup folder, a read-only folder and ``?``/``#``/``%`` in the path (B2), two databases in one
folder (B3); and the happy path: the backup holds the whole record."""
from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest

from bot.i18n import t
from bot.storage import backup as backup_module
from bot.storage.backup import (BackupFailed, PARTIAL, backup_folder, backups, decline, remove_partial,
                                take_backup)
from bot.storage.db import migration_files
from bot.storage.store import Store
from bot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]
#: a database the release of 2026-11-23 wrote: schema 2, nine tables mid-game (311 KB)
OLD_RELEASE = ROOT / "tests" / "fixtures" / "releases" / "2026-11-23-5041e9c.db"


@pytest.fixture(autouse=True)
def _backups_wanted():
    decline(False)
    yield
    decline(False)  # a test's --no-backup must not reach the tests after it (one process)


def _version(path: Path) -> int:
    with closing(sqlite3.connect(str(path))) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def _record(path: Path) -> list[str]:
    """Everything the file holds, as SQL."""
    with closing(sqlite3.connect(str(path))) as conn:
        return list(conn.iterdump())


def _older(path: Path, upto: int = 8) -> Path:
    """A database at schema ``upto`` (this release migrates it further), with a row in it."""
    with closing(sqlite3.connect(str(path))) as conn:
        for number, script in migration_files()[:upto]:
            conn.executescript(f"BEGIN;\n{script.read_text(encoding='utf-8')}\n;PRAGMA user_version = {number};\nCOMMIT;")
        conn.execute("INSERT INTO tables (game, status, options, creator, origin, created_at)"
                     " VALUES ('claygod', 'lobby', '{}', 'cli:ann', 'terminal', 0)")
        conn.commit()
    return path


def _old_release(folder: Path, name: str = "judge.db") -> Path:
    target = folder / name
    shutil.copyfile(OLD_RELEASE, target)
    return target


def _cli(*argv: str, limit: int | None = None) -> subprocess.CompletedProcess:
    """``python -m bot ARGV`` in a process of its own (``limit``: its file-size limit, bytes)."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "bot", "--locale", "en", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, preexec_fn=limited if limit else None)


# ---------------------------------------------------------------------------------------------- the happy path
async def test_the_backup_taken_before_a_schema_migration_holds_the_whole_record(tmp_path):
    db = _old_release(tmp_path)
    before = _record(db)
    store = await Store.open(db)
    await store.close()
    [taken] = backups(db)
    assert taken.parent == tmp_path / "judge.db-backups"
    assert taken.name.startswith("judge.db-") and taken.name.endswith(f"-schema-2-to-{len(migration_files())}.db")
    assert _version(db) == len(migration_files())
    assert _version(taken) == 2 and _record(taken) == before  # every row of every table, as it was
    assert not [p for p in taken.parent.iterdir() if p != taken]  # nothing temporary left beside it
    # restored over the database, it opens (and migrates again, after a backup of its own)
    restored = tmp_path / "restored.db"
    shutil.copyfile(taken, restored)
    store = await Store.open(restored)
    try:
        rows = sum(line.startswith('INSERT INTO "tables"') for line in before)
        assert len(await store._all("SELECT id FROM tables")) == rows == 9
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- B1: a size limit
def test_under_a_file_size_limit_no_backup_means_no_migration(tmp_path):
    db = _old_release(tmp_path)
    before = _record(db)
    done = _cli("--db", str(db), "upgrade", limit=100_000)  # the database alone is 311 KB
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("✗ Nothing was migrated") and str(backup_folder(db)) in line and "100000 bytes" in line
    assert _version(db) == 2 and _record(db) == before
    assert list(backup_folder(db).iterdir()) == []  # no empty file named like a backup, no temporary one


# ---------------------------------------------------------------------------------------------- B2: the folder
def test_a_file_in_the_way_of_the_backup_folder_stops_the_migration(tmp_path, capsys):
    db = _older(tmp_path / "judge.db")
    in_the_way = backup_folder(db)
    in_the_way.write_text("not a folder")
    code = main(["--locale", "en", "--db", str(db), "table", "list"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"a file is in the way of the backup folder {in_the_way}" in err and "--no-backup" in err
    assert _version(db) == 8 and in_the_way.read_text() == "not a folder"


@pytest.mark.parametrize("where", ["before the command", "after upgrade"])
def test_with_no_backup_the_operator_migrates_without_one(tmp_path, capsys, where):
    db = _older(tmp_path / "judge.db")
    backup_folder(db).write_text("not a folder")
    argv = ["--locale", "en", "--db", str(db), "upgrade"]
    argv.insert(0 if where == "before the command" else len(argv), "--no-backup")
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0 and "No backup was taken: --no-backup said so." in out
    assert _version(db) == len(migration_files())
    code = main(["--locale", "en", "--db", str(db), "table", "list"])  # the next command backs up again
    assert code == 0 and not backup_module.declined()


def _made_read_only(folder: Path):
    """Make ``folder`` refuse new files, also to root (the tests may run as root, whom a mode of 555 does not stop:
    the immutable attribute does); returns how to undo it, or None when this machine cannot."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return lambda: folder.chmod(0o755)
    chattr = shutil.which("chattr")
    if chattr and subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0:
        return lambda: subprocess.run([chattr, "-i", str(folder)], check=True)
    return None


def test_a_read_only_backup_folder_stops_the_migration(tmp_path, capsys):
    db = _older(tmp_path / "judge.db")
    folder = backup_folder(db)
    folder.mkdir()
    undo = _made_read_only(folder)
    if undo is None:
        pytest.skip("root here cannot make a folder read-only (no chattr +i); the file in the way covers B2")
    try:
        code = main(["--locale", "en", "--db", str(db), "table", "list"])
        err = capsys.readouterr().err
        assert code == 1 and "Traceback" not in err
        assert f"the folder {folder} cannot be created or written to" in err and "Nothing was migrated" in err
    finally:
        undo()
    assert _version(db) == 8 and list(folder.iterdir()) == []


@pytest.mark.parametrize("name", ["a?b.db", "a#b.db", "a%20b.db", "a b %.db", "?#%20.db"])
async def test_special_characters_in_the_path_are_the_files_own(tmp_path, name):
    folder = tmp_path / "x ?#%20 y"
    folder.mkdir()
    db = _older(folder / name)
    store = await Store.open(db)
    await store.close()
    [taken] = backups(db)
    assert _version(taken) == 8 and _version(db) == len(migration_files())
    # nothing else appeared: no stray empty file cut at the ? or the #, no other folder
    assert {p.name for p in folder.iterdir()} <= {name, f"{name}-wal", f"{name}-shm", f"{name}-backups"}
    assert {p.name for p in tmp_path.iterdir()} == {"x ?#%20 y"}


# ---------------------------------------------------------------------------------------------- B3: two files
def test_two_databases_in_one_folder_keep_their_own_backups(tmp_path):
    one, other = _older(tmp_path / "judge.db"), _older(tmp_path / "judge.sqlite")
    # a folder an earlier release shared between them: never counted nor cleaned
    legacy = tmp_path / "judge-backups"
    legacy.mkdir()
    old = legacy / "judge-20261127-140312-rules.db"
    shutil.copyfile(one, old)
    for _ in range(3):
        take_backup(one, "rules", keep=2)
        take_backup(other, "rules", keep=2)
    assert backup_folder(one) != backup_folder(other)
    assert len(backups(one)) == 2 and len(backups(other)) == 2
    assert all(p.name.startswith("judge.db-") for p in backups(one))
    assert all(p.name.startswith("judge.sqlite-") for p in backups(other))
    assert old.is_file() and list(legacy.iterdir()) == [old]


def test_backups_taken_at_the_same_moment_each_keep_their_own_file(tmp_path):
    db = _older(tmp_path / "judge.db")
    with ThreadPoolExecutor(4) as pool:  # same second, same reason: one name, four backups
        taken = list(pool.map(lambda _: take_backup(db, "rules"), range(4)))
    assert len(set(taken)) == 4 and sorted(taken) == backups(db)
    assert all(_version(p) == 8 for p in taken)
    assert sorted(backup_folder(db).iterdir()) == sorted(taken)


# ---------------------------------------------------------------------------------------------- P1: kill -9
_WRITER = """
import pathlib, sys, time
from bot.storage import backup
marker = pathlib.Path(sys.argv[2])
def stalled(partial, expected):  # the copy is written, not yet proven: the moment a kill -9 may come
    marker.write_text(str(partial))
    time.sleep(60)
backup._check = stalled
backup.take_backup(sys.argv[1], "schema-8-to-9", expect_version=8)
"""


async def test_a_backup_killed_while_written_is_removed_and_never_counted(tmp_path):
    db = _older(tmp_path / "judge.db")
    marker = tmp_path / "marker"
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(db), str(marker)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while not marker.exists():
            assert writer.poll() is None and time.monotonic() < deadline, "the writer never got to its copy"
            time.sleep(0.05)
        partial = Path(marker.read_text())
        assert partial.name.endswith(PARTIAL) and partial.stat().st_size > 0
        assert remove_partial(db) == [] and partial.exists()  # being written: left to its writer
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert partial.exists() and backups(db) == []  # what the kill left is not a backup
    orphan = backup_folder(db) / "judge.db-20261127-140312-rules.db.1-ab.partial-journal"  # its copy long gone
    orphan.write_bytes(b"\0" * 512)
    store = await Store.open(db)  # the next backup clears it away
    await store.close()
    [taken] = backups(db)
    assert _version(taken) == 8
    assert sorted(backup_folder(db).iterdir()) == [taken]


# ---------------------------------------------------------------------------------------------- the check
async def test_a_copy_that_fails_its_check_stops_the_migration(tmp_path, monkeypatch):
    db = _older(tmp_path / "judge.db")
    copy = backup_module._copy

    def short_by_a_row(database, partial):  # as if the copy had lost a row on the way
        expected = copy(database, partial)
        expected["counts"]["tables"] += 1
        return expected

    monkeypatch.setattr(backup_module, "_copy", short_by_a_row)
    with pytest.raises(BackupFailed) as failed:
        await Store.open(db)
    assert failed.value.reason == "upgrade.backup.why.check"
    assert "table tables: 1 rows, expected 2" in failed.value.message("en")
    assert failed.value.backup.startswith(str(backup_folder(db)))
    assert _version(db) == 8 and list(backup_folder(db).iterdir()) == []


async def test_a_failed_rules_backup_stops_the_rules_migration(tmp_path, monkeypatch):
    from bot.referee.upgrade import upgrade_tables
    db = _older(tmp_path / "judge.db", upto=len(migration_files()))
    with closing(sqlite3.connect(str(db))) as conn:  # a lobby of older rules: its options would be migrated
        conn.execute("UPDATE tables SET rules_version = 1")
        conn.commit()
    store = await Store.open(db)
    try:
        backup_folder(db).write_text("in the way")
        with pytest.raises(BackupFailed):
            await upgrade_tables(store)
        assert (await store._one("SELECT rules_version FROM tables"))["rules_version"] == 1
    finally:
        await store.close()


def test_the_new_strings_speak_three_languages():
    for key in ("upgrade.backup.failed", "upgrade.backup.why.in_the_way", "upgrade.backup.why.folder",
                "upgrade.backup.why.disk_full", "upgrade.backup.why.check", "upgrade.backup.why.changed",
                "upgrade.cli.no_backup", "upgrade.backup.why.unwritable"):
        assert len({t(key, locale) for locale in ("ru", "uk", "en")}) == 3, key
