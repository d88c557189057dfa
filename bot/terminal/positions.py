"""``python -m bot scenario --from-table N [--version V]``: a stored table's position at version V (default: its
latest) written as a scenario file (docs/scenarios.md, "A position from a stored table"), so that a moderator
can play out "what if" from any move of a dispute.

The file holds the whole state as a moderator sees it — every hidden hand, the deck order and the table's
random source, so that it plays on exactly as the table would — and, as its steps, the table's own later
actions (each at the time it was taken), which a moderator cuts or changes.  It is for moderators only: writing
it is a look behind the table's screen, refused to a user seated at the table and logged like every such look
(bot/referee/oversight.py)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

import yaml

from bot.engine import Code, Rejection, get_game
from bot.engine.versions import CannotMigrate, readable
from bot.process.config import Settings
from bot.referee.steps import MODERATOR_SEAT
from bot.storage.store import ActionRow, SeatRow, TableRow
from bot.terminal.common import EXIT_FAILED, EXIT_OK, _refuse, _say, _user
from bot.terminal.scenario import MAX_STEPS

HEADER = ("# MODERATORS ONLY: this scenario holds table #{table}'s hidden state at version {version} (every hand,\n"
          "# the deck order, the random source).  Do not show it to a player of the table.\n"
          "# Written by `python -m bot scenario --from-table {table}`; run it with `python -m bot scenario FILE`.\n")


def position_scenario(table: TableRow, seats: Sequence[SeatRow], state: dict[str, Any], at: float,
                      later: Sequence[ActionRow], *, play_on: bool = True) -> dict[str, Any]:
    """The scenario document: the table's ``state`` (of today's rules) at time ``at``, and, with ``play_on``, the
    table's own actions after it as steps, moderators' steps included (a correction, an upheld dispute, an upgrade,
    a rollback), up to a rollback to a version before the position, which the scenario has never been at: a note
    says where the record goes on."""
    version = state["version"]
    doc: dict[str, Any] = {
        "title": f"table #{table.id} at version {version}",
        "description": (f"The position of table #{table.id} ({table.game}) after action {version}, as a moderator "
                        "sees it (hidden hands included). The steps are the table's own later actions: cut or "
                        "change them to play out another course."),
        "game": table.game,
        "seats": [s.name for s in seats],
        "seed": state["rng"]["seed"],
        "options": dict(state["options"]),
        "now": at,
        "state": state,
        "steps": [],
    }
    if not play_on:
        return doc
    for n, a in enumerate(later):
        if n == MAX_STEPS - 1:  # the longest scenario there is: the rest is the moderator's to add
            doc["steps"].append({"note": f"the record goes on from version {a.version}: more actions than a "
                                         f"scenario holds ({MAX_STEPS} steps)"})
            break
        if a.seat == MODERATOR_SEAT:
            if a.action.get("type") == "rollback" and not version <= a.action.get("to", -1) < a.version:
                doc["steps"].append({"note": f"the record goes on with a rollback to version {a.action.get('to')}, "
                                             f"before this position (version {version}): write the file from there"})
                break
            doc["steps"].append({"moderator": a.action, "at": a.at})
            continue
        step: dict[str, Any] = {"seat": a.seat, "at": a.at}
        if a.action == {"type": "timeout"}:
            step["timeout"] = True
        else:
            step["action"] = a.action
        doc["steps"].append(step)
    return doc


def dump_scenario(doc: dict[str, Any], table_id: int) -> str:
    """The file's text: the moderators-only header, then the document as YAML (exact floats and strings: loading
    it gives the same state back, byte for byte as canonical JSON)."""
    body = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=120)
    return HEADER.format(table=table_id, version=doc["state"]["version"]) + body


async def cmd_from_table(args: argparse.Namespace, settings: Settings) -> int:
    from bot.referee.oversight import may_look
    from bot.referee.service import Referee
    from bot.referee.upgrade import open_store

    locale = args.locale or settings.locale
    store = await open_store(settings.database)
    try:
        table = await store.get_table(args.from_table)
        if table is None:
            return _refuse(Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": args.from_table}), locale)
        version = table.version if args.version is None else args.version
        state = await store.state(table.id, version)
        if state is None or version > table.version:
            sys.stderr.write(f"table {table.id} has no version {version} (its record runs 0..{table.version})\n")
            return EXIT_FAILED
        refused = await may_look(Referee(store), table.id, _user(args), "scenario", {"version": version})
        if refused is not None:
            return _refuse(refused, locale)
        game = get_game(table.game)
        try:
            state = readable(game, state)
        except CannotMigrate as exc:
            sys.stderr.write(f"table {table.id}'s version {version} cannot be read by today's rules ({exc})\n")
            return EXIT_FAILED
        actions = await store.actions(table.id)
        at = next((a.at for a in actions if a.version == version), None)
        if at is None:
            at = table.started_at if table.started_at is not None else table.created_at
        later = [a for a in actions if a.version > version]
        doc = position_scenario(table, await store.seats(table.id), state, at, later, play_on=not args.position_only)
    finally:
        await store.close()
    text = dump_scenario(doc, table.id)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            sys.stderr.write(f"cannot write {args.out}: {exc.strerror or exc}\n")
            return EXIT_FAILED
        _say(f"table {table.id} at version {version} written to {args.out} (moderators only: hidden state)")
    else:
        sys.stdout.write(text)
    return EXIT_OK


__all__ = ["position_scenario", "dump_scenario", "cmd_from_table"]
