"""An organiser (or moderator) playing in their own tournament does not set their own game's result: an
adjustment or a forfeit of that game is refused to them (bot/referee/seated.py), and another organiser sets it."""
from tests.support.events import new_event


async def test_an_organiser_playing_a_game_does_not_set_its_result(env):
    store, referee, _ = env
    director, tid = await new_event(referee, 3, bots=False, settings={"rounds": 2})
    assert await director.join(tid, "u:org", "Org") == 4  # the organiser plays too
    await director.start(tid, by="u:org")
    g = next(g for g in await director.record.games(tid, 1) if "u:org" in g.players)
    other = next(p for p in g.players if p != "u:org")
    for attempt in (director.adjust(tid, 1, g.board, {"u:org": 1, other: 0}, by="u:org", reason="I won"),
                    director.forfeit(tid, 1, g.board, [other], by="u:org", reason="absent"),
                    director.adjust(tid, 1, g.board, {"u:org": 1, other: 0}, by="u:org", reason="x", moderator=True)):
        refused = await attempt
        assert refused.key == "tournament.reject.own_game" and "another organiser" in refused.message("en")
    assert (await store.get_table(g.table_id)).status == "active"
    assert next(x for x in await director.record.games(tid, 1) if x.board == g.board).points is None
    done = await director.adjust(tid, 1, g.board, {"u:org": 0, other: 1}, by="u:mod", reason="conceded", moderator=True)
    assert not hasattr(done, "key"), done
    assert next(x for x in await director.record.games(tid, 1) if x.board == g.board).points == {"u:org": 0.0,
                                                                                              other: 1.0}
