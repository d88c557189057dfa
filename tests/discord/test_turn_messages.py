"""The live table message: one message per table, edited after every move (its buttons follow the table's
version), pinged decisions in short posts, the end dropping its buttons; a crash or a refused edit never
leaves two live messages or a stale one for good."""
from tests.discord.support import live, play_out, started_toy, user_to_act


async def test_one_live_message_is_edited_after_every_move_and_the_end_drops_its_buttons(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    first = h.turn_message(table)
    shown = len(first.history)
    while (await h.table(table.id)).status == "active":
        assert live(fake, table) == [first]
        version = (await h.table(table.id)).version
        assert first.find(prefix="j:act:")["custom_id"] == f"j:act:{table.id}:{version}"
        await h.act(await user_to_act(h, table), table)
        assert len(first.history) > shown  # edited, not posted again
        shown = len(first.history)
    assert live(fake, table) == [] and "🏆" in first.content
    posts = [m for m in fake.in_channel(table.thread_id) if not m.ephemeral_for][1:]
    assert posts and all(len(m.content) <= 300 and len(m.content.splitlines()) <= 3 for m in posts)


async def test_a_message_resent_after_a_crash_is_not_doubled_and_leaves_one_live_message(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    await h.act(await user_to_act(h, table), table)
    latest = (await h.store.conn.execute_fetchall(
        "SELECT id FROM outbox WHERE table_id = ? AND target = 'table' ORDER BY id DESC LIMIT 1", (table.id,)))[0][0]
    await h.unrecord(latest)
    posted = len(fake.messages)
    await h.restart()
    await h.settled()
    assert len(fake.messages) == posted
    assert live(fake, table) == [h.turn_message(table)]
    await play_out(h, table)
    assert live(fake, table) == []


async def test_a_refused_edit_is_recorded_for_moderators_and_the_next_move_catches_up(harness, error_log):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    first = h.turn_message(table)
    fake.fail("PATCH", rf"^/api/v10/channels/{table.thread_id}/messages/{first.id}$", 403, code=50001)
    await h.act(await user_to_act(h, table), table)
    assert [f[1] for f in await h.store.failed_messages()] == [table.id]
    assert [r.name for r in error_log.records] == ["judge.delivery"]
    error_log.records.clear()
    await h.act(await user_to_act(h, table), table)
    version = (await h.table(table.id)).version
    assert first.find(prefix="j:act:")["custom_id"] == f"j:act:{table.id}:{version}"  # up to date again
    assert live(fake, table) == [first]


async def test_pings_follow_the_decision_and_a_rollback_pings_what_it_asks_again(relay, harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "relay", options="choices=3 rounds=2")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    assert h.new_pings(table) == []  # the start asks Alice to pick: she clicked Start, so no ping
    # picks and reactions: Alice picks, Bob reacts, Bob picks, Alice reacts, Alice picks, Bob reacts: a player
    # is pinged when the decision comes to them from someone else, never right after their own click
    for user, then_pinged in ((h.alice, [h.bob]), (h.bob, []), (h.bob, [h.alice]), (h.alice, []),
                              (h.alice, [h.bob]), (h.bob, [])):
        await h.act(user, table)
        assert h.new_pings(table) == [u.id for u in then_pinged], user.name
    assert (await h.table(table.id)).version == 6 and "pick" in (await h.open_choices(h.bob, table)).text

    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "mod rollback", table=table.id, move=2, reason="replay")).answer()
    await h.settled()
    post = [m for m in fake.in_channel(table.thread_id) if not m.ephemeral_for][-1]
    assert h.new_pings(table) == [h.bob.id] and "replay" in post.content  # asked again: pinged again
