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
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Rejection, get_game
from bot.engine.canonical import dumps
from bot.engine.rng import commitment
from bot.moderation import MODERATOR_SEAT, rollback_state
from bot.storage.store import Store

FORMAT = "judge-table/1"


class RecordError(ValueError):
    """The table or the export file cannot be verified (missing, unfinished, malformed)."""


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
    doc: dict[str, Any] = {
        "format": FORMAT,
        "table": {
            "id": table.id, "game": table.game, "status": table.status, "options": table.options,
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.is_bot} for s in seats],
            "seed_hash": table.seed_hash, "seed": table.seed if reveal else None,
            "stack": table.stack if reveal else None, "started_at": table.started_at, "outcome": table.outcome,
        },
        "actions": [{"version": a.version, "seat": a.seat, "action": a.action, "at": a.at}
                    for a in await store.actions(table_id)] if reveal else None,
        "snapshots": [{"version": v, "sha256": _sha(text)} for v, text in snapshots],
    }
    if include_states:
        doc["states"] = [{"version": v, "state": text} for v, text in snapshots]
    return doc


@dataclass
class Verification:
    table_id: int | None
    game: str
    actions: int
    snapshots_checked: int
    commitment_ok: bool
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems


def verify_export(doc: dict[str, Any]) -> Verification:
    """Re-run an exported table and compare every snapshot digest."""
    if doc.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} file")
    meta = doc["table"]
    seed = meta.get("seed")
    if not seed:
        raise RecordError("the seed is not revealed yet: a table can be verified once it has ended")
    try:
        game = get_game(meta["game"])
    except KeyError:
        raise RecordError(f"unknown game {meta['game']!r}") from None
    report = Verification(meta.get("id"), game.name, len(doc["actions"]), 0,
                          commitment_ok=commitment(seed) == meta["seed_hash"])
    if not report.commitment_ok:
        report.problems.append("the revealed seed does not match the published commitment")
    expected = {s["version"]: s["sha256"] for s in doc["snapshots"]}
    init = game.initial_state(len(meta["seats"]), seed=seed, options=meta["options"],
                              now=meta["started_at"], stack=meta.get("stack"))
    state = init.state

    def compare(version: int) -> None:
        digest = _sha(dumps(state))
        if version not in expected:
            report.problems.append(f"snapshot {version} is missing from the record")
        elif expected[version] != digest:
            report.problems.append(f"snapshot {version} differs from the re-run")
        report.snapshots_checked += 1

    compare(0)
    history = {0: state}
    for step in doc["actions"]:
        if step["seat"] == MODERATOR_SEAT and step["action"].get("type") == "rollback":
            state = rollback_state(history[step["action"]["to"]], step["version"])
            history[step["version"]] = state
            compare(step["version"])
            continue
        result = game.apply(state, step["seat"], step["action"], now=step["at"])
        if isinstance(result, Rejection):
            report.problems.append(f"action {step['version']} is refused on re-run: {result.code} {result.key}")
            break
        state = result.state
        history[state["version"]] = state
        if state["version"] != step["version"]:
            report.problems.append(f"action {step['version']} produced version {state['version']}")
        compare(step["version"])
    if len(expected) != report.snapshots_checked and not report.problems:
        report.problems.append("the record has snapshots that no action produced")
    if meta.get("outcome") is not None and state.get("outcome") != meta["outcome"]:
        report.problems.append("the recorded outcome differs from the re-run")
    return report


async def verify_table(store: Store, table_id: int, *, moderator: bool = False) -> Verification:
    """Verify a stored table.  Unfinished tables only with ``moderator`` (it needs the secret seed)."""
    return verify_export(await export_table(store, table_id, include_seed=moderator))
