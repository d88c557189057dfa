"""How a player's out-of-turn windows are answered for them (issue 35, docs/discord.md "Window preferences"): a
setting of the player's (bot/storage migration 0015), at every table or at one, never game state.

- ``ask``: the window asks them, as it always did (the default);
- ``after``: the referee passes for them ``hours`` after the window asked them, plus a delay of up to
  ``JITTER`` seconds (AsyncTI4's auto-pass), unless they answer first;
- ``held``: as ``after``, and besides a window they hold no answer to is neither shown nor pinged to them.

Nothing here may tell anyone about a hand, and timing counts: the pass comes at the same moment whatever the
seat holds.  The delay is drawn from the table's secret seed (an HMAC of the table, the seat and the moment the
window asked it), never from the game's own RNG, which would change the game; it is revealed with the seed at
the end, so the record's passes can be checked then.  A pass is recorded as the seat's action under the user
``PREFERENCE``, the record saying that a preference, not the player, passed.  "Pass until the turn ends" (a
standing pass, bot/referee/standing.py) stays the per-turn button it was.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any, Mapping

from bot.engine import Game
from bot.i18n import t
from bot.referee import standing

#: the user a preference's pass is recorded under
PREFERENCE = "preference"
MODES = ("ask", "after", "held")
#: hours a preference waits when the player names none, and the most it may
DEFAULT_HOURS = 1.0
MOST_HOURS = 7 * 24.0
#: the random part of the wait, at most (seconds)
JITTER = 3600.0


def parse(mode: str, hours: Any) -> tuple[str, float | None] | None:
    """(mode, hours) as stored, or None when either is not one a player may set."""
    if mode not in MODES:
        return None
    if mode == "ask":
        return "ask", None
    if hours is None:
        return mode, DEFAULT_HOURS
    try:
        value = float(hours)
    except (TypeError, ValueError):
        return None
    return (mode, value) if 0 <= value <= MOST_HOURS else None


def delay(seed: str, table_id: int, seat: int, since: float, hours: float) -> float:
    """Seconds after ``since`` at which the preference passes: ``hours`` and a part drawn from the seed, the
    table, the seat and the window's moment only."""
    digest = hmac.new(seed.encode(), f"window-pass:{table_id}:{seat}:{since!r}".encode(), hashlib.sha256).digest()
    return hours * 3600 + int.from_bytes(digest[:8], "big") / 2 ** 64 * JITTER


def holds_answer(game: Game, state: dict[str, Any], seat: int) -> bool:
    """Whether the seat could answer the window with something besides its pass (read only for its own
    control message, never for anything another seat sees or for when anything happens)."""
    return any(a.get("type") not in game.window_passes for a in game.legal_actions(state, seat))


def passes(game: Game, state: dict[str, Any], table_id: int, seed: str | None,
           preferences: Mapping[int, tuple[str, float | None]], bots: set[int]) -> list[tuple[float, int, dict]]:
    """(when on the table's clock, seat, its pass) of every window a preference will pass for its seat, soonest
    first.  Nothing of a hand is read: which seats a window asks and when is the engine's public fact."""
    if seed is None or not game.window_passes or state.get("outcome") is not None:
        return []
    found = []
    for pending in game.to_act(state):
        if pending.kind != "reaction" or pending.since is None or pending.seat in bots:
            continue
        mode, hours = preferences.get(pending.seat, ("ask", None))
        if mode == "ask":
            continue
        action = standing.pass_of(game, state, pending.seat)
        if action is not None:
            at = pending.since + delay(seed, table_id, pending.seat, pending.since, hours or 0.0)
            found.append((at, pending.seat, action))
    return sorted(found, key=lambda f: (f[0], f[1]))


def describe(preference: tuple[str, float | None], table_id: int | None, locale: str) -> str:
    """What a player is told once their preference is set (the terminal and Discord alike)."""
    mode, hours = preference
    said = t(f"windows.mode.{mode}", locale, hours=f"{hours or 0:g}")
    if table_id:
        return t("windows.set.table", locale, table=table_id, mode=said)
    return t("windows.set.everywhere", locale, mode=said)
