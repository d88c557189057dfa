"""Upgrading the tables a new release finds in its database (docs/operations.md, "Upgrading a running bot").

When: at start-up.  Every front end opens the database through ``open_store`` — the terminal's every command,
the Discord bot once — which applies the schema migrations (after a backup, bot/storage/db.py) and then
``upgrade_tables``: every open table whose rules version is older than its game's (``Game.rules_version``)
is brought forward before anything else reads it.  A moderator's rollback to a state written before an upgrade
is brought forward again at once (``upgrade_table``, from bot/referee/moderation.py).

How, for one running table (``upgrade_table``), in one transaction:

- its latest state is migrated (``versions.upgraded_state``: pure, the same function ``verify`` runs) and tried
  once the way the referee will use it (``versions.check_playable``);
- the result is recorded as a step of its own in the table's history (seat -1, user ``system``, action
  ``{"type": "upgrade", "from": N, "to": M, "release": R, "chain": H}``, a public ``upgrade`` event): the log,
  the replay and the export show it, and the players are told, with the options the table now plays by;
- ``chain`` is the hash chain of the record up to the step (``record_chain``), published in that event: what
  lets ``verify`` check later the steps no engine of this release can re-run;
- the table row's ``rules_version`` (and ``options``) move on.

A lobby's options are migrated in place (nothing was dealt, nothing to record).  A table that no migration can
bring forward (a state written by a newer release, or of a shape no release wrote) is frozen: actions are
refused with a message saying why, its players and the moderation log are told once, and a moderator may
cancel it or roll it back; every other table plays on.  A later release that can migrate it unfreezes it.
"""
from __future__ import annotations

import hashlib
import logging
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.process.config import release as current_release
from bot.engine import Game, all_games, get_game
from bot.engine.canonical import dumps
from bot.engine.versions import CannotMigrate, check_playable, migrate_options, rules_of, upgraded_state
from bot.storage.outbox import lean
from bot.referee.steps import SYSTEM, messages_for, moderators_notice, next_deadline
from bot.storage.backup import copy_database, source_version, take_backup
from bot.storage.store import Message, Step, Store, TableRow, VersionConflict
from bot.storage.upgrades import freeze, record_upgrade, set_lobby_options, set_rules_version, tables_to_upgrade
from bot.storage.upgrades import frozen_tables as stored_frozen_tables
from bot.referee.timecontrol import table_clock

log = logging.getLogger("judge.upgrade")

#: the seat of the referee's own steps in the record (a moderator's, a rollback, an upgrade)
REFEREE_SEAT = -1
UPGRADE = "upgrade"
CHAIN_FORMAT = "judge-chain/1"


@dataclass
class TableUpgrade:
    """What the upgrade did (or, in a dry run, would do) to one table."""

    table_id: int
    game: str
    status: str
    found: int | None          # the rules version found (None: unreadable)
    to: int
    ok: bool
    version: int | None = None  # the upgrade step's table version (a running table)
    reason: str | None = None   # an upgrade.cannot.* key when not ok
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class UpgradeReport:
    tables: list[TableUpgrade] = field(default_factory=list)
    backup: Path | None = None
    schema_backups: list[Path] = field(default_factory=list)

    @property
    def migrated(self) -> list[TableUpgrade]:
        return [u for u in self.tables if u.ok]

    @property
    def frozen(self) -> list[TableUpgrade]:
        return [u for u in self.tables if not u.ok]


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def chain_step(previous: str, action_digest: str, state_digest: str) -> str:
    return _sha(f"{previous}\n{action_digest}\n{state_digest}")


def record_chain(snapshots: dict[int, str], actions: dict[int, Any], upto: int) -> str:
    """The hash chain of a record up to version ``upto``: h0 = sha256("judge-chain/1" + the SHA-256 of snapshot 0),
    h_v = sha256(h_{v-1} + "\\n" + sha256(canonical action v) + "\\n" + SHA-256 of snapshot v).  ``snapshots``: version
    → the SHA-256 of the stored canonical state (the export lists them); ``actions``: version → the action.
    Raises KeyError when the record lacks a version."""
    h = _sha(f"{CHAIN_FORMAT}\n{snapshots[0]}")
    for v in range(1, upto + 1):
        h = chain_step(h, _sha(dumps(actions[v])), snapshots[v])
    return h


def _game_rules() -> dict[str, int]:
    return {name: game.rules_version for name, game in all_games().items()}


async def _candidates(store: Store) -> list[TableRow]:
    """Open tables behind their game's rules version, or frozen (a release may now be able to migrate them)."""
    return await tables_to_upgrade(store, _game_rules())


def upgrade_step(game: Game, table: TableRow, before: dict[str, Any], *, chain: str, at: float,
                 release: str) -> Step:
    """The recorded step that brings ``before`` (the table's latest state) to today's rules.  Raises
    CannotMigrate."""
    found = rules_of(before)
    state = upgraded_state(game, before, table.version + 1)
    check_playable(game, state)
    told = {"from": found, "to": game.rules_version, "release": release, "chain": chain,
            "options": state["options"]}
    event = {"kind": UPGRADE, "to": None, "data": told}
    # the announcement's own line tells the upgrade and the options: its event is not listed again
    messages = messages_for(game, state, [], kind="update", extra={"upgrade": told, "events": []})
    # every seat sees its table again as today's release shows it
    messages += [Message("seat", "private", lean(state["version"]), seat=seat) for seat in range(state["seats"])]
    deadline = next_deadline(game, state)
    if deadline is not None:
        deadline += table.paused_total
    action = {"type": UPGRADE, "from": found, "to": game.rules_version, "release": release, "chain": chain}
    return Step(REFEREE_SEAT, SYSTEM, action, at, state, [event], messages, deadline, state.get("outcome"))


async def _chain_of(store: Store, table_id: int, upto: int) -> str:
    snapshots = {v: _sha(text) for v, text in await store.snapshot_texts(table_id)}
    actions = {a.version: a.action for a in await store.actions(table_id)}
    return record_chain(snapshots, actions, upto)


async def upgrade_table(store: Store, table_id: int, *, now: float | None = None, release: str | None = None,
                        dry_run: bool = False) -> TableUpgrade | None:
    """Bring one open table to its game's rules version; None when it needs nothing.  A table that cannot be
    migrated is frozen (``dry_run``: only said)."""
    table = await store.get_table(table_id)
    if table is None or table.status not in ("lobby", "active"):
        return None
    game = get_game(table.game)
    release = release or current_release()
    now = time.time() if now is None else now
    if table.status == "lobby":
        return await _upgrade_lobby(store, game, table, dry_run=dry_run)
    state = await store.known_state(table_id)
    try:
        found = rules_of(state)
    except CannotMigrate as exc:
        found = None
        failure: CannotMigrate | None = exc
    else:
        failure = None
    if failure is None and found == game.rules_version and table.frozen is None \
            and table.rules_version == game.rules_version:
        return None
    result = TableUpgrade(table.id, table.game, table.status, found, game.rules_version, ok=True)
    if failure is None and found == game.rules_version:  # already today's (a row behind, or frozen before)
        if not dry_run:
            await set_rules_version(store, table.id, game.rules_version)
        return result
    step = None
    if failure is None:
        try:
            chain = await _chain_of(store, table_id, table.version)
            step = upgrade_step(game, table, state, chain=chain, at=table_clock(table, now), release=release)
        except CannotMigrate as exc:
            failure = exc
        except KeyError:  # a record with a version missing: no chain to publish
            failure = CannotMigrate("upgrade.cannot.record")
    if failure is not None:
        result.ok, result.reason, result.params = False, failure.key, dict(failure.params)
        if not dry_run:
            await _freeze(store, table, game, found, failure, release=release, now=now)
        return result
    assert step is not None  # no failure: the chain gave the upgrade's step
    result.version = table.version + 1
    if dry_run:
        return result
    try:
        await _record_upgrade(store, table, step)
    except VersionConflict:  # another process moved it meanwhile: it will be looked at again
        return None
    log.info("table %s (%s) upgraded from rules %s to %s at version %s", table.id, table.game, found,
             game.rules_version, result.version)
    return result


async def _upgrade_lobby(store: Store, game: Game, table: TableRow, *, dry_run: bool) -> TableUpgrade | None:
    found = table.rules_version
    if found == game.rules_version and table.frozen is None:
        return None
    result = TableUpgrade(table.id, table.game, table.status, found, game.rules_version, ok=True)
    failure: CannotMigrate | None = None
    try:
        options = migrate_options(game, table.options, found)
        game.validate_options(options)
    except CannotMigrate as exc:
        failure = exc
    except Exception as exc:  # noqa: BLE001 - options today's rules refuse
        failure = CannotMigrate("upgrade.cannot.options", error=str(exc)[:120])
    if failure is not None:
        result.ok, result.reason, result.params = False, failure.key, dict(failure.params)
    if dry_run:
        return result
    if failure is not None:
        await _freeze(store, table, game, found, failure, release=current_release(), now=time.time())
        return result

    await set_lobby_options(store, table.id, options, game.rules_version)
    return result


async def _record_upgrade(store: Store, table: TableRow, step: Step) -> None:
    """The upgrade step, the row's new rules version and options, in one transaction."""
    await record_upgrade(store, table, step, step.action["to"])


async def _freeze(store: Store, table: TableRow, game: Game, found: int | None, why: CannotMigrate, *,
                  release: str, now: float) -> None:
    """Mark the table as one this release cannot play, and tell its players and the moderation log (once per
    reason: a process started again does not repeat it)."""
    frozen = {"key": why.key, "params": why.params, "found": found, "known": game.rules_version,
              "release": release}
    if table.frozen == frozen:
        return
    notice = Message("table", UPGRADE, {"what": "frozen", **frozen})

    told = [notice] if table.status == "active" else []
    if table.guild_id is not None:  # frozen until a moderator decides: the server's moderators are told
        told.append(moderators_notice("frozen", **frozen))
    # the game messages still waiting show states this release cannot read: the notice replaces them
    await freeze(store, table, frozen, moderator=SYSTEM, reason=why.key, notices=told, now=now,
                 skipped="the table is frozen (bot/referee/upgrade.py)")
    log.warning("table %s (%s) cannot be migrated and is frozen: %s %s", table.id, table.game, why.key, why.params)


async def upgrade_tables(store: Store, *, backup: bool = True, dry_run: bool = False,
                         now: float | None = None) -> UpgradeReport:
    """Bring every open table forward (see the module docstring).  A backup is taken first, unless opening the
    database took one already, or nothing needs migrating; one that cannot be written and proven raises
    BackupFailed (bot/storage/backup.py) before any table is touched."""
    report = UpgradeReport(schema_backups=list(store.backups))
    release = current_release()
    candidates = []
    for table in await _candidates(store):
        frozen = table.frozen or {}
        if frozen.get("release") == release and frozen.get("known") == get_game(table.game).rules_version:
            # frozen by this very release: trying again would freeze it again (a rollback unfreezes it)
            report.tables.append(TableUpgrade(table.id, table.game, table.status, frozen.get("found"),
                                              frozen["known"], ok=False, reason=frozen.get("key"),
                                              params=dict(frozen.get("params") or {})))
            continue
        candidates.append(table)
    if not candidates:
        return report
    if backup and not dry_run and not store.backups and store.path is not None:
        report.backup = take_backup(store.path, "rules")
    for table in candidates:
        try:
            done = await upgrade_table(store, table.id, now=now, dry_run=dry_run)
        except Exception:  # one table's trouble never stops the others, nor the bot
            log.exception("upgrading table %s failed", table.id)
            done = TableUpgrade(table.id, table.game, table.status, None, get_game(table.game).rules_version,
                                ok=False, reason="upgrade.cannot.error")
        if done is not None:
            report.tables.append(done)
    return report


async def open_store(path: str | Path, *, upgrade: bool = True) -> Store:
    """The database, its schema migrated and (``upgrade``) every open table brought to today's rules: how every
    front end opens it."""
    store = await Store.open(path)
    store.upgrade_report = UpgradeReport(schema_backups=list(store.backups))
    if upgrade:
        try:
            store.upgrade_report = await upgrade_tables(store)
        except BaseException:
            await store.close()
            raise
    return store


async def check(path: str | Path) -> tuple[UpgradeReport, int | None, int]:
    """A dry run on a copy of the database: (what the upgrade would do to each table, the schema version found
    (None: unreadable), the schema version after).  The database itself is not touched."""
    from bot.storage.db import migration_files

    with tempfile.TemporaryDirectory(prefix="judge-upgrade-check-") as folder:
        copy = copy_database(path, Path(folder) / "copy.db")
        schema = source_version(copy)
        store = await Store.open(copy, backup=False)
        try:
            report = await upgrade_tables(store, backup=False)
        finally:
            await store.close()
    report.schema_backups = []
    return report, schema, len(migration_files())


async def frozen_tables(store: Store) -> list[TableRow]:
    """The open tables this release cannot play (for the moderators' ``mod failures``)."""
    return await stored_frozen_tables(store)
