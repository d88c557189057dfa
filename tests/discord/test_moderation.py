"""Moderators through the fake Discord: who counts as one, hidden state only to them, cancel, rollback."""
from tests.discord.harness import as_seen_now
from tests.discord.support import started_toy, user_to_act


async def test_only_moderators_use_mod_commands_and_hidden_state_reaches_only_them(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    refusal = await (await fake.slash(h.alice, "mod hidden", table=table.id)).answer()
    assert "только для модераторов" in refusal.content
    moderator = fake.add_user("Mod", moderator=True)
    ix = await fake.slash(moderator, "mod hidden", table=table.id)
    await ix.answer()
    state = await h.store.state(table.id)
    shown = "\n".join(ix.shown)
    assert all(f"hand={hand}" in shown for hand in state["hands"])
    assert all(m.ephemeral_for == moderator.id for m in ix.replies)


async def test_a_moderator_role_grants_the_tools(harness):
    h, fake = harness, harness.fake
    referee = fake.add_user("Referee")
    role = fake.add_role("Судья", referee)
    await h.restart()  # roles arrive with the server at connection
    assert "модераторов" in await (await fake.slash(referee, "mod failures")).text()
    assert "модераторов" in await (await fake.slash(h.alice, "settings moderator-role", role=role)).text()
    owner = fake.add_user("Owner", moderator=True)
    assert role.id in await (await fake.slash(owner, "settings moderator-role", role=role)).text()
    answer = await (await fake.slash(referee, "mod failures")).text()
    assert "Недоставленных сообщений нет" in answer


async def test_moderators_cancel_any_table_and_roll_back_with_old_buttons_going_stale(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    live = h.turn_message(table)
    await h.act(await user_to_act(h, table), table)
    second = await user_to_act(h, table)
    panel = as_seen_now(await h.open_choices(second, table))  # opened before the rollback
    await (await fake.slash(moderator, "mod rollback", table=table.id, move=0, reason="misclick")).answer()
    await h.settled()
    assert "misclick" in fake.in_channel(table.thread_id)[-1].content
    assert h.turn_message(table).id == live.id  # one live message, edited back to the restored table
    ix = await fake.click(second, panel, prefix="j:do:")
    await ix.answer()
    assert "ушёл вперёд" in panel.content  # the choices it offered are not the table's any more
    assert (await h.table(table.id)).version == 2

    await (await fake.slash(moderator, "mod ruling", table=table.id, text="Ход засчитан.")).answer()
    await (await fake.slash(moderator, "mod cancel", table=table.id, reason="dispute")).answer()
    await h.settled()
    thread = [m.content for m in fake.in_channel(table.thread_id)]
    assert any("Ход засчитан." in text for text in thread) and "отменён" in thread[-1]
    assert (await h.table(table.id)).status == "cancelled"
