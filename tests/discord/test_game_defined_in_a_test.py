"""A game no file of bot/ or cogs/ names (tests/engine/toygame.py), registered by the test alone, played through
the fake Discord from ``/game new`` to the end with its facts and hooks only: its title from the strings it
brought, its pictures drawn by its own hook."""
from __future__ import annotations

import pytest

from tests.discord.support import user_to_act
from tests.engine.toygame import NAME, registered_card_duel


@pytest.fixture
def duel():
    """The game registered for one test (listed before ``harness``, so that the bot sees it)."""
    with registered_card_duel() as game:
        yield game


async def test_discord_from_game_new_to_the_end(duel, harness):
    h = harness
    table = await h.new_table(h.alice, NAME)
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    for _ in range(20):
        if (await h.table(table.id)).status != "active":
            break
        await h.act(await user_to_act(h, table), table)
    assert (await h.table(table.id)).status == "finished"
    thread = h.fake.in_channel(table.thread_id)
    assert any("Дуэль карт" in m.content for m in thread)  # the game's title, from the strings it brought
    assert any(m.attachments for m in thread)  # the table's picture, drawn by the game's hook
