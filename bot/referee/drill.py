"""The restore drill: proving that a backup restores (``python -m bot backup --check FILE``, ``restore --check``),
and putting one in place (``python -m bot restore FILE``) — docs/operations.md, "Backups of a season".

A backup proves itself by what a restore would need of it: SQLite's ``integrity_check``, a schema version this
release can open (an older one is migrated, as at any start), and every table (or a random sample of them)
verified against its own record, exactly as ``python -m bot verify`` does (its seed against its commitment, every
step re-run).  The file is only read: the checks run on a read-only connection and the verification on a copy
in a temporary folder, which is migrated there as a start-up would migrate the restored file.
"""
from __future__ import annotations

import fcntl
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.referee.record import RecordError, verify_table
from bot.referee.upgrade import upgrade_tables
from bot.storage.backup import BackupInfo, copy_read_only, describe, integrity_and_schema, sync_folder
from bot.storage.db import DatabaseError, migration_files
from bot.storage.operations import pending_count, started_tables, table_statuses
from bot.storage.store import Store

_SIDECARS = ("", "-wal", "-shm", "-journal")


@dataclass
class DrillReport:
    """What a backup holds and whether it would restore."""

    path: Path
    info: BackupInfo | None = None
    integrity: str = ""
    schema: int | None = None
    known: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    pending: int = 0               # outbox messages the restored bot would still deliver
    checked: list[int] = field(default_factory=list)      # tables verified
    of: int = 0                                           # tables there were to verify
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and self.schema is not None and self.schema <= self.known \
            and not self.problems


def _read_only_checks(path: Path, report: DrillReport) -> bool:
    """integrity_check and the schema version, on a connection that cannot write; False when the file is not
    a database at all (said in ``problems``)."""
    try:
        verdict, report.schema = integrity_and_schema(path)
        report.integrity = "ok" if verdict == ["ok"] else "; ".join(verdict)[:300]
    except DatabaseError as exc:
        report.problems.append(f"not a readable database: {exc}")
        return False
    if report.integrity != "ok":
        report.problems.append(f"integrity_check: {report.integrity}")
    if report.schema > report.known:
        report.problems.append(f"schema {report.schema} is newer than this release's {report.known}")
    elif report.schema == 0:
        report.problems.append("not a Judge database (schema 0)")
    return report.integrity == "ok" and 0 < report.schema <= report.known


async def check_backup(path: str | Path, *, sample: int | None = None, rng: random.Random | None = None) -> DrillReport:
    """Prove ``path`` restorable: read-only checks, then every started table (or ``sample`` of them, chosen at
    random) verified on a migrated copy."""
    path = Path(path)
    report = DrillReport(path, known=len(migration_files()))
    if not path.is_file():
        report.problems.append("no such file")
        return report
    if not _read_only_checks(path, report):
        return report
    report.info = describe(path)
    with tempfile.TemporaryDirectory(prefix="judge-drill-") as folder:
        copy = Path(folder) / "restored.db"
        copy_read_only(path, copy)
        store = await Store.open(copy, backup=False)
        try:
            await upgrade_tables(store, backup=False)  # as the restored file's first start would
            report.statuses = await table_statuses(store)
            report.pending = await pending_count(store)
            started = await started_tables(store)
            report.of = len(started)
            chosen = sorted((rng or random.SystemRandom()).sample(started, sample)) \
                if sample is not None and sample < len(started) else started
            for table_id in chosen:
                try:
                    verification = await verify_table(store, table_id, moderator=True)
                except RecordError as exc:
                    report.problems.append(f"table {table_id}: {exc}")
                    continue
                report.checked.append(table_id)
                report.problems.extend(f"table {table_id}: {p}" for p in verification.problems)
                if not verification.commitment_ok:
                    report.problems.append(f"table {table_id}: the seed does not match its commitment")
        finally:
            await store.close()
    return report


class BotRunning(Exception):
    """The bot holds the database (``python -m bot run``): a restore must wait until it is stopped."""


def run_lock_path(database: str | Path) -> Path:
    database = Path(database)
    return database.with_name(database.name + ".run-lock")


def hold_run_lock(database: str | Path) -> int:
    """Taken by ``python -m bot run`` for as long as it runs (released by the kernel if it dies): what tells a
    restore that the bot is still using the file.  Returns the descriptor to close; raises BotRunning."""
    fd = os.open(run_lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise BotRunning(str(database)) from None
    return fd


def restore(backup: str | Path, database: str | Path) -> Path | None:
    """Put ``backup`` in place of ``database`` (the bot stopped: BotRunning otherwise).  The file replaced, with
    its ``-wal`` / ``-shm`` (a record is not whole without them), is kept beside it as
    ``<name>-replaced-<UTC stamp>``; returns that path (None when there was no database).  The backup is copied
    with the backup API to a temporary name beside the database, synced, then renamed into place: a crash
    leaves either the old file or the new one, never half of one."""
    backup, database = Path(backup), Path(database)
    lock = hold_run_lock(database)
    try:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        incoming = database.with_name(f"{database.name}.restoring-{stamp}")
        for suffix in _SIDECARS:
            Path(f"{incoming}{suffix}").unlink(missing_ok=True)
        copy_read_only(backup, incoming, one_file=True)  # one file, nothing beside it
        with open(incoming, "rb+") as fh:
            os.fsync(fh.fileno())
        replaced = None
        if database.exists():
            replaced = database.with_name(f"{database.name}-replaced-{stamp}")
            for suffix in _SIDECARS:
                if Path(f"{database}{suffix}").exists():
                    os.rename(f"{database}{suffix}", f"{replaced}{suffix}")
        os.rename(incoming, database)
        sync_folder(database.parent)
        return replaced
    finally:
        os.close(lock)
