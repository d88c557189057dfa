"""Moderators are told (issue 27, item 6): a new dispute reaches the server's moderators — in the channel set by
``/settings moderator-channel``, the moderator role mentioned, else by DM to the moderators the bot has seen at
work there — with a button opening its evidence; through the outbox, so a crash neither loses nor doubles it."""
import pytest

from tests.discord.support import disputed


async def test_without_a_channel_the_moderators_seen_at_work_get_a_dm_with_the_evidence(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    idle = fake.add_user("Idle", moderator=True)      # a moderator the bot never saw act: it cannot know of them
    await (await fake.slash(moderator, "disputes queue")).answer()  # seen acting as a moderator here
    table, waiting = await disputed(h)

    told = [m for m in fake.dms(moderator) if "Новый спор №1" in m.content]
    assert len(told) == 1
    notice = told[0]
    assert f"стол №{table.id}" in notice.content and f"<#{table.thread_id}>" in notice.content
    assert "оспаривает ход 1" in notice.content and "> wrong card" in notice.content
    assert "/споры материалы спор:1" in notice.content  # the command in the reader's language
    assert not fake.dms(idle)
    assert not any("Новый спор" in m.content for u in (h.alice, h.bob) for m in fake.dms(u))  # players: thread only

    # the button under it: the evidence, privately, to a moderator of the dispute's server (asked of Discord)
    evidence = await fake.click(moderator, notice, label="Материалы")
    await evidence.answer()
    shown = "\n".join(evidence.shown)
    assert "№1" in shown and all(m.ephemeral_for == moderator.id for m in evidence.replies)
    # the same button clicked by a player who is no moderator: as if the dispute did not exist
    refused = await (await fake.click(waiting, notice, label="Материалы")).text()
    assert "wrong card" not in refused and "нет" in refused.lower()


async def test_a_moderator_seated_at_the_table_is_not_told_and_a_former_one_no_more(harness):
    h, fake = harness, harness.fake
    fake.users[h.alice.id].permissions = fake.add_user("x", moderator=True).permissions  # Alice moderates
    await (await fake.slash(h.alice, "disputes queue")).answer()
    former = fake.add_user("Former", moderator=True)
    await (await fake.slash(former, "disputes queue")).answer()
    former.permissions = fake.add_user("y").permissions  # the role taken away since
    await disputed(h, private=True)
    assert not any("Новый спор" in m.content for m in fake.dms(h.alice) + fake.dms(former))
    row = await h.store.conn.execute_fetchall("SELECT status, last_error FROM outbox WHERE kind = 'moderators'")
    assert row[0][0] == "skipped" and "no moderator" in row[0][1]


@pytest.mark.parametrize("window", [180.0, 0.0], ids=["within the nonce window", "past it"])
async def test_a_notice_channel_with_the_role_mentioned_and_no_double_after_a_crash(fake, error_log, tmp_path, window):
    from tests.discord.harness import Harness

    channel = fake.add_text_channel("mods")
    mod = fake.add_user("Mod")
    role = fake.add_role("Судьи", mod)
    h = Harness(fake, tmp_path / "judge.db")
    h.alice, h.bob, h.carol = (fake.add_user(n) for n in ("Alice", "Bob", "Carol"))
    await h.start_bot()
    try:
        admin = fake.add_user("Admin", moderator=True)
        await (await fake.slash(admin, "settings moderator-role", role=role)).answer()
        said = await (await fake.slash(admin, "settings moderator-channel", channel=channel)).text()
        assert f"<#{channel}>" in said
        await disputed(h, private=True)
        posts = [m for m in fake.in_channel(channel) if "Новый спор №1" in m.content]
        assert len(posts) == 1 and posts[0].content.startswith(f"<@&{role.id}>")
        assert "скрыта" in posts[0].content and "wrong card" not in posts[0].content
        assert [str(r) for r in posts[0].allowed_mentions.get("roles")] == [role.id]  # the role notified, nobody else

        fake.nonce_window = window  # the bot died after Discord took the notice, before the outbox recorded it
        (row,) = await h.store.conn.execute_fetchall("SELECT id FROM outbox WHERE kind = 'moderators'")
        await h.unrecord(row[0])
        await h.restart()
        await h.settled()
        assert len([m for m in fake.in_channel(channel) if "Новый спор №1" in m.content]) == 1
    finally:
        await h.stop_bot()

