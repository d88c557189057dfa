"""A seat's standing pass of every out-of-turn window of one turn (issue 27, docs/discord.md "Windows cost
nothing"): a referee setting per seat (``standing_passes``), not game state.  While the table is in the turn
the seat named, the referee answers each window asked of it (a ``reaction``) with the game's pass
(``Game.window_passes``), recorded as the seat's own action; a new turn asks the seat again.

It tells nobody anything about hands: it is offered to every seat a window asks, whatever it holds, and the
answer it gives is the one the seat itself chose before the window opened."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import Game
from bot.engine.canonical import dumps


def turn_of(game: Game, state: dict[str, Any]) -> str | None:
    """The turn a standing pass names, as stored (canonical JSON); None where the game offers none."""
    if not game.window_passes or state.get("outcome") is not None:
        return None
    key = game.turn_key(state)
    return None if key is None else dumps(key)


def pass_of(game: Game, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The pass the seat may give now: its legal action of a window-passing type, when a window asks it."""
    if not any(p.seat == seat and p.kind == "reaction" for p in game.to_act(state)):
        return None
    return next((a for a in game.legal_actions(state, seat) if a.get("type") in game.window_passes), None)


def standing_answer(game: Game, state: dict[str, Any], passes: Mapping[int, str], bots: set[int]
                    ) -> tuple[int, dict[str, Any]] | None:
    """(seat, pass) of the first window a standing pass answers now, or None."""
    turn = turn_of(game, state)
    if turn is None or not passes:
        return None
    for pending in game.to_act(state):
        if pending.kind != "reaction" or pending.seat in bots or passes.get(pending.seat) != turn:
            continue
        action = pass_of(game, state, pending.seat)
        if action is not None:
            return pending.seat, action
    return None
