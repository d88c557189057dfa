"""Languages: localised command names and descriptions, replies in the member's language, the server's
override, and table messages in the table's language."""
from bot.i18n import t
from tests.discord.support import started_toy


def walk(options, path=""):
    for option in options or []:
        yield f"{path} {option['name']}", option
        yield from walk(option.get("options"), f"{path} {option['name']}")


async def test_every_command_option_and_choice_is_localised_in_russian_and_ukrainian(harness):
    missing = []
    for command in harness.fake.commands:
        for where, item in [(command["name"], command), *walk(command.get("options"), command["name"])]:
            for field in ("name_localizations", "description_localizations"):
                if {"ru", "uk"} - set(item.get(field) or {}):
                    missing.append(f"{where}: {field}")
            for choice in item.get("choices") or []:
                if {"ru", "uk"} - set(choice.get("name_localizations") or {}):
                    missing.append(f"{where} choice {choice['name']}")
    assert not missing, missing
    game = next(c for c in harness.fake.commands if c["name"] == "game")
    assert game["name_localizations"]["ru"] == "игра" and game["name_localizations"]["uk"] == "гра"


async def test_replies_follow_the_members_language(harness):
    fake = harness.fake
    kyiv = fake.add_user("Oksana", locale="uk")
    london = fake.add_user("Ann", locale="en-GB")
    berlin = fake.add_user("Hans", locale="de")
    assert await (await fake.slash(kyiv, "game list")).text() == t("discord.list.empty", "uk")
    assert await (await fake.slash(london, "game list")).text() == t("discord.list.empty", "en")
    assert await (await fake.slash(berlin, "game list")).text() == t("discord.list.empty", "ru")  # the default


async def test_a_table_speaks_its_creators_language_and_a_server_override_wins(harness):
    h, fake = harness, harness.fake
    h.alice.locale = "en-US"
    table = await started_toy(h)
    assert "· table #" in fake.in_channel(table.thread_id)[0].content
    assert "Join" in [c["label"] for c in fake.messages[(await h.new_table(h.alice, "toy")).thread_id].items()]

    refusal = await (await fake.slash(h.bob, "settings language", language="uk")).text()
    assert refusal == t("discord.forbidden", "ru")
    owner = fake.add_user("Owner", moderator=True)
    reply = await (await fake.slash(owner, "settings language", language="uk")).text()
    assert reply == t("discord.settings.language_set", "uk", language=t("discord.language.uk", "uk"))
    assert t("discord.list.header", "uk") in await (await fake.slash(h.alice, "game list")).text()
    await h.act(h.alice if (await h.store.state(table.id))["turn"] == 0 else h.bob, table)
    live = fake.in_channel(table.thread_id)[0]  # the live message, edited after the move, in the server's language
    assert "стіл №" in live.content and "table #" not in live.content

    await (await fake.slash(owner, "settings language", language="auto")).answer()
    assert t("discord.list.header", "en") in await (await fake.slash(h.alice, "game list")).text()
