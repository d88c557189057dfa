"""Backups taken before the bot changes what it stored: a schema migration (bot/storage/db.py) or a rules
migration of the tables' states (bot/referee/upgrade.py).

A backup is a complete, consistent copy made with SQLite's online backup API (it copies what the WAL holds
too, and other connections may keep reading and writing meanwhile), written beside the database in a folder of
its own named after the database's whole file name, ``<name>-backups/``, named by the time and the reason:

    judge.db-backups/judge.db-20261127-140312-schema-8-to-9.db
    judge.db-backups/judge.db-20261127-140312-rules.db

(``judge.db`` and ``judge.sqlite`` in one folder each have their own.  Earlier releases wrote to
``<stem>-backups/``, shared by such files: that folder is left as it is, never counted nor cleaned.)

A backup is **proven** before it counts: it is written to a temporary name (``….partial``), checked
(``PRAGMA integrity_check``, the ``user_version`` and the row count of every table the database had when it was
copied), made durable, and only then renamed into place.  Anything that goes wrong raises ``BackupFailed``, the
temporary file is removed, and the change it was to precede must not happen (the operator may decline backups
with ``--no-backup``: ``decline``).  A temporary file left by a process killed while writing is held under an
``flock`` while it is written; the next backup of the database removes any such file nobody holds.

The same proven copy is also a season's backup (``take_season_backup``): taken by hand (``python -m bot
backup``, named ``…-manual.db``, never removed by the bot) or on the schedule of ``python -m bot run``
(``…-scheduled.db``, rotated by ``rotate``: the newest of each of the last days and weeks), into the backup
folder or one the settings name (another disk, a mounted remote).  Those are not counted among the ``KEEP``
below, and the upgrades' backups are not counted among theirs.

Only the newest ``KEEP`` of a database's backups are kept: an operator who upgrades every week has two months
of them, and the folder never grows without bound.  Going back to one: stop the bot, copy it over the database
(and remove the database's ``-wal`` / ``-shm`` files), start the release that wrote it (docs/operations.md).
"""
from __future__ import annotations

import errno
import fcntl
import logging
import os
import re
import resource
import secrets
import sqlite3
import time
import asyncio
import calendar
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bot.process.metrics import METRICS

log = logging.getLogger("judge.backup")

#: how many backups of one database are kept
KEEP = 10
_SAFE = re.compile(r"[^a-z0-9-]+")
#: what follows ``<name>-`` in a backup's file name
_STAMPED = re.compile(r"^\d{8}-\d{6}-[a-z0-9-]+\.db$")
PARTIAL = ".partial"
_SIDECARS = ("", "-journal", "-wal", "-shm")

_declined = False


def decline(declined: bool = True) -> None:
    """The operator's ``--no-backup`` for this process: migrations go ahead without a backup (logged)."""
    global _declined
    _declined = declined


def declined() -> bool:
    return _declined


class BackupFailed(Exception):
    """No proven backup could be written, so the migration it was to precede did not happen.  ``reason`` is an
    upgrade.backup.why.* key; ``message(locale)`` is one line for the operator naming the backup and the way on."""

    def __init__(self, database: str | Path, backup: str | Path, reason: str, **params: object):
        self.database, self.backup, self.reason, self.params = str(database), str(backup), reason, params
        super().__init__(f"{self.backup}: {reason} {params}")

    def message(self, locale: str | None) -> str:
        from bot.i18n import t  # the storage layer needs the strings only when it has to explain itself
        return t("upgrade.backup.failed", locale, db=self.database, backup=self.backup,
                 reason=t(self.reason, locale, **self.params))


def backup_folder(database: str | Path) -> Path:
    database = Path(database)
    return database.parent / f"{database.name}-backups"


def backups(database: str | Path) -> list[Path]:
    """The database's proven backups, oldest first (temporary and other files in the folder are not among them)."""
    folder, prefix = backup_folder(database), f"{Path(database).name}-"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.name.startswith(prefix) and _STAMPED.match(p.name[len(prefix):]) and p.is_file())


def copy_database(source: str | Path, target: str | Path) -> Path:
    """A consistent copy of ``source`` at ``target`` (the backup API; ``target`` is replaced)."""
    target = Path(target)
    if target.exists():
        target.unlink()
    with closing(sqlite3.connect(str(source))) as src, closing(sqlite3.connect(str(target))) as dst:
        src.backup(dst)
    return target


def source_version(database: str | Path) -> int | None:
    """The database's schema version (``user_version``), or None when the file cannot be read as a database.
    Opened by its plain name, never as a URI: ``?``, ``#`` and ``%`` in a path are the file's own characters."""
    try:
        with closing(sqlite3.connect(str(database))) as conn:
            return conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error:
        return None


def take_backup(database: str | Path, reason: str, *, keep: int = KEEP,
                expect_version: int | None = None) -> Path | None:
    """Back ``database`` up before a change (``reason``: a few words, e.g. ``schema-8-to-9`` or ``rules``) and
    return the proven backup's path; None when the operator declined backups.  ``expect_version``: the schema
    version the copy must have (another process that migrated the file meanwhile makes this backup refused, not
    misnamed).  Raises BackupFailed.  The oldest backups beyond ``keep`` are removed afterwards."""
    database = Path(database)
    if _declined:
        log.warning("%s: migrating without a backup (--no-backup): %s", database, reason)
        return None
    folder = backup_folder(database)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"{database.name}-{stamp}-{_SAFE.sub('-', reason.lower()).strip('-') or 'backup'}"
    target = folder / f"{name}.db"  # what a failure names
    try:
        if folder.exists() and not folder.is_dir():
            raise BackupFailed(database, target, "upgrade.backup.why.in_the_way", folder=str(folder))
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise BackupFailed(database, target, "upgrade.backup.why.folder", folder=str(folder),
                           detail=_os_reason(exc)) from None
    remove_partial(database)
    target = _write_proven(database, folder, name, expect_version)
    # the season's backups (by hand, by schedule) share the folder and have a rotation of their own
    ours = [p for p in backups(database) if not _SEASON.search(p.name)]
    for old in ours[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return target


def _write_proven(database: Path, folder: Path, name: str, expect_version: int | None) -> Path:
    """Copy, check, sync, then give the copy its name (``<name>.db``, or ``<name>-2.db`` … when another backup
    took that name within the same second); returns the backup's path."""
    target = folder / f"{name}.db"
    partial, fd = _claim(database, target)
    try:
        try:
            expected = _copy(database, partial)
            if expect_version is not None and expected["version"] != expect_version:
                raise BackupFailed(database, target, "upgrade.backup.why.changed", found=expected["version"],
                                   expected=expect_version)
            problem = _check(partial, expected)
            if problem is not None:
                raise BackupFailed(database, target, "upgrade.backup.why.check", detail=problem)
            os.fsync(fd)
            n = 1
            while True:
                try:
                    os.link(partial, target)  # unlike a rename, never replaces a backup of the same name
                    break
                except FileExistsError:
                    n += 1
                    target = folder / f"{name}-{n}.db"
                except OSError as exc:  # a file system without hard links: a rename, after a look
                    if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or target.exists():
                        raise
                    os.rename(partial, target)
                    break
            if partial.exists():
                os.unlink(partial)
            sync_folder(folder)
        except sqlite3.Error as exc:
            raise BackupFailed(database, target, _sqlite_reason(exc), detail=_sqlite_detail(exc)) from None
        except OSError as exc:
            full = exc.errno in _FULL
            raise BackupFailed(database, target, "upgrade.backup.why.disk_full" if full else "upgrade.backup.why.other",
                               detail=_os_reason(exc)) from None
    except BaseException:
        _remove(partial)
        raise
    finally:
        os.close(fd)
    return target


def _claim(database: Path, target: Path) -> tuple[Path, int]:
    """A new temporary file for ``target``'s copy, held under an ``flock`` (released by the kernel if this process
    dies: what tells a leftover from a backup being written).  Another process's clean-up may take the file in the
    instant between its creation and the lock: then a fresh one."""
    for _ in range(3):
        partial = target.with_name(f"{target.name}.{os.getpid()}-{secrets.token_hex(4)}{PARTIAL}")
        try:
            fd = os.open(partial, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as exc:
            raise BackupFailed(database, target, "upgrade.backup.why.folder", folder=str(target.parent),
                               detail=_os_reason(exc)) from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(partial)):
                return partial, fd
        except FileNotFoundError:
            pass
        os.close(fd)
    raise BackupFailed(database, target, "upgrade.backup.why.other", detail="the temporary file kept disappearing")


def _copy(database: Path, partial: Path) -> dict:
    """Copy ``database`` into ``partial``; returns what the copy must hold: the schema version and every table's
    row count, read in the same read transaction as the copy (the same snapshot)."""
    with closing(sqlite3.connect(str(database), isolation_level=None)) as src:
        src.execute("BEGIN")
        try:
            names = [r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                               " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            counts = {n: src.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
            version = src.execute("PRAGMA user_version").fetchone()[0]
            with closing(sqlite3.connect(str(partial))) as dst:
                src.backup(dst)
        finally:
            src.execute("ROLLBACK")
    return {"version": version, "counts": counts}


def _check(partial: Path, expected: dict) -> str | None:
    """What is wrong with the copy, or None: it must pass ``integrity_check``, have the schema version and hold
    every table with as many rows as the database had."""
    with closing(sqlite3.connect(str(partial))) as copy:
        verdict = [r[0] for r in copy.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            return "integrity_check: " + "; ".join(verdict)[:200]
        version = copy.execute("PRAGMA user_version").fetchone()[0]
        if version != expected["version"]:
            return f"user_version {version}, expected {expected['version']}"
        if expected["version"] > 0 and not expected["counts"]:
            return "no tables"
        for name, count in expected["counts"].items():
            try:
                found = copy.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]
            except sqlite3.Error:
                return f"table {name} missing"
            if found != count:
                return f"table {name}: {found} rows, expected {count}"
    return None


def remove_partial(database: str | Path, folder: str | Path | None = None) -> list[Path]:
    """Remove the temporary files of backups of ``database`` that nobody is writing (a process killed mid-write
    left them); returns the ones removed.  A file still held under its writer's flock is left alone."""
    folder, prefix = Path(folder) if folder else backup_folder(database), f"{Path(database).name}-"
    if not folder.is_dir():
        return []
    removed = []
    for path in folder.iterdir():
        if not path.name.startswith(prefix):
            continue
        if any(path.name.endswith(PARTIAL + suffix) for suffix in _SIDECARS[1:]):
            if not path.with_name(path.name.rsplit("-", 1)[0]).exists():  # its copy is gone: nobody writes it
                path.unlink(missing_ok=True)
            continue
        if not path.name.endswith(PARTIAL):
            continue
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:  # gone meanwhile, or not ours to open
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: being written right now by another process
            os.close(fd)
            continue
        try:
            _remove(path)
            removed.append(path)
        finally:
            os.close(fd)
    return removed


def _remove(partial: Path) -> None:
    for suffix in _SIDECARS:
        try:
            Path(str(partial) + suffix).unlink(missing_ok=True)
        except OSError:
            pass


def sync_folder(folder: Path) -> None:
    """The rename survives a power loss once the folder's entry is on disk."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _sqlite_reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "disk is full" in text or "disk I/O error" in text:  # a file-size limit is an I/O error to SQLite
        return "upgrade.backup.why.disk_full"
    if "readonly" in text or "unable to open" in text:
        return "upgrade.backup.why.unwritable"
    return "upgrade.backup.why.other"


_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def _sqlite_detail(exc: sqlite3.Error) -> str:
    """SQLite's words, and the process's file-size limit when it has one (SQLite reports hitting it as an I/O
    error, which alone would send the operator looking at the disk)."""
    text = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY:
        text += f"; files are limited to {limit} bytes (ulimit -f)"
    return text


def _os_reason(exc: OSError) -> str:
    if exc.errno in _FULL:
        return "disk full or file size limit"
    return exc.strerror or str(exc)


# ---------------------------------------------------------------------------------------------- a season's backups
MANUAL, SCHEDULED = "manual", "scheduled"
_SEASON = re.compile(r"-\d{8}-\d{6}-(manual|scheduled)(-\d+)?\.db$")
_STAMP = re.compile(r"-(\d{8}-\d{6})-[a-z0-9-]+\.db$")


@dataclass(frozen=True)
class BackupInfo:
    """What a proven backup holds: its size, the Judge tables (games) in it, its actions and the newest one's time."""

    path: Path
    size: int
    tables: int
    actions: int
    newest_action: float | None

    def line(self) -> str:
        newest = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.newest_action)) \
            if self.newest_action is not None else "none"
        return (f"{self.path}: {self.size} bytes, {self.tables} tables, {self.actions} actions, "
                f"newest action {newest}")


def taken_at(path: str | Path) -> float | None:
    """When a backup was taken, from its name (UTC), or None for a name of another form."""
    found = _STAMP.search(Path(path).name)
    if not found:
        return None
    return float(calendar.timegm(time.strptime(found.group(1), "%Y%m%d-%H%M%S")))


def season_backups(database: str | Path, folder: str | Path | None = None, kind: str | None = None) -> list[Path]:
    """The season's proven backups of ``database`` in ``folder`` (default: its backup folder), oldest first;
    ``kind``: only ``manual`` or only ``scheduled`` ones."""
    folder, prefix = Path(folder) if folder else backup_folder(database), f"{Path(database).name}-"
    if not folder.is_dir():
        return []
    found = []
    for p in folder.iterdir():
        match = _SEASON.search(p.name)
        if match and p.name.startswith(prefix) and (kind is None or match.group(1) == kind) and p.is_file():
            found.append(p)
    return sorted(found, key=lambda p: (taken_at(p) or 0.0, p.name))


def latest_backup(database: str | Path, folder: str | Path | None = None) -> Path | None:
    """The newest proven backup of ``database`` of any kind (an upgrade's too), in ``folder`` and the backup
    folder beside it: what the operator's metrics and ``/judge status`` call the last backup."""
    folders = {backup_folder(database), *([Path(folder)] if folder else [])}
    prefix = f"{Path(database).name}-"
    newest: tuple[float, Path] | None = None
    for where in folders:
        if not where.is_dir():
            continue
        for p in where.iterdir():
            if not (p.name.startswith(prefix) and _STAMPED.match(p.name[len(prefix):])):
                continue
            at = taken_at(p)
            if at is not None and (newest is None or at > newest[0]) and p.is_file():
                newest = (at, p)
    return newest[1] if newest else None


def describe(path: str | Path) -> BackupInfo:
    """Size, tables, actions and the newest action of a database file, read without writing to it."""
    path = Path(path)
    with closing(open_read_only(path)) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] if "tables" in names else 0
        actions, newest = conn.execute("SELECT COUNT(*), MAX(at) FROM actions").fetchone() \
            if "actions" in names else (0, None)
    return BackupInfo(path, path.stat().st_size, tables, actions, newest)


def open_read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that cannot write to ``path`` nor leave ``-wal`` / ``-shm`` files beside it (a backup on a
    read-only mount opens too).  The name is quoted into the URI, so ``?``, ``#`` and ``%`` stay characters."""
    from urllib.request import pathname2url
    return sqlite3.connect(f"file:{pathname2url(str(Path(path).resolve()))}?mode=ro&immutable=1", uri=True)


def integrity_and_schema(path: str | Path) -> tuple[list[str], int]:
    """SQLite's ``integrity_check`` verdict (["ok"] when whole) and the schema version, read without writing.
    Raises sqlite3.Error (``DatabaseError``) when the file is not a database."""
    with closing(open_read_only(path)) as conn:
        verdict = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        return verdict, conn.execute("PRAGMA user_version").fetchone()[0]


def copy_read_only(source: str | Path, target: str | Path, *, one_file: bool = False) -> None:
    """``source`` copied to ``target`` with the backup API, the source opened read-only; ``one_file``: the copy
    in rollback-journal mode, nothing beside it (the bot turns WAL on again when it opens it)."""
    with closing(open_read_only(source)) as src, closing(sqlite3.connect(str(target))) as dst:
        src.backup(dst)
        if one_file:
            dst.execute("PRAGMA journal_mode = DELETE")


def take_season_backup(database: str | Path, folder: str | Path | None = None, *, kind: str = MANUAL) -> BackupInfo:
    """A proven online backup of ``database`` (the bot may be running: the backup API copies one consistent
    snapshot) into ``folder`` (default: its backup folder; created, parents too), named
    ``<name>-<UTC stamp>-<kind>.db``.  Raises BackupFailed; logs the backup's size, tables and newest action."""
    database = Path(database)
    folder = Path(folder) if folder else backup_folder(database)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"{database.name}-{stamp}-{kind}"
    if not database.is_file():
        raise BackupFailed(database, folder / f"{name}.db", "ops.backup.why.no_database")
    try:
        if folder.exists() and not folder.is_dir():
            raise BackupFailed(database, folder / f"{name}.db", "upgrade.backup.why.in_the_way", folder=str(folder))
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupFailed(database, folder / f"{name}.db", "upgrade.backup.why.folder", folder=str(folder),
                           detail=_os_reason(exc)) from None
    remove_partial(database, folder)
    info = describe(_write_proven(database, folder, name, None))
    log.info("backup %s", info.line())
    return info


def rotate(database: str | Path, folder: str | Path | None = None, *, keep_daily: int = 7,
           keep_weekly: int = 4) -> list[Path]:
    """Remove the scheduled backups no longer kept: kept are the newest of each of the last ``keep_daily`` days
    (UTC) that have one and the newest of each of the last ``keep_weekly`` ISO weeks; backups taken by hand and
    before upgrades are never removed here.  Returns the removed ones."""
    newest_first = list(reversed(season_backups(database, folder, SCHEDULED)))
    kept: set[Path] = set()
    for keep, period in ((keep_daily, "%Y-%m-%d"), (keep_weekly, "%G-W%V")):
        seen: list[str] = []
        for p in newest_first:
            key = time.strftime(period, time.gmtime(taken_at(p) or 0.0))
            if key not in seen:
                seen.append(key)
                if len(seen) > keep:
                    break
                kept.add(p)
    removed = [p for p in newest_first if p not in kept]
    for p in removed:
        p.unlink(missing_ok=True)
    return removed


class BackupSchedule:
    """``python -m bot run``'s backups: one every ``every`` seconds counted from the newest scheduled backup in
    the folder (a restart neither takes one at once nor skips one), the first ``first_after`` seconds after the
    start when there is none; rotated after each.  A failure is logged and tried again after ``retry`` seconds;
    the bot plays on meanwhile (the operator sees the backup's age grow in /metrics and /judge status)."""

    def __init__(self, database: str | Path, folder: str | Path | None, every: float, *, keep_daily: int = 7,
                 keep_weekly: int = 4, first_after: float = 60.0, retry: float = 900.0,
                 taken: Callable[[BackupInfo], None] | None = None):
        self.database, self.folder, self.every = Path(database), Path(folder) if folder else None, every
        self.keep_daily, self.keep_weekly = keep_daily, keep_weekly
        self.first_after, self.retry, self.taken = first_after, retry, taken
        self.failures = 0
        self._task: asyncio.Task[None] | None = None

    def next_due(self, now: float, started: float) -> float:
        done = season_backups(self.database, self.folder, SCHEDULED)
        return (taken_at(done[-1]) or now) + self.every if done else started + self.first_after

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="judge-backups")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def once(self) -> BackupInfo:
        info = await asyncio.to_thread(take_season_backup, self.database, self.folder, kind=SCHEDULED)
        removed = await asyncio.to_thread(rotate, self.database, self.folder, keep_daily=self.keep_daily,
                                          keep_weekly=self.keep_weekly)
        if removed:
            log.info("backups rotated: removed %s", ", ".join(p.name for p in removed))
        METRICS.backups.labels(result="taken").inc()
        if self.taken is not None:
            self.taken(info)
        return info

    async def _run(self) -> None:
        started = time.time()
        while True:
            await asyncio.sleep(max(0.0, self.next_due(time.time(), started) - time.time()))
            try:
                await self.once()
            except BackupFailed as exc:
                self.failures += 1
                METRICS.backups.labels(result="failed").inc()
                log.error("scheduled backup failed: %s", season_failure(exc, "en"))
                await asyncio.sleep(min(self.retry, self.every))
            except Exception:  # a bug here must not stop the bot, nor the next backups
                self.failures += 1
                METRICS.backups.labels(result="failed").inc()
                log.exception("scheduled backup failed")
                await asyncio.sleep(min(self.retry, self.every))


def season_failure(exc: BackupFailed, locale: str | None) -> str:
    """A season's backup that failed, in one line (``BackupFailed.message`` speaks of a migration not done)."""
    from bot.i18n import t
    return t("ops.backup.failed", locale, backup=exc.backup, reason=t(exc.reason, locale, **exc.params))
