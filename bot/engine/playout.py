"""Playing a table to the end with bot players, without storage: used by the conformance suite, the
benchmarks and anything that needs many quick games.  The service-backed demo uses the same bot choices
through the referee service instead."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .contract import Applied, Game, Rejection, State


@dataclass
class Playout:
    initial: State
    setup_events: list[dict[str, Any]]
    steps: list[dict[str, Any]] = field(default_factory=list)  # {"seat", "action", "now"}
    states: list[State] = field(default_factory=list)          # state after each step
    final: State | None = None
    cut: bool = False                                          # stopped at the action bound


def pick_move(game: Game, state: State, rng: random.Random, now: float) -> tuple[int, dict[str, Any]]:
    """Choose whose decision to take next and the bot's action for it.  A pending decision whose deadline
    has passed is timed out instead, as the service's clock would do."""
    pending = game.to_act(state)
    p = rng.choice(pending)
    if p.deadline is not None and now >= p.deadline:
        return p.seat, {"type": "timeout"}
    return p.seat, game.bot_action(state, p.seat, rng)


def play(
    game: Game,
    seats: int,
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    bot_seed: int = 0,
    max_actions: int | None = None,
    start: float = 1_700_000_000.0,
    step_seconds: tuple[float, float] = (1.0, 30.0),
    on_state: Callable[[State], None] | None = None,
) -> Playout:
    """Play one table with bot players.  Time advances a random amount per action so that deadlines
    (live clocks) are exercised too.  Raises AssertionError if the engine refuses its own bot's move."""
    rng = random.Random(bot_seed)
    init = game.initial_state(seats, seed=seed, options=options, now=start)
    result = Playout(init.state, init.events)
    state, now = init.state, start
    bound = max_actions if max_actions is not None else game.max_actions
    if on_state:
        on_state(state)
    while game.outcome(state) is None:
        if len(result.steps) >= bound:
            result.cut = True
            break
        now = round(now + rng.uniform(*step_seconds), 3)
        seat, action = pick_move(game, state, rng, now)
        applied = game.apply(state, seat, action, now=now)
        if isinstance(applied, Rejection):
            raise AssertionError(f"{game.name}: engine refused its own legal move {action!r} by seat {seat} "
                                 f"at version {state['version']}: {applied}")
        assert isinstance(applied, Applied)
        state = applied.state
        result.steps.append({"seat": seat, "action": action, "now": now})
        result.states.append(state)
        if on_state:
            on_state(state)
    result.final = state
    return result


def replay(game: Game, initial: State, steps: list[dict[str, Any]]) -> list[State]:
    """Re-apply recorded steps from an initial state; every step must be accepted again."""
    states, state = [], initial
    for i, step in enumerate(steps):
        applied = game.apply(state, step["seat"], step["action"], now=step["now"])
        if isinstance(applied, Rejection):
            raise AssertionError(f"replay step {i} refused: {applied}")
        state = applied.state
        states.append(state)
    return states
