"""Exporting a table's record and verifying it by re-running it.

Verification answers "did the referee deal and roll honestly, and apply exactly the recorded actions?":
the revealed seed must match the commitment published at the start, the initial state rebuilt from seed,
seats, options (and a moderator's stacking, if any) must match the stored one, and replaying every
recorded action must reproduce every stored snapshot byte for byte (compared by SHA-256 digest).

The export file carries snapshot digests, not snapshots: full states contain every hidden card.  The
seed, the raw actions (they name hidden cards and secret choices) and a moderator's stacked deck are only
exported once the table has ended (or on a moderator's explicit request); before that ``actions`` is None.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from bot.engine import Reject, Rejection, get_game
from bot.engine.canonical import digest as canonical_digest, loads
from bot.engine.rng import commitment
from bot.engine.versions import RULES, CannotMigrate, rules_of, upgraded_state
from bot.process.config import release
from bot.referee.moderation import moderator_step, rollback_state
from bot.referee.steps import MODERATOR_SEAT
from bot.referee.upgrade import UPGRADE, record_chain
from bot.storage.store import DisputeRow, Store

FORMAT = "judge-table/1"
EXPORT_MAX_BYTES = 256 * 1024 * 1024  # far above any real table (a long one exports to a few MB)


class RecordError(ValueError):
    """The table or the export file cannot be verified (missing, unfinished, malformed)."""


class Problem(str):
    """One thing a verification found wrong: its English text (the terminal's report), and a string key
    with parameters for front ends that speak the reader's language (``records.problem.<key>``)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, kind: str, /, **params: Any) -> "Problem":
        problem = super().__new__(cls, text)
        problem.key, problem.params = f"records.problem.{kind}", params
        return problem


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def export_table(store: Store, table_id: int, *, include_seed: bool = False,
                       include_states: bool = False) -> dict[str, Any]:
    table = await store.get_table(table_id)
    if table is None:
        raise RecordError(f"no table {table_id}")
    if table.status == "lobby":
        raise RecordError(f"table {table_id} has not started")
    ended = table.status in ("finished", "cancelled")
    reveal = ended or include_seed
    snapshots = await store.snapshot_texts(table_id)
    seats = await store.seats(table_id)
    actions = await store.actions(table_id)
    game = get_game(table.game)
    first = loads(snapshots[0][1]) if snapshots else {}
    doc: dict[str, Any] = {
        "format": FORMAT,
        "table": {
            "id": table.id, "game": table.game, "status": table.status, "options": table.options,
            "started_options": first.get("options", table.options),
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.is_bot} for s in seats],
            "seed_hash": table.seed_hash, "seed": table.seed if reveal else None,
            "stack": table.stack if reveal else None, "started_at": table.started_at, "outcome": table.outcome,
            # what the table was started under and plays by now (bot/referee/upgrade.py); release None: not recorded
            "release": table.release, "started_rules": table.started_rules if table.started_rules is not None else 1,
            "rules_version": table.rules_version, "frozen": table.frozen,
        },
        "rules": {"game": game.rules_version, "release": release()},
        "upgrades": [{"version": a.version, "from": a.action.get("from"), "to": a.action.get("to"),
                      "release": a.action.get("release"), "chain": a.action.get("chain"), "at": a.at}
                     for a in actions if a.seat == MODERATOR_SEAT and a.action.get("type") == UPGRADE],
        "actions": [{"version": a.version, "seat": a.seat, "action": a.action, "at": a.at}
                    for a in actions] if reveal else None,
        "snapshots": [{"version": v, "sha256": _sha(text)} for v, text in snapshots],
        "disputes": [_dispute(d, include_private=include_seed) for d in await store.disputes(table_id=table_id)],
    }
    if reveal:
        # the states of older rules, which no engine of this release may re-run: verify checks them against
        # their digests and the chains the upgrades published (once the seed is public they tell nothing new)
        doc["recorded_states"] = [{"version": v, "state": text} for v, text in snapshots
                                  if '"rules":' not in text or _legacy(game, loads(text))]
    if include_states:
        doc["states"] = [{"version": v, "state": text} for v, text in snapshots]
    return doc


def _dispute(d: DisputeRow, *, include_private: bool) -> dict[str, Any]:
    """A dispute as the record keeps it; a text its author kept from the table stays out (but for a moderator)."""
    return {"id": d.id, "seat": d.seat, "move": d.move, "version": d.version, "private": d.private,
            "text": d.text if include_private or not d.private else None, "raised_at": d.raised_at,
            "status": d.status, "moderator": d.moderator, "reason": d.reason, "decision": d.decision,
            "decided_at": d.decided_at}


def _check_disputes(doc: dict[str, Any], report: "Verification") -> None:
    """Every step a decision says it recorded is a moderator's action of the record (which the re-run applied)."""
    moderators = {a["version"] for a in doc["actions"] if a["seat"] == MODERATOR_SEAT}
    for d in doc.get("disputes") or []:
        steps = (d.get("decision") or {}).get("steps") if isinstance(d, dict) else None
        for version in steps if isinstance(steps, list) else []:
            if version not in moderators:
                report.problems.append(Problem(f"dispute {d.get('id')} names step {version}, not a moderator's action"
                                               " of the record", "dispute_step", dispute=d.get("id"), version=version))


@dataclass
class Verification:
    table_id: int | None
    game: str
    actions: int
    snapshots_checked: int
    commitment_ok: bool
    problems: list[Problem] = field(default_factory=list)
    replayed: int = 0      # snapshots the re-run reproduced (an upgrade step counted here: its migration)
    recorded: int = 0      # snapshots of older rules checked against the record only (no engine re-ran them)
    upgrades: list[dict[str, Any]] = field(default_factory=list)   # the record's upgrade steps

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems

    def across_upgrades(self) -> str:
        """Which check the steps had, for a record that crosses upgrades or was written under older rules."""
        if not self.upgrades:  # ended before any upgrade: nothing was published that the record must hash to
            return (f"written under older rules: {self.replayed} snapshots reproduced by today's engine,"
                    f" {self.recorded} checked against the stored states' digests only")
        upgrades = ", ".join(f"{u['from']}→{u['to']} at {u['version']} ({u['release']})" for u in self.upgrades)
        return (f"upgrades: {upgrades}; {self.replayed} snapshots reproduced by today's engine (an upgrade"
                f" by its migration, byte for byte), {self.recorded} of older rules checked against the record and"
                " the hash chain its upgrade published")


def load_export(path: Path) -> dict[str, Any]:
    """Read an export file, refusing with a RecordError anything that is not one (too big, not UTF-8 text,
    not JSON, nested past the parser's depth)."""
    try:
        if path.stat().st_size > EXPORT_MAX_BYTES:
            raise RecordError(f"{path} is larger than {EXPORT_MAX_BYTES // 2**20} MB: not an export of a table")
        text = path.read_bytes().decode("utf-8")
        doc = json.loads(text)
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file (not UTF-8)") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{path} is nested too deeply to be an export") from None
    if not isinstance(doc, dict):
        raise RecordError(f"{path}: not a {FORMAT} file")
    return doc


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(doc: dict[str, Any]) -> None:
    """An export read from a file may be anything: check every field the re-run reads before using it."""
    if doc.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} file")
    meta = doc.get("table")
    if not isinstance(meta, dict):
        raise RecordError("'table' must be a mapping")
    checks = [
        (isinstance(meta.get("game"), str), "table.game must be a game's name"),
        (isinstance(meta.get("seats"), list), "table.seats must be a list"),
        (isinstance(meta.get("options"), dict), "table.options must be a mapping"),
        (meta.get("seed") is None or isinstance(meta.get("seed"), str), "table.seed must be text"),
        (isinstance(meta.get("seed_hash"), str), "table.seed_hash must be text"),
        (isinstance(meta.get("started_at"), (int, float)) and not isinstance(meta.get("started_at"), bool),
         "table.started_at must be a number"),
        (meta.get("stack") is None or isinstance(meta.get("stack"), dict), "table.stack must be a mapping"),
        (meta.get("id") is None or _is_int(meta.get("id")), "table.id must be a number"),
        (isinstance(doc.get("snapshots"), list) and all(
            isinstance(x, dict) and _is_int(x.get("version")) and isinstance(x.get("sha256"), str)
            for x in doc["snapshots"]), "snapshots must be a list of {version, sha256}"),
        (doc.get("actions") is None or isinstance(doc.get("actions"), list) and all(
            isinstance(x, dict) and _is_int(x.get("version")) and _is_int(x.get("seat"))
            and isinstance(x.get("action"), dict) and isinstance(x.get("at"), (int, float))
            for x in doc["actions"]), "actions must be a list of {version, seat, action, at}"),
        (doc.get("disputes") is None or isinstance(doc.get("disputes"), list), "disputes must be a list"),
    ]
    for ok, problem in checks:
        if not ok:
            raise RecordError(f"malformed export: {problem}")


def verify_export(doc: dict[str, Any]) -> Verification:
    """Re-run an exported table and compare every snapshot digest.  A malformed file is a RecordError; an
    action the engine cannot re-run (even by crashing on it) is a problem of the report.

    Across upgrades (bot/referee/upgrade.py): a step applied to a state of an older rules version was written by an
    engine this release may no longer have.  It is re-run all the same; where the re-run differs or fails, the
    stored state the export carries (``recorded_states``) stands in for it if its digest is the snapshot's, and
    the whole stretch before an upgrade must hash to the chain that upgrade published.  An upgrade step must
    equal the migration of the state before it, byte for byte; every step on a state of today's rules must
    be reproduced by the re-run."""
    _check_shape(doc)
    meta = doc["table"]
    seed = meta.get("seed")
    if not seed or doc.get("actions") is None:
        raise RecordError("the seed is not revealed yet: a table can be verified once it has ended")
    try:
        game = get_game(meta["game"])
    except KeyError:
        raise RecordError(f"unknown game {meta['game'][:40]!r}") from None
    if not game.min_seats <= len(meta["seats"]) <= game.max_seats:
        raise RecordError(f"malformed export: {game.name} has {game.min_seats} to {game.max_seats} seats,"
                          f" not {len(meta['seats'])}")
    report = Verification(meta.get("id"), game.name, len(doc["actions"]), 0,
                          commitment_ok=commitment(seed) == meta["seed_hash"])
    if not report.commitment_ok:
        report.problems.append(Problem("the revealed seed does not match the published commitment", "commitment"))
    expected = {s["version"]: s["sha256"] for s in doc["snapshots"]}
    recorded = _recorded_states(doc)
    options = meta.get("started_options") if isinstance(meta.get("started_options"), dict) else meta["options"]
    try:
        init = game.initial_state(len(meta["seats"]), seed=seed, options=options,
                                  now=meta["started_at"], stack=meta.get("stack")).state
    except Reject as r:
        if 0 not in recorded:
            raise RecordError(f"the table cannot be set up again: {r.rejection.message('en')}") from None
        init = None  # set up by an older engine with options today's rules refuse: the record stands in
    except Exception as exc:  # a crafted stack or option the engine did not expect
        if 0 not in recorded:
            raise RecordError(f"the table cannot be set up again ({type(exc).__name__})") from None
        init = None
    if init is not None and _legacy(game, recorded.get(0)) and RULES not in recorded[0]:
        init.pop(RULES, None)  # written before states carried their rules version: compared without it

    @overload  # a state given, a state returned: only a re-run that gave none may leave none
    def settle(version: int, candidate: dict[str, Any], older: bool, failure: Problem | None = None
               ) -> dict[str, Any]: ...

    @overload
    def settle(version: int, candidate: dict[str, Any] | None, older: bool, failure: Problem | None = None
               ) -> dict[str, Any] | None: ...

    def settle(version: int, candidate: dict[str, Any] | None, older: bool, failure: Problem | None = None
               ) -> dict[str, Any] | None:
        """The state after ``version``: the re-run's when its digest is the record's; else, for a step the rules
        of an older release wrote (``older``), the recorded state if its digest is the record's."""
        report.snapshots_checked += 1
        if version not in expected:
            report.problems.append(Problem(f"snapshot {version} is missing from the record", "missing",
                                           version=version))
            return candidate
        if candidate is not None and canonical_digest(candidate) == expected[version]:
            report.replayed += 1
            return candidate
        stored = recorded.get(version)
        if older and stored is not None and canonical_digest(stored) == expected[version] \
                and stored.get("version") == version:
            report.recorded += 1
            return stored
        report.problems.append(failure or Problem(f"snapshot {version} differs from the re-run", "differs",
                                                  version=version))
        return candidate

    state = settle(0, init, _legacy(game, recorded.get(0)))
    if state is None:
        return report
    history = {0: state}
    actions = {a["version"]: a["action"] for a in doc["actions"]}
    for step in doc["actions"]:
        version, action = step["version"], step["action"]
        older = _legacy(game, state)
        if step["seat"] == MODERATOR_SEAT and action.get("type") == "rollback":
            target = history.get(action.get("to"))
            if target is None:
                report.problems.append(Problem(f"action {version} rolls back to a version the record lacks",
                                               "bad_rollback", version=version))
                break
            state = settle(version, rollback_state(target, version), older)
            history[version] = state
            continue
        if step["seat"] == MODERATOR_SEAT and action.get("type") == UPGRADE:
            if not _check_upgrade(game, state, step, expected, actions, report):
                break
            state = upgraded_state(game, state, version)
            history[version] = state
            report.snapshots_checked += 1
            report.replayed += 1
            continue
        failure = None
        try:
            result = (moderator_step(game, state, action, step["at"]) if step["seat"] == MODERATOR_SEAT
                      else game.apply(state, step["seat"], action, now=step["at"]))
        except Exception as exc:  # the engine should refuse, not crash; either way the record is not honest
            result = None
            failure = Problem(f"action {version} cannot be re-run ({type(exc).__name__})", "crash",
                              version=version, error=type(exc).__name__)
        if isinstance(result, Rejection):
            failure = Problem(f"action {version} is refused on re-run: {result.code} {result.key}", "refused",
                              version=version, code=result.code, key=result.key)
            result = None
        candidate = result.state if result is not None else None
        if candidate is not None and candidate["version"] != version:
            failure = Problem(f"action {version} produced version {candidate['version']}", "version",
                              version=version, produced=candidate["version"])
        before = len(report.problems)
        settled = settle(version, candidate, older, failure)
        if settled is None or len(report.problems) > before and candidate is None:
            break
        state = settled
        history[version] = state
    _check_disputes(doc, report)
    if len(expected) != report.snapshots_checked and not report.problems:
        report.problems.append(Problem("the record has snapshots that no action produced", "extra"))
    if meta.get("outcome") is not None and state.get("outcome") != meta["outcome"]:
        report.problems.append(Problem("the recorded outcome differs from the re-run", "outcome"))
    return report


def _legacy(game: Any, state: dict[str, Any] | None) -> bool:
    """Whether ``state`` was written under an older rules version than today's (or before states carried it)."""
    if state is None:
        return False
    try:
        return RULES not in state or rules_of(state) < game.rules_version
    except CannotMigrate:
        return True


def _recorded_states(doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The stored states an export carries for the steps of older rules (version → state).  One that is not a
    JSON mapping is left out: it can stand in for nothing (its step is then reported as differing)."""
    found: dict[int, dict[str, Any]] = {}
    items = doc.get("recorded_states") or []
    if not isinstance(items, list):
        raise RecordError("malformed export: recorded_states must be a list of {version, state}")
    for item in items:
        if not (isinstance(item, dict) and _is_int(item.get("version")) and isinstance(item.get("state"), str)):
            raise RecordError("malformed export: recorded_states must be a list of {version, state}")
        try:
            state = json.loads(item["state"])
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(state, dict):
            found[item["version"]] = state
    return found


def _check_upgrade(game: Any, state: dict[str, Any], step: dict[str, Any], expected: dict[int, str],
                   actions: dict[int, Any], report: "Verification") -> bool:
    """An upgrade step of the record: the state after it is the migration of the state before it, byte for
    byte, and the chain it published is the chain of the record before it.  False (with the problem noted)
    when it is not."""
    version, action = step["version"], step["action"]
    report.upgrades.append({"version": version, "from": action.get("from"), "to": action.get("to"),
                            "release": action.get("release")})
    try:
        migrated = upgraded_state(game, state, version)
    except CannotMigrate as exc:
        report.problems.append(Problem(f"upgrade {version} cannot be migrated again ({exc.key})", "upgrade",
                                       version=version))
        return False
    if expected.get(version) != canonical_digest(migrated):
        report.problems.append(Problem(f"upgrade {version} is not the migration of the state before it",
                                       "upgrade", version=version))
        return False
    try:
        chain = record_chain(expected, actions, version - 1)
    except KeyError:
        chain = None
    if chain != action.get("chain"):
        report.problems.append(Problem(f"upgrade {version}: the record before it does not hash to the chain it"
                                       " published", "chain", version=version))
        return False
    return True


async def verify_table(store: Store, table_id: int, *, moderator: bool = False) -> Verification:
    """Verify a stored table.  Unfinished tables only with ``moderator`` (it needs the secret seed)."""
    return verify_export(await export_table(store, table_id, include_seed=moderator))
