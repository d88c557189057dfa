"""The end of a table: once the finish (or cancellation) message is posted, the table's thread is archived
(not locked: that needs Manage Threads, which the invite does not grant); a failure there never fails delivery."""
import logging

import pytest

from tests.discord.fake_discord import until
from tests.discord.support import started_toy
from tests.discord.support import play_out


def metadata(fake, table):
    return fake.channels[table.thread_id]["thread_metadata"]


async def test_a_finished_tables_thread_is_archived_after_the_result_is_posted(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    assert not metadata(fake, table)["archived"]
    await play_out(h, table)
    await h.settled()
    assert "🏆" in fake.in_channel(table.thread_id)[-1].content
    # a post reopens an archived thread (in the fake as in Discord): still archived means it came after
    assert metadata(fake, table) == {**metadata(fake, table), "archived": True, "locked": False}
    assert fake.thread_edits == [(table.thread_id, {"archived": True})]
    assert "🏁" in h.lobby(table).content


async def test_cancelled_tables_are_archived_whether_they_had_started_or_not(harness):
    h, fake = harness, harness.fake
    started = await started_toy(h)
    await (await fake.slash(h.alice, "game cancel", channel_id=started.thread_id)).answer()
    await h.settled()
    assert "отменён" in fake.in_channel(started.thread_id)[-1].content
    assert metadata(fake, started)["archived"]

    lobby = await h.new_table(h.alice, "toy")
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "mod cancel", table=lobby.id, reason="no players")).answer()
    await until(lambda: metadata(fake, lobby)["archived"], what="the lobby's thread archived after the answer")
    assert "✖️" in h.lobby(lobby).content


async def test_a_refused_archive_is_logged_and_the_result_still_counts_as_delivered(harness, caplog):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    fake.fail("PATCH", rf"^/api/v10/channels/{table.thread_id}$", 403, code=50013)
    with caplog.at_level(logging.WARNING, logger="judge.discord"):
        await play_out(h, table)
        await h.settled()
    assert any("archive" in r.getMessage() and "403" in r.getMessage() for r in caplog.records)
    assert not metadata(fake, table)["archived"]
    unsent = await h.store.conn.execute_fetchall("SELECT COUNT(*) FROM outbox WHERE status != 'sent'")
    assert unsent[0][0] == 0 and "🏆" in fake.in_channel(table.thread_id)[-1].content


@pytest.mark.parametrize("window", [180.0, 0.0], ids=["within the nonce window", "past it"])
async def test_a_result_resent_after_a_crash_is_not_doubled_and_the_thread_ends_archived(harness, window):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await play_out(h, table)
    await h.settled()
    finish = (await h.store.conn.execute_fetchall(
        "SELECT id FROM outbox WHERE table_id = ? AND kind = 'finish'", (table.id,)))[0][0]
    await h.unrecord(finish)  # the bot also archived the thread before it died
    posted = len(fake.messages)
    fake.nonce_window = window  # past it, the bot finds the result in the thread itself
    await h.restart()
    await h.settled()
    assert len(fake.messages) == posted
    # the re-send was answered with the message Discord had (or found in the thread): nothing reopened the
    # thread, so it was neither edited nor archived again
    assert metadata(fake, table)["archived"] and len(fake.thread_edits) == 1


async def test_a_moderator_post_reopens_the_archived_thread_of_a_finished_table(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await play_out(h, table)
    await h.settled()
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "mod ruling", table=table.id, text="Итог подтверждён.")).answer()
    await h.settled()
    assert "Итог подтверждён." in fake.in_channel(table.thread_id)[-1].content
    assert not metadata(fake, table)["archived"]  # reopened by the post, as Discord does; nothing locked it


async def test_a_private_message_after_the_end_leaves_the_thread_archived(harness):
    from bot.storage.store import Message

    h, fake = harness, harness.fake
    table = await started_toy(h)
    await play_out(h, table)
    await h.settled()
    fake.dm_blocked.add(h.bob.id)
    table = await h.table(table.id)
    # a private message after the last move (as a finishing move with private events sends)
    await h.store.enqueue(table.id, table.version, [Message("seat", "private", {
        "version": table.version, "events": [], "view": (await h.bot.referee.view(table.id, None))[0]}, seat=1)],
        h.clock())
    h.bot.referee.changed.set()
    await h.settled()
    # Bob's control message already shows the end: nothing is sent, nothing is posted in the archived thread
    assert fake.dm_refusals == {}
    assert metadata(fake, table)["archived"] and "🏆" in fake.in_channel(table.thread_id)[-1].content


async def test_a_rollback_of_a_finished_table_reopens_its_thread_and_the_end_archives_it_again(harness):
    from tests.discord.support import live

    h, fake = harness, harness.fake
    table = await started_toy(h)
    await play_out(h, table)
    await h.settled()
    assert metadata(fake, table)["archived"] and "🏁" in h.lobby(table).content
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "mod rollback", table=table.id, move=1, reason="disputed end",
                            reopen=True)).answer()
    await h.settled()
    assert (await h.table(table.id)).status == "active"
    assert not metadata(fake, table)["archived"]  # the rollback's post reopened it
    assert live(fake, table) == [h.turn_message(table)] and "▶️" in h.lobby(table).content
    await play_out(h, table)
    await h.settled()
    assert metadata(fake, table)["archived"] and live(fake, table) == [] and "🏁" in h.lobby(table).content


async def test_a_discord_that_does_not_answer_the_cosmetic_edits_delays_delivery_only_briefly(harness, monkeypatch,
                                                                                             caplog):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.discord.client.THREAD_EDIT_TIMEOUT", 0.2)
    table = await started_toy(h)
    fake.fail("PATCH", rf"^/api/v10/channels/{table.thread_id}$", 504, times=100, stall=1)  # archiving stalls
    with caplog.at_level(logging.WARNING, logger="judge.discord"):
        await play_out(h, table)
        await h.settled()
    warned = [r.getMessage() for r in caplog.records]
    assert any("archive" in m and "TimeoutError" in m for m in warned)
    assert "🏆" in fake.in_channel(table.thread_id)[-1].content and not metadata(fake, table)["archived"]
    unsent = await h.store.conn.execute_fetchall("SELECT COUNT(*) FROM outbox WHERE status != 'sent'")
    assert unsent[0][0] == 0
