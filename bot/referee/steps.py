"""What a step of the referee's record tells the world, and who records it: the pieces the referee
(service.py), a moderator's steps (moderation.py), the disputes and the time control's keeper (timekeeper.py)
share.  Kept apart from the service so that those modules, which the service uses or which use it, need not
import one another in a circle."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import Game
from bot.storage.outbox import lean
from bot.storage.store import Message

SYSTEM = "system"      # the user the referee's own steps (a clock's expiry, a tournament's) are recorded under
MODERATOR_SEAT = -1    # the seat a moderator's step of the record is recorded at
#: the outbox kind of a notice to a server's moderators (a dispute raised, a table frozen): a table message that
#: goes to the server's notice channel, or by DM to its moderators, never into the table's thread
MODERATORS = "moderators"
#: the outbox kind of the message that tells one player a table's end (its result, their rating change)
END = "end"


def moderators_notice(what: str, **fields: Any) -> Message:
    """What the server's moderators are told (``what``: "dispute" or "frozen"), as an outbox message of its own:
    delivered apart from the table's notice, so that one's failure neither holds up nor repeats the other."""
    return Message("table", MODERATORS, {"what": what, **fields})


def next_deadline(game: Game, state: dict[str, Any]) -> float | None:
    deadlines = [p.deadline for p in game.to_act(state) if p.deadline is not None]
    return min(deadlines) if deadlines else None


def public_unchanged(game: Game, before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the channel could not tell ``before`` from ``after``: the public views differ at most in the
    version number (which counts every action, the private ones too)."""
    return _same_but_version(game.view(before, None), game.view(after, None))


def _same_but_version(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "version"} == {k: v for k, v in b.items() if k != "version"}


def messages_for(game: Game, state: dict[str, Any], events: list[dict[str, Any]], *, kind: str,
                 extra: Mapping[str, Any] | None = None, before: dict[str, Any] | None = None) -> list[Message]:
    """What the world should hear about one step: one message for the table (the public events and view),
    one private message per seat that got private events (that seat's events and view), and at the end one
    ``END`` message per seat.

    The messages are stored lean and filled in from the record when delivered (bot/storage/outbox.py), and
    bot/referee/visibility.py filters the events by their ``to``: delivery never sees what a recipient may not.  An update with no public event
    that leaves the public view as it was (``before``, the previous state) is a private step (a card
    exchanged in a mulligan, one of the cards to keep): the table hears nothing, since a message per such
    step would let it count them."""
    version = state["version"]
    messages = []
    if kind != "update" or before is None or any(e["to"] is None for e in events) \
            or not public_unchanged(game, before, state):
        messages.append(Message("table", kind, lean(version, **(extra or {}))))
    told = {seat for e in events if e["to"] is not None for seat in e["to"]}
    messages += [Message("seat", "private", lean(version), seat=seat)
                 for seat in range(state["seats"]) if seat in told]
    if kind == "finish":  # every player is told the end in a message of their own (a bot's seat is skipped by
        # its deliverer; a seat a bot took over is still its player's): one outbox row each, delivered once
        messages += [Message("seat", END, lean(version, seat=seat), seat=seat) for seat in range(state["seats"])]
    return messages
