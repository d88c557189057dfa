"""With ``web.base_url`` configured, the Discord posts link to the public pages (bot/web/): a round's pairing
post and the final standings to the tournament's page, /tournament standings too, a table's live message and
its end post to the table's page.  Without it no post carries an address (the other tests)."""
from tests.discord.harness import eventually
from tests.discord.support import BASE, enter, new_tournament, play_round


async def test_posts_link_to_their_pages(linked):
    h, fake = linked, linked.fake
    tid, _ = await new_tournament(h, h.alice, rounds=1, title="Кубок")
    await enter(h, tid, h.alice, h.bob)
    await (await fake.slash(h.alice, "tournament start", number=tid)).text()
    await h.settled()
    pairing = [m for m in fake.in_channel(fake.channel_id) if "Тур 1 из 1" in m.content]
    assert len(pairing) == 1 and f"<{BASE}/tournament/{tid}#round-1>" in pairing[0].content

    (game,) = await h.bot.tournaments.director.record.games(tid, 1)
    table = await h.table(game.table_id)
    live = fake.in_channel(table.thread_id)[0]
    assert f"<{BASE}/table/{table.id}>" in live.content
    await play_round(h, tid, 1)
    await h.settled()
    end = [m for m in fake.in_channel(table.thread_id)[1:] if "🏆" in m.content or "Ничья" in m.content]
    assert end and f"<{BASE}/table/{table.id}>" in end[-1].content

    async def final():
        return [m for m in fake.in_channel(fake.channel_id) if "Итоговая таблица" in m.content]
    (standings_post,) = await eventually(final, what="the tournament to finish")
    assert f"<{BASE}/tournament/{tid}>" in standings_post.content
    reply = await (await fake.slash(h.carol, "tournament standings", number=tid)).answer()
    assert f"<{BASE}/tournament/{tid}>" in reply.content
