"""Servers kept apart, and interactions Discord itself never sends (crafted custom_ids, option values, select
values): each gets a short private refusal, never a table change, never an error in the log."""
from types import SimpleNamespace

import pytest

from bot.discord.interactions import is_moderator
from tests.discord.support import started_toy, user_to_act


async def second_server(h):
    """Server B next to the harness's server A: (B's id, B's #games channel)."""
    guild, channel = h.fake.add_server()
    await h.restart()  # servers arrive at connection
    return guild, channel


def no_table(number) -> str:
    return f"Стола №{number} нет."


async def snapshot(h, table):
    row = await h.table(table.id)
    return (row.status, row.version, [(s.user_id, s.name) for s in await h.store.seats(table.id)],
            len(await h.store.actions(table.id)))


async def test_buttons_and_commands_from_another_server_find_no_table(harness):
    h, fake = harness, harness.fake
    _, channel_b = await second_server(h)
    lobby_table = await h.new_table(h.alice, "toy")
    game = await started_toy(h)
    moderator_b = fake.add_user("ModB", moderator_of=fake.guilds[1])
    before = [await snapshot(h, lobby_table), await snapshot(h, game)]

    # the lobby's buttons, clicked from server B (a crafted click: Discord sends a click from the message's own
    # channel), even by the table's creator
    for user in (h.carol, h.alice, moderator_b):
        for kind in ("join", "leave", "bot", "start"):
            ix = await fake.click(user, h.lobby(lobby_table), prefix=f"j:{kind}:", channel_id=channel_b)
            assert await ix.text() == "✋ " + no_table(lobby_table.id), (user.name, kind)
    # the turn message's buttons, and a player's private choices, clicked from server B by the player to act
    acting = await user_to_act(h, game)
    for prefix in ("j:act:", "j:hand:"):
        ix = await fake.click(acting, h.turn_message(game), prefix=prefix, channel_id=channel_b)
        assert await ix.text() == "✋ " + no_table(game.id), prefix
    choices = await h.open_choices(acting, game)
    ix = await fake.click(acting, choices, prefix="j:do:", channel_id=channel_b)
    assert await ix.text() == "✋ " + no_table(game.id)

    # every command that takes a table number, typed in server B
    for user, path, values in [
        (h.alice, "game start", {"table": lobby_table.id}), (h.alice, "game cancel", {"table": game.id}),
        (acting, "table status", {"table": game.id}), (acting, "table log", {"table": game.id}),
        (acting, "table hand", {"table": game.id}), (acting, "play", {"action": "1", "table": game.id}),
        (moderator_b, "mod cancel", {"table": game.id, "reason": "x"}),
        (moderator_b, "mod hidden", {"table": game.id}),
        (moderator_b, "mod rollback", {"table": game.id, "move": 0, "reason": "x"}),
        (acting, "table verify", {"table": game.id}),
        (moderator_b, "mod ruling", {"table": game.id, "text": "x"}),
    ]:
        reply = await (await fake.slash(user, path, channel_id=channel_b, **values)).text()
        assert reply == "✋ " + no_table(values["table"]), (path, reply)
    # exactly what a number that names no table at all gets
    reply = await (await fake.slash(moderator_b, "mod hidden", channel_id=channel_b, table=987654)).text()
    assert reply == "✋ " + no_table(987654)
    assert await fake.autocomplete(acting, "table status", "table", channel_id=channel_b, table="") == []
    assert "нет открытых столов" in await (await fake.slash(h.alice, "game list", channel_id=channel_b)).text()

    await h.settled()
    assert [await snapshot(h, lobby_table), await snapshot(h, game)] == before
    assert await h.store.conn.execute_fetchall("SELECT * FROM moderation") == []


async def test_a_moderator_of_another_server_has_no_power_here(harness):
    h, fake = harness, harness.fake
    guild_b, _ = await second_server(h)
    moderator_b = fake.add_user("ModB", moderator_of=guild_b)
    moderator_a = fake.add_user("ModA", moderator_of=fake.guild_id)
    table = await h.new_table(h.alice, "toy")
    await h.join(h.bob, table)

    refusal = await (await fake.click(moderator_b, h.lobby(table), prefix="j:bot:")).text()
    assert "только создатель" in refusal
    assert "только для модераторов" in await (await fake.slash(moderator_b, "mod hidden", table=table.id)).text()
    assert "✋" in await (await fake.slash(moderator_b, "game start", table=table.id)).text()
    assert "✋" in await (await fake.slash(moderator_b, "game cancel", table=table.id)).text()
    assert (await h.table(table.id)).status == "lobby" and len(await h.store.seats(table.id)) == 2

    # the same member rights in the table's own server do count
    await (await fake.click(moderator_a, h.lobby(table), prefix="j:bot:")).answer()
    assert len(await h.store.seats(table.id)) == 3
    await (await fake.slash(moderator_a, "game start", table=table.id)).answer()
    assert (await h.table(table.id)).status == "active"


async def test_moderator_status_is_judged_for_the_tables_server():
    async def no_guild_settings(guild_id):
        return {"moderator_role": None}

    seen = []

    async def saw_moderator(guild_id, user, at):
        seen.append((guild_id, user))

    client = SimpleNamespace(store=SimpleNamespace(guild=no_guild_settings, saw_moderator=saw_moderator),
                             settings=SimpleNamespace(moderator_role=None))
    admin_of_a = SimpleNamespace(guild_id=111, permissions=SimpleNamespace(manage_guild=True),
                                 user=SimpleNamespace(roles=[], id=5), client=client)
    assert await is_moderator(admin_of_a, SimpleNamespace(guild_id="111"))
    assert seen == [("111", "discord:5")]  # remembered once as a moderator there (told of new disputes)
    assert not await is_moderator(admin_of_a, SimpleNamespace(guild_id="222"))
    assert not await is_moderator(admin_of_a, SimpleNamespace(guild_id=None))
    assert await is_moderator(admin_of_a, None)  # /mod's gate: the interaction's own server


@pytest.mark.parametrize("custom_id", [
    "j:join:abc", "j:join:-1", "j:join:", f"j:join:{2 ** 63}", f"j:join:{10 ** 30}", "j:act:1",
    "j:do:1:0:0", "j:join:1:2", "nonsense", "j:hand:1 ",
])
async def test_a_crafted_custom_id_is_refused_cleanly(harness, custom_id):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    before = await snapshot(h, table)
    message = fake.crafted_message(fake.channel_id, [custom_id])
    ix = await fake.craft_click(h.alice, fake.channel_id, {"custom_id": custom_id, "component_type": 2}, message)
    assert await ix.text() == "Эта кнопка недействительна: такой у бота нет."
    assert ix.replies[-1].ephemeral_for == h.alice.id
    assert await snapshot(h, table) == before


async def test_clicks_not_on_their_message_or_of_the_wrong_kind_are_refused_cleanly(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    join = h.lobby(table).find(prefix="j:join:")["custom_id"]
    for data, message in [
        ({"custom_id": join, "component_type": 2}, None),                  # no message at all
        ({"custom_id": f"j:join:{table.id + 1}", "component_type": 2}, h.lobby(table)),  # not on the message
        ({"custom_id": join, "component_type": 3, "values": ["0"]}, h.lobby(table)),    # a button as a select
    ]:
        ix = await fake.craft_click(h.bob, fake.channel_id, data, message)
        assert "недействительна" in await ix.text(), data
    assert len(await h.store.seats(table.id)) == 1
    # a button carrying a select's id reaches the select's handler (discord.py does not compare the kinds):
    # no value chosen, a refusal
    message = fake.crafted_message(fake.channel_id, [f"j:pick:{table.id}:0:0:0"])
    assert (await (await fake.click(h.bob, message, prefix="j:pick:")).text()).startswith("✋")

    # a well-formed id on a message, for a table that does not exist, or a number at the top of the range
    for number in (999_999, 10 ** 18 - 1):
        message = fake.crafted_message(fake.channel_id, [f"j:join:{number}", f"j:act:{number}:0"])
        for custom_id in (f"j:join:{number}", f"j:act:{number}:0"):
            ix = await fake.click(h.bob, message, custom_id=custom_id)
            assert await ix.text() == "✋ " + no_table(number)


async def test_crafted_select_values_are_refused_and_change_nothing(relay, harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "relay")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    for value in ("-5", "abc", str(10 ** 30), "99", ""):
        choices = await h.open_choices(h.alice, table)
        ix = await fake.choose(h.alice, choices, [value], prefix="j:pick:", crafted=True)
        await ix.answer()
        assert "✋" in choices.content, value
    assert await h.store.actions(table.id) == []


async def test_integer_options_beyond_discords_range_are_refused(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    moderator = fake.add_user("Mod", moderator=True)
    before = await snapshot(h, table)
    out_of_range = "Число в команде вне допустимых пределов."
    for user, path, values in [
        (h.alice, "table status", {"table": 2 ** 63}), (h.alice, "table status", {"table": -(2 ** 70)}),
        (h.alice, "game start", {"table": 2 ** 53 + 1}), (h.alice, "game new", {"game": "toy", "bots": 10 ** 20}),
        (moderator, "mod rollback", {"table": table.id, "move": 2 ** 64, "reason": "x"}),
    ]:
        assert await (await fake.slash(user, path, **values)).text() == out_of_range, (path, values)
    assert await (await fake.slash(moderator, "mod hidden", table=1.5)).text() == "В команде недопустимое значение."
    # numbers Discord does send, but that name no table, are the usual refusal
    for number in (0, -1, 2 ** 53):
        assert await (await fake.slash(h.alice, "table status", table=number)).text() == "✋ " + no_table(number)
    # autocomplete with a crafted number elsewhere in the command offers nothing, and says nothing
    assert await fake.autocomplete(h.alice, "play", "action", action="", table=2 ** 64) == []
    assert await fake.autocomplete(h.alice, "play", "action", action="", table=10 ** 12) == []
    assert await snapshot(h, table) == before and len(await h.store.find_tables()) == 1


def sub(*names, options=()):
    """A command's data: ``sub("table", "status", options=[...])``."""
    node = list(options)
    for name in reversed(names[1:]):
        node = [{"name": name, "type": 1, "options": node}]
    return {"id": "1", "name": names[0], "type": 1, "options": node}


async def test_crafted_commands_are_refused_cleanly(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    moderator = fake.add_user("Mod", moderator=True)
    before = await snapshot(h, table)
    unknown, bad = "Такой команды у бота нет.", "В команде недопустимое значение."
    for user, data, expected in [
        (h.alice, {"id": "1", "name": "chess", "type": 1}, unknown),
        (h.alice, sub("game", "fly"), unknown),
        (h.alice, sub("game"), bad),  # a group is not a command
        (h.alice, {"id": "1", "name": 5, "type": 1}, bad),
        (h.alice, {"id": "1", "name": "table", "type": 1, "options": "status"}, bad),
        (h.alice, sub("table", "status", options=[{"name": "table", "type": 4, "value": "1"}]), bad),
        (h.alice, sub("table", "status", options=[{"name": "table", "type": 4, "value": True}]), bad),
        (h.alice, sub("table", "status", options=[{"type": 4, "value": 1}]), bad),
        (h.alice, sub("table", "status", options=[{"name": "table", "type": 99, "value": 1}]), bad),
        (h.alice, sub("table", "a", "b", "c", options=[]), bad),
        (h.alice, sub("play", options=[{"name": "action", "type": 4, "value": 1}]), bad),  # a string option
        (moderator, sub("mod", "hidden"), bad),  # its required table left out
        (h.alice, sub("table", "status", options=[{"name": "bogus", "type": 4, "value": 1}]), bad),
    ]:
        ix = await fake.craft_command(user, data)
        assert await ix.text() == expected, data
    for data in [sub("play", options=[{"name": "action", "type": 3, "value": "1"}]),  # nothing typed
                 sub("play", options=[{"name": "action", "type": 3, "value": 1, "focused": True}]),
                 sub("play", options=[{"name": "action", "type": 3, "value": "", "focused": True},
                                      {"name": "table", "type": 4, "value": "", "focused": True}])]:
        ix = await fake.craft_command(h.alice, data, autocomplete=True)
        await ix.answer()
        assert ix.choices == [], data
    assert await snapshot(h, table) == before


async def test_server_commands_and_buttons_sent_from_a_dm_are_refused_cleanly(harness):
    """The commands are server-only and DMs carry no buttons of the bot's: Discord sends neither from a DM."""
    h, fake = harness, harness.fake
    table = await started_toy(h)
    moderator = fake.add_user("Mod", moderator=True)
    dm = fake.open_dm(moderator)
    before = await snapshot(h, table)
    for path, values in [("game new", {"game": "toy"}), ("game list", {}), ("game start", {"table": table.id}),
                         ("table status", {"table": table.id}), ("table hand", {}), ("play", {"action": "1"}),
                         ("mod hidden", {"table": table.id}), ("mod failures", {})]:
        reply = await (await fake.slash(moderator, path, channel_id=dm, **values)).text()
        assert reply and "🔒" not in reply and "hand=" not in reply, (path, reply)
    for prefix in ("j:act:", "j:hand:"):
        ix = await fake.click(moderator, h.turn_message(table), prefix=prefix, channel_id=dm)
        assert await ix.text() == "✋ " + no_table(table.id)
    assert await snapshot(h, table) == before and len(await h.store.find_tables()) == 1


async def test_a_database_that_refuses_to_write_gets_a_clear_private_answer(harness, monkeypatch, error_log):
    """The disk fills up (or another process holds the file past the busy timeout) while a command runs: the
    player is told the referee cannot write now and that nothing changed; the operator's log has one line,
    not a traceback; the record is as it was."""
    import sqlite3

    h, fake = harness, harness.fake

    async def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(h.store, "create_table", full)
    ix = await fake.slash(h.alice, "game new", game="toy")
    text = await ix.text()
    assert "диск заполнен" in text and "ничего не изменилось" in text, text
    assert await h.store.find_tables() == []
    assert [r.getMessage() for r in error_log.records] == ["the database refused a command: database or disk is full"]
    assert all(r.exc_info is None for r in error_log.records)
    error_log.records.clear()  # expected, and checked above
