"""A table's pace (issue 27): ``live`` — the players sit at the table together, the rule books' real-time rules
apply as written — or ``correspondence`` — play by post over hours and days, where each real-time rule takes its
correspondence form (docs/rulings/<game>.md names each one and why).

``pace`` is a game option of every game (the option ``PACE``), so it is stored with the table's options, versioned
with them (an older table's former reading is ``live``) and shown wherever options are.  A correspondence table
never sets a deadline under one hour (``SHORTEST``) and never one under the table's per-decision clock (the time
control's ``clock``) where the clock is set:

- a **timer** option (a number of seconds each decision has: Gwent's and Bloodwood's ``turn_seconds``, Bridges'
  ``phase_seconds``) keeps its default 0 — the table's clock alone times the decisions — and a value given is
  refused when it is under an hour or under the clock;
- a **window** option (how long an out-of-turn window stays open: Raiders' ``window_seconds``, Bloodwood's
  ``counter_seconds``) gets the game's documented correspondence length, at least an hour, instead of the whole
  per-decision clock: a window must still close by itself, everyone who has not acted passing, or a table of
  absent players would wait for ever (or lose on time for not answering a window they may not even hold an
  answer for); 0 (never close) is refused;
- a game's own real-time rule (Clay God's ten seconds and five-minute Clock) takes its correspondence reading,
  named in the game's ``correspond`` hook.

Each of these is applied when the options are validated (``Game.validate_options``): a value not given takes its
correspondence form, a value given that is still real-time is refused with a message that says why.
"""
from __future__ import annotations

from typing import Any

from .contract import Code, Option, Reject

LIVE, CORRESPONDENCE = "live", "correspondence"
PACES = (LIVE, CORRESPONDENCE)
#: the option every game declares; the engines' default is the rule books' own (live): the front ends choose
#: correspondence where players are not at the table together (Discord, tournaments)
PACE = Option("pace", "choice", LIVE, choices=PACES)
SHORTEST = 3600          # no deadline under an hour at a correspondence table


def corresponding(options: dict[str, Any]) -> bool:
    return options.get("pace") == CORRESPONDENCE


def refuse(game: str, name: str, value: Any, reason: str, *, clock: float | None = None, instead: str = "") -> Reject:
    """The refusal of a value that is still real-time at a correspondence table (``core.reject.pace.<reason>``:
    ``short``, ``under_clock``, ``never``, ``live_only``), the table's clock shown in hours."""
    hours = f"{clock / 3600:g}" if clock is not None else ""
    return Reject(f"core.reject.pace.{reason}", code=Code.BAD_OPTIONS, game=game, name=name, value=str(value)[:40],
                  shortest=SHORTEST, hours=hours, instead=instead)


def timer(game: str, options: dict[str, Any], given: frozenset[str], name: str, clock: float | None) -> None:
    """A per-decision timer at a correspondence table: 0 (the table's clock times each decision) unless given; a
    value given must be an hour or more and no less than the table's clock."""
    if name not in given:
        options[name] = 0
        return
    value = options[name]
    if not value:  # given as 0: no deadline of the game's own
        return
    if value < SHORTEST:
        raise refuse(game, name, value, "short")
    if clock is not None and value < clock:
        raise refuse(game, name, value, "under_clock", clock=clock)


def window(game: str, options: dict[str, Any], given: frozenset[str], name: str, length: int) -> None:
    """An out-of-turn window at a correspondence table: ``length`` seconds (the game's documented correspondence
    length) unless given; a value given must be an hour or more, and 0 (a window that never closes) is refused."""
    if name not in given:
        options[name] = length
        return
    value = options[name]
    if not value:
        raise refuse(game, name, value, "never")
    if value < SHORTEST:
        raise refuse(game, name, value, "short")


def choice(game: str, options: dict[str, Any], given: frozenset[str], name: str, live: str, instead: str) -> None:
    """A choice whose ``live`` value is a real-time rule: ``instead`` unless given; ``live`` given is refused."""
    if name not in given:
        options[name] = instead
    elif options[name] == live:
        raise refuse(game, name, live, "live_only", instead=instead)
