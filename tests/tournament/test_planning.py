"""The pure planners (bot/tournament/planning.py): each format's next round from the event as it stands,
without a database — who meets whom, who has a bye and for what, forbidden pairs, requested byes."""
from collections import Counter
from itertools import combinations

from bot.storage.tournaments import Entry, GameRow, NewGame, TournamentRow
from bot.tournament.planning import PLANNERS, Field, bracket_matches, plan_round
from bot.tournament.settings import FORMATS, check_settings, points, rounds_planned

PLAYERS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]


def event(fmt: str, n: int, game: str = "claygod", **settings) -> TournamentRow:
    s = check_settings(game, fmt, settings)
    s["order"] = PLAYERS[:n]
    return TournamentRow(id=1, game=game, format=fmt, status="running", title=None, creator="u:org", settings=s,
                         options={}, seed="seed", origin="terminal", locale="en", guild_id=None, channel_id=None,
                         message_id=None, round=0, created_at=0.0, started_at=None, finished_at=None)


def entries(n: int, gone: tuple[str, ...] = ()) -> list[Entry]:
    return [Entry(p, p.upper(), False, i + 1, "dropped" if p in gone else "active", 0)
            for i, p in enumerate(PLAYERS[:n])]


def won(round: int, board: int, winner: str, loser: str) -> GameRow:
    return GameRow(round, board, "table", [winner, loser], None, {winner: 1.0, loser: 0.0}, "played")


def tables(plan: list[NewGame]) -> list[list[str]]:
    return [g.players for g in plan if g.kind == "table"]


def test_every_format_has_its_planner():
    assert set(PLANNERS) == set(FORMATS)


def test_a_round_robin_meets_everyone_once_and_a_missing_opponent_is_a_bye():
    t = event("round_robin", 4)
    met = Counter()
    for number in range(1, rounds_planned(t, 4) + 1):
        plan = plan_round(t, number, Field(entries(4), []))
        assert sorted(p for g in tables(plan) for p in g) == ["a", "b", "c", "d"]
        met.update(frozenset(g) for g in tables(plan))
    assert met == Counter(frozenset(pair) for pair in combinations("abcd", 2))
    plan = plan_round(t, 1, Field(entries(4, gone=("d",)), []))
    byes = [g for g in plan if g.kind == "bye"]
    assert len(byes) == 1 and byes[0].result == "bye" and byes[0].points == {byes[0].players[0]: points(t).bye}
    assert "d" not in {p for g in plan for p in g.players}


def test_an_elimination_gives_the_top_seeds_byes_and_the_winners_go_on_in_bracket_order():
    t = event("elimination", 5)
    first = plan_round(t, 1, Field(entries(5), []))
    assert sorted(tables(first)[0]) == ["d", "e"]
    assert sorted(g.players[0] for g in first if g.kind == "bye") == ["a", "b", "c"]
    played = [GameRow(1, i + 1, g.kind, g.players, None, g.points, g.result) for i, g in enumerate(first)
              if g.kind == "bye"] + [won(1, 9, "e", "d")]
    second = plan_round(t, 2, Field(entries(5), played))
    assert sorted(map(sorted, tables(second))) == [["a", "e"], ["b", "c"]]


def test_a_double_elimination_ends_with_none_once_the_bracket_is_decided():
    t = event("double_elimination", 4)
    games: list[GameRow] = []
    lost = Counter()
    for number in range(1, rounds_planned(t, 4) + 2):
        plan = plan_round(t, number, Field(entries(4), games))
        if plan is None:
            break
        for board, g in enumerate(plan, 1):
            assert all(lost[p] < 2 for p in g.players)  # nobody plays on after a second loss
            if g.kind == "table":
                winner, loser = sorted(g.players)  # the earlier seed wins every game
                games.append(won(number, board, winner, loser))
                lost[loser] += 1
            else:
                games.append(GameRow(number, board, g.kind, g.players, None, g.points, g.result))
    assert plan is None and lost["a"] == 0
    assert bracket_matches(t, games, number) == []


def test_swiss_pairs_the_winners_and_avoids_a_rematch_and_a_forbidden_pair():
    t = event("swiss", 4, rounds=3)
    round1 = [won(1, 1, "a", "b"), won(1, 2, "c", "d")]
    plan = plan_round(t, 2, Field(entries(4), round1))
    assert sorted(map(sorted, tables(plan))) == [["a", "c"], ["b", "d"]]
    apart = plan_round(t, 2, Field(entries(4), round1, forbidden=[("a", "c")]))
    assert sorted(map(sorted, tables(apart))) == [["a", "d"], ["b", "c"]]
    assert plan_round(t, 2, Field(entries(4), round1)) == plan  # the lot comes from the event's seed


def test_a_requested_bye_sits_the_player_out_for_the_events_points():
    t = event("swiss", 4, rounds=3, requested_bye="loss")
    plan = plan_round(t, 2, Field(entries(4), [won(1, 1, "a", "b"), won(1, 2, "c", "d")], requested=frozenset("d")))
    requested = [g for g in plan if g.result == "requested"]
    assert [g.players for g in requested] == [["d"]] and requested[0].points == {"d": points(t).loss}
    assert "d" not in {p for g in tables(plan) for p in g}
    assert sum(g.kind == "bye" for g in plan) == 2  # three left: one of them has the odd player's bye


def test_multiseat_seats_everyone_once_and_forbidden_players_apart():
    t = event("multiseat", 9, "raiders", table_size=4)
    plan = plan_round(t, 1, Field(entries(9), []))
    assert sorted(len(g) for g in tables(plan)) == [4, 5]
    assert sorted(p for g in plan for p in g.players) == PLAYERS[:9]
    t8 = event("multiseat", 8, "raiders", table_size=4)
    for attempt in range(3):
        apart = plan_round(t8, 1, Field(entries(8), [], forbidden=[("a", "b")]), attempt)
        assert not any({"a", "b"} <= set(g) for g in tables(apart))
