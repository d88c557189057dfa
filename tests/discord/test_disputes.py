"""Disputes through the fake Discord: /dispute in the table's thread, the queue and the evidence only for
moderators, a decision posted in the thread, a private text never shown to the table, ruling notes."""
from tests.discord.support import started_toy, user_to_act


async def test_from_dispute_to_the_posted_decision(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    thread = table.thread_id

    answer = await (await fake.slash(waiting, "dispute", channel_id=thread, move=1,
                                     text="the card was not in the hand")).text()
    assert "Спор №1 о ходе 1 открыт" in answer
    await h.settled()
    assert "оспаривает ход 1 (спор №1): the card was not in the hand" in fake.in_channel(thread)[-1].content

    refused = await (await fake.slash(h.alice, "disputes queue")).text()
    assert "только для модераторов" in refused
    moderator = fake.add_user("Mod", moderator=True)
    queue = await fake.slash(moderator, "disputes queue")
    assert "№1 · стол №" in await queue.text() and f"<#{thread}>" in queue.shown[-1]
    evidence = await fake.slash(moderator, "disputes evidence", dispute=1, seat=1)
    await evidence.answer()
    shown = "\n".join(evidence.shown)
    state = await h.store.state(table.id, 0)
    assert f"hand={state['hands'][0]}" in shown  # seat 1's view before the move: its hand, for the moderator
    assert all(m.ephemeral_for == moderator.id for m in evidence.replies)

    decided = await (await fake.slash(moderator, "disputes decide", dispute=1, decision="uphold",
                                      reason="the log shows it")).text()
    assert "Спор №1: поддержан" in decided
    await h.settled()
    posts = [m.content for m in fake.in_channel(thread)]
    assert any("Спор №1 о ходе 1 поддержан" in p and "the log shows it" in p for p in posts)
    assert (await h.table(table.id)).version == 2 and (await h.store.state(table.id))["table"] == [None, None]
    again = await (await fake.slash(moderator, "disputes decide", dispute=1, decision="reject", reason="x")).text()
    assert "уже принято" in again


async def test_a_private_dispute_and_a_ruling_note(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    stranger = fake.add_user("Stranger")
    not_seated = await (await fake.slash(stranger, "dispute", channel_id=table.thread_id, move=1, text="x")).text()
    assert "только игрок этого стола" in not_seated
    await (await fake.slash(waiting, "dispute", channel_id=table.thread_id, move=1, text="my hidden 12",
                            private=True)).answer()
    await h.settled()
    seen = "\n".join(m.content for m in fake.in_channel(table.thread_id))
    assert "спор №1" in seen and "my hidden 12" not in seen
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes decide", dispute=1, decision="reject", reason="a lead may be any card",
                            rule="toy §1")).answer()
    await h.settled()
    last = fake.in_channel(table.thread_id)[-1].content
    assert "отклонён" in last and "toy §1: a lead may be any card" in last and "my hidden 12" not in last
    notes = await (await fake.slash(h.bob, "rulings")).text()
    assert "toy §1: a lead may be any card" in notes
    # the rule cited again on this server: the refusal carries the server's note
    refused = await (await fake.slash(waiting, "play", channel_id=table.thread_id,
                                      action='{"type": "play", "card": 99}')).text()
    assert "toy §1" in refused and "📌 toy §1 на этом сервере: a lead may be any card" in refused
