"""Who may look behind a table's screen: a moderator who is not playing at it, and every look is logged.

A moderator seated at a table is a player there: its hidden state (every seat's view, the evidence of a
dispute, the seed) would show them their opponents' hands, and deciding its disputes would make them judge
in their own game.  So both are refused to them, naming why (another moderator does it; a server with one
moderator is told to name another), and every look at a table's hidden state is a row of the moderation log
(``hidden_view``, with what was looked at), so that players can ask who saw what.

Nor may a seated moderator decide anything at that table (``may_decide``): no rollback, ruling, pause,
resume, cancellation or dispute decision; another moderator does it (a server's owner seated at a table is a
player there too).  Nor read their opponents' private dispute texts (``withheld``).

Whether a user sits at a table is answered in one place, bot/referee/seated.py, for Discord and the terminal.
"""
from __future__ import annotations

from typing import Any

from bot.engine import Code, Rejection
from bot.referee.service import Referee
from bot.referee.seated import (decide_refusal, is_seated, may_decide, same_user, seated_in,  # noqa: F401
                                 withheld)
from bot.storage.store import SeatRow, TableRow

HIDDEN_VIEW = "hidden_view"   # the moderation log's action for a look at hidden state


def seated_refusal(table_id: int) -> Rejection:
    return Rejection(Code.FORBIDDEN, "moderation.reject.seated", {"table": table_id})


async def may_look(referee: Referee, table_id: int, moderator: str, what: str,
                   data: dict[str, Any] | None = None) -> Rejection | None:
    """None when ``moderator`` may see the table's hidden state (and the look is logged), else the refusal."""
    if await is_seated(referee, table_id, moderator):
        return seated_refusal(table_id)
    await referee.store.add_moderation(table_id, moderator, HIDDEN_VIEW, None, {"what": what, **(data or {})},
                                       referee.now())
    return None


async def hidden_state(referee: Referee, table_id: int, *, moderator: str
                       ) -> tuple[TableRow, list[SeatRow], dict[str, Any]] | Rejection:
    """The table, its seats and its full latest state, for a moderator not playing there (``/mod hidden``)."""
    store = referee.store
    table = await store.get_table(table_id)
    if table is None:
        return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
    state = await store.state(table_id)
    if state is None:
        return Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id})
    refused = await may_look(referee, table_id, moderator, "state", {"version": table.version})
    return refused or (table, await store.seats(table_id), state)


async def evidence(referee: Referee, dispute_id: int, *, moderator: str) -> Any:
    """A dispute's evidence (bot/referee/disputes.py), for a moderator not playing at its table; logged."""
    from bot.referee import disputes

    found = await disputes.evidence(referee, dispute_id)
    if isinstance(found, Rejection):
        return found
    refused = await may_look(referee, found.dispute.table_id, moderator, "evidence", {"dispute": dispute_id})
    return refused or found
