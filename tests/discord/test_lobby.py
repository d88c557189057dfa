"""The lobby through the fake Discord: /game new with autocomplete, join/leave/bot/start buttons, several
tables per channel, a player at several tables, /game start|cancel|list, Discord refusing the thread."""
from bot.discord.client import JudgeBot
from bot.process.config import Settings, TableLimits
from bot.storage.store import Store
from tests.discord.support import started_toy


async def test_new_table_gets_a_lobby_message_and_its_own_thread(harness):
    h, fake = harness, harness.fake
    ix = await fake.slash(h.alice, "game new", game="toy", title="Вечерний стол")
    reply = await ix.answer()
    assert reply.ephemeral_for == h.alice.id
    table = (await h.store.find_tables())[0]
    assert table.status == "lobby" and table.channel_id == fake.channel_id
    assert table.title == "Вечерний стол"
    thread = fake.channels[table.thread_id]
    assert thread["type"] == 11 and thread["parent_id"] == fake.channel_id
    assert "Вечерний стол" in thread["name"]
    assert f"<#{table.thread_id}>" in reply.content
    lobby = h.lobby(table)
    assert lobby.channel_id == fake.channel_id and h.alice.mention in lobby.content
    assert [c["custom_id"] for c in lobby.items()] == [f"j:{kind}:{table.id}" for kind in ("join", "leave", "bot",
                                                                                            "start", "opts")]
    assert lobby.pinged == []  # listing players does not notify them


async def test_autocomplete_offers_games_and_their_options(harness):
    h, fake = harness, harness.fake
    games = await fake.autocomplete(h.alice, "game new", "game", game="")
    assert {"toy", "gwent", "bloodwood"} <= {c["value"] for c in games}
    assert all(len(c["name"]) <= 100 for c in games)
    options = await fake.autocomplete(h.alice, "game new", "options", game="toy", options="tricks=2 tu")
    assert [c["value"] for c in options] == ["tricks=2 turn_seconds=0"]
    assert await fake.autocomplete(h.alice, "game new", "options", game="no-such-game", options="") == []


async def test_bad_input_gets_a_clear_private_answer_and_creates_nothing(harness):
    h, fake = harness, harness.fake
    for values, expected in [({"game": "chess"}, "Игры «chess» нет"),
                             ({"game": "toy", "options": "tricks"}, "имя=значение"),
                             ({"game": "toy", "options": "tricks=9"}, "«tricks»"),
                             ({"game": "toy", "options": "colour=red"}, "нет настройки «colour»")]:
        reply = await (await fake.slash(h.alice, "game new", **values)).answer()
        assert expected in reply.content and reply.ephemeral_for == h.alice.id
    assert await h.store.find_tables() == [] and fake.threads() == []


async def test_join_leave_bots_and_who_may_start(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)
    assert h.bob.mention in h.lobby(table).content
    refusal = await (await fake.click(h.bob, h.lobby(table), prefix="j:join:")).text()
    assert "уже" in refusal
    await (await fake.click(h.bob, h.lobby(table), prefix="j:leave:")).answer()
    assert h.bob.mention not in h.lobby(table).content
    refusal = await (await fake.click(h.bob, h.lobby(table), prefix="j:bot:")).text()
    assert "только создатель" in refusal
    for _ in range(3):
        await (await fake.click(h.alice, h.lobby(table), prefix="j:bot:")).answer()
    assert "Бот 3" in h.lobby(table).content
    refusal = await (await fake.click(h.bob, h.lobby(table), prefix="j:join:")).text()
    assert "4" in refusal  # the table is full
    refusal = await (await fake.click(h.bob, h.lobby(table), prefix="j:start:")).text()
    assert "создатель" in refusal
    await h.start(h.alice, table)
    assert (await h.table(table.id)).status == "active"
    assert not h.lobby(table).components and f"<#{table.thread_id}>" in h.lobby(table).content


async def test_several_tables_per_channel_and_a_player_at_several_tables(harness):
    h, fake = harness, harness.fake
    first = await h.new_table(h.alice, "toy")
    second = await h.new_table(h.alice, "toy")
    assert first.thread_id != second.thread_id
    for table in (first, second):
        await h.join(h.bob, table)
    listing = await (await fake.slash(h.carol, "game list")).text()
    assert f"#{first.id}" in listing and f"#{second.id}" in listing

    ambiguous = await (await fake.slash(h.alice, "game start")).text()
    assert "несколько столов" in ambiguous
    started = await (await fake.slash(h.alice, "game start", channel_id=second.thread_id)).text()
    assert f"№{second.id}" in started
    await h.settled()
    started = await (await fake.slash(h.alice, "game start", table=first.id)).text()
    await h.settled()
    for table in (first, second):
        table = await h.table(table.id)
        assert table.status == "active" and len(fake.dms(h.bob)) == 2
        assert h.turn_message(table) is not None


async def test_cancel_closes_the_lobby_and_announces_in_the_thread(harness):
    h, fake = harness, harness.fake
    lobby_table = await h.new_table(h.alice, "toy")
    refusal = await (await fake.slash(h.bob, "game cancel", table=lobby_table.id)).text()
    assert "создатель" in refusal
    await (await fake.slash(h.alice, "game cancel", table=lobby_table.id)).answer()
    assert "✖️" in h.lobby(lobby_table).content and not h.lobby(lobby_table).components

    table = await started_toy(h)
    await (await fake.slash(h.alice, "game cancel", channel_id=table.thread_id)).answer()
    await h.settled()
    last = fake.in_channel(table.thread_id)[-1]
    assert f"№{table.id} отменён" in last.content and (await h.table(table.id)).seed in last.content


async def test_a_table_opened_from_a_thread_is_announced_in_its_channel(harness):
    h, fake = harness, harness.fake
    first = await h.new_table(h.alice, "toy")
    ix = await fake.slash(h.bob, "game new", channel_id=first.thread_id, game="toy")
    await ix.answer()
    second = (await h.store.find_tables())[0]
    assert second.id != first.id and second.channel_id == fake.channel_id and second.thread_id != first.thread_id


async def test_when_discord_refuses_the_thread_no_table_is_left_behind(harness):
    h, fake = harness, harness.fake
    fake.fail("POST", r"/threads$", 403, code=50013)
    reply = await (await fake.slash(h.alice, "game new", game="toy")).text()
    assert "публичные ветки" in reply
    tables = await h.store.find_tables()
    assert [t.status for t in tables] == ["cancelled"]
    assert fake.in_channel(fake.channel_id) == []  # the lobby message is gone


async def test_one_person_and_one_server_open_only_so_many_tables(harness):
    h, fake = harness, harness.fake
    _, channel_b = fake.add_server()
    await h.restart()  # the second server arrives at connection
    h.bot.referee.limits = TableLimits(per_user=2, per_server=3)  # the harness builds its own Referee
    first = await h.new_table(h.alice, "toy")
    await h.new_table(h.alice, "toy")

    def posted() -> tuple[int, int]:
        return len(fake.threads()), len(fake.in_channel(fake.channel_id))

    before = posted()
    for _ in range(3):  # asking again and again changes nothing
        reply = await (await fake.slash(h.alice, "game new", game="toy")).answer()
        assert reply.content == "✋ У вас уже 2 открытых стола — больше нельзя. Доиграйте или отмените один из них."
        assert reply.ephemeral_for == h.alice.id
    assert posted() == before and len(await h.store.find_tables()) == 2

    await (await fake.slash(h.alice, "game cancel", table=first.id)).answer()  # a closed table frees a place
    await h.new_table(h.alice, "toy")
    await h.new_table(h.bob, "toy")  # the server's third open table
    before = posted()
    reply = await (await fake.slash(h.carol, "game new", game="toy")).text()
    assert reply == "✋ На этом сервере уже 3 открытых стола — больше нельзя, пока какой-нибудь не закончится."
    assert posted() == before
    # another server counts its own tables
    await (await fake.slash(h.carol, "game new", channel_id=channel_b, game="toy")).answer()
    assert [t.guild_id for t in await h.store.find_tables(status=["lobby"])][0] == fake.guilds[1]


async def test_the_bot_takes_its_table_limits_from_the_settings(tmp_path):
    limits = TableLimits(per_user=1, per_server=7)
    store = await Store.open(tmp_path / "judge.db")
    try:
        bot = JudgeBot(Settings(database=tmp_path / "judge.db", table_limits=limits), store)
        assert bot.referee.limits == limits
        assert JudgeBot(Settings(database=tmp_path / "judge.db"), store).referee.limits == Settings().table_limits
    finally:
        await store.close()


async def test_a_lobby_left_without_its_thread_by_a_crash_is_cancelled_at_the_next_start(harness):
    h, fake = harness, harness.fake
    # as if the bot died inside /game new after creating the table, before its thread existed
    orphan = await h.bot.referee.create_table("toy", creator=f"discord:{h.alice.id}", creator_name="Alice",
                                              guild_id=fake.guild_id, channel_id=fake.channel_id)
    kept = await h.new_table(h.alice, "toy")
    await h.restart()
    assert (await h.table(orphan.id)).status == "cancelled" and (await h.table(kept.id)).status == "lobby"
    listing = await (await fake.slash(h.alice, "game list")).text()
    assert f"**#{kept.id}**" in listing and f"**#{orphan.id}**" not in listing
    assert fake.in_channel(fake.channel_id) == [h.lobby(kept)]  # nothing posted about it


async def test_a_table_opened_in_discord_plays_by_correspondence_unless_told_live(harness):
    """Issue 27: the pace is chosen at /game new (correspondence by default) and shown in the lobby line."""
    h, fake = harness, harness.fake
    post = await h.new_table(h.alice, "claygod")
    # with the default clock (issue 35), which times every decision, rule 8's ten seconds become off (CG-36)
    assert post.options["pace"] == "correspondence" and post.options["turn_clock"] == "off"
    assert post.time_control["move"] == 48 * 3600
    line = h.lobby(post).content.splitlines()[0]
    assert "✉️ по переписке" in line and "Время на ход" not in line  # correspondence forms are its defaults
    live = await h.new_table(h.bob, "claygod", pace="live")
    assert live.options["pace"] == "live" and live.options["turn_clock"] == "live"
    assert "⚡ вживую" in h.lobby(live).content.splitlines()[0]
    refused = await (await fake.slash(h.carol, "game new", game="claygod", pace="live",
                                      options="pace=correspondence")).answer()
    assert "дважды" in refused.content and refused.ephemeral_for == h.carol.id
    refused = await (await fake.slash(h.carol, "game new", game="claygod", options="turn_clock=live")).answer()
    assert "pace=live" in refused.content  # the real-time value, refused saying how to get it
    assert len(await h.store.find_tables()) == 2
