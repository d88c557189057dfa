"""Helpers for tests that run toy tables through the referee service."""
from __future__ import annotations

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
