"""The nine findings of issue 26, each as a scenario that failed before its fix: round deadlines and clocks
scoring what happened, brackets that hold after a withdrawal, zombie seats, vacation and paused tables in an
event, seat balance (docs/tournaments.md T-6, T-8a, T-15..T-18)."""
from __future__ import annotations

import random

import pytest

from bot.referee import moderation
from bot.engine import get_game
from bot.storage.tournaments import GameRow
from bot.tournament.pairing import History, swiss_pairs
from bot.tournament.standings import Points, histories, table_points
from tests.support.tables import play_one
from tests.support.events import new_event

HOUR = 3600


async def _owing(store, table_id, game="toy"):
    return [p.seat for p in get_game(game).to_act(await store.state(table_id))]


# ---------------------------------------------------------------------------------------------------- 1
async def test_a_deadline_scores_a_finished_but_unsettled_table_by_its_result(env):
    """Finding 1: the table ended (here by the move clock, in the same minute as the round) but the director
    had not looked at it yet; the round deadline must not make everyone at it a winner."""
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 2, "round_hours": 48},
                                    options={"clock": "48h", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    late = (await _owing(store, g.table_id))[0]
    clock.t += 48 * HOUR + 1
    await referee.tick()                        # the move clock forfeits the seat that never moved
    assert (await store.get_table(g.table_id)).status == "finished"
    await director.tick()                       # then the round's deadline, before any sync
    settled = (await director.record.games(tid, 1))[0]
    assert settled.points == {p: 0.0 if i == late else 1.0 for i, p in enumerate(g.players)}
    assert settled.result == "forfeit"


async def test_a_deadline_scores_a_table_finished_by_play(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 2, "round_hours": 2})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    while (await store.get_table(g.table_id)).status == "active":
        await play_one(referee, store, g.table_id)
    table = await store.get_table(g.table_id)
    clock.t += 3 * HOUR
    await director.tick()
    settled = (await director.record.games(tid, 1))[0]
    expected, how = table_points(table.outcome, g.players, Points(), cooperative=False)
    assert settled.points == expected and settled.result == how


# ---------------------------------------------------------------------------------------------------- 2
async def test_a_double_no_show_is_a_loss_for_both_in_swiss(env):
    """Finding 2: in Gwent both seats owe at the start; both out of time is 0–0, a forfeit, never ½–½."""
    store, referee, clock = env
    director, tid = await new_event(referee, 2, game="gwent", bots=False, settings={"rounds": 2},
                                    options={"clock": "1h", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    assert sorted(await _owing(store, g.table_id, "gwent")) == [0, 1]
    clock.t += 2 * HOUR
    await referee.tick()
    await director.sync(tid)
    settled = (await director.record.games(tid, 1))[0]
    assert settled.points == {p: 0.0 for p in g.players} and settled.result == "forfeit"
    rows = {s.user_id: s for s in await director.standings(tid)}
    assert all(rows[p].losses == 1 and rows[p].forfeits == 1 and rows[p].played == 0 for p in g.players)


async def test_a_double_no_show_in_elimination_eliminates_both_without_a_replay(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, fmt="elimination", game="gwent", bots=False,
                                    options={"clock": "1h", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    clock.t += 2 * HOUR
    await referee.tick()
    await director.sync(tid)
    games = await director.record.games(tid)
    assert len(games) == 1, "no replay of a double forfeit"
    t = await director.record.get(tid)
    assert t.status == "finished"
    assert all(s.survived == 0 for s in await director.standings(tid))


# ---------------------------------------------------------------------------------------------------- 3
async def _decide(director, tid, round, board, winner):
    g = next(g for g in await director.record.games(tid, round) if g.board == board)
    return await director.adjust(tid, round, board, {p: 1.0 if p == winner else 0.0 for p in g.players},
                                 by="u:org", reason="test")


async def test_elimination_keeps_bracket_positions_after_a_withdrawal(env):
    """Finding 3: the winner of board 1 withdraws; the walkover goes to board 2's winner (the same half of the
    bracket), and boards 3 and 4 still meet."""
    store, referee, clock = env
    director, tid = await new_event(referee, 8, fmt="elimination", bots=False)
    await director.start(tid, by="u:org")
    r1 = await director.record.games(tid, 1)
    assert [g.kind for g in r1] == ["table"] * 4
    winners = [g.players[0] for g in r1]
    for g in r1[:3]:
        await _decide(director, tid, 1, g.board, g.players[0])
    assert await director.leave(tid, winners[0], by=winners[0]) is True
    await _decide(director, tid, 1, r1[3].board, winners[3])
    r2 = await director.record.games(tid, 2)
    assert [(g.kind, sorted(g.players)) for g in r2] == [("bye", [winners[1]]),
                                                          ("table", sorted([winners[2], winners[3]]))]
    semi = next(g for g in r2 if g.kind == "table")
    await _decide(director, tid, 2, semi.board, winners[3])
    (final,) = await director.record.games(tid, 3)  # the walkover's winner is still in the bracket
    assert final.kind == "table" and sorted(final.players) == sorted([winners[1], winners[3]])
    await _decide(director, tid, 3, final.board, winners[1])
    assert (await director.record.get(tid)).status == "finished"
    table = await director.standings(tid)
    assert table[0].user_id == winners[1] and table[0].survived == 3 and table[1].user_id == winners[3]


async def test_elimination_keeps_bracket_positions_after_a_match_without_a_winner(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 8, fmt="elimination", bots=False)
    await director.start(tid, by="u:org")
    r1 = await director.record.games(tid, 1)
    g = r1[0]
    await director.adjust(tid, 1, g.board, {p: 0.0 for p in g.players}, by="u:org", reason="both absent")
    for g in r1[1:]:
        await _decide(director, tid, 1, g.board, g.players[1])
    r2 = await director.record.games(tid, 2)
    assert [(g.kind, sorted(g.players)) for g in r2] == [("bye", [r1[1].players[1]]),
                                                          ("table", sorted([r1[2].players[1], r1[3].players[1]]))]


# ---------------------------------------------------------------------------------------------------- 4
async def test_a_zombie_seat_scores_a_loss_for_its_absent_player(env):
    """Finding 4: a bot took the seat of a player out of time; whatever the bot then does, the absent player
    loses by forfeit and (in a duel) the one who stayed wins."""
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 1},
                                    options={"clock": "1h", "clock_expiry": "zombie", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    absent = g.players[(await _owing(store, g.table_id))[0]]
    clock.t += 2 * HOUR
    await referee.tick()
    seats = await store.seats(g.table_id)
    assert [s.is_bot for s in seats] == [p == absent for p in g.players]
    while (await store.get_table(g.table_id)).status == "active":
        await play_one(referee, store, g.table_id)
        await referee.drive_bots(g.table_id)
    await director.sync(tid)
    settled = (await director.record.games(tid, 1))[0]
    assert settled.points == {p: 0.0 if p == absent else 1.0 for p in g.players}
    assert settled.result == "forfeit"


def test_a_zombie_seat_loses_at_a_multi_seat_table_and_the_others_keep_their_result():
    outcome = {"winners": [1, 2]}
    got, how = table_points(outcome, ["a", "b", "c"], Points(), cooperative=False, zombies={1})
    assert got == {"a": 0.0, "b": 0.0, "c": 1.0} and how == "forfeit"


# ---------------------------------------------------------------------------------------------------- 5
async def test_a_move_clock_forfeit_is_recorded_as_a_forfeit(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 1},
                                    options={"clock": "1h", "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    late = g.players[(await _owing(store, g.table_id))[0]]
    clock.t += 2 * HOUR
    await referee.tick()
    await director.sync(tid)
    settled = (await director.record.games(tid, 1))[0]
    assert settled.result == "forfeit" and settled.points[late] == 0.0
    winner = next(p for p in g.players if p != late)
    assert histories(g.players, [settled], Points())[winner].byes == 1  # a forfeit win counts for the bye rule


# ---------------------------------------------------------------------------------------------------- 6
async def test_vacation_protects_a_player_from_the_round_deadline(env):
    """Finding 6: a player on vacation (within the event's allowance) when the round's deadline comes is not
    forfeited: the round's deadline moves on by the vacation."""
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 2, "round_hours": 48},
                                    options={"clock": "3d", "vacation": 3, "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    seat = (await _owing(store, g.table_id))[0]
    assert isinstance(await referee.timekeeper.vacation(g.table_id, g.players[seat], 2), float)
    clock.t += 49 * HOUR
    await director.tick()
    assert not (await director.record.games(tid, 1))[0].settled
    assert (await store.get_table(g.table_id)).status == "active"
    deadline = (await director.record.rounds(tid))[0].deadline
    assert deadline == pytest.approx(1_700_000_000 + 48 * HOUR + 2 * 86400)
    clock.t = deadline + 1
    await director.tick()
    settled = (await director.record.games(tid, 1))[0]
    assert settled.result == "forfeit" and settled.points[g.players[seat]] == 0.0


async def test_vacation_follows_the_player_to_the_next_round_and_the_allowance_is_the_events(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 2, bots=False, settings={"rounds": 2},
                                    options={"clock": "3d", "vacation": 3, "clock_remind": "off"})
    await director.start(tid, by="u:org")
    g = (await director.record.games(tid, 1))[0]
    away = g.players[1 - (await _owing(store, g.table_id))[0]]  # not the one to move: the table can go on
    until = await referee.timekeeper.vacation(g.table_id, away, 2)
    clock.t += HOUR
    await director.adjust(tid, 1, g.board, {p: 0.5 for p in g.players}, by="u:org", reason="agreed draw")
    g2 = (await director.record.games(tid, 2))[0]
    clocks = await referee.timekeeper.clocks.seat_clocks(g2.table_id)
    mine = clocks[g2.players.index(away)]
    assert mine.away_until is not None and mine.away_until + 0 == pytest.approx(until)
    # two of the event's three days are taken: a second vacation of two days is refused, one is allowed
    refused = await referee.timekeeper.vacation(g2.table_id, away, 2)
    assert getattr(refused, "key", None) in ("clock.reject.vacation_left", "clock.reject.away")
    clock.t = until + 1
    assert (await referee.timekeeper.vacation(g2.table_id, away, 2)).key == "clock.reject.vacation_left"
    assert isinstance(await referee.timekeeper.vacation(g2.table_id, away, 1), float)


# ---------------------------------------------------------------------------------------------------- 7
async def test_a_paused_table_goes_to_the_organiser_at_the_deadline(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, bots=False, settings={"rounds": 2, "round_hours": 1})
    await director.start(tid, by="u:org")
    paused, other = (await director.record.games(tid, 1))[:2]
    assert await moderation.pause(referee, paused.table_id, moderator="u:mod", reason="dispute") is True
    clock.t += 2 * HOUR
    await director.tick()
    games = {g.board: g for g in await director.record.games(tid, 1)}
    assert not games[paused.board].settled and games[other.board].result == "forfeit"
    assert (await store.get_table(paused.table_id)).status == "active"
    entry = [e for e in await director.record.log(tid) if e["action"] == "deadline"]
    assert entry and entry[-1]["data"]["paused"] == [paused.board]
    assert (await director.record.get(tid)).round == 1  # the organiser settles it


# ---------------------------------------------------------------------------------------------------- 9
def test_no_third_seat_in_a_row_where_another_pairing_avoids_it():
    """Finding 9: A and B both sat first twice running and lead alone; pairing them gives one of them a
    third first seat, so (as FIDE's absolute colour rule) each meets someone who can sit first instead."""
    hist = {"A": History(score=4, first=2, last_first=True, seats=[0, 0]),
            "B": History(score=4, first=2, last_first=True, seats=[0, 0]),
            "C": History(score=2, first=0, last_first=False, seats=[0, 1]),
            "D": History(score=2, first=0, last_first=False, seats=[0, 1])}
    for seed in range(5):
        pairs, bye = swiss_pairs(["A", "B", "C", "D"], hist, random.Random(seed))
        assert bye is None and all(second in "AB" for _, second in pairs), pairs


def test_seats_never_repeat_three_times_over_random_swiss_events():
    for seed in range(12):
        rng = random.Random(seed)
        players = [f"p{i}" for i in range(10)]
        games: list[GameRow] = []
        for rnd in range(1, 7):
            hist = histories(players, games, Points())
            ranked = sorted(players, key=lambda p: -hist[p].score)
            pairs, _ = swiss_pairs(ranked, hist, rng)
            for board, (a, b) in enumerate(pairs, start=1):
                x = rng.random()
                pts = {a: 1.0, b: 0.0} if x < 0.45 else {a: 0.0, b: 1.0} if x < 0.9 else {a: 0.5, b: 0.5}
                games.append(GameRow(rnd, board, "table", [a, b], None, pts, "played"))
        for p in players:
            seats = [g.players.index(p) for g in sorted(games, key=lambda g: g.round) if p in g.players]
            runs = [seats[i] == seats[i + 1] == seats[i + 2] for i in range(len(seats) - 2)]
            assert not any(runs), (seed, p, seats)


@pytest.mark.parametrize("n", [4, 5, 8, 9, 10, 12])
def test_round_robin_seats_alternate(n):
    from bot.tournament.pairing import round_robin
    seq: dict[str, list[int]] = {}
    for rnd in round_robin([f"p{i}" for i in range(n)]):
        for a, b in rnd:
            if b is not None:
                seq.setdefault(a, []).append(0)
                seq.setdefault(b, []).append(1)
    for p, v in seq.items():
        assert abs(v.count(0) - v.count(1)) <= 1, (p, v)
        assert not any(v[i] == v[i + 1] == v[i + 2] for i in range(len(v) - 2)), (p, v)
