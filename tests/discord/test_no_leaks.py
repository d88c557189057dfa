"""Red-team probes of "hidden information never reaches anyone who may not see it" through the fake Discord:
what a thread shows while players decide in private, refusals, and the labels of the buttons."""
from tests.discord.harness import choice_labels


async def _gwent_at_mulligans(h, monkeypatch):
    monkeypatch.setattr("bot.service.new_seed", lambda: "gwent-no-leaks")
    table = await h.new_table(h.alice, "gwent", options="variant=hardgwent faction_a=monsters faction_b=nilfgaard")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    assert (await h.store.state(table.id))["phase"] == "mulligan"
    return table


async def _choose(h, user, table, wanted):
    legal = await h.bot.referee.legal(table.id, f"discord:{user.id}")
    index = next(i for i, action in enumerate(legal[2]) if wanted(action))
    return await h.act(user, table, lambda n: index)


async def test_a_thread_does_not_count_the_cards_a_player_exchanges(harness, monkeypatch):
    """Gwent mulligans are secret: while Alice exchanges two cards, nothing is posted in the thread (a post
    per exchange would tell Bob how many), and Bob's Act button on the last post still opens his choices."""
    h, fake = harness, harness.fake
    table = await _gwent_at_mulligans(h, monkeypatch)
    posted = len(fake.in_channel(table.thread_id))
    asked = h.turn_message(table)
    for _ in range(2):
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_give")
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_take")
    assert len(fake.in_channel(table.thread_id)) == posted
    assert h.turn_message(table) is asked
    bob = await h.open_choices(h.bob, table)
    assert choice_labels(bob), bob.text                      # not refused as stale
    await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_done")
    assert len(fake.in_channel(table.thread_id)) == posted + 1  # the end of her mulligans is public
