"""Who may see what of a referee's message: the filter a lean outbox row passes through on its way out.

Storage hands a pending message back as stored, with the snapshot and the events of its version
(``Store.pending_records``); here the hidden information is filtered exactly as it was when the whole view was
stored: a table message gets the public events and the public view, a seat's message the events addressed to
that seat and that seat's view.  A payload carrying its own ``events`` keeps them (a rollback's announcement
tells the rollback in its own line).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from bot.engine import get_game
from bot.engine.versions import CannotMigrate, readable
from bot.storage.outbox import FROM_RECORD
from bot.storage.store import OutboxRow, Store


def filled(game: str, target: str, seat: int | None, payload: dict[str, Any], state: dict[str, Any] | None,
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


async def pending_messages(store: Store, *, limit: int = 50, max_attempts: int = 5,
                           origins: Sequence[str] | None = None,
                           tables: Sequence[int] | None = None) -> list[OutboxRow]:
    """The pending messages in order, as delivered: each lean one filled in as its target may see it."""
    return [dataclasses.replace(p.message, payload=filled(p.game, p.message.target, p.message.seat,
                                                          p.message.payload, p.state, p.events))
            if p.message.payload.get(FROM_RECORD) else p.message
            for p in await store.pending_records(limit=limit, max_attempts=max_attempts, origins=origins,
                                                 tables=tables)]
