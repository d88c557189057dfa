"""The fake Discord itself: its limits must catch what real Discord refuses, or the e2e suite proves little."""
from tests.discord.fake_discord import check_commands, check_components, check_message, until


def row(*components):
    return {"type": 1, "components": list(components)}


def button(custom_id, label="ok"):
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def select(custom_id, options):
    return {"type": 3, "custom_id": custom_id, "options": [{"label": str(o), "value": str(o)} for o in options]}


def test_message_limits():
    assert check_message({"content": "x" * 2000}, in_interaction=False, creating=True) == []
    assert check_message({"content": "x" * 2001}, in_interaction=False, creating=True)
    assert check_message({"content": ""}, in_interaction=False, creating=True)  # empty
    assert check_message({"content": "hi", "flags": 64}, in_interaction=False, creating=True)
    assert check_message({"content": "hi", "flags": 64}, in_interaction=True, creating=True) == []
    embed = {"title": "t" * 257}
    assert check_message({"embeds": [embed]}, in_interaction=False, creating=True)
    assert check_message({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
                         in_interaction=False, creating=True)  # over 6000 in total


def test_component_limits():
    assert check_components([row(*(button(f"b{i}") for i in range(5)))]) == []
    assert check_components([row(*(button(f"b{i}") for i in range(6)))])
    assert check_components([row(button(f"r{i}")) for i in range(6)])
    assert check_components([row(button("same")), row(button("same"))])
    assert check_components([row(button("x" * 101))])
    assert check_components([row(button("b", label="l" * 81))])
    assert check_components([row(select("s", range(25)))]) == []
    assert check_components([row(select("s", range(26)))])
    assert check_components([row(select("s", range(3)), button("b"))])


def test_command_shape():
    good = {"name": "game", "description": "Tables", "name_localizations": {"ru": "игра"},
            "options": [{"type": 3, "name": "game", "description": "which", "required": True}]}
    assert check_commands([good]) == []
    assert check_commands([{**good, "name": "Game"}])
    assert check_commands([{**good, "name_localizations": {"ru": "Игра"}}])
    assert check_commands([{**good, "name_localizations": {"xx": "игра"}}])
    assert check_commands([{**good, "description": "d" * 101}])
    assert check_commands([{**good, "options": [{"type": 3, "name": "a", "description": "a"},
                                               {"type": 3, "name": "b", "description": "b", "required": True}]}])


async def test_a_late_first_response_is_recorded_and_fails_the_test(harness, error_log):
    h, fake = harness, harness.fake
    fake.deadline = 0.0
    ix = await fake.slash(h.alice, "game list")
    # the deferral comes too late, then so does the bot's apology for the error it got
    await until(lambda: len(fake.violations) == 2 and error_log.records, what="the late responses")
    assert ix.response_type is None and all("answered after" in v for v in fake.violations)
    fake.violations.clear()  # expected here; any other test fails on it
    error_log.records.clear()


async def test_a_second_response_and_a_followup_before_any_response_are_refused_and_recorded(fake):
    """What discord.py itself prevents in-process is still enforced on the wire, the way Discord does."""
    import aiohttp

    from tests.discord.fake_discord import Interaction

    user = fake.add_user("Raw")
    ix = Interaction(fake, 2, user, fake.channel_id, None)
    fake.interactions[ix.id] = ix
    callback = f"{fake.base_url}/interactions/{ix.id}/{ix.token}/callback"
    followup = f"{fake.base_url}/webhooks/{fake.app_id}/{ix.token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(followup, json={"content": "too early"}) as early:
            assert early.status == 404
        async with session.post(callback, json={"type": 4, "data": {"content": "first"}}) as first:
            assert first.status == 200
        async with session.post(callback, json={"type": 4, "data": {"content": "second"}}) as second:
            assert second.status == 400 and (await second.json())["code"] == 40060
    assert [v.split(" ")[0] for v in fake.violations] == ["followup", "second"]
    assert await ix.text() == "first"
    fake.violations.clear()  # expected here; any other test fails on it
