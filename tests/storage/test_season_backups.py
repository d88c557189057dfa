"""Issue 39: the bot's own backups of a season and the restore drill (bot/storage/backup.py, bot/referee/drill.py,
bot/terminal/backup.py; docs/operations.md "Backups of a season")."""
from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import time
from pathlib import Path

import pytest

from bot.referee.drill import BotRunning, check_backup, hold_run_lock, restore
from bot.referee.record import verify_table
from bot.referee.service import Referee
from bot.referee.upgrade import open_store
from bot.storage import backup as bk
from bot.terminal.cli import main
from tests.support.seasons import GAMES, _moves, _tables
from tests.support.upgrades import play_to_end


async def test_backup_taken_mid_play_restores_and_every_table_plays_on(tmp_path):
    db = tmp_path / "judge.db"
    store = await open_store(db)
    referee = Referee(store)
    rng = random.Random(39)
    ids = await _tables(referee)
    await _moves(referee, ids, 3, rng)
    # the backup is taken in a thread while moves go on in the loop: one consistent snapshot of a moving record
    taking = asyncio.create_task(asyncio.to_thread(bk.take_season_backup, db))
    during = 0
    while not taking.done():
        during += await _moves(referee, ids, 1, rng)
    info = await taking
    after = await _moves(referee, ids, 2, rng)
    assert after > 0
    versions_at_kill = {tid: (await store.get_table(tid)).version for tid in ids}
    await store.close()  # the process is killed: the database and what it held since the backup are lost
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)

    assert info.path.name.startswith("judge.db-") and info.path.name.endswith("-manual.db")
    assert info.tables == len(GAMES) and info.actions > 0 and info.newest_action is not None
    report = await check_backup(info.path)
    assert report.ok, report.problems
    assert sorted(report.checked) == sorted(ids) and report.statuses == {"active": len(GAMES)}
    assert restore(info.path, db) is None  # nothing to keep: the database was gone

    store = await open_store(db)
    try:
        referee = Referee(store)
        for tid in ids:
            restored = (await store.get_table(tid)).version
            assert 0 < restored <= versions_at_kill[tid]  # up to the backup's moment, no further
            status, moves = await play_to_end(referee, tid)
            assert status == "finished", (tid, status)
            verification = await verify_table(store, tid)
            assert verification.ok, verification.problems
    finally:
        await store.close()


def _db_with_a_table(path: Path) -> None:
    async def build():
        store = await open_store(path)
        try:
            referee = Referee(store)
            table = await referee.create_table("claygod", creator="cli:a", creator_name="a", origin="terminal")
            await referee.join(table.id, "cli:b", "b")
            await referee.start(table.id, "cli:a", seed="s")
            await _moves(referee, [table.id], 4, random.Random(1))
        finally:
            await store.close()
    asyncio.run(build())


def test_cli_backup_check_and_restore_keep_the_replaced_file(tmp_path, capsys):
    db = tmp_path / "judge.db"
    _db_with_a_table(db)
    other = tmp_path / "elsewhere" / "disk"
    assert main(["--db", str(db), "--locale", "en", "backup", "--to", str(other)]) == 0
    out = capsys.readouterr().out
    assert "Backup written and proven" in out and "1 table," in out
    (taken,) = bk.season_backups(db, other)
    assert not list(other.glob("*.partial*"))  # written under a temporary name, renamed once proven
    assert main(["--db", str(db), "--locale", "uk", "backup", "--check", str(taken)]) == 0
    assert "З цієї копії можна відновитися" in capsys.readouterr().out
    before = db.read_bytes()
    assert main(["--db", str(db), "--locale", "en", "restore", str(taken)]) == 0
    out = capsys.readouterr().out
    (replaced,) = tmp_path.glob("judge.db-replaced-*")
    assert str(replaced) in out and replaced.stat().st_size == len(before)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 1


def test_a_damaged_backup_fails_the_drill_and_is_not_restored(tmp_path, capsys):
    db = tmp_path / "judge.db"
    _db_with_a_table(db)
    info = bk.take_season_backup(db)
    data = bytearray(info.path.read_bytes())
    for at in range(4096 * 2, len(data), 4096):  # every page after the schema's: the rows are garbage
        data[at + 100:at + 200] = os.urandom(100)
    bad = tmp_path / "bad.db"
    bad.write_bytes(bytes(data))
    assert main(["--db", str(db), "--locale", "en", "backup", "--check", str(bad)]) == 1
    assert "would not restore" in capsys.readouterr().out
    kept = db.read_bytes()
    assert main(["--db", str(db), "--locale", "en", "restore", str(bad)]) == 1
    assert "Nothing was restored" in capsys.readouterr().err
    assert db.read_bytes() == kept and not list(tmp_path.glob("judge.db-replaced-*"))
    # not a database at all, and a file that is missing
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite" * 100)
    assert main(["--db", str(db), "--locale", "en", "backup", "--check", str(junk)]) == 1
    assert main(["--db", str(db), "--locale", "en", "backup", "--check", str(tmp_path / "none.db")]) == 1


def test_restore_waits_for_the_bot_to_stop(tmp_path):
    db = tmp_path / "judge.db"
    _db_with_a_table(db)
    info = bk.take_season_backup(db)
    fd = hold_run_lock(db)  # what `python -m bot run` holds while it runs
    try:
        with pytest.raises(BotRunning):
            restore(info.path, db)
        with pytest.raises(BotRunning):
            hold_run_lock(db)
    finally:
        os.close(fd)
    assert restore(info.path, db) is not None


def test_sample_verifies_only_that_many_tables(tmp_path):
    db = tmp_path / "judge.db"
    _db_with_a_table(db)
    _db_with_a_table(db)
    _db_with_a_table(db)
    info = bk.take_season_backup(db)
    report = asyncio.run(check_backup(info.path, sample=2, rng=random.Random(3)))
    assert report.ok and len(report.checked) == 2 and report.of == 3


def _fake(folder: Path, db: Path, stamp: str, kind: str) -> Path:
    path = folder / f"{db.name}-{stamp}-{kind}.db"
    path.write_bytes(b"x")
    return path


def test_rotation_keeps_the_newest_of_each_day_and_week_and_never_the_others(tmp_path):
    db = tmp_path / "judge.db"
    folder = bk.backup_folder(db)
    folder.mkdir()
    made = []
    start = time.mktime((2026, 10, 1, 0, 0, 0, 0, 0, 0))
    for six_hours in range(4 * 60):  # every 6 hours for 60 days
        made.append(_fake(folder, db, time.strftime("%Y%m%d-%H%M%S", time.gmtime(start + six_hours * 21600)),
                          "scheduled"))
    by_hand = _fake(folder, db, "20261001-120000", "manual")
    upgrade = _fake(folder, db, "20261001-120000", "schema-8-to-9")
    removed = bk.rotate(db, keep_daily=7, keep_weekly=4)
    kept = bk.season_backups(db, kind="scheduled")
    assert by_hand.exists() and upgrade.exists() and made[-1] in kept
    days = {time.strftime("%Y-%m-%d", time.gmtime(bk.taken_at(p))) for p in kept}
    weeks = {time.strftime("%G-W%V", time.gmtime(bk.taken_at(p))) for p in kept}
    assert len(kept) <= 7 + 4 and len(days) == len(kept) and len(weeks) >= 4
    assert set(removed) | set(kept) == set(made)
    # an upgrade's own pruning (the newest 10) leaves the season's backups alone
    bk.take_backup(_real_db(tmp_path), "rules", keep=1)
    assert all(p.exists() for p in kept)


def _real_db(tmp_path: Path) -> Path:
    path = tmp_path / "judge.db"
    if not path.exists():
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE t (x)")
            conn.execute("PRAGMA user_version = 1")
    return path


async def test_the_schedule_takes_the_first_backup_then_waits_for_the_next_one(tmp_path):
    db = _real_db(tmp_path)
    taken = []
    schedule = bk.BackupSchedule(db, tmp_path / "remote", every=3600, first_after=0.0, taken=taken.append)
    schedule.start()
    for _ in range(200):
        if taken:
            break
        await asyncio.sleep(0.05)
    await schedule.stop()
    assert len(taken) == 1 and taken[0].path.parent == tmp_path / "remote"
    assert taken[0].path.name.endswith("-scheduled.db")
    # a restart does not take one at once: the next is due an `every` after the newest
    now = time.time()
    assert schedule.next_due(now, started=now) == pytest.approx(bk.taken_at(taken[0].path) + 3600)


async def test_a_failing_schedule_is_logged_and_the_bot_goes_on(tmp_path, caplog):
    db = _real_db(tmp_path)
    blocker = tmp_path / "file-in-the-way"
    blocker.write_text("x")
    schedule = bk.BackupSchedule(db, blocker, every=3600, first_after=0.0, retry=3600)
    schedule.start()
    for _ in range(200):
        if schedule.failures:
            break
        await asyncio.sleep(0.05)
    await schedule.stop()
    assert schedule.failures == 1
    assert any("No backup was taken" in r.getMessage() for r in caplog.records)


def test_settings_for_backups_and_monitoring(tmp_path):
    from bot.process.config import ConfigError, load_settings

    example = load_settings(Path(__file__).resolve().parents[2] / "config.example.yaml", env={})
    assert example.backups.every_hours == 6 and example.backups.folder is None
    assert (example.backups.keep_daily, example.backups.keep_weekly) == (7, 4)
    assert example.monitoring.enabled and example.monitoring.host == "127.0.0.1" and example.monitoring.port == 9187
    defaults = load_settings(None, env={})
    assert not defaults.monitoring.enabled and defaults.backups.every_hours == 6
    file = tmp_path / "config.yaml"
    file.write_text("backups: {folder: /mnt/b, every_hours: null}\nmonitoring: {enabled: true, port: 9300}\n")
    settings = load_settings(file, env={})
    assert settings.backups.folder == Path("/mnt/b") and settings.backups.every_hours is None
    assert settings.monitoring.port == 9300
    for bad in ("backups: {every_hours: 0}", "backups: {keep_daily: -1}", "backups: {keep_daily: 0, keep_weekly: 0}",
                "backups: {folder: 3}", "backups: {often: 1}", "monitoring: {enabled: 'yes'}",
                "monitoring: {port: 70000}", "monitoring: {host: ''}", "monitoring: []"):
        file.write_text(bad + "\n")
        with pytest.raises(ConfigError):
            load_settings(file, env={})
