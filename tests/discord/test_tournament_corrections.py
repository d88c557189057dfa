"""A bracket correction through the fake Discord (cogs/organise.py): ``/organise adjust`` on a result whose winner
played on shows what it undoes with a button; the button applies it, the cancelled table's players are told why;
a stale button is refused; Swiss says its later pairings stand."""
from bot.discord.render import user_key
from bot.tournament import organiser
from tests.discord.support import enter


async def event_after_round_one(h, **event):
    """A toy tournament of five opened on Discord, started, and its round 1 settled by the organiser: the
    director and the tournament's number."""
    dave, eve = h.fake.add_user("Dave"), h.fake.add_user("Eve")
    await (await h.fake.slash(h.alice, "tournament new", game="toy", **event)).answer()
    tid = (await h.bot.tournaments.director.record.find())[0].id
    await enter(h, tid, h.bob, h.carol, dave, eve)
    await (await h.fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    for g in await director.record.games(tid, 1):
        await (await h.fake.slash(h.alice, "organise adjust", round=1, board=g.board, points="1 0",
                                  reason="сыграно")).answer()
    await h.settled()
    return director, tid


async def test_a_bracket_correction_is_shown_then_confirmed_by_its_button(harness):
    h, fake = harness, harness.fake
    director, tid = await event_after_round_one(h, format="elimination")
    assert (await director.record.get(tid)).round == 2
    first = (await director.record.games(tid, 1))[0]
    w, lost = first.players
    (final,) = await director.record.games(tid, 2)

    shown = await (await fake.slash(h.alice, "organise adjust", round=1, board=first.board, points="0 1",
                                    reason="перепутали счёт")).answer()
    assert "тур 2, стол 1" in shown.content and (await h.table(final.table_id)).status == "active"
    button = shown.find(prefix="j:tfix:")["custom_id"]
    forged = await (await fake.craft_click(h.bob, fake.channel_id, {"custom_id": button, "component_type": 2},
                                              shown)).text()
    assert "организатор" in forged  # Bob is no organiser
    assert (await h.table(final.table_id)).status == "active"
    done = await (await fake.click(h.alice, shown, prefix="j:tfix:")).text()
    assert "сетка составлена заново с тура 2" in done
    await h.settled()
    assert (await h.table(final.table_id)).status == "cancelled"
    thread = (await h.table(final.table_id)).thread_id
    told = "\n".join(m.text for m in fake.in_channel(str(thread)))
    (again,) = await director.record.games(tid, 2)
    assert lost in again.players and w not in again.players
    twice = await (await fake.click(h.alice, shown, prefix="j:tfix:")).text()
    assert "устарело" in twice
    assert "исправил результат тура 1" in told  # the cancelled table's players are told why


async def test_a_swiss_correction_says_the_later_pairings_stand(harness):
    h, fake = harness, harness.fake
    director, tid = await event_after_round_one(h, format="swiss", rounds=3)
    paired = await director.record.games(tid, 2)
    answer = await (await fake.slash(h.alice, "organise adjust", round=1, board=1, points="0 1",
                                     reason="перепутали счёт")).text()
    assert "остаются в силе" in answer and await director.record.games(tid, 2) == paired
    assert user_key(h.alice.id) not in {p for g in paired for p in g.players}


def test_a_long_list_of_undone_games_fits_discords_messages():
    from bot.discord.render import pack
    from bot.storage.tournaments import GameRow
    from bot.tournament.corrections import Undo, describe
    games = [GameRow(3, b, "table", [f"u:{b}a", f"u:{b}b"], None, None, None) for b in range(1, 65)]
    lines = describe(Undo(1, 1, 1, games, 2, [3]), {p: "Игрок с очень длинным именем " + p for g in games
                                                      for p in g.players}, "ru")
    messages = pack(lines)
    assert len(messages) > 1 and all(len(m) <= 2000 for m in messages)
    assert sum(m.count("тур 3, стол") for m in messages) == 64


async def test_a_confirmed_correction_that_finds_nothing_left_to_undo_is_recorded_and_said(harness, monkeypatch):
    """Between the button's check and the director's lock the bracket may move so that the correction undoes
    nothing more: the result is still recorded, and the organiser is told so (it once reached ``_undo`` with a
    ``Progress`` and answered with an internal error)."""
    h, fake = harness, harness.fake
    director, tid = await event_after_round_one(h, format="elimination")
    first = (await director.record.games(tid, 1))[0]
    shown = await (await fake.slash(h.alice, "organise adjust", round=1, board=first.board, points="0 1",
                                    reason="перепутали счёт")).answer()
    real, calls = organiser.undone, []

    def moved_meanwhile(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs) if len(calls) == 1 else []  # the second look, under the lock, finds none

    monkeypatch.setattr(organiser, "undone", moved_meanwhile)
    done = await (await fake.click(h.alice, shown, prefix="j:tfix:")).text()
    assert len(calls) == 2
    assert "ничего не пришлось" in done
    assert (await director.record.games(tid, 1))[0].points == {first.players[0]: 0.0, first.players[1]: 1.0}
