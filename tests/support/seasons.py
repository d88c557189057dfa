"""A season of tables of every game played by the referee (tests/storage/test_season_backups.py,
tests/process/test_monitoring.py)."""
from __future__ import annotations

import random

from bot.engine import get_game
from bot.referee.service import Accepted, Referee

GAMES = ("claygod", "gwent", "raiders", "bridges", "bloodwood")


async def _tables(referee: Referee) -> list[int]:
    ids = []
    for name in GAMES:
        game = get_game(name)
        players = [f"cli:p{i}" for i in range(game.min_seats)]
        table = await referee.create_table(name, creator=players[0], creator_name="p0", origin="terminal")
        for i, user in enumerate(players[1:], 1):
            assert isinstance(await referee.join(table.id, user, f"p{i}"), int)
        assert isinstance(await referee.start(table.id, players[0], seed=f"season-{name}"), Accepted)
        ids.append(table.id)
    return ids


async def _moves(referee: Referee, table_ids: list[int], n: int, rng: random.Random) -> int:
    """Up to ``n`` bot-chosen moves at each table, as its players would make them."""
    made = 0
    store = referee.store
    for _ in range(n):
        for tid in table_ids:
            table = await store.get_table(tid)
            if table.status != "active":
                continue
            game, state = get_game(table.game), await store.state(tid)
            pending = game.to_act(state)
            seat = pending[0].seat
            seats = await store.seats(tid)
            result = await referee.act(tid, seats[seat].user_id, game.bot_action(state, seat, rng), seat=seat,
                                       expected_version=table.version)
            made += isinstance(result, Accepted)
    return made
