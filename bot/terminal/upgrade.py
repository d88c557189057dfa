"""``python -m bot upgrade [--check]``: what a new release will do to the tables it finds (docs/operations.md,
"Upgrading a running bot").

``--check`` is a dry run: the database is copied (SQLite's backup API) to a temporary folder, the copy is migrated
exactly as a start-up would migrate it (schema, then every open table's rules), and what happened to each table is
listed; the database itself is not touched.  The exit code is 0 when every table can be migrated, 1 when some
cannot (they would be frozen).  Without ``--check`` the migration is applied now (after a backup), which every
front end also does by itself when it opens the database.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.referee.upgrade import UpgradeReport, TableUpgrade, check, open_store
from bot.storage.backup import declined


def add_parser(sub: Any) -> None:
    s = sub.add_parser("upgrade", help="bring the database and its open tables to this release's rules"
                                       " (--check: a dry run on a copy)")
    s.add_argument("--check", action="store_true", help="only say what would be migrated and what cannot be")
    # also after the command, where an operator types it; SUPPRESS keeps the global flag's value when absent here
    s.add_argument("--no-backup", action="store_true", default=argparse.SUPPRESS,
                   help="migrate without first taking a proven backup (as the global --no-backup)")
    s.set_defaults(func=cmd_upgrade)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")


def _line(u: TableUpgrade, locale: str, *, done: bool) -> str:
    params = {"table": u.table_id, "game": t(f"{u.game}.title", locale), "status": t(f"core.status.{u.status}", locale),
              "found": u.found if u.found is not None else "?", "to": u.to}
    if u.ok:
        return "  " + t("upgrade.cli.done" if done else "upgrade.cli.will", locale, **params)
    why = t(u.reason or "upgrade.cannot.error", locale, **u.params)
    return "  " + t("upgrade.cli.cannot", locale, why=why, **params)


def report_lines(report: UpgradeReport, locale: str, *, done: bool) -> list[str]:
    lines = [_line(u, locale, done=done) for u in report.tables]
    if not report.tables:
        lines.append(t("upgrade.cli.nothing", locale))
    return lines


async def cmd_upgrade(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    database = Path(settings.database)
    if args.check:
        if not database.is_file():
            sys.stderr.write("✗ " + t("core.db.cannot_open", locale, db=str(database),
                                      reason=t("core.db.cannot_open_file", locale)) + "\n")
            return 1
        report, schema, known = await check(database)
        _say(t("upgrade.cli.schema", locale, found=schema, to=known))
        for line in report_lines(report, locale, done=False):
            _say(line)
        _say(t("upgrade.cli.summary", locale, migrated=len(report.migrated), frozen=len(report.frozen)))
        return 0 if not report.frozen else 1
    store = await open_store(database)
    try:
        report = store.upgrade_report
    finally:
        await store.close()
    for line in report_lines(report, locale, done=True):
        _say(line)
    for path in [*report.schema_backups, *([report.backup] if report.backup else [])]:
        _say(t("upgrade.cli.backup", locale, path=str(path)))
    if declined():
        _say(t("upgrade.cli.no_backup", locale))
    _say(t("upgrade.cli.applied", locale, migrated=len(report.migrated), frozen=len(report.frozen)))
    return 0 if not report.frozen else 1
