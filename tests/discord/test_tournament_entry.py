"""Entry conditions on Discord (T-23): a server role set with ``/tournament new … settings: role=@role``, said
on the tournament's message, checked at the Enter button and at the Check in button."""
from bot.discord.render import user_key
from tests.discord.support import enter, new_tournament, tournament_message
from tests.support.attendance import PARITY_ACTIONS, attendance_record, parity


async def test_a_server_role_as_the_entry_condition(harness):
    h, fake = harness, harness.fake
    role = fake.add_role("Ladder", h.alice, h.carol)
    await h.restart()  # roles reach the bot with the server, at connection
    wrong = await (await fake.slash(h.alice, "tournament new", game="toy", format="swiss",
                                    settings="role=<@&4242424242>")).text()
    assert "роль сервера" in wrong and await h.bot.tournaments.director.record.find() == []
    tid, _ = await new_tournament(h, h.alice, settings=f"role=<@&{role.id}> check_in=yes")
    tour = await h.bot.tournaments.director.record.get(tid)
    assert tour.settings["role"] == role.id
    _, message = await tournament_message(h, tid)
    assert f"Условия входа: роль <@&{role.id}>" in message.content
    refused = await (await fake.click(h.bob, message, prefix="j:tjoin:")).text()
    assert f"<@&{role.id}>" in refused and "у вас её нет" in refused
    await enter(h, tid, h.alice, h.carol)
    entries = await h.bot.tournaments.director.record.entries(tid)
    assert [e.user_id for e in entries] == [user_key(h.alice.id), user_key(h.carol.id)]
    # the role is checked again at check-in: carol lost it in between
    h.carol.roles.remove(role.id)
    lost = await (await fake.click(h.carol, message, prefix="j:tcheck:")).text()
    assert "у вас её нет" in lost
    kept = await (await fake.click(h.alice, message, prefix="j:tcheck:")).text()
    assert "подтверждено" in kept


async def test_discords_attendance_and_pairing_edits_write_what_the_terminals_do(harness):
    """The same event as tests/terminal/test_tournament_organiser.py, by the buttons and /pairing: the same log."""
    h, fake = harness, harness.fake
    org = fake.add_user("Org")
    people = {n: fake.add_user(n) for n in ("ann", "ben", "cat", "dan", "eve", "fay")}
    names = {user_key(u.id): n for n, u in [("org", org), *people.items()]}
    tid, _ = await new_tournament(h, org, rounds=3, settings="check_in=yes")
    message = await enter(h, tid, *people.values())
    for n in ("ann", "ben", "cat", "dan", "eve"):
        await (await fake.click(people[n], message, prefix="j:tcheck:")).answer()
    for _ in range(3):
        await (await fake.click(people["eve"], message, prefix="j:tbye:")).answer()
    await (await fake.slash(org, "pairing forbid", first=people["ann"], second=people["ben"], reason="siblings",
                            number=tid)).answer()
    await (await fake.slash(org, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    tables = [g for g in await director.record.games(tid, 1) if g.kind == "table"]
    x, y = (names[g.players[0]] for g in tables)
    await (await fake.slash(org, "pairing swap", first=people[x], second=people[y], reason="asked",
                            number=tid)).answer()
    entries = [(e["action"], e["by"], e["reason"], e["data"]) for e in await director.record.log(tid)
               if e["action"] in PARITY_ACTIONS]
    assert attendance_record(entries, names) == parity(x, y)
