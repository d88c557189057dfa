"""The rendered outbox: what the terminal and Discord actually print."""
import pytest

from bot.engine import get_game
from bot.render.text import outcome_line, render_message


@pytest.mark.parametrize("game_name, bots", [("claygod", 2), ("gwent", 2), ("bloodwood", 5)])
async def test_the_finish_message_names_the_winner_once(env, game_name, bots):
    store, referee, _ = env
    table = await referee.create_table(game_name, creator="u:host", creator_name="Host", join=False)
    for _ in range(bots):
        await referee.add_bot(table.id)
    await referee.start(table.id, "u:host", seed="render-finish")
    await referee.drive_bots(table.id)
    row = await store.get_table(table.id)
    assert row.status == "finished"
    game = get_game(game_name)
    names = [s.name for s in await store.seats(table.id)]
    finish = [m for m in await store.pending_messages(limit=100_000) if m.kind == "finish"]
    assert len(finish) == 1
    text = render_message(game, "finish", finish[0].payload, names=names, locale="ru", table_id=table.id)
    line = outcome_line(game, row.outcome, "ru", names)
    assert text.count(line) == 1
    assert text.count("🏆") <= 1, text
    assert "render-finish" in text   # the seed is revealed with the result
