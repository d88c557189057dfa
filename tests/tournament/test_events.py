"""The tournament director through the referee service: whole events of bot players, late entry and drops,
the organiser's tools, round deadlines with a fake clock, a restart and a crash in the middle of a round."""
import pytest

from bot.engine import Rejection, get_game
from bot.referee.service import Referee
from bot.storage.store import Store
from bot.storage.tournaments import GameRow, NewGame
from bot.tournament.director import Director, table_title
from bot.tournament.standings import Points, standings
from tests.support.events import new_event, play_out


def check_rounds(games, players):
    """Every round seats each player at most once, and no two players meet twice."""
    met = set()
    for rnd in sorted({g.round for g in games}):
        seated = [p for g in games if g.round == rnd for p in g.players]
        assert len(seated) == len(set(seated))
        assert set(seated) <= set(players)
        for g in games:
            if g.round == rnd and g.kind == "table":
                key = frozenset(g.players)
                assert key not in met, f"rematch {sorted(key)} in round {rnd}"
                met.add(key)


async def test_swiss_of_nine_bots_runs_to_the_end(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 9)
    assert isinstance(await director.start(tid, by="u:org"), object)
    t = await play_out(director, tid)
    assert t.status == "finished" and t.round == 5 and t.settings["rounds"] == 5
    games = await director.record.games(tid)
    check_rounds(games, [f"u:p{i:02}" for i in range(9)])
    byes = [g.players[0] for g in games if g.kind == "bye"]
    assert len(byes) == 5 and len(set(byes)) == 5, "byes go to different players"
    assert all(g.settled for g in games)
    table = await director.standings(tid)
    assert sum(s.points for s in table) == 5 * 4 + 5  # four games and one bye a round
    assert [s.rank for s in table] == list(range(1, 10))
    assert table[0].points >= table[-1].points
    for g in games:
        if g.table_id:
            assert (await store.get_table(g.table_id)).status == "finished"


async def test_a_64_player_swiss_through_the_service(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 64)
    await director.start(tid, by="u:org")
    t = await play_out(director, tid)
    assert t.round == 7 and t.status == "finished"
    games = await director.record.games(tid)
    assert len(games) == 7 * 32 and all(g.kind == "table" for g in games)
    check_rounds(games, [f"u:p{i:02}" for i in range(64)])
    assert sum(s.points for s in await director.standings(tid)) == 7 * 32


@pytest.mark.parametrize("fmt, n, rounds", [("round_robin", 5, 5), ("elimination", 6, 3), ("multiseat", 10, 3)])
async def test_other_formats_run_to_the_end(env, fmt, n, rounds):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt)
    await director.start(tid, by="u:org")
    t = await play_out(director, tid)
    assert t.status == "finished" and t.round == rounds
    games = await director.record.games(tid)
    if fmt == "round_robin":
        check_rounds(games, [f"u:p{i:02}" for i in range(n)])
        assert len([g for g in games if g.kind == "table"]) == n * (n - 1) // 2
    if fmt == "elimination":
        assert [len([g for g in games if g.round == r and g.kind == "table"]) for r in (1, 2, 3)][0] == 2
        champion = (await director.standings(tid))[0]
        assert champion.survived == 3
    if fmt == "multiseat":
        for g in games:
            if g.kind == "table":
                assert 2 <= len(g.players) <= 4
        assert all(len([p for g in games if g.round == r for p in g.players]) == n for r in (1, 2, 3))


async def test_a_bloodwood_multiseat_round(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 11, "multiseat", game="bloodwood", settings={"rounds": 1})
    started = await director.start(tid, by="u:org")
    games = await director.record.games(tid, 1)
    assert sorted(len(g.players) for g in games) == [5, 6] and len(started.tables) == 2
    t = await play_out(director, tid)
    assert t.status == "finished"
    for g in await director.record.games(tid):
        table = await store.get_table(g.table_id)
        winners = {g.players[s] for s in table.outcome["winners"]}
        assert {p for p, v in g.points.items() if v == 1.0} == winners or (not winners and g.result == "draw")


async def test_registration_refusals_and_the_organiser(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 1, bots=False)
    assert (await director.join(tid, "u:p00", "again")).key == "tournament.reject.already_entered"
    assert (await director.start(tid, by="u:org")).key == "tournament.reject.too_few"
    assert (await director.start(tid, by="u:p00")).key == "tournament.reject.organiser_only"
    assert (await director.leave(tid, "u:p00", by="u:someone")).key == "tournament.reject.organiser_only"
    assert (await director.create("gwent", "multiseat", creator="x", settings={"table_size": 3})).key \
        == "tournament.reject.range"
    assert (await director.create("bloodwood", "swiss", creator="x")).key == "tournament.reject.not_a_duel"
    assert (await director.create("toy", "swiss", creator="x", settings={"rounds": 99})).key \
        == "tournament.reject.range"
    assert (await director.create("toy", "league", creator="x")).key == "tournament.reject.format"
    assert (await director.create("toy", "swiss", creator="x", options={"tricks": 9})).key == "core.reject.bad_option"
    assert await director.leave(tid, "u:p00", by="u:p00") is True
    assert await director.record.entries(tid) == []


async def test_late_entry_drop_and_rejoin_farm_nothing(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 6, settings={"rounds": 4})
    await director.start(tid, by="u:org")
    assert await director.join(tid, "u:late", "Late", is_bot=True) == 7
    late = [g for g in await director.record.games(tid, 1) if g.kind == "late"]
    assert late == [GameRow(1, 4, "late", ["u:late"], None, {"u:late": 0.5}, "late")]
    assert await director.leave(tid, "u:p01", by="u:p01") is True
    assert await director.join(tid, "u:p01", "P01", is_bot=True) == 2  # back, with no score for it
    assert await director.leave(tid, "u:p02", by="u:p02") is True
    t = await play_out(director, tid)
    games = await director.record.games(tid)
    assert [g for g in games if "u:p01" in g.players and g.kind != "table"] == []
    assert all("u:p02" not in g.players for g in games if g.round > 1)
    assert any("u:late" in g.players for g in games if g.round == 2)
    assert (await director.join(tid, "u:later", "x")).key == "tournament.reject.closed"
    assert t.status == "finished"


async def test_organiser_adjusts_a_result_with_a_reason(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"rounds": 2})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    a, b = g.players
    assert (await director.adjust(tid, 1, g.board, {a: 1, b: 0}, by="u:org", reason=" ")).key \
        == "tournament.reject.reason_needed"
    assert (await director.adjust(tid, 1, g.board, {a: 1}, by="u:org", reason="x")).key \
        == "tournament.reject.bad_points"
    assert (await director.adjust(tid, 1, g.board, {a: 1, b: 0}, by=a, reason="x")).key \
        == "tournament.reject.organiser_only"
    await director.adjust(tid, 1, g.board, {a: 1, b: 0}, by="u:org", reason="b conceded in chat")
    assert (await store.get_table(g.table_id)).status == "cancelled"
    assert (await director.record.games(tid, 1))[0].points == {a: 1.0, b: 0.0}
    entry = (await director.record.log(tid))[-1]
    assert entry["action"] == "adjusted" and entry["reason"] == "b conceded in chat"
    assert (await director.record.get(tid)).round == 1  # the other table still plays


async def test_round_deadline_forfeits_the_seat_that_owes_a_move(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 2, "round_hours": 48})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    state = await store.state(g.table_id)
    owing = get_game("toy").to_act(state)[0].seat
    clock.t += 47 * 3600
    assert await director.tick() == []
    clock.t += 2 * 3600
    progress = await director.tick()
    assert progress and progress[0].rounds == [2]
    settled = (await director.record.games(tid, 1))[0]
    assert settled.result == "forfeit"
    assert settled.points == {p: 0.0 if i == owing else 1.0 for i, p in enumerate(g.players)}
    assert (await store.get_table(g.table_id)).status == "cancelled"
    round2 = (await director.record.rounds(tid))[1]
    assert round2.deadline == clock.t + 48 * 3600
    assert (await director.join(tid, "u:late", "x")).key == "tournament.reject.no_late_entry"  # past half


async def test_moderator_expiry_leaves_the_table_to_the_organiser(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"round_hours": 1, "expiry": "moderator"})
    await director.start(tid, by="u:org")
    clock.t += 7200
    await director.tick()
    await director.tick()
    g = (await director.record.games(tid, 1))[0]
    assert not g.settled and (await store.get_table(g.table_id)).status == "active"
    assert [e["action"] for e in await director.record.log(tid)] == ["deadline"]


async def test_restart_in_the_middle_of_a_round(tmp_path):
    from tests.support.tables import Clock
    clock = Clock()
    store = await Store.open(tmp_path / "j.db")
    director, tid = await new_event(Referee(store, clock=clock), 6, settings={"rounds": 3})
    await director.start(tid, by="u:org")
    first = (await director.record.games(tid, 1))[0]
    await director.referee.drive_bots(first.table_id)
    await store.close()

    store = await Store.open(tmp_path / "j.db")  # a new process: nothing in memory survives
    director = Director(Referee(store, clock=clock))
    t = await play_out(director, tid)
    assert t.status == "finished" and t.round == 3
    assert len(await store.find_tables(limit=1000)) == 9  # three tables a round, none made twice
    await store.close()


async def test_a_crash_between_creating_a_table_and_recording_it(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False)
    t = await director.record.get(tid)
    settings = {**t.settings, "order": ["u:p00", "u:p01", "u:p02", "u:p03"], "rounds": 2}
    # round 1 written, then the process stopped: board 1's table created but not linked, board 2's linked
    # with one player seated
    await director.record.add_round(tid, 1, [NewGame("table", ["u:p00", "u:p01"]),
                                             NewGame("table", ["u:p02", "u:p03"])],
                                    deadline=None, now=clock(), start=True, settings=settings)
    t = await director.record.get(tid)
    orphan = await store.create_table(game="toy", options=t.options, creator=f"tournament:{tid}",
                                      origin="terminal", now=clock(), title=table_title(t, 1, 1), max_seats=4)
    second = await store.create_table(game="toy", options=t.options, creator=f"tournament:{tid}",
                                      origin="terminal", now=clock(), title=table_title(t, 1, 2), max_seats=4)
    await director.record.link_table(tid, 1, 2, second)
    await referee.join(second, "u:p02", "P02")

    assert sorted(await director.materialise(tid)) == [orphan, second]
    assert await director.materialise(tid) == []
    games = await director.record.games(tid, 1)
    assert [g.table_id for g in games] == [orphan, second]
    assert len(await store.find_tables(limit=100)) == 2
    for g in games:
        assert [s.user_id for s in await store.seats(g.table_id)] == g.players
        assert (await store.get_table(g.table_id)).status == "active"


async def test_repair_before_anyone_moved_and_not_after(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 5, bots=False, settings={"rounds": 3})
    await director.start(tid, by="u:org")
    before = await director.record.games(tid, 1)
    assert await director.leave(tid, "u:p03", by="u:org", reason="no-show") is True
    progress = await director.repair(tid, by="u:org", reason="u:p03 removed")
    assert progress.rounds == [1]
    after = await director.record.games(tid, 1)
    assert all("u:p03" not in g.players for g in after)
    assert sorted(p for g in after for p in g.players) == ["u:p00", "u:p01", "u:p02", "u:p04"]
    for g in before:
        if g.table_id:
            assert (await store.get_table(g.table_id)).status == "cancelled"
    g = next(g for g in after if g.kind == "table")
    state = await store.state(g.table_id)
    seat = get_game("toy").to_act(state)[0].seat
    action = get_game("toy").legal_actions(state, seat)[0]
    await referee.act(g.table_id, g.players[seat], action)
    assert (await director.repair(tid, by="u:org")).key == "tournament.reject.round_begun"


def test_tiebreaks_by_hand():
    from bot.storage.tournaments import Entry
    entries = [Entry(u, u, False, i, "active", 0) for i, u in enumerate("ABCD", start=1)]
    games = [GameRow(1, 1, "table", ["A", "B"], 1, {"A": 1.0, "B": 0.0}, "played"),
             GameRow(1, 2, "table", ["C", "D"], 2, {"C": 0.5, "D": 0.5}, "draw"),
             GameRow(2, 1, "table", ["A", "C"], 3, {"A": 1.0, "C": 0.0}, "played"),
             GameRow(2, 2, "table", ["D", "B"], 4, {"D": 0.0, "B": 1.0}, "played")]
    table = {s.user_id: s for s in standings("swiss", entries, games, "seed", Points())}
    # finals: A 2, B 1, C 0.5, D 0.5
    assert [s.user_id for s in sorted(table.values(), key=lambda s: s.rank)][:2] == ["A", "B"]
    assert table["A"].buchholz == 1.5 and table["A"].buchholz_cut1 == 1.0 and table["A"].sonneborn_berger == 1.5
    assert table["B"].buchholz == 2.5 and table["B"].sonneborn_berger == 0.5
    assert table["C"].buchholz == 2.5 and table["C"].sonneborn_berger == 0.25
    assert table["D"].buchholz == 1.5 and table["D"].sonneborn_berger == 0.25
    assert table["C"].rank < table["D"].rank  # equal points, C's Buchholz is higher
    bye = standings("swiss", entries[:1], [GameRow(1, 1, "bye", ["A"], None, {"A": 1.0}, "bye"),
                                           GameRow(2, 1, "bye", ["A"], None, {"A": 1.0}, "bye")], "s", Points())
    assert bye[0].buchholz == 0.0 + 1.0  # virtual opponents: A's score before each round


async def test_a_front_end_that_cannot_open_a_table_leaves_it_seated_and_unstarted_until_it_can(env):
    """``open_table`` (Discord: the table's thread) runs between seating and the start; refused, the table
    waits as a seated lobby, and the next sync opens and starts it, never creating a second table."""
    store, referee, clock = env
    opened, allow = [], [False]

    async def open_table(tour, game):
        assert game.table_id is not None and len(await store.seats(game.table_id)) == len(game.players)
        opened.append(game.table_id)
        if allow[0]:
            await store.set_table_fields(game.table_id, thread_id=f"thread-{game.table_id}")
        return allow[0]

    director, tid = await new_event(referee, 4)
    director.open_table = open_table
    progress = await director.start(tid, by="u:org")
    assert progress.tables == []
    games = await director.record.games(tid, 1)
    tables = [await store.get_table(g.table_id) for g in games]
    assert [t.status for t in tables] == ["lobby", "lobby"] and sorted(opened) == sorted(t.id for t in tables)
    allow[0] = True
    progress = await director.sync(tid)
    assert sorted(progress.tables) == sorted(t.id for t in tables)
    assert [(await store.get_table(t.id)).status for t in tables] == ["active", "active"]
    assert len(await store.find_tables(limit=100)) == 2
    assert (await director.sync(tid)).tables == []  # opened once: a started table is not opened again


async def test_a_tournaments_tables_play_by_correspondence_unless_its_options_say_live(env):
    """Issue 27: an event's players are not at the table together: its tables' real-time rules take their
    correspondence forms (bot/engine/pace.py), and the organiser may still choose live."""
    store, referee, _ = env
    director = Director(referee)
    post = await director.create("claygod", "swiss", creator="u:org", options={"clock": "48h"}, origin="terminal")
    assert post.options["pace"] == "correspondence" and post.options["turn_clock"] == "off"
    live = await director.create("claygod", "swiss", creator="u:org", options={"pace": "live"}, origin="terminal")
    assert live.options["pace"] == "live" and live.options["turn_clock"] == "live"
    refused = await director.create("raiders", "swiss", creator="u:org", options={"window_seconds": "30"})
    assert isinstance(refused, Rejection) and refused.key == "core.reject.pace.short"
