"""The thread keeps the game's rhythm (issue 27, item 3): the live message's lines carry the log's move numbers,
the one numbering of the log, disputes and rollbacks, and strike out the moves a rollback undid; the end post gives
what the last step showed and the result once, nothing clipped."""
from tests.discord.support import started_toy, user_to_act
from tests.discord.support import play_out


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
    # (names isolated, U+2068 … U+2069, as every name in a message)
    assert "▸ 1. \u2068Alice\u2069 picked" in live.content and "▸ 2. \u2068Bob\u2069 chose" in live.content \
        and "▸ 3. \u2068Bob\u2069 picked" in live.content

    await (await fake.slash(moderator, "mod rollback", table=table.id, move=1, reason="misclick")).answer()
    await h.settled()
    live = fake.in_channel(table.thread_id)[0]
    assert "▸ ~~2. \u2068Bob\u2069 chose" in live.content and "▸ ~~3. \u2068Bob\u2069 picked" in live.content
    assert "▸ 1. \u2068Alice\u2069 picked" in live.content
    await h.act(await user_to_act(h, table), table)
    await h.settled()
    live = fake.in_channel(table.thread_id)[0]
    assert "▸ 2. \u2068Bob\u2069 chose" in live.content and "▸ ~~2. \u2068Bob\u2069 chose" in live.content  # 2 again
    log = await (await fake.slash(h.alice, "table log", table=table.id)).text()
    assert "~~2. \u2068Bob\u2069 chose" in log and "**2.** \u2068Bob\u2069 chose" in log


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


async def test_a_rounds_end_gets_a_post_with_the_public_table_as_it_stood_and_never_twice(relay, harness, monkeypatch):
    h, fake = harness, harness.fake
    # the relay game's "round" ends when a pick is doubled: the table as it stood before that step
    monkeypatch.setattr(type(relay), "milestone",
                        lambda self, e: "before" if e["kind"] == "reacted" and e["data"]["how"] == "double" else None)
    table = await h.new_table(h.alice, "relay", options="choices=3 rounds=3")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    await h.act(await user_to_act(h, table), table, lambda n: 0)      # Alice picks 1
    await h.act(await user_to_act(h, table), table, lambda n: n - 1)  # Bob doubles it: the mark
    await h.settled()
    posts = [m for m in fake.in_channel(table.thread_id) if m.content.startswith("📋")]
    assert len(posts) == 1
    assert "\u2068Bob\u2069 chose double" in posts[0].content and "picks=[1] total=1 secret=None" in posts[0].content
    assert "secret number" not in posts[0].content  # the public table only
    await h.act(await user_to_act(h, table), table, lambda n: 0)
    await h.settled()
    assert len([m for m in fake.in_channel(table.thread_id) if m.content.startswith("📋")]) == 1

    # the bot died after Discord took the post, before the outbox recorded the step: not posted again
    (row,) = await h.store.conn.execute_fetchall(
        "SELECT id FROM outbox WHERE table_id = ? AND version = 2 AND target = 'table'", (table.id,))
    fake.nonce_window = 0.0
    await h.store.conn.execute("UPDATE panels SET version = 1, posted = 1 WHERE table_id = ? AND seat = -1",
                               (table.id,))
    await h.store.conn.commit()
    await h.unrecord(row[0])
    await h.restart()
    await h.settled()
    assert len([m for m in fake.in_channel(table.thread_id) if m.content.startswith("📋")]) == 1


def test_the_games_mark_their_rounds_and_days():
    from bot.engine import get_game

    assert get_game("gwent").milestone({"kind": "round_end", "data": {}}) == "before"
    assert get_game("bloodwood").milestone({"kind": "phase", "data": {"phase": "night"}}) == "after"
    assert get_game("bloodwood").milestone({"kind": "phase", "data": {"phase": "day"}}) is None
    # a Bridges round's board is the live message's, edited (issue 35): no post of its own
    assert get_game("bridges").milestone({"kind": "round", "data": {"round": 2}}) is None
    assert get_game("raiders").milestone({"kind": "captured", "data": {}}) == "after"
    assert get_game("claygod").milestone({"kind": "turn_started", "data": {}}) is None
