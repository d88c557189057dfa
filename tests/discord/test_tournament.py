"""Tournaments through the fake Discord: /tournament new posts the message with its buttons, players enter,
/tournament start opens round 1's tables as threads with the pairing posted, results flow from finished tables,
the clock pairs round 2, the end is posted with the standings; refusals; a forum channel's posts and tags."""
from tests.discord.harness import eventually
from tests.discord.support import enter, new_tournament, play_round, tournament_message


async def test_registration_two_rounds_and_standings(harness):
    h, fake = harness, harness.fake
    tid, reply = await new_tournament(h, h.alice, rounds=2, hours=48, title="Кубок")
    assert reply.ephemeral_for == h.alice.id and f"#{tid}" in reply.content
    tour, message = await tournament_message(h, tid)
    assert message.channel_id == fake.channel_id and "Кубок" in message.content
    assert message.content.count("\n") >= 3  # its lines kept, not one run-on line (issue 27)
    assert [c["custom_id"] for c in message.items()] == [f"j:tjoin:{tid}", f"j:tleave:{tid}", f"j:tbye:{tid}"]
    for user in (h.alice, h.bob, h.carol):
        answer = await (await fake.click(user, message, prefix="j:tjoin:")).answer()
        assert answer.ephemeral_for == user.id and f"#{tid}" in answer.content
    again = await (await fake.click(h.bob, message, prefix="j:tjoin:")).text()
    assert "уже" in again
    assert all(u.mention in message.content for u in (h.alice, h.bob, h.carol)) and message.pinged == []
    await h.bot.tournaments.director.join(tid, "bot:t1", "Robo", is_bot=True)

    refusal = await (await fake.slash(h.bob, "tournament start")).text()  # not the organiser
    assert "организатор" in refusal
    started = await (await fake.slash(h.alice, "tournament start")).text()
    assert f"#{tid}" in started
    await h.settled()

    games = await h.bot.tournaments.director.record.games(tid, 1)
    assert [g.kind for g in games] == ["table", "table"]
    threads = []
    for g in games:
        table = await h.table(g.table_id)
        assert table.status == "active" and table.thread_id is not None
        assert fake.channels[table.thread_id]["parent_id"] == fake.channel_id
        assert fake.in_channel(table.thread_id)[0].find(prefix="j:act:")  # the live message, in its thread
        threads.append(table.thread_id)
    posts = [m for m in fake.in_channel(fake.channel_id) if "Тур 1 из 2" in m.content]
    assert len(posts) == 1 and all(f"<#{th}>" in posts[0].content for th in threads)
    assert "<t:" in posts[0].content  # the round's deadline as a Discord timestamp
    assert "Идёт тур 1" in message.content and f"j:tstand:{tid}" in [c["custom_id"] for c in message.items()]

    await play_round(h, tid, 1)
    await eventually(lambda: _posted(fake, "Тур 2 из 2"), what="round 2 to be paired by the clock and posted")
    await h.settled()
    await play_round(h, tid, 2)
    await eventually(lambda: _posted(fake, "Итоговая таблица"), what="the tournament to finish")
    final = [m for m in fake.in_channel(fake.channel_id) if "Итоговая таблица" in m.content]
    assert final and "```" in final[0].content and "Robo" in final[0].content
    for g in await h.bot.tournaments.director.record.games(tid, 2):  # the last tables' results came first
        if g.table_id is not None:
            ends = [m for m in fake.in_channel((await h.table(g.table_id)).thread_id) if "🏆" in m.content]
            assert ends and int(ends[-1].id) < int(final[0].id)
    async def standings_only():  # a finished tournament takes no entries: its message keeps the standings
        return [c["custom_id"] for c in message.items()] == [f"j:tstand:{tid}"] and "Закончен" in message.content
    await eventually(standings_only, what="the tournament's message to show the end")

    standings = await (await fake.slash(h.carol, "tournament standings", number=tid)).answer()
    assert standings.ephemeral_for == h.carol.id
    rows = await h.bot.tournaments.director.standings(tid)
    assert sum(r.points for r in rows) == 4  # two rounds of two games, one point each
    leader = rows[0]
    lines = standings.content.split("\n")
    assert lines[2].startswith("№") and leader.name in lines[3]  # heading, fence, column names, the leader
    (picture,) = standings.attachments                           # the standings as a picture beside the text
    assert picture["data"].startswith(b"\x89PNG") and len(picture["data"]) <= 300_000 and picture["description"]


async def _posted(fake, text):
    return [m for m in fake.in_channel(fake.channel_id) if text in m.content]


async def test_refusals_are_clear_and_change_nothing(harness):
    h, fake = harness, harness.fake
    bad = await (await fake.slash(h.alice, "tournament new", game="toy", format="swiss", settings="bye=maybe")).text()
    assert "bye" in bad and await h.bot.tournaments.director.record.find() == []
    none = await (await fake.slash(h.alice, "tournament start")).text()
    assert "нет открытого турнира" in none
    tid, _ = await new_tournament(h, h.alice)
    few = await (await fake.slash(h.alice, "tournament start", number=tid)).text()
    assert "хотя бы 2" in few
    other = await (await fake.slash(h.alice, "tournament standings", number=tid + 100)).text()
    assert f"{tid + 100}" in other and "нет" in other


async def test_organiser_role_gates_creation_and_gives_the_organisers_rights(harness):
    h, fake = harness, harness.fake
    mod = fake.add_user("Mod", moderator=True)
    role = fake.add_role("TO")
    await h.restart()  # roles reach the bot with the server, at connection
    refusal = await (await fake.slash(h.alice, "tournament organisers", role=role)).text()
    assert "модератор" in refusal.lower() or "прав" in refusal.lower()
    done = await (await fake.slash(mod, "tournament organisers", role=role)).text()
    assert f"<@&{role.id}>" in done
    gated = await (await fake.slash(h.alice, "tournament new", game="toy", format="swiss")).text()
    assert "организатор" in gated and await h.bot.tournaments.director.record.find() == []
    h.bob.roles.append(role.id)
    tid, _ = await new_tournament(h, h.bob)
    cancelled = await (await fake.slash(h.bob, "tournament cancel", number=tid)).text()
    assert f"#{tid}" in cancelled


async def test_dropping_out_and_removal(harness):
    h, fake = harness, harness.fake
    tid, _ = await new_tournament(h, h.alice)
    message = await enter(h, tid, h.bob, h.carol)
    await (await fake.click(h.bob, message, prefix="j:tleave:")).answer()
    assert h.bob.mention not in message.content and h.carol.mention in message.content
    no_reason = await (await fake.slash(h.alice, "tournament drop", player=h.carol)).text()
    assert "причину" in no_reason.lower()
    removed = await (await fake.slash(h.alice, "tournament drop", player=h.carol, reason="не пришла")).text()
    assert h.carol.mention in removed and h.carol.mention not in message.content
    log = await h.bot.tournaments.director.record.log(tid)
    assert any(entry["action"] == "removed" and entry["reason"] == "не пришла" for entry in log)


async def test_a_forum_channel_gets_a_post_per_table_with_tags(harness):
    """Tables of a tournament pointed at a Forum channel: the tournament's own post, one post per table tagged
    with the game, the round and "open" (the server's tags; a moderated one is left alone), "finished" at
    the end; a casual table opened from inside the forum is a post too."""
    h, fake = harness, harness.fake
    forum = fake.add_forum("турниры", ("toy", "идёт", "закончен", "тур 1", "тур 2"), moderated=("важное",))
    await h.restart()  # channels reach the bot with the server
    reply = await (await fake.slash(h.alice, "tournament new", game="toy", format="swiss", rounds=1,
                                    channel=forum)).answer()
    tour = (await h.bot.tournaments.director.record.find())[0]
    assert tour.channel_id == forum and f"<#{tour.message_id}>" in reply.content
    post = fake.channels[tour.message_id]
    assert post["parent_id"] == forum and fake.messages[tour.message_id].find(prefix="j:tjoin:")
    await enter(h, tour.id, h.alice, h.bob)
    await (await fake.slash(h.alice, "tournament start", number=tour.id)).answer()
    await h.settled()
    (g,) = await h.bot.tournaments.director.record.games(tour.id, 1)
    table = await h.table(g.table_id)
    assert fake.channels[table.thread_id]["parent_id"] == forum
    assert sorted(fake.tag_names(table.thread_id)) == sorted(["toy", "идёт", "тур 1"])
    assert fake.messages[table.thread_id].channel_id == table.thread_id  # the post's first message: the table
    pairing = await eventually(lambda: _posted_in(fake, tour.message_id, "Тур 1 из 1"), what="the pairing post")
    assert f"<#{table.thread_id}>" in pairing[0].content
    await play_round(h, tour.id, 1)
    await eventually(lambda: _posted_in(fake, tour.message_id, "Итоговая таблица"), what="the end")

    async def finished_tag():
        return sorted(fake.tag_names(table.thread_id)) == sorted(["toy", "закончен", "тур 1"])
    await eventually(finished_tag, what="the post to be tagged finished")
    assert fake.channels[table.thread_id]["thread_metadata"]["archived"]

    before = {tb.id for tb in await h.store.find_tables()}
    await (await fake.slash(h.carol, "game new", channel_id=tour.message_id, game="toy")).answer()
    (new,) = [tb for tb in await h.store.find_tables() if tb.id not in before]
    assert new.channel_id == forum and fake.channels[new.thread_id]["parent_id"] == forum
    assert sorted(fake.tag_names(new.thread_id)) == sorted(["toy", "идёт"])
    assert h.lobby(new).find(prefix="j:join:")
    await h.join(h.bob, new)  # the lobby message, in the post, redrawn in place
    assert h.bob.mention in h.lobby(new).content


async def _posted_in(fake, channel_id, text):
    return [m for m in fake.in_channel(channel_id) if text in m.content]


async def test_format_is_suggested_in_the_members_language(harness):
    h, fake = harness, harness.fake
    offered = await fake.autocomplete(h.alice, "tournament new", "format", game="toy", format="швей")
    assert [c["value"] for c in offered] == ["swiss"] and "швейцарская" in offered[0]["name"]
    refusal = await (await fake.slash(h.alice, "tournament new", game="toy", format="ladder")).text()
    assert "ladder" in refusal and "swiss" in refusal


async def test_a_refused_thread_leaves_the_table_waiting_and_a_restart_does_not_cancel_it(harness):
    h, fake = harness, harness.fake
    tid, _ = await new_tournament(h, h.alice)
    await enter(h, tid, h.alice, h.bob)
    fake.fail("POST", r"/threads$", 403, code=50013, times=1)
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    (g,) = await h.bot.tournaments.director.record.games(tid, 1)
    table = await h.table(g.table_id)
    assert table.status == "lobby" and table.thread_id is None and len(await h.store.seats(table.id)) == 2
    await h.restart()  # a casual lobby without a thread would be cancelled here; a tournament's is not
    table = await eventually(lambda: _started(h, g.table_id), what="the table to get its thread and start")
    assert fake.channels[table.thread_id]["parent_id"] == fake.channel_id
    await h.settled()
    assert fake.in_channel(table.thread_id)[0].find(prefix="j:act:")  # the live message, in its thread


async def _started(h, table_id):
    table = await h.table(table_id)
    return table if table.status == "active" and table.thread_id else None
