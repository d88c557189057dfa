"""Structure settings (docs/tournaments.md T-21): seeding by lot, the organiser's order or ratings (the hook
for issue 16), the tie-break order, multi-seat place points."""
import random

from bot.storage.tournaments import Entry, GameRow
from bot.tournament.director import Director
from bot.tournament.seeding import seed_order
from bot.tournament.standings import Points, standings, table_points
from tests.support.events import new_event


def test_seed_order_by_lot_order_and_rating():
    players = ["a", "b", "c", "d", "e"]
    assert seed_order(players, "order", random.Random(1)) == players
    lot = seed_order(players, "lot", random.Random(1))
    assert sorted(lot) == players and lot == seed_order(players, "lot", random.Random(1))
    ratings = {"a": 1500, "b": 1800, "c": None, "d": 1800, "e": 1200}
    by_rating = seed_order(players, "rating", random.Random(1), ratings.get)
    assert by_rating[:2] in (["b", "d"], ["d", "b"]) and by_rating[2:] == ["a", "e", "c"]
    assert seed_order(players, "rating", random.Random(1), None) == lot  # no ratings yet: the lot


async def test_a_bracket_seeded_by_rating_puts_the_top_two_in_different_halves(env):
    store, referee, clock = env
    ratings = {f"u:p{i:02}": 2000 - 10 * i for i in range(8)}
    director, tid = await new_event(referee, 8, fmt="elimination", settings={"seeding": "rating"})
    director.ratings = lambda game, user: ratings.get(user)
    await director.start(tid, by="u:org")
    t = await director.record.get(tid)
    assert t.settings["order"] == [f"u:p{i:02}" for i in range(8)]
    r1 = await director.record.games(tid, 1)
    assert sorted(r1[0].players) == ["u:p00", "u:p07"] and sorted(r1[-1].players) != ["u:p01", "u:p00"]
    director, tid = await new_event(referee, 4, settings={"seeding": "order"})
    await director.start(tid, by="u:org")
    assert (await director.record.get(tid)).settings["order"] == [f"u:p{i:02}" for i in range(4)]
    bad = await Director(referee).create("toy", "swiss", creator="x", settings={"seeding": "height"})
    assert bad.key == "tournament.reject.choice"


def test_the_tiebreak_order_is_the_organisers():
    entries = [Entry(u, u, False, i, "active", 0) for i, u in enumerate("ABCD", start=1)]
    games = [GameRow(1, 1, "table", ["A", "B"], 1, {"A": 1.0, "B": 0.0}, "played"),
             GameRow(1, 2, "table", ["C", "D"], 2, {"C": 0.5, "D": 0.5}, "draw"),
             GameRow(2, 1, "table", ["A", "C"], 3, {"A": 1.0, "C": 0.0}, "played"),
             GameRow(2, 2, "table", ["D", "B"], 4, {"D": 0.0, "B": 1.0}, "played")]
    # C and D have 0.5 each; by Buchholz C is ahead (2.5 v 1.5), by wins they tie and the lot decides
    default = [s.user_id for s in standings("swiss", entries, games, "seed", Points())]
    assert default.index("C") < default.index("D")
    by_sb = [s.user_id for s in standings("swiss", entries, games, "seed", Points(), tiebreaks=["wins"])]
    lot_first = min("CD", key=lambda u: next(s.lot for s in standings("swiss", entries, games, "seed", Points())
                                             if s.user_id == u))
    assert by_sb[2] == lot_first


async def test_tiebreak_and_place_points_settings_are_checked(env):
    store, referee, clock = env
    director = Director(referee)
    made = await director.create("toy", "swiss", creator="x", settings={"tiebreaks": "wins,buchholz"})
    assert made.settings["tiebreaks"] == ["wins", "buchholz"]
    for bad in ({"tiebreaks": "height"}, {"tiebreaks": "wins,wins"}):
        assert (await director.create("toy", "swiss", creator="x", settings=bad)).key == "tournament.reject.choice"
    assert (await director.create("toy", "swiss", creator="x", settings={"place_points": "3,1"})).key \
        == "tournament.reject.setting"
    for bad in ("1,2", "4", "5,4,3,2,1", "a,b"):
        refused = await director.create("toy", "multiseat", creator="x", settings={"place_points": bad})
        assert refused.key == "tournament.reject.place_points", bad


def test_place_points_by_the_games_scores_and_shared_on_ties():
    places = Points(win=4, draw=2, loss=0, places=(4, 2, 1, 0))
    outcome = {"winners": [2], "scores": {"0": 5, "1": 9, "2": 12, "3": 5}}
    got, how = table_points(outcome, ["a", "b", "c", "d"], places, cooperative=False)
    assert got == {"c": 4, "b": 2, "a": 0.5, "d": 0.5} and how == "played"
    team = {"winners": [0, 1]}  # no scores: the winners share the first places, the others the rest
    got, _ = table_points(team, ["a", "b", "c", "d"], places, cooperative=False)
    assert got == {"a": 3, "b": 3, "c": 0.5, "d": 0.5}


async def test_a_multiseat_event_with_place_points(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 6, fmt="multiseat", settings={"rounds": 2, "table_size": 3,
                                                                           "place_points": "3,1,0"})
    await director.start(tid, by="u:org")
    from tests.support.events import play_out
    t = await play_out(director, tid)
    assert t.status == "finished"
    for g in await director.record.games(tid):
        assert max(g.points.values()) >= 1.33 and abs(sum(g.points.values()) - 4) < 0.01


async def test_the_organiser_swaps_two_players_before_any_move_and_it_is_logged(env):
    from bot.engine import get_game
    store, referee, clock = env
    director, tid = await new_event(referee, 5, bots=False, settings={"rounds": 2})
    await director.start(tid, by="u:org")
    games = await director.record.games(tid, 1)
    table = next(g for g in games if g.kind == "table")
    bye = next(g for g in games if g.kind == "bye")
    a, out = table.players[0], bye.players[0]
    assert (await director.swap(tid, a, out, by="u:org", reason=" ")).key == "tournament.reject.reason_needed"
    assert (await director.swap(tid, a, out, by=a, reason="x")).key == "tournament.reject.organiser_only"
    assert (await director.swap(tid, a, "u:nobody", by="u:org", reason="x")).key == "tournament.reject.not_swappable"
    await director.swap(tid, a, out, by="u:org", reason="asked to sit out")
    after = {g.board: g for g in await director.record.games(tid, 1)}
    assert after[table.board].players == [out, *table.players[1:]] and after[bye.board].players == [a]
    assert after[bye.board].points == {a: 1.0}
    assert (await store.get_table(table.table_id)).status == "cancelled"
    new = await store.get_table(after[table.board].table_id)
    assert new.status == "active" and [s.user_id for s in await store.seats(new.id)] == after[table.board].players
    entry = (await director.record.log(tid))[-1]
    assert entry["action"] == "swap" and entry["reason"] == "asked to sit out"
    state = await store.state(new.id)
    seat = get_game("toy").to_act(state)[0].seat
    await referee.act(new.id, after[table.board].players[seat], get_game("toy").legal_actions(state, seat)[0])
    other = next(g for g in after.values() if g.kind == "table" and g.board != table.board)
    assert (await director.swap(tid, out, other.players[0], by="u:org", reason="x")).key \
        == "tournament.reject.round_begun"


async def test_a_forbidden_pair_is_not_paired_in_swiss(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"rounds": 3})
    assert await director.forbid(tid, "u:p00", "u:p01", by="u:org", reason="siblings") is True
    assert (await director.forbid(tid, "u:p00", "u:zz", by="u:org", reason="x")).key == "tournament.reject.not_entered"
    for attempt in range(6):  # whatever the lot, round 1 never seats the two together
        plan = await director._plan(await director.record.get(tid), 1, attempt)
        assert all(set(g.players) != {"u:p00", "u:p01"} for g in plan)
    rr, _ = await new_event(referee, 4, fmt="round_robin", bots=False)
    tid2 = (await rr.record.find())[0].id
    assert (await rr.forbid(tid2, "u:p00", "u:p01", by="u:org", reason="x")).key == "tournament.reject.no_forbid"
