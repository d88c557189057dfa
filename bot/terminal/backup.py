"""``python -m bot backup [--to DIR]``, ``backup --check FILE [--sample N]``, ``restore FILE`` and ``restore
--check FILE``: a season's backups taken and proven by hand, and the restore drill (docs/operations.md,
"Backups of a season").  ``backup`` copies the database as it is, the bot running or not, and migrates nothing."""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any, Callable

from bot.i18n import t
from bot.referee.drill import BotRunning, DrillReport, check_backup, restore
from bot.storage.backup import BackupFailed, BackupInfo, MANUAL, season_failure, take_season_backup
from bot.terminal.common import EXIT_FAILED, EXIT_OK


def add_parser(sub: Any, number: Callable[[int, int, str], Any], locale: str) -> None:
    s = sub.add_parser("backup", help="a proven online backup of the database (--check FILE: prove one restores)")
    s.add_argument("--to", metavar="DIR", help="the folder to write it to (default: the settings' backups.folder,"
                                               " else <database>-backups/ beside the database)")
    s.add_argument("--check", metavar="FILE", help="do not back up: prove FILE restores (integrity, schema, every"
                                                   " table verified)")
    s.add_argument("--sample", type=number(1, 1_000_000, locale), metavar="N",
                   help="with --check: verify N tables chosen at random instead of every table")
    s.set_defaults(func=cmd_backup)
    s = sub.add_parser("restore", help="put a backup in place of the database (the bot stopped); the file it"
                                       " replaces is kept")
    s.add_argument("file", help="the backup")
    s.add_argument("--check", action="store_true", help="only prove it restores (as backup --check), change nothing")
    s.add_argument("--sample", type=number(1, 1_000_000, locale), metavar="N",
                   help="verify N tables chosen at random instead of every table")
    s.set_defaults(func=cmd_restore)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def size_text(size: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def when(at: float | None, locale: str) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at)) if at is not None \
        else t("ops.backup.no_actions", locale)


def taken_line(info: BackupInfo, locale: str) -> str:
    return t("ops.backup.taken", locale, path=str(info.path), size=size_text(info.size), tables=info.tables,
             actions=info.actions, newest=when(info.newest_action, locale))


def report_lines(report: DrillReport, locale: str) -> list[str]:
    lines = []
    if report.integrity:
        lines.append(t("ops.drill.integrity", locale, verdict=report.integrity))
    if report.info is not None:
        statuses = ", ".join(f"{t(f'core.status.{s}', locale)}: {n}" for s, n in sorted(report.statuses.items())) \
            or "0"
        lines.append(t("ops.drill.holds", locale, path=str(report.path), size=size_text(report.info.size),
                       schema=report.schema, known=report.known, statuses=statuses, actions=report.info.actions,
                       newest=when(report.info.newest_action, locale), pending=report.pending))
        lines.append(t("ops.drill.verified", locale, checked=len(report.checked), of=report.of))
    if report.ok:
        lines.append(t("ops.drill.ok", locale))
    else:
        lines.append(t("ops.drill.bad", locale))
        lines.extend(f"  - {p}" for p in report.problems[:50])
    return lines


async def _drill(file: str, sample: int | None, locale: str) -> int:
    report = await check_backup(file, sample=sample)
    for line in report_lines(report, locale):
        _say(line)
    return EXIT_OK if report.ok else EXIT_FAILED


async def cmd_backup(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    if args.check:
        return await _drill(args.check, args.sample, locale)
    folder = args.to or settings.backups.folder
    try:
        info = await asyncio.to_thread(take_season_backup, settings.database, folder, kind=MANUAL)
    except BackupFailed as exc:
        sys.stderr.write("✗ " + season_failure(exc, locale) + "\n")
        return EXIT_FAILED
    _say(taken_line(info, locale))
    return EXIT_OK


async def cmd_restore(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    if args.check:
        return await _drill(args.file, args.sample, locale)
    database = Path(settings.database)
    # the whole drill first, unless sampled: a restore replaces the record with what this file holds
    report = await check_backup(args.file, sample=args.sample)
    for line in report_lines(report, locale):
        _say(line)
    if not report.ok:
        sys.stderr.write("✗ " + t("ops.restore.refused", locale, backup=args.file) + "\n")
        return EXIT_FAILED
    try:
        replaced = await asyncio.to_thread(restore, args.file, database)
    except BotRunning:
        sys.stderr.write("✗ " + t("ops.restore.running", locale, db=str(database)) + "\n")
        return EXIT_FAILED
    if replaced is None:
        _say(t("ops.restore.done_fresh", locale, db=str(database), backup=args.file))
    else:
        _say(t("ops.restore.done", locale, db=str(database), backup=args.file, replaced=str(replaced)))
    return EXIT_OK
