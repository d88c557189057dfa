"""Superseded turn messages: once a table moves on, the previous turn announcement loses its buttons, so only
the newest message of a thread looks live; the edit survives a crash and a refusal never holds up delivery."""
import logging

from tests.discord.harness import as_seen_now
from tests.discord.test_play import started_toy, user_to_act
from tests.discord.test_reliability import play_out


def live(fake, table):
    """The messages of the table's thread that still carry components."""
    return [m for m in fake.in_channel(table.thread_id) if m.components]


async def test_only_the_newest_turn_message_keeps_its_buttons_and_the_end_drops_them_all(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    seen: dict[str, str] = {}
    while (await h.table(table.id)).status == "active":
        newest = h.turn_message(table)
        assert live(fake, table) == [newest]
        assert newest.find(prefix="j:act:") and newest.find(prefix="j:hand:")
        seen.setdefault(newest.id, newest.content)
        await h.act(await user_to_act(h, table), table)
    assert live(fake, table) == []
    assert len(seen) >= 3
    for mid, content in seen.items():
        assert fake.messages[mid].content == content  # only the buttons went; the text is as it was


async def test_a_message_resent_after_a_crash_is_not_doubled_and_leaves_one_live_turn_message(harness):
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


async def test_a_refused_edit_is_logged_and_delivery_goes_on(harness, caplog):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    first = h.turn_message(table)
    clicked_late = as_seen_now(first)
    fake.fail("PATCH", rf"^/api/v10/channels/{table.thread_id}/messages/{first.id}$", 403, code=50001)
    with caplog.at_level(logging.WARNING, logger="judge.discord.delivery"):
        await h.act(await user_to_act(h, table), table)
    assert any("retire" in r.getMessage() and "403" in r.getMessage() for r in caplog.records)
    pending = await h.store.conn.execute_fetchall(
        "SELECT COUNT(*) FROM outbox WHERE table_id = ? AND status != 'sent' AND target = 'table'", (table.id,))
    assert pending[0][0] == 0
    second = h.turn_message(table)
    assert second.id != first.id and first.components  # the old message kept its buttons...
    refusal = await h.open_choices(await user_to_act(h, table), table, message=clicked_late)
    assert "устарело" in refusal.content  # ...which are refused as stale
    await h.act(await user_to_act(h, table), table)
    assert not second.components  # the next edit went through as usual


async def test_a_rollback_pings_the_decision_it_asks_again(relay, harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "relay", options="choices=3 rounds=2")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    # picks and reactions: Alice picks, Bob reacts, Bob picks, Alice reacts, Alice picks, Bob reacts, Bob picks
    for user in (h.alice, h.bob, h.bob, h.alice, h.alice, h.bob):
        assert h.turn_message(table).pinged == [user.id]
        await h.act(user, table)
    turn = h.turn_message(table)
    assert (await h.table(table.id)).version == 6 and turn.pinged == [h.bob.id] and "pick" in \
        (await h.open_choices(h.bob, table)).text

    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "mod rollback", table=table.id, version=2, reason="replay")).answer()
    await h.settled()
    turn = h.turn_message(table)  # Bob is asked to pick, as just before: a rollback pings anyway
    assert turn.pinged == [h.bob.id] and "replay" in turn.content
