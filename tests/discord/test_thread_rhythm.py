"""The thread keeps the game's rhythm (issue 27, item 3): the live message's lines carry the log's move numbers,
the one numbering of the log, disputes and rollbacks, and strike out the moves a rollback undid; the end post gives
what the last step showed and the result once, nothing clipped."""
from tests.discord.test_play import started_toy, user_to_act
from tests.discord.test_reliability import play_out
from tests.support.tables import play_one


async def test_the_live_message_numbers_moves_as_the_log_and_strikes_out_what_a_rollback_undid(relay, harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await h.new_table(h.alice, "relay", options="choices=3 rounds=3")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    for _ in range(3):
        await h.act(await user_to_act(h, table), table)
    await h.settled()
    live = fake.in_channel(table.thread_id)[0]
    assert "▸ 1. Alice picked" in live.content and "▸ 2. Bob chose" in live.content and "▸ 3. Bob picked" in live.content

    await (await fake.slash(moderator, "mod rollback", table=table.id, move=1, reason="misclick")).answer()
    await h.settled()
    live = fake.in_channel(table.thread_id)[0]
    assert "▸ ~~2. Bob chose" in live.content and "▸ ~~3. Bob picked" in live.content
    assert "▸ 1. Alice picked" in live.content
    await h.act(await user_to_act(h, table), table)
    await h.settled()
    live = fake.in_channel(table.thread_id)[0]
    assert "▸ 2. Bob chose" in live.content and "▸ ~~2. Bob chose" in live.content  # 2 again, as in the log
    log = await (await fake.slash(h.alice, "table log", table=table.id)).text()
    assert "~~2. Bob chose" in log and "**2.** Bob chose" in log


async def test_the_end_post_gives_the_result_once_without_a_count_of_earlier_lines(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await play_out(h, table)
    await h.settled()
    end = fake.in_channel(table.thread_id)[-1].content
    print(end)
    assert "🏆" in end and "ранее" not in end and "…" not in end
    assert end.count("🏆") == 1


def test_the_end_post_keeps_a_long_reveal_whole():
    from bot.discord.panels import end_post

    roles = "Роли открыты: " + ", ".join(f"Player{i} — Dracula the Elder" for i in range(12)) + "."
    text = end_post([roles], "🏆 Победа: Player1, Player2.", ["-# Зерно: `x`"])
    assert roles in text and text.count("🏆") == 1 and len(text) <= 2000
    huge = end_post(["x" * 1800, roles], "🏆 r", [])
    assert roles in huge and "x" * 1800 not in huge  # the oldest line gives way, not the reveal
