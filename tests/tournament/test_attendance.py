"""Attendance (docs/tournaments.md T-19): check-in before round 1, requested byes for a coming round, automatic
withdrawal after N games lost by forfeit."""
from bot.engine import get_game
from tests.support.events import new_event

HOUR = 3600


async def test_players_who_did_not_check_in_are_removed_at_the_start(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"check_in": True, "rounds": 1})
    for p in ("u:p00", "u:p01", "u:p02"):
        assert await director.check_in(tid, p) is True
    assert (await director.check_in(tid, "u:p00")).key == "tournament.reject.checked_in"
    assert (await director.check_in(tid, "u:nobody")).key == "tournament.reject.not_entered"
    await director.start(tid, by="u:org")
    assert [e.user_id for e in await director.record.entries(tid)] == ["u:p00", "u:p01", "u:p02"]
    games = await director.record.games(tid, 1)
    assert sorted(p for g in games for p in g.players) == ["u:p00", "u:p01", "u:p02"]
    assert (await director.check_in(tid, "u:p00")).key == "tournament.reject.no_check_in"


async def test_a_requested_bye_scores_the_organisers_setting_and_is_not_the_pairing_bye(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 5, bots=False, settings={"rounds": 3, "requested_byes": 1})
    assert await director.request_bye(tid, "u:p00") == (True, 1)
    assert await director.request_bye(tid, "u:p00") == (False, 1)   # taken back
    assert await director.request_bye(tid, "u:p00") == (True, 1)
    await director.start(tid, by="u:org")
    games = await director.record.games(tid, 1)
    asked = [g for g in games if g.result == "requested"]
    assert asked and asked[0].players == ["u:p00"] and asked[0].points == {"u:p00": 0.5}
    assert all("u:p00" not in g.players for g in games if g.kind == "table")
    assert len([g for g in games if g.kind == "table"]) == 2  # the four others: no pairing bye needed
    assert (await director.request_bye(tid, "u:p00")).key == "tournament.reject.byes_used"
    assert await director.request_bye(tid, "u:p01") == (True, 2)
    for g in games:
        if g.kind == "table":
            await director.adjust(tid, 1, g.board, {g.players[0]: 1, g.players[1]: 0}, by="u:org", reason="t")
    r2 = await director.record.games(tid, 2)
    assert [g.players for g in r2 if g.result == "requested"] == [["u:p01"]]
    assert sorted(p for g in r2 if g.kind == "table" for p in g.players) == ["u:p00", "u:p02", "u:p03", "u:p04"]


async def test_a_requested_bye_can_be_worth_nothing_and_is_not_offered_in_a_bracket(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"requested_bye": "loss", "rounds": 1})
    await director.request_bye(tid, "u:p03")
    await director.start(tid, by="u:org")
    (asked,) = [g for g in await director.record.games(tid, 1) if g.result == "requested"]
    assert asked.points == {"u:p03": 0.0}
    director, tid = await new_event(referee, 4, fmt="elimination", bots=False)
    assert (await director.request_bye(tid, "u:p00")).key == "tournament.reject.no_requested_byes"


async def test_a_player_who_keeps_forfeiting_is_withdrawn(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"rounds": 3, "withdraw_after": 1},
                                    options={"clock": "1h", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    games = await director.record.games(tid, 1)
    late = []
    for g in games:  # in each game the seat to move never moves: it forfeits
        late.append(g.players[get_game("toy").to_act(await store.state(g.table_id))[0].seat])
    clock.t += 2 * HOUR
    await referee.tick()
    await director.sync(tid)
    entries = {e.user_id: e.status for e in await director.record.entries(tid)}
    assert all(entries[p] == "dropped" for p in late) and list(entries.values()).count("active") == 2
    r2 = await director.record.games(tid, 2)
    assert all(p not in late for g in r2 for p in g.players)
    assert any(e["action"] == "dropped" and e["by"] == "system" for e in await director.record.log(tid))
