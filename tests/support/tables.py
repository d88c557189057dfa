"""Helpers for tests that run toy tables through the referee service."""
from __future__ import annotations

import random

from bot.engine import get_game
from bot.referee.service import Accepted


class Clock:
    def __init__(self, t: float = 1_700_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


async def new_toy(referee, players=("alice", "bob"), options=None, seed="seed-1", stack=None, moderator=False):
    table = await referee.create_table("toy", creator=f"u:{players[0]}", creator_name=players[0],
                                       options=options, origin="terminal")
    for p in players[1:]:
        assert isinstance(await referee.join(table.id, f"u:{p}", p), int)
    started = await referee.start(table.id, f"u:{players[0]}", seed=seed, stack=stack, moderator=moderator)
    assert isinstance(started, Accepted), started
    return table.id


async def play_one(referee, store, table_id):
    """Whoever must act plays their lowest card; returns the Accepted."""
    state = await store.state(table_id)
    seat = state["turn"]
    seats = await store.seats(table_id)
    card = min(state["hands"][seat])
    return await referee.act(table_id, seats[seat].user_id, {"type": "play", "card": card},
                             expected_version=state["version"])


PLAYERS = ("ann", "ben", "cid", "dan", "eve", "fay")


MOVES = 24   # a short playout: enough for hidden hands, draws and a few turns in every game


async def played_table(referee, store, clock, name, moves=MOVES, prefix="u:"):
    """A table of ``name`` (its least seats, at least two) played ``moves`` actions by the built-in bots, a
    minute apart (so that the times matter), or to its end."""
    game = get_game(name)
    seats = max(2, game.min_seats)
    table = await referee.create_table(name, creator=f"{prefix}ann", creator_name="ann", origin="terminal")
    for p in PLAYERS[1:seats]:
        assert isinstance(await referee.join(table.id, f"{prefix}{p}", p), int)
    assert isinstance(await referee.start(table.id, f"{prefix}ann", seed=f"positions-{name}"), Accepted)
    rng = random.Random(7)
    for _ in range(moves):
        state = await store.state(table.id)
        pending = game.to_act(state)
        if not pending:
            break
        seat = pending[0].seat
        clock.t += 60
        action = game.bot_action(state, seat, rng)
        assert isinstance(await referee.act(table.id, f"{prefix}{PLAYERS[seat]}", action, seat=seat), Accepted)
    return table.id
