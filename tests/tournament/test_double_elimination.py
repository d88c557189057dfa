"""Double elimination (bot/tournament/brackets.py, docs/tournaments.md T-20) run to the end with bot players
and checked against its bracket rules; single elimination's 3rd-place match."""
from collections import Counter

import pytest

from bot.storage.tournaments import GameRow
from bot.tournament.brackets import double_elimination, rounds
from bot.tournament.standings import Points
from tests.support.events import matches, new_event, play_out


def games_per_match(games):
    """The games of each match (round, players), in order."""
    per_match: dict = {}
    for g in games:
        if g.kind == "table":
            per_match.setdefault((g.round, frozenset(g.players)), []).append(g)
    return per_match


def games_won(played):
    """Games won per player among ``played`` (a drawn or double-lost game counts for nobody)."""
    return Counter(next(p for p in g.players if g.points[p] == max(g.points.values()))
                   for g in played if len(set(g.points.values())) == 2)


def check_double_elimination(games, players, reset, champion):
    decided = matches(games)
    losses = Counter()
    out_at = {}
    for (rnd, pair), winner in sorted(decided.items(), key=lambda kv: kv[0][0]):
        for p in pair:
            assert p not in out_at, f"{p} played in round {rnd} after being eliminated in round {out_at.get(p)}"
        (loser,) = pair - {winner}
        losses[loser] += 1
        if losses[loser] == 2:
            out_at[loser] = rnd
    for rnd in {g.round for g in games}:
        seated = [p for pair in {frozenset(g.players) for g in games if g.round == rnd} for p in pair]
        assert len(seated) == len(set(seated)), f"someone has two matches in round {rnd}"
    assert losses[champion] <= 1
    last = max(decided)                                  # the grand final (or its reset)
    (runner_up,) = last[1] - {champion}
    survivors = set(players) - set(out_at) - {champion}
    # everyone but the champion is out after two losses; without a reset, the winners' champion beaten in
    # the grand final is out after one
    assert survivors == set() or (not reset and survivors == {runner_up} and losses[runner_up] == 1), survivors
    n = len(players)
    gf = last
    assert len(decided) in (2 * n - 2, 2 * n - 1), len(decided)
    reset_played = len(decided) == 2 * n - 1
    assert not reset_played or reset, "a reset only where the event has one"
    if reset and losses[champion] == 1 and reset_played:
        assert decided[max(decided)] == champion
    return reset_played, gf


@pytest.mark.parametrize("n, reset", [(8, True), (13, True), (13, False), (2, True), (3, True), (5, False)])
async def test_double_elimination_runs_to_the_end_by_its_rules(env, n, reset):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt="double_elimination", settings={"reset": reset})
    await director.start(tid, by="u:org")
    first = await director.record.games(tid, 1)
    size = 1 << (n - 1).bit_length()
    assert len([g for g in first if g.kind == "table"]) == n - size // 2  # the top seeds get the byes
    assert len([g for g in first if g.kind == "bye"]) == size - n
    t = await play_out(director, tid, limit=200)
    assert t.status == "finished" and t.round <= rounds(n, reset)
    games = await director.record.games(tid)
    players = [f"u:p{i:02}" for i in range(n)]
    table = await director.standings(tid)
    champion = table[0].user_id
    check_double_elimination(games, players, reset, champion)
    # the standings: the later a player went out, the higher they stand
    assert [s.survived for s in table] == sorted((s.survived for s in table), reverse=True)
    # the champion and the runner-up both played the last round: no row counts a round nobody played
    last = max(g.round for g in games)
    assert table[0].survived == table[1].survived == last and max(s.survived for s in table) == last
    assert (table[0].place or str(table[0].rank)) == "1" and (table[1].place or str(table[1].rank)) == "2"


def _g(rnd, board, a, b, winner):
    return GameRow(rnd, board, "table", [a, b], None, {a: float(winner == a), b: float(winner == b)}, "played")


def test_the_losers_bracket_and_the_reset_by_hand():
    order = list("ABCD")  # seeds: A v D, B v C
    games = [_g(1, 1, "A", "D", "A"), _g(1, 2, "B", "C", "C")]
    walk = double_elimination(order, games, 2, Points())
    assert walk.matches == [("A", "C"), ("D", "B")] and walk.brackets == ["W", "L"]
    games += [_g(2, 1, "A", "C", "C"), _g(2, 2, "D", "B", "B")]
    walk = double_elimination(order, games, 3, Points())
    assert walk.matches == [("B", "A")] and walk.brackets == ["L"]  # the winners' final's loser drops in
    games += [_g(3, 1, "B", "A", "A")]
    walk = double_elimination(order, games, 4, Points())
    assert walk.matches == [("C", "A")] and walk.brackets == ["F"]
    games += [_g(4, 1, "C", "A", "A")]  # the losers' champion wins: a reset
    walk = double_elimination(order, games, 5, Points())
    assert walk.matches == [("A", "C")] and not walk.over
    assert double_elimination(order, games, 5, Points(), reset=False).champion == "A"
    games += [_g(5, 1, "A", "C", "C")]
    walk = double_elimination(order, games, 6, Points())
    assert walk.over and walk.champion == "C"


def test_a_double_forfeit_sends_nobody_on():
    order = list("ABCD")
    games = [GameRow(1, 1, "table", ["A", "D"], None, {"A": 0.0, "D": 0.0}, "forfeit"), _g(1, 2, "B", "C", "B")]
    walk = double_elimination(order, games, 2, Points())
    assert walk.matches == [(None, "B"), (None, "C")]  # A and D both out: B and C go on by walkover


async def test_single_elimination_with_a_third_place_match(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 8, fmt="elimination", settings={"third_place": True})
    await director.start(tid, by="u:org")
    t = await play_out(director, tid)
    games = await director.record.games(tid)
    final_round = [g for g in games if g.round == 3]
    assert t.status == "finished" and len([g for g in final_round if g.kind == "table"]) >= 2
    table = await director.standings(tid)
    semis = [g for g in games if g.round == 2]
    semi_losers = {p for g in semis for p in g.players if g.points[p] == 0}
    assert {s.user_id for s in table[2:4]} == semi_losers
    third = [g for g in final_round if set(g.players) == semi_losers]
    assert third and table[2].user_id == next(p for p in third[-1].players if third[-1].points[p] == 1)
    assert table[0].survived == 3 and table[1].survived == 2 and table[2].survived == table[3].survived == 1


async def test_the_migration_keeps_every_tournament_and_its_entries(tmp_path):
    import sqlite3

    from bot.storage.db import migration_files
    from bot.storage.store import Store
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    for number, file in migration_files():
        if number > 9:
            break
        con.executescript(file.read_text())
    con.execute("PRAGMA user_version = 9")
    con.execute("INSERT INTO tournaments (game, format, status, creator, settings, options, seed, created_at)"
                " VALUES ('toy', 'swiss', 'registration', 'u:o', '{}', '{}', 's', 1)")
    con.execute("INSERT INTO entries (tournament_id, user_id, name, number, joined_at) VALUES (1, 'u:a', 'A', 1, 1)")
    con.commit()
    con.close()
    store = await Store.open(path)
    try:
        rows = await store._all("SELECT id, format FROM tournaments")
        assert [(r["id"], r["format"]) for r in rows] == [(1, "swiss")]
        assert await store._all("PRAGMA foreign_key_check") == []
        assert len(await store._all("SELECT * FROM entries WHERE tournament_id = 1")) == 1
    finally:
        await store.close()


@pytest.mark.parametrize("fmt, n", [("elimination", 4), ("double_elimination", 5)])
async def test_best_of_three_matches(env, fmt, n):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt=fmt, settings={"best_of": 3})
    await director.start(tid, by="u:org")
    t = await play_out(director, tid, limit=300)
    assert t.status == "finished"
    games = await director.record.games(tid)
    per_match = games_per_match(games)
    for key, played in per_match.items():
        won = games_won(played)
        assert max(won.values()) == 2, (key, won)          # the match stopped when someone had two wins
        assert len(played) >= 2 and sum(won.values()) <= 3
        seats = [g.players[0] for g in played]
        assert all(a != b for a, b in zip(seats, seats[1:]))  # seats swap from game to game
    if fmt == "double_elimination":
        table = await director.standings(tid)
        check_double_elimination(games, [f"u:p{i:02}" for i in range(n)], True, table[0].user_id)
    refused = await director.create("toy", "multiseat", creator="x", settings={"best_of": 3})
    assert refused.key == "tournament.reject.best_of"


@pytest.mark.parametrize("fmt, n", [("swiss", 5), ("round_robin", 4)])
async def test_best_of_three_in_swiss_and_round_robin_scores_each_match_once(env, fmt, n):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt=fmt, settings={"best_of": 3, **({"rounds": 3} if fmt == "swiss" else {})})
    await director.start(tid, by="u:org")
    t = await play_out(director, tid, limit=300)
    assert t.status == "finished"
    games = await director.record.games(tid)
    per_match = games_per_match(games)
    won_matches: Counter = Counter()
    for key, played in per_match.items():
        won = games_won(played)
        assert max(won.values()) == 2 and len(played) >= 2, (key, won)   # each match went on to two wins
        won_matches[won.most_common(1)[0][0]] += 1
    byes = Counter(g.players[0] for g in games if g.kind == "bye")
    table = await director.standings(tid)
    for row in table:   # a match is one result: a win per match won (and a bye's point), not one per game
        assert row.points == won_matches[row.user_id] + byes[row.user_id], row
        assert row.wins == won_matches[row.user_id]
        assert row.wins + row.losses + row.draws == sum(1 for key in per_match if row.user_id in key[1])


async def test_the_bracket_picture_labels_each_match_by_its_bracket(env):
    from bot.i18n import t
    from bot.render.picture.bracket import bracket_png
    from bot.tournament.bracket_layout import as_rows, for_event
    store, referee, clock = env
    director, tid = await new_event(referee, 6, fmt="double_elimination")
    await director.start(tid, by="u:org")
    t_ = await play_out(director, tid, limit=200)
    games = await director.record.games(tid)
    labels = director.bracket_labels(t_, games)
    assert set(labels.values()) == {"W", "L", "F"}
    entries = await director.record.entries(tid)
    names = {e.user_id: e.name for e in entries}
    trees = as_rows(for_event(t_, entries, games, director.points(t_)), names, lambda key, **v: t(key, "ru", **v))
    assert [tree["title"] for tree in trees][:3] == ["Верхняя сетка", "Нижняя сетка", "Гранд-финал"]
    # every match of the record is in the drawing, in the tree its label names
    drawn = {(m["round"], frozenset(s["user_id"] for s in m["slots"] if s["user_id"])): tree["kind"]
             for tree in trees for c in tree["columns"] for m in c["matches"]}
    for key, which in labels.items():
        if len(key[1]) == 2:
            assert drawn[key] == which, key
    png = bracket_png(trees, "ru", "Кубок")
    assert png.startswith(b"\x89PNG") and len(png) < 300_000
