"""Acting on a game's state in its rule tests, the same for every game: ``apply`` an action that must be
applied (the game's invariants checked after it), ``act`` for just the state after it, ``reject`` an action
that must be refused.  An action is given as keywords after the seat, so an action's own ``seat`` (a target)
is a keyword like any other."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import Applied, Game, Rejection

State = dict[str, Any]


def acting(game: Game, *, now: float) -> tuple[Callable[..., Applied], Callable[..., State], Callable[..., Rejection]]:
    """(apply, act, reject) for ``game``, at ``now`` unless a call gives its own ``now``."""
    default_now = now

    def apply(state: State, who: int, /, now: float = default_now, **action: Any) -> Applied:
        result = game.apply(state, who, action, now=now)
        assert isinstance(result, Applied), f"{action} by seat {who} refused: {result}"
        game.check_invariants(result.state)
        return result

    def act(state: State, who: int, /, now: float = default_now, **action: Any) -> State:
        return apply(state, who, now=now, **action).state

    def reject(state: State, who: int, /, now: float = default_now, **action: Any) -> Rejection:
        result = game.apply(state, who, action, now=now)
        assert isinstance(result, Rejection), f"{action} by seat {who} was accepted"
        return result

    return apply, act, reject
