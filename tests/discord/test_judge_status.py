"""Issue 39: ``/judge status`` (cogs/status.py): an admin's view of the bot on this server, in the server's
language, naming nobody."""
from bot.process.config import release
from bot.storage import backup as bk
from tests.discord.support import started_toy


async def test_status_shows_release_tables_delivery_backup_and_troubles_in_the_server_s_language(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.new_table(h.carol, "toy")
    await h.settled()
    admin = fake.add_user("Admin", locale="en-US", moderator=True)

    ix = await fake.slash(admin, "judge status")
    text = await ix.text()
    assert all(m.ephemeral_for == admin.id for m in ix.replies)
    # the server's language (Russian here), not the asker's English
    assert f"выпуск {release()}" in text and "работает без перерыва" in text
    assert "идёт игра 1" in text and "набор игроков 1" in text
    assert "Все сообщения доставлены." in text
    assert "Резервных копий пока нет" in text
    assert "Остановленных столов и недоставленных сообщений нет." in text
    for name in ("Alice", "Bob", "Carol", "Admin"):
        assert name not in text

    # a backup, a message failed for good, a table this release cannot play, a message waiting
    bk.take_season_backup(h.db)
    await h.store.conn.execute("UPDATE outbox SET status = 'failed' WHERE id = (SELECT MIN(id) FROM outbox"
                               " WHERE table_id = ?)", (table.id,))
    await h.store.conn.execute("UPDATE tables SET frozen = '{}' WHERE id = ?", (table.id,))
    await h.store.conn.commit()
    await h.bot.set_guild_locale(fake.guild_id, "uk")
    text = await (await fake.slash(admin, "judge status")).text()
    assert "Останню резервну копію зроблено 0 хв тому." in text
    assert f"Ця версія бота не може продовжити столи: #{table.id}." in text
    assert f"Є недоставлені повідомлення столів: #{table.id}" in text and "/mod failures" in text
    assert "зупинено 1" in text


async def test_status_is_for_admins_only(harness):
    h, fake = harness, harness.fake
    answer = await (await fake.slash(h.alice, "judge status")).text()
    assert "выпуск" not in answer
