"""Moderators' surfaces and the table's record through the fake Discord: /mod hidden from members by default,
rollbacks by public move number, rulings/rollbacks/cancellations naming the moderator without a ping, the
paged /table log with undone moves struck out, /table verify, and the short lobby line with "All options"."""
from bot.referee import moderation
from tests.discord.support import started_toy
from tests.support.tables import play_one

MANAGE_GUILD = 1 << 5
LONG_REASON = "спорная ситуация: " + "ход сделан по ошибке, игроки согласились переиграть; " * 5


async def test_mod_is_hidden_from_members_by_default_but_the_runtime_check_decides(harness):
    h, fake = harness, harness.fake
    synced = {c["name"]: c for c in fake.guild_commands or fake.commands}
    assert int(synced["mod"]["default_member_permissions"]) == MANAGE_GUILD
    assert int(synced["settings"]["default_member_permissions"]) == MANAGE_GUILD
    assert synced["table"].get("default_member_permissions") is None  # everyone's commands stay visible
    # a member who calls /mod anyway (a server may have changed who sees it) is still refused...
    assert "модераторов" in await (await fake.slash(h.alice, "mod failures")).text()
    # ...and a member without Manage Server who has the configured moderator role may use it
    referee = fake.add_user("Referee")
    role = fake.add_role("Судья", referee)
    await h.restart()
    owner = fake.add_user("Owner", moderator=True)
    await (await fake.slash(owner, "settings moderator-role", role=role)).answer()
    assert "Недоставленных" in await (await fake.slash(referee, "mod failures")).text()


async def test_rollback_by_move_number_names_the_moderator_and_the_reason_without_pinging(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    for _ in range(3):
        await play_one(h.bot.referee, h.store, table.id)
    await h.settled()

    offered = await fake.autocomplete(moderator, "mod rollback", "move", table=table.id, move="")
    assert [c["value"] for c in offered] == [2, 1, 0]  # newest first; not the latest: nothing after it
    assert [c["name"].split(" ")[0] for c in offered] == ["2.", "1.", "0."] and "начало партии" in offered[-1]["name"]
    refused = await (await fake.slash(moderator, "mod rollback", table=table.id, move=3, reason="x")).text()
    assert "Ход 3 — последний" in refused and "до 2" in refused
    refused = await (await fake.slash(moderator, "mod rollback", table=table.id, move=7, reason="x")).text()
    assert "нет хода 7" in refused
    assert (await h.table(table.id)).version == 3

    reply = await (await fake.slash(moderator, "mod rollback", table=table.id, move=1, reason="misclick")).text()
    assert "к ходу 1" in reply and "версия 1" in reply  # the moderator's own answer may name versions
    await h.settled()
    notice = next(m for m in fake.in_channel(table.thread_id) if "Откат к ходу 1 журнала" in m.content)
    assert moderator.mention in notice.content and "misclick" in notice.content
    assert moderator.id not in notice.pinged
    assert "верси" not in notice.content  # players are told moves, never versions
    state = await h.store.state(table.id)
    assert state == {**await h.store.state(table.id, 1), "version": 4}


async def test_rulings_and_cancellations_name_the_moderator_and_the_reason(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    await (await fake.slash(moderator, "mod ruling", table=table.id, text="Карта 3 засчитана.")).answer()
    await h.settled()
    ruling = next(m for m in fake.in_channel(table.thread_id) if "Карта 3 засчитана." in m.content)
    assert f"Решение по столу №{table.id} — {moderator.mention}" in ruling.content and ruling.pinged == []

    await (await fake.slash(moderator, "mod cancel", table=table.id, reason=LONG_REASON)).answer()
    await h.settled()
    closing = next(m for m in fake.in_channel(table.thread_id) if "Причина:" in m.content and "✖️" in m.content)
    assert f"№{table.id} отменён — {moderator.mention}" in closing.content and LONG_REASON.strip() in closing.content
    assert closing.pinged == []


async def test_the_log_pages_newest_first_strikes_out_undone_moves_and_shows_versions_to_moderators(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    referee = h.bot.referee
    for n in range(8):  # each round: a move, then a rollback with a long reason undoing it
        await play_one(referee, h.store, table.id)
        done = await moderation.rollback(referee, table.id, move=0, moderator=f"discord:{moderator.id}",
                                         reason=f"{n}: {LONG_REASON}")
        assert not hasattr(done, "key"), done
    await play_one(referee, h.store, table.id)
    await h.settled()

    ix = await fake.slash(h.carol, "table log", table=table.id)  # anyone may read the public log
    first = await ix.answer()
    assert first.ephemeral_for == h.carol.id and len(first.content) <= 2000
    pages = int(first.content.split("\n")[0].rsplit("/", 1)[1])
    assert pages >= 2 and f"стр. {pages}/{pages}" in first.content  # the newest page first
    assert "**1.**" in first.content and "`v" not in first.content  # the live move, no versions
    assert [c["label"] for c in first.items()] == ["◀ Раньше"]
    seen = [first.content]
    message = first
    for page in range(pages - 1, 0, -1):
        ix = await fake.click(h.carol, message, prefix="j:log:")
        await ix.answer()
        message = fake.messages[message.id]  # the same private message, now showing the earlier page
        assert f"стр. {page}/{pages}" in message.content and len(message.content) <= 2000
        seen.append(message.content)
        if page > 1:
            message = fake.messages[message.id]
            assert {c["label"] for c in message.items()} == {"◀ Раньше", "Позже ▶"}
    log = "\n".join(reversed(seen))
    assert log.count("~~1.") == 8 and log.count("**1.**") == 1
    assert log.count("Откат к началу партии") == 8 and "0: спорная ситуация" in log
    assert "Зачёркнутые" in seen[-1]

    await h.restart()  # the buttons are rebuilt from their ids
    ix = await fake.click(h.carol, fake.messages[message.id], label="Позже ▶")
    await ix.answer()
    assert "стр. 2/" in fake.messages[message.id].content

    mine = await (await fake.slash(moderator, "table log", table=table.id)).answer()
    assert "`v" in mine.content and "версии стола" in mine.content


async def test_verify_in_discord_once_the_game_has_ended_and_for_moderators_before(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    running = await (await fake.slash(h.bob, "table verify", table=table.id)).text()
    assert "ещё идёт" in running and table.seed_hash in running and table.seed not in running
    checked = await (await fake.slash(moderator, "table verify", table=table.id)).text()
    assert checked.startswith("✅") and "видите только вы" in checked and table.seed not in checked

    while (await h.table(table.id)).status == "active":
        await play_one(h.bot.referee, h.store, table.id)
    await h.settled()
    ok = await (await fake.slash(h.carol, "table verify", channel_id=table.thread_id)).answer()
    assert ok.content.startswith("✅") and table.seed in ok.content and table.seed_hash in ok.content
    assert ok.ephemeral_for == h.carol.id

    await h.store.conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = 2",
                               ('{"tampered": true}', table.id))
    await h.store.conn.commit()
    broken = await (await fake.slash(h.carol, "table verify", table=table.id)).text()
    assert broken.startswith("❌") and "состояние версии 2 не совпадает с повтором" in broken

    lobby = await h.new_table(h.alice, "toy")
    assert "ещё не началась" in await (await fake.slash(h.alice, "table verify", table=lobby.id)).text()


async def test_the_lobby_is_one_short_line_with_every_option_behind_a_button(harness):
    h, fake = harness, harness.fake
    plain = await h.new_table(h.alice, "gwent")
    line = h.lobby(plain).content.split("\n")[0]
    # its pace and its clock (the default one at correspondence pace), always
    assert line == f"🎲 **Гвинт (форумный)** · стол №{plain.id} · места: 1/2 · ✉️ по переписке · ⏰ 48 ч на решение"

    table = await h.new_table(h.alice, "gwent", options="mulligan=redraw cow=yes")
    lobby = h.lobby(table)
    line = lobby.content.split("\n")[0]
    assert line.startswith(f"🎲 **Гвинт (форумный)** · стол №{table.id} · места: 1/2 · ")
    assert line.endswith(" · Обмен карт перед игрой: как в игре: вслепую по одной · Корова в колодах: да")
    assert "Вариант" not in line and "Фракция" not in line  # defaults are left out
    assert len(lobby.content.split("\n")) == 2 and h.alice.mention in lobby.content

    ix = await fake.click(h.bob, lobby, label="Все настройки")
    shown = await ix.answer()
    assert shown.ephemeral_for == h.bob.id
    assert "Вариант" in shown.content and "Фракция первого игрока" in shown.content
    bold = [row for row in shown.content.split("\n") if row.startswith("• **")]
    assert len(bold) == 2 and "Жирным" in shown.content
    assert "• Часы: 48 ч на решение; когда время выйдет, место займёт бот" in shown.content

    await h.join(h.bob, table)
    assert "места: 2/2" in h.lobby(table).content
