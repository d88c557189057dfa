"""Every game registered with the core plays through the fake Discord with no game-specific Discord code:
two people and bot players for the other seats, a stretch of moves through the buttons, private events
kept private."""
import importlib

import pytest

from bot.engine.registry import GAME_MODULES
from tests.discord.harness import assert_private_stays_private, random_choice
from tests.discord.support import user_to_act

GAMES = [importlib.import_module(module).GAME for module in GAME_MODULES]
HUMAN_MOVES = 30


@pytest.mark.long
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
async def test_a_game_plays_through_the_buttons(harness, game):
    h = harness
    table = await h.new_table(h.alice, game.name, bots=max(0, game.min_seats - 2))
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    choose = random_choice(game.name)
    for _ in range(HUMAN_MOVES):
        if (await h.table(table.id)).status != "active":
            break
        await h.act(await user_to_act(h, table), table, choose)
    assert (await h.table(table.id)).version >= HUMAN_MOVES or (await h.table(table.id)).status == "finished"
    seats = await h.store.seats(table.id)
    users = [None if s.is_bot else h.fake.users[s.user_id.split(":")[1]] for s in seats]
    await assert_private_stays_private(h, table, users)
