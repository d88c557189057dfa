"""What a referee's message says, read back from the record when it is delivered.

The referee stores a game message lean: its version, the target (the table or one seat) and the referee's own
fields (who moved, the seed at the end).  The events and the view are filled in when the message is read for
delivery, from the snapshot and the events of that version.  Those rows never change once committed (a
rollback appends a new version), so every attempt at one message renders the same content — what the look-back
de-duplication of a deliverer compares — and the hidden information is filtered here exactly as it was when
the whole view was stored: a table message gets the public events and the public view, a seat's message the
events addressed to that seat and that seat's view.  A payload carrying its own ``events`` keeps them (a
rollback's announcement tells the rollback in its own line).
"""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import get_game
from bot.engine.versions import CannotMigrate, readable

FROM_RECORD = "from_record"   # the payload's mark: events and view are to be read from the record


def lean(version: int, **fields: Any) -> dict[str, Any]:
    return {"version": version, FROM_RECORD: True, **fields}


def filled(game: str, target: str, seat: int | None, payload: dict[str, Any], state: Mapping[str, Any] | None,
           events: list[dict[str, Any]]) -> dict[str, Any]:
    """``payload`` as delivered: a lean one with the events and the view of ``state`` (the snapshot at its
    version) as ``target`` may see them; any other payload as stored."""
    if not payload.get(FROM_RECORD):
        return payload
    engine = get_game(game)
    own = {k: v for k, v in payload.items() if k not in (FROM_RECORD, "version", "events")}
    try:  # a message written before an upgrade, delivered after it: shown as today's rules read that state
        state = readable(engine, state) if state is not None else None
    except CannotMigrate:  # a table this release cannot show (it is frozen): the events only
        state = None
    if state is None:
        shown = [e for e in events if (e["to"] is None if target == "table" else seat in (e["to"] or ()))]
        return {"version": payload["version"], "events": payload.get("events", shown), "view": None, **own}
    if target == "table":
        shown = [e for e in events if e["to"] is None]
        whole = {"view": engine.view(state, None), "to_act": [p.seat for p in engine.to_act(state)]}
    else:
        shown = [e for e in events if e["to"] is not None and seat in e["to"]]
        whole = {"view": engine.view(state, seat)}
    return {"version": payload["version"], "events": payload.get("events", shown), **whole, **own}
