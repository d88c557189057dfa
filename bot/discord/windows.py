"""Out-of-turn windows on Discord, which cost the players nothing (issue 27, docs/discord.md "Windows").

A window is a decision the engines give the kind ``reaction`` and a deadline (Raiders' interrupt window after a
capture or a шняга, Bloodwood's counter window): a chance to answer someone else's move, mostly passed.  On
Discord:

- a window never makes a new message: it appears in the player's existing control message, edited (the
  deliverer redraws the control message of every seat whose question changed), and is never a ping;
- it closes by itself when the engine's deadline for it passes (the referee's clock applies the timeout,
  which passes for everyone who has not answered: bot/referee/service.py ``tick``);
- it does not break the rhythm of a turn: a player whose turn goes on after a window is not pinged again, so
  whether one was asked "was this the same player's turn before?" looks past the windows in between
  (``live_shows`` keeps the last asks that were not windows).

Nothing here depends on a hand: which seats a window asks is the engine's (every seat in Raiders, the
public target in Bloodwood), the same whether or not a seat holds an answer, and so is everything below.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, Mapping, Sequence

REACTION = "reaction"


def is_window(pending: Mapping[str, Any]) -> bool:
    """Whether an ask (a view's ``to_act`` entry) is an out-of-turn window that costs nothing: a reaction with a
    deadline, after which it closes by itself.  A reaction without one (a live table whose windows have no
    clock, a game whose window waits for its answer) would wait unseen for ever without a ping: it is pinged
    like any decision passing to the player."""
    return pending.get("kind") == REACTION and pending.get("deadline") is not None


def _ask(pending: Mapping[str, Any]) -> list[Any]:
    """An ask as stored with the live message: [seat, kind, prompt], the kind "window" for a free window."""
    return [pending["seat"], "window" if is_window(pending) else pending.get("kind"), pending.get("prompt")]


def pingable(view: Mapping[str, Any], before: Sequence[Sequence[Any]] | None) -> Iterator[dict[str, Any]]:
    """The asks of ``view`` a ping may be for, each with ``new_turn`` (the seat was asked nothing but windows
    before: the decision passes to it) and ``new_ask`` (this very question was not asked of it before).
    Windows are left out: they are shown, never pinged.  ``before``: what the live message asked before, as
    ``live_shows`` stored it."""
    turns_before = {s for s, k, _ in (before or []) if k != "window"}
    asked_before = {(s, k, p) for s, k, p in (before or [])}
    for pending in view.get("to_act") or []:
        if is_window(pending):
            continue
        seat = pending["seat"]
        yield {**pending, "new_turn": seat not in turns_before,
               "new_ask": (seat, pending.get("kind"), pending.get("prompt")) not in asked_before}


def live_shows(view: Mapping[str, Any], before: Sequence[Sequence[Any]]) -> str:
    """What the live message asks now, as stored with it: (seat, kind, prompt) of every ask; while only
    windows are open, the asks that were not windows before them are kept too, so that the turn they
    interrupted goes on without a new ping when they close."""
    now = [_ask(p) for p in view.get("to_act") or []]
    if now and all(k == "window" for _, k, _ in now):
        now += [list(p) for p in before if p[1] != "window"]
    return json.dumps(sorted(now, key=lambda p: (p[0], str(p[1]), str(p[2]))))
