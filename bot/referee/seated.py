"""Whether a user sits at a table: the one answer every refusal of a seated moderator asks (bot/referee/
oversight.py, moderation.py, disputes.py; the Discord cogs and the terminal through them).

A moderator seated at a table is a player there: they may not decide anything at it (``may_decide``) nor read
another player's private dispute text there (``withheld``).  A terminal user is ``cli:<name>`` as typed; for
these refusals a name matches a seat whatever its case or width (``Alice``, ``alice``, ``ＡＬＩＣＥ``), so a
player cannot step behind the screen by retyping their own name.  Discord keys (``discord:<id>``) match exactly.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable

from bot.engine import Code, Rejection
from bot.referee.service import Referee
from bot.storage.store import SeatRow

TERMINAL = "cli:"   # the terminal's user keys (bot/terminal/common.py ``_user``)


def decide_refusal(table_id: int) -> Rejection:
    return Rejection(Code.FORBIDDEN, "moderation.reject.seated_decide", {"table": table_id})


def _identity(user_id: str) -> str:
    """A user key as the seated check compares it: a terminal name folded (case, width); others exact."""
    if user_id.startswith(TERMINAL):
        return TERMINAL + unicodedata.normalize("NFKC", user_id[len(TERMINAL):]).casefold()
    return user_id


def same_user(a: str, b: str) -> bool:
    return _identity(a) == _identity(b)


def seated_in(seats: Iterable[SeatRow], user_id: str) -> bool:
    me = _identity(user_id)
    return any(_identity(s.user_id) == me for s in seats)


async def is_seated(referee: Referee, table_id: int, user_id: str) -> bool:
    return seated_in(await referee.store.seats(table_id), user_id)


async def may_decide(referee: Referee, table_id: int, moderator: str) -> Rejection | None:
    """None when ``moderator`` may take a moderator's step at the table, else the refusal: they play there."""
    return decide_refusal(table_id) if await is_seated(referee, table_id, moderator) else None


async def withheld(referee: Referee, disputes: Iterable[Any], moderator: str) -> set[int]:
    """The disputes among ``disputes`` whose private text ``moderator`` may not read: another player's, at a
    table where the moderator is seated (what the table heard of them is all a player there may know)."""
    seated: dict[int, bool] = {}
    hidden = set()
    for d in disputes:
        if not d.private or same_user(d.user_id, moderator):
            continue
        if d.table_id not in seated:
            seated[d.table_id] = await is_seated(referee, d.table_id, moderator)
        if seated[d.table_id]:
            hidden.add(d.id)
    return hidden
