"""Bloodwood at five seats through the fake Discord: roles by DM, the leaders' look at every role by DM only."""
from bot.engine import get_game
from bot.games.bloodwood.cards import catalogue
from tests.discord.harness import assert_private_stays_private


async def test_a_five_player_start_deals_roles_and_the_leaders_sight_by_dm_only(harness):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    table = await h.new_table(h.alice, "bloodwood")
    for user in users[1:]:
        await h.join(user, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)

    state = await h.store.state(table.id)
    leaders = [seat for seat, role in enumerate(state["roles"]) if catalogue().is_leader(role)]
    assert leaders and await assert_private_stays_private(h, table, users) >= 2 * len(users)
    game = get_game("bloodwood")
    for seat, user in enumerate(users):
        sight = [e for e in await h.store.events(table.id) if e.kind == "leader_sight" and e.to == [seat]]
        dms = "\n".join(text for m in fake.dms(user) for text in m.history)
        if seat in leaders:
            named = [f"\u2068{u.name}\u2069" for u in users]  # (every name in a message is isolated)
            assert sight and game.render_event(sight[0].as_event(), "ru", named) in dms
        else:
            assert not sight
    everyone_sees = fake.in_channel(table.thread_id)[0].content
    assert "лидер" in everyone_sees.lower() and h.turn_message(table) is not None
