"""``/settings public-pages``: a server's moderators take its tables and tournaments off the public pages and
put them back, answered in the server's language; a member without Manage Server is refused."""
from bot.i18n import t


async def test_a_moderator_turns_the_public_pages_off_and_on(harness):
    h, fake = harness, harness.fake
    assert (await h.store.guild(fake.guild_id))["public"] == 1  # every server is public until told otherwise
    refusal = await (await fake.slash(h.bob, "settings public-pages", show="off")).text()
    assert refusal == t("discord.forbidden", "ru") and (await h.store.guild(fake.guild_id))["public"] == 1

    owner = fake.add_user("Owner", moderator=True)
    said = await (await fake.slash(owner, "settings public-pages", show="off")).text()
    assert said == t("discord.settings.public_off", "ru")
    assert (await h.store.guild(fake.guild_id))["public"] == 0
    said = await (await fake.slash(owner, "settings public-pages", show="on")).text()
    assert said == t("discord.settings.public_on", "ru")
    assert (await h.store.guild(fake.guild_id))["public"] == 1
