"""Restarts, crashes between sending and recording, races, Discord's errors and deadlines, closed DMs."""
import asyncio

import pytest

from tests.discord.fake_discord import until
from tests.discord.harness import eventually
from tests.discord.support import play_out, record_of_a_game, started_toy, user_to_act


async def test_a_restart_mid_game_keeps_old_buttons_working_and_sends_nothing_twice(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    turn = h.turn_message(table)
    posted = len(fake.messages)

    await h.restart()
    await h.settled()
    assert len(fake.messages) == posted and fake.connections == 2

    acting = await user_to_act(h, table)
    choices = await h.open_choices(acting, table, message=turn)  # a button from before the restart
    await h.pick(acting, choices, 0)
    assert "✔" in choices.content
    await h.settled()
    await play_out(h, table)
    assert (await h.table(table.id)).status == "finished"


async def test_messages_committed_while_the_bot_was_down_are_delivered_once_after_the_restart(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    start_message = (await h.store.conn.execute_fetchall(
        "SELECT id, external_id FROM outbox WHERE table_id = ? AND target = 'table'", (table.id,)))[0]
    await h.unrecord(start_message[0])
    await h.stop_bot()

    # meanwhile a move is recorded (say from the terminal): its messages wait in the outbox
    from bot.referee.service import Referee
    from bot.storage.store import Store
    store = await Store.open(h.db)
    state = await store.state(table.id)
    seats = await store.seats(table.id)
    seat = state["turn"]
    await Referee(store, clock=h.clock).act(table.id, seats[seat].user_id, {"type": "play",
                                                                          "card": state["hands"][seat][0]})
    await store.close()
    before = len(fake.in_channel(table.thread_id))

    await h.start_bot()
    await h.settled()
    thread = fake.in_channel(table.thread_id)
    assert len(thread) == before  # the start message not again; the move edits the live message
    assert "table=[" in thread[0].content and thread[0].history[-1] != thread[0].history[0]
    following = h.alice if seat == 1 else h.bob
    # one control message each, the next player's posted anew, not twice (their first one stays: no living token
    # to delete it with, and an ordinary deletion would be a third rate-limited call for the move: issue 35)
    for user in (h.alice, h.bob):
        assert len(fake.dms(user)) == (2 if user is following else 1)
    row = (await h.store.conn.execute_fetchall("SELECT status, external_id FROM outbox WHERE id = ?",
                                               (start_message[0],)))[0]
    assert tuple(row) == ("sent", start_message[1])


async def test_concurrent_clicks_on_one_decision_apply_exactly_once(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    acting = await user_to_act(h, table)
    first, second = await h.open_choices(acting, table), await h.open_choices(acting, table)
    clicks = [await fake.click(acting, first, prefix="j:do:"),
              await fake.click(acting, second, custom_id=second.items()[1]["custom_id"]),
              await fake.click(acting, first, prefix="j:do:")]  # a double click
    await asyncio.gather(*(ix.answer() for ix in clicks))
    await h.settled()
    assert (await h.table(table.id)).version == 1
    assert len(await h.store.actions(table.id)) == 1
    outcomes = [ix.shown[-1] for ix in clicks]
    assert sum("✔" in text for text in outcomes) == 1
    assert sum("ушёл вперёд" in text for text in outcomes) == 2


async def test_rate_limits_and_server_errors_are_retried_without_duplicates(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)
    in_thread = rf"^/api/v10/channels/{table.thread_id}/messages$"
    fake.fail("POST", in_thread, 429, headers={"Via": "1.1 google", "X-RateLimit-Scope": "user"},
              body={"message": "You are being rate limited.", "retry_after": 0.05, "global": False})
    fake.fail("POST", in_thread, 503)  # not retried by discord.py: the outbox retries it
    await h.start(h.alice, table)
    await h.settled(timeout=10)
    acting = await user_to_act(h, table)
    following = h.bob if acting is h.alice else h.alice
    # the move posts the next player's control message anew in their DMs: retried by discord.py after a second
    fake.fail("POST", rf"^/api/v10/channels/{fake.dm_channel(following)}/messages$", 500)
    await h.act(acting, table)
    await h.settled(timeout=10)
    thread = fake.in_channel(table.thread_id)
    assert len(thread) == 1 and "🎲" in thread[0].content
    # posted once, after its retries (the first control message stays: no living token to delete it with)
    assert len(fake.dms(following)) == 2 and fake.dms(following)[-1].find(prefix="j:do:")
    failed = await h.store.conn.execute_fetchall("SELECT COUNT(*) FROM outbox WHERE status != 'sent'")
    assert failed[0][0] == 0


async def test_other_failures_are_recorded_and_shown_to_moderators(harness, error_log):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)
    fake.fail("POST", rf"^/api/v10/channels/{table.thread_id}/messages$", 403, code=50013)  # Missing Permissions
    await h.start(h.alice, table)
    failed = await h.store.failed_messages()
    assert [f[1] for f in failed] == [table.id]
    assert [r.name for r in error_log.records] == ["judge.delivery"]
    error_log.records.clear()

    reply = await (await fake.slash(h.alice, "mod failures")).text()
    assert "только для модераторов" in reply
    moderator = fake.add_user("Mod", moderator=True)
    reply = await (await fake.slash(moderator, "mod failures")).text()
    assert f"стол №{table.id}" in reply and "403" in reply


async def test_slow_work_is_deferred_within_the_deadline(harness, monkeypatch):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    fake.deadline = 0.3
    slow_legal = h.bot.referee.legal

    async def legal(*args, **kwargs):
        await asyncio.sleep(0.5)  # an engine or a database taking longer than the deadline
        return await slow_legal(*args, **kwargs)

    monkeypatch.setattr(h.bot.referee, "legal", legal)
    choices = await h.open_choices(await user_to_act(h, table), table)
    assert choices.find(prefix="j:do:")  # answered after the deadline, through the deferred response


async def test_closed_dms_are_remembered_told_once_and_the_hand_button_is_the_fallback(harness):
    h, fake = harness, harness.fake
    fake.dm_blocked.add(h.bob.id)
    table = await started_toy(h)
    assert fake.dm_refusals == {h.bob.id: 1}
    notices = [m for m in fake.in_channel(table.thread_id)
               if h.bob.mention in m.content and "Моя рука" in m.content]
    assert len(notices) == 1 and notices[0].pinged == [h.bob.id]
    state = await h.store.state(table.id)
    assert str(state["hands"][1]) not in notices[0].content
    assert (await h.store.user(f"discord:{h.bob.id}"))["dm_closed"] == 1

    # a rollback sends every seat its view again: no new DM attempt for Bob, no second notice
    moderator = fake.add_user("Mod", moderator=True)
    await h.act(await user_to_act(h, table), table)
    await (await fake.slash(moderator, "mod rollback", table=table.id, move=0, reason="test")).answer()
    await h.settled()
    assert fake.dm_refusals == {h.bob.id: 1}
    assert len(fake.dms(h.alice)) == 2  # Alice's control message posted anew once (the old one stays), not twice
    assert len([m for m in fake.in_channel(table.thread_id) if "Моя рука" in m.content and
                h.bob.mention in m.content]) == 1

    ix = await fake.click(h.bob, h.turn_message(table), prefix="j:hand:")
    assert f"hand={state['hands'][1]}" in (await ix.answer()).text

    # joining another table is a fresh chance: Bob may have opened his DMs since
    fake.dm_blocked.clear()
    other = await h.new_table(h.alice, "toy")
    await h.join(h.bob, other)
    await h.start(h.alice, other)
    assert len(fake.dms(h.bob)) == 1 and (await h.store.user(f"discord:{h.bob.id}"))["dm_closed"] == 0


async def test_a_missed_deadline_is_played_by_the_clock_and_announced(harness):
    h = harness
    table = await h.new_table(h.alice, "toy", options="turn_seconds=60")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    h.clock.t += 61
    await eventually(lambda: h.store.actions(table.id), what="the clock to play the timeout")
    await h.settled()
    action = (await h.store.actions(table.id))[0]
    assert action.user_id == "system" and action.action == {"type": "timeout"}
    assert h.turn_message(table).find(prefix="j:act:")["custom_id"].endswith(":1")


async def test_a_table_interrupted_by_a_restart_has_the_same_record_as_one_played_straight(harness, monkeypatch):
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "the-same-seed")
    straight = await record_of_a_game(harness, "toy", restart_after=None)
    interrupted = await record_of_a_game(harness, "toy", restart_after=2)
    assert straight == interrupted and len(straight[0]) > 2


async def test_a_bug_behind_a_button_or_a_command_still_gets_the_player_an_answer(harness, error_log, monkeypatch):
    h, fake = harness, harness.fake
    table = await started_toy(h)

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(h.bot.get_cog("Play"), "on_act", broken)
    reply = await h.open_choices(await user_to_act(h, table), table)
    assert "Внутренняя ошибка" in reply.content and reply.ephemeral_for
    monkeypatch.setattr(h.bot.store, "find_tables", broken)
    assert "Внутренняя ошибка" in await (await fake.slash(h.alice, "game list")).text()
    assert {r.name for r in error_log.records} == {"judge.discord.components", "judge.discord"}
    error_log.records.clear()


async def test_a_select_menu_opened_before_a_restart_still_works_after_it(relay, harness):
    h = harness
    table = await h.new_table(h.alice, "relay")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    choices = await h.open_choices(h.alice, table)
    assert len([c for c in choices.items() if c["custom_id"].startswith("j:pick:")]) == 2

    await h.restart()
    await h.pick(h.alice, choices, 37)  # in the second menu, opened before the restart
    await h.settled()
    assert "✔ pick 38" in choices.content
    assert (await h.store.actions(table.id))[0].action == {"type": "pick", "n": 38}


async def test_lobby_buttons_and_show_my_hand_work_after_a_restart(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.restart()
    await h.join(h.bob, table)  # the lobby message's buttons, from before the restart
    assert h.bob.mention in h.lobby(table).content
    await h.start(h.alice, table)
    turn = h.turn_message(table)
    await h.restart()
    ix = await fake.click(h.bob, turn, prefix="j:hand:")
    state = await h.store.state(table.id)
    assert f"hand={state['hands'][1]}" in (await ix.answer()).text


# ------------------------------------------------------------------ a crash between Discord taking and recording
# Discord deduplicates a nonce for a few minutes (the fake: nonce_window seconds); past that, the bot must find
# what it already delivered itself.  Each test runs inside the window and past it (window 0).
WINDOWS = pytest.mark.parametrize("window", [180.0, 0.0], ids=["within the nonce window", "past it"])


async def outbox(h, table, **where):
    clauses = " AND ".join(f"{k} = ?" for k in where)
    return await h.store.conn.execute_fetchall(
        f"SELECT id, target, seat, kind, status, external_id FROM outbox WHERE table_id = ?"
        f"{' AND ' + clauses if clauses else ''} ORDER BY id", (table.id, *where.values()))


def everything_seen(fake):
    """Every message anyone sees (channels, threads, DMs), with its text: a duplicate would show here."""
    return sorted((m.channel_id, m.id, m.text) for m in fake.messages.values() if not m.ephemeral_for)


@WINDOWS
async def test_posts_edits_and_dms_taken_just_before_a_crash_show_once(harness, window):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    start_post = h.turn_message(table)
    await h.act(await user_to_act(h, table), table)
    rows = await outbox(h, table)
    assert {r[1] for r in rows} == {"table", "seat"}  # the start's post and DMs, the move's post
    for row in rows:  # Discord took every one of them; the outbox recorded none
        await h.unrecord(row[0])
    seen = everything_seen(fake)
    fake.nonce_window = window
    await h.restart()
    await h.settled()
    assert everything_seen(fake) == seen
    # all delivered (a message delivered again names the message it found or edited)
    assert [tuple(r[:5]) for r in await outbox(h, table)] == [(*r[:4], "sent") for r in rows]
    assert h.turn_message(table).id == start_post.id  # still the one live message
    acting = await user_to_act(h, table)
    assert (await h.open_choices(acting, table)).find(prefix="j:do:")  # play goes on from the live message


@WINDOWS
async def test_the_closed_dm_notice_is_told_once_across_a_crash(harness, window):
    h, fake = harness, harness.fake
    fake.dm_blocked.add(h.bob.id)
    table = await started_toy(h)

    def notices():
        return [m for m in fake.in_channel(table.thread_id) if h.bob.mention in m.content and "Моя рука" in m.content]

    assert len(notices()) == 1
    # the bot died after posting the notice, before recording that Bob was told and the DM as done
    await h.store.set_user(f"discord:{h.bob.id}", dm_notice=0)
    bobs = [r for r in await outbox(h, table, target="seat") if r[2] == 1]
    await h.unrecord(bobs[0][0])
    fake.nonce_window = window
    await h.restart()
    await h.settled()
    assert len(notices()) == 1 and fake.dm_refusals == {h.bob.id: 1}
    assert (await h.store.user(f"discord:{h.bob.id}"))["dm_notice"] == 1


@WINDOWS
async def test_a_notice_remembered_but_never_posted_before_a_crash_is_posted_after_it(harness, window):
    h, fake = harness, harness.fake
    fake.dm_blocked.add(h.bob.id)
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)
    # the bot learnt Bob's DMs are closed and died before telling him: the notice must still come, once
    await h.store.set_user(f"discord:{h.bob.id}", dm_closed=1, dm_notice=0)
    fake.nonce_window = window
    await h.start(h.alice, table)
    notices = [m for m in fake.in_channel(table.thread_id) if h.bob.mention in m.content and "Моя рука" in m.content]
    assert len(notices) == 1 and fake.dm_refusals == {}


async def test_a_message_deleted_after_it_was_taken_is_not_posted_again_within_the_window(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    start = (await outbox(h, table, kind="start"))[0]
    fake.remove_message(start[5])  # a moderator deletes it; the outbox never learnt it was sent
    await h.unrecord(start[0])
    await h.restart()
    await h.settled()
    assert fake.in_channel(table.thread_id) == []  # Discord answered 404 for the nonce: delivered, then deleted
    assert (await outbox(h, table, kind="start"))[0][4] == "sent" and await h.store.failed_messages() == []


@pytest.mark.long
@WINDOWS
@pytest.mark.parametrize("target", ["thread", "dm"])
async def test_a_slow_send_cut_by_a_stop_shows_once_after_the_restart(harness, window, target):
    """Discord takes the message but answers late; the bot is stopped before the answer arrives."""
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)
    channel = table.thread_id if target == "thread" else fake.open_dm(h.alice)
    fake.accept_slowly("POST", rf"^/api/v10/channels/{channel}/messages$", 5.0)
    await (await fake.click(h.alice, h.lobby(table), prefix="j:start:")).answer()
    await until(lambda: fake.in_channel(channel), what="Discord to take the message")
    await h.stop_bot()  # before the answer: the outbox still says pending
    fake.nonce_window = window
    await h.start_bot()
    await h.settled(timeout=10)
    assert len(fake.in_channel(table.thread_id)) == 1 and len(fake.dms(h.alice)) == len(fake.dms(h.bob)) == 1
    assert all(r[4] == "sent" for r in await outbox(h, table))


async def test_a_new_database_does_not_get_its_messages_answered_with_the_old_ones(harness, tmp_path):
    """Outbox ids start again at 1 in a new database; within Discord's nonce window, nonces made of the id
    alone would make Discord answer the new table's messages with the old table's."""
    from tests.discord.harness import Harness
    from tests.support.tables import Clock

    old = harness
    await started_toy(old)
    await old.stop_bot()
    h = Harness(old.fake, tmp_path / "new.db", clock=Clock(old.clock.t + 600))  # ten minutes later
    h.alice, h.bob = old.alice, old.bob
    await h.start_bot()
    try:
        table = await started_toy(h)
        assert len(h.fake.in_channel(table.thread_id)) == 1
        assert len(h.fake.dms(h.alice)) == len(h.fake.dms(h.bob)) == 2
    finally:
        await h.stop_bot()
