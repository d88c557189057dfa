"""Playing through the fake Discord: the live table message, the control messages in DMs, "My move" and its
refusals, menus past 25 choices, out-of-turn windows, typed moves, bot seats, the public status and log."""
import re

from tests.discord.harness import as_seen_now, assert_private_stays_private, choice_labels, random_choice
from tests.discord.support import started_toy, user_to_act

TOY_HAND = re.compile(r"hand=\[")


async def test_a_toy_game_from_lobby_to_the_end_through_buttons(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    thread = fake.in_channel(table.thread_id)
    assert "toy.title" in thread[0].content and thread[0].find(prefix="j:act:") and thread[0].find(prefix="j:hand:")
    state = await h.store.state(table.id)
    for seat, user in enumerate((h.alice, h.bob)):
        dms = fake.dms(user)
        assert len(dms) == 1 and f"hand={state['hands'][seat]}" in dms[0].content
    while (await h.table(table.id)).status == "active":
        await h.act(await user_to_act(h, table), table, random_choice("toy"))
    final = fake.in_channel(table.thread_id)[-1]
    # nothing left to play: the end post keeps only its replay
    assert "🏆" in final.content and [c["custom_id"] for c in final.items()] == [f"j:replay:{table.id}"]
    lobby = h.lobby(table)
    assert "🏁" in lobby.content and not lobby.components
    for _msg, text in fake.public_texts():
        assert not TOY_HAND.search(text), f"a hand reached a channel: {text}"


async def test_only_the_seat_that_must_act_is_pinged_by_its_dm_opening_with_your_move(harness, monkeypatch):
    h = harness
    firsts = set()
    for n in range(8):  # tables until the first turn fell to someone other than the starter (the toy draws it)
        monkeypatch.setattr("bot.referee.service.new_seed", lambda n=n: f"first-{n}")
        table = await started_toy(h, h.alice, h.bob, h.carol)
        turn = h.turn_message(table)
        acting = await user_to_act(h, table)
        firsts.add(acting.id)
        # the live message mentions nobody whose DMs are open: the first turn is pinged as every later one is,
        # by the DM that opens with the news (issue 35)
        assert turn.pinged == [] and not any(f"<@{u.id}>" in turn.content for u in (h.alice, h.bob, h.carol))
        control = [m for m in h.fake.dms(acting) if f"/{table.thread_id}" in m.history[0]][-1]
        if acting is h.alice:  # she clicked Start: not pinged right after her own click
            assert control.pinged == []
        else:
            assert control.pinged == [acting.id]
            assert control.content.startswith(f"▶ Ваш ход — стол №{table.id}, "), control.content
        waiting = [u for u in (h.alice, h.bob, h.carol) if u is not acting]
        assert all(m.pinged == [] for u in waiting for m in h.fake.dms(u)
                   if f"/{table.thread_id}" in m.history[0])  # their control messages: silent
        if firsts - {h.alice.id}:
            break
    assert firsts - {h.alice.id}, "no table began with another player's turn"


async def test_clicks_from_the_wrong_seat_a_non_player_or_an_old_message_are_refused_privately(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    acting = await user_to_act(h, table)
    waiting = h.bob if acting is h.alice else h.alice

    waits = await h.open_choices(waiting, table)  # "My move" out of turn: the player's panel, nothing to click
    assert waits.ephemeral_for == waiting.id and "Ждём" in waits.content and not choice_labels(waits)
    refusal = await h.open_choices(h.carol, table)
    assert refusal.ephemeral_for == h.carol.id and "не играете" in refusal.content

    choices = await h.open_choices(acting, table)
    old = as_seen_now(choices)
    assert choices.ephemeral_for == acting.id and choice_labels(choices)
    await h.pick(acting, choices, 0)
    await h.settled()
    # the clicked panel is redrawn in place: what was done, then the table as it is now (no "✓" stub)
    assert "✔" in choices.content and "Ждём" in choices.content and not choice_labels(choices)

    ix = await fake.click(acting, old, prefix="j:do:") if old.find(prefix="j:do:") else \
        await fake.choose(acting, old, [old.find(prefix="j:pick:")["options"][1]["value"]], prefix="j:pick:")
    await ix.answer()  # a click on the panel as it looked before the move: the table moved on
    assert "ушёл вперёд" in old.content
    assert (await h.table(table.id)).version == 1


async def test_show_my_hand_answers_privately_with_the_players_own_hand(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    state = await h.store.state(table.id)
    ix = await fake.click(h.bob, h.turn_message(table), prefix="j:hand:")
    reply = await ix.answer()
    assert reply.ephemeral_for == h.bob.id and f"hand={state['hands'][1]}" in reply.text
    ix = await fake.click(h.carol, h.turn_message(table), prefix="j:hand:")
    assert "не играете" in (await ix.answer()).text


async def test_table_status_and_log_show_only_public_information(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    status = await (await fake.slash(h.carol, "table status", channel_id=table.thread_id)).answer()
    assert status.ephemeral_for == h.carol.id and "hand=None" in status.text and not TOY_HAND.search(status.text)
    log = await (await fake.slash(h.carol, "table log", table=table.id)).answer()
    assert "📜" in log.text


async def test_typed_moves_with_autocomplete(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    acting = await user_to_act(h, table)
    waiting = h.bob if acting is h.alice else h.alice
    assert await fake.autocomplete(waiting, "play", "action", channel_id=table.thread_id, action="") == []
    choices = await fake.autocomplete(acting, "play", "action", channel_id=table.thread_id, action="play")
    assert len(choices) == 3 and all(c["value"].startswith("v0:") for c in choices)

    reply = await (await fake.slash(acting, "play", channel_id=table.thread_id, action="99")).text()
    assert "Нет варианта номер 99" in reply
    reply = await (await fake.slash(acting, "play", channel_id=table.thread_id, action=choices[0]["value"])).text()
    assert reply.startswith("✓ play")
    await h.settled()
    again = await (await fake.slash(acting, "play", channel_id=table.thread_id, action=choices[1]["value"])).text()
    assert "устарело" in again  # the list was offered at version 0
    assert (await h.table(table.id)).version == 1


async def test_bot_seats_play_in_the_background(harness):
    h = harness
    table = await h.new_table(h.alice, "toy", bots=1)
    assert "Бот 1" in h.lobby(table).content
    await h.start(h.alice, table)
    while (await h.table(table.id)).status == "active":
        assert await user_to_act(h, table) is h.alice
        await h.act(h.alice, table)
    assert (await h.table(table.id)).status == "finished"


async def test_more_than_25_choices_need_no_paging_and_reactions_prompt_only_their_seat(relay, harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "relay")
    for user in (h.bob, h.carol):
        await h.join(user, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)

    choices = await h.open_choices(h.alice, table)
    menus = [c for c in choices.items() if c["custom_id"].startswith("j:pick:")]
    assert [len(m["options"]) for m in menus] == [25, 15] and not choices.find(prefix="j:page:")
    await h.pick(h.alice, choices, 32)  # in the second menu
    await h.settled()
    assert "✔ pick 33" in choices.content

    # the decision passed: its owner alone is notified, by their control message posted anew in their DMs
    # (the seat before Alice owes the reaction); the thread gets no post
    assert h.new_pings(table) == [h.carol.id]
    assert len(fake.in_channel(table.thread_id)) == 1
    # her choices in the new message (the one the game began with stays: she had not clicked, no token to delete
    # it with, and an ordinary deletion would be a third rate-limited call for the move: issue 35)
    assert fake.dms(h.carol)[-1].find(prefix="j:do:") and len(fake.dms(h.carol)) == 2
    waits = await h.open_choices(h.bob, table)
    assert "Ждём" in waits.content and not choice_labels(waits)
    reaction = await h.open_choices(h.carol, table)
    assert choice_labels(reaction) == ["allow", "double"]

    assert await assert_private_stays_private(h, table, [h.alice, h.bob, h.carol]) == 3
    for _, text in fake.public_texts():
        assert not re.search(r"secret=\d", text)


async def test_each_player_chooses_when_to_be_pinged(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    first = await user_to_act(h, table)
    other = h.bob if first is h.alice else h.alice
    h.new_pings(table)
    reply = await (await fake.slash(other, "table pings", when="never")).text()
    assert "без упоминаний" in reply
    await h.act(first, table)
    assert h.new_pings(table) == []  # the decision passed to them, and they asked for no pings
    assert "Ваш ход" in fake.dms(other)[-1].content  # their control message says it all the same
    await (await fake.slash(other, "table pings", when="turn")).answer()
    for _ in range(3):  # from now on a decision that passes to the other player pings them
        actor = await user_to_act(h, table)
        await h.act(actor, table)
        following = await user_to_act(h, table)
        assert h.new_pings(table) == ([] if following is actor else [following.id])


async def test_a_whole_game_played_by_clicks_in_the_dm_control_messages(harness):
    """One click per decision where the player already is: the control message in their DMs, redrawn in
    place (a DM click carries no server: the clicker's seat at the table is what admits it)."""
    h, fake = harness, harness.fake
    table = await started_toy(h)
    acting = await user_to_act(h, table)
    stranger = fake.add_user("Mallory")  # a crafted click on someone else's control message
    ix = await fake.click(stranger, as_seen_now(fake.dms(acting)[-1]), prefix="j:do:")
    assert await ix.text() == f"✋ Стола №{table.id} нет." and (await h.table(table.id)).version == 0
    while (await h.table(table.id)).status == "active":
        acting = await user_to_act(h, table)
        panel = fake.dms(acting)[-1]
        assert choice_labels(panel), panel.content
        await h.pick(acting, panel, 0)
        await h.settled()
        assert "✔" in panel.content  # redrawn in place, in the DM
        # one control message, but for the one the game began with where it was replaced before its player ever
        # clicked (no token to delete it with, and an ordinary deletion is a rate-limited call: issue 35); at the
        # end, besides it, the player's own end notice
        controls = [m for m in fake.dms(acting) if not m.content.startswith("🏁 ")]
        assert len(controls) <= 2 and not any(m.find(prefix="j:do:") for m in controls[:-1])
    assert (await h.table(table.id)).status == "finished"
    assert not any(m.components for user in (h.alice, h.bob) for m in fake.dms(user))  # nothing left to click
    assert all(sum(m.content.startswith("🏁 ") for m in fake.dms(user)) == 1 for user in (h.alice, h.bob))
