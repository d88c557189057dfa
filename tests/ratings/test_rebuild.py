"""Rebuilding from nothing gives exactly the figures kept incrementally, whatever finished, was rolled back,
cancelled or made casual in between, and in whatever order the syncs came."""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings, strategies as st

from bot.ratings import derive
from bot.ratings.model import shown
from tests.ratings.records import add_table, cancel, empty_db, finish, reopen

PLAYERS = ["cli:a", "cli:b", "cli:c", "cli:d"]

step = st.one_of(
    st.tuples(st.just("new"), st.sampled_from(["claygod", "raiders"]), st.permutations(PLAYERS),
              st.sampled_from([None, "g1"])),
    st.tuples(st.just("finish"), st.integers(0, 30), st.integers(0, 3), st.integers(0, 8)),
    st.tuples(st.just("reopen"), st.integers(0, 30)),
    st.tuples(st.just("cancel"), st.integers(0, 30)),
    st.tuples(st.just("casual"), st.integers(0, 30)),
    st.tuples(st.just("sync")),
)


def current(c):
    return sorted(tuple(r) for r in c.execute("SELECT scope, game, user_id, mu, sigma, shown, games FROM ratings"))


def apply(c, steps):
    active: list[tuple[int, str, int]] = []
    finished: list[int] = []
    for s in steps:
        kind = s[0]
        if kind == "new":
            _, game, players, guild = s
            seats = 2 if game == "claygod" else 3
            active.append((add_table(c, game, list(players[:seats]), guild=guild), game, seats))
        elif kind == "finish" and active:
            tid, game, seats = active.pop(s[1] % len(active))
            winner = s[2] % seats
            scores = {str(i): (36 if i == winner else 10 * i) for i in range(seats)}
            # an earlier time than others' sometimes (a paused table's clock): the order is the record's
            finish(c, tid, [winner], 1000.0 + s[3], scores=scores)
            finished.append(tid)
        elif kind == "reopen" and finished:
            tid = finished.pop(s[1] % len(finished))
            reopen(c, tid)
            game = c.execute("SELECT game FROM tables WHERE id = ?", (tid,)).fetchone()[0]
            active.append((tid, game, 2 if game == "claygod" else 3))
        elif kind == "cancel" and active:
            tid, _, _ = active.pop(s[1] % len(active))
            cancel(c, tid, 2000.0)
        elif kind == "casual" and finished:
            c.execute("UPDATE tables SET rated = 0 WHERE id = ?", (finished[s[1] % len(finished)],))
        elif kind == "sync":
            derive.sync(c)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=40))
def test_rebuild_equals_incremental(tmp_path_factory, steps):
    c = empty_db(tmp_path_factory.mktemp("r") / "judge.db")
    apply(c, steps)
    derive.sync(c)
    kept, kept_now = derive.stored(c), current(c)
    fresh = derive.recompute(c)
    assert derive.compare(fresh, kept) == (0, 0.0)
    rows, differ, most = derive.rebuild(c)
    assert (rows, differ, most) == (len(fresh), 0, 0.0)
    assert derive.stored(c) == kept and current(c) == kept_now
    # the kept figure of each player is their latest row
    for scope, game, user, mu, sigma, shown_now, games in kept_now:
        last = [r for r in kept if r[2:4] == (scope, game) and r[1] == user][-1]
        assert (mu, sigma, games, shown_now) == (last[9], last[10], last[11], shown(last[9], last[10]))


def test_a_rollback_of_a_finished_table_changes_what_followed(tmp_path):
    c = empty_db(tmp_path / "judge.db")
    first = add_table(c, "claygod", ["cli:a", "cli:b"])
    second = add_table(c, "claygod", ["cli:b", "cli:c"])
    finish(c, first, [0], 10.0)
    finish(c, second, [0], 20.0)
    derive.sync(c)
    before = {r[1]: r[9] for r in derive.stored(c) if r[0] == second}
    reopen(c, first)  # b's loss to a is undone: b meets c as a new player
    assert derive.dirty_from(c) == 10.0
    derive.sync(c)
    after = {r[1]: r[9] for r in derive.stored(c) if r[0] == second}
    assert after["cli:b"] > before["cli:b"] and {r[0] for r in derive.stored(c)} == {second}
    finish(c, first, [1], 30.0)  # played on, b now beats a: rated after the second table
    derive.sync(c)
    assert [r[0] for r in derive.stored(c)] == [second, second, first, first]
    assert derive.compare(derive.recompute(c), derive.stored(c)) == (0, 0.0)


def test_a_table_with_a_bot_seat_or_no_move_is_never_rated(tmp_path):
    c = empty_db(tmp_path / "judge.db")
    finish(c, add_table(c, "claygod", ["cli:a", "bot:1"]), [0], 1.0)
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"], moves=0), [0], 2.0)
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"], rated=False), [0], 3.0)
    derive.sync(c)
    assert derive.stored(c) == [] and current(c) == []


def test_servers_are_separate(tmp_path):
    c = empty_db(tmp_path / "judge.db")
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"], guild="1"), [0], 1.0)
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"], guild="2"), [1], 2.0)
    derive.sync(c)
    board = {(r[0], r[2]): r[5] for r in current(c)}
    assert board[("1", "cli:a")] == board[("2", "cli:b")] > board[("1", "cli:b")]


def test_a_corrected_tournament_result_recomputes(tmp_path):
    c = empty_db(tmp_path / "judge.db")
    tid = add_table(c, "claygod", ["cli:a", "cli:b"])
    c.execute("INSERT INTO tournaments (id, game, format, status, creator, settings, options, seed, created_at)"
              " VALUES (1, 'claygod', 'swiss', 'running', 'cli:a', '{}', '{}', 's', 0)")
    c.execute("INSERT INTO tournament_games (tournament_id, round, board, kind, players, table_id)"
              " VALUES (1, 1, 1, 'table', '[\"cli:a\", \"cli:b\"]', ?)", (tid,))
    finish(c, tid, [0], 5.0)
    derive.sync(c)
    assert [r[6] for r in derive.stored(c)] == [1, 2]
    c.execute("UPDATE tournament_games SET points = '{\"cli:a\": 0, \"cli:b\": 1}', result = 'adjusted'")
    derive.sync(c)
    assert [r[6] for r in derive.stored(c)] == [2, 1]
    c.execute("UPDATE tournaments SET settings = '{\"rated\": false}'")  # the organiser switched rating off
    derive.sync(c)
    assert derive.stored(c) == []


def test_rebuild_finds_and_replaces_a_cache_that_drifted(tmp_path):
    c = empty_db(tmp_path / "judge.db")
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"]), [0], 1.0)
    finish(c, add_table(c, "claygod", ["cli:a", "cli:b"]), [1], 2.0)
    derive.sync(c)
    good = derive.stored(c)
    c.execute("UPDATE rating_results SET mu = mu + 0.5 WHERE table_id = 2 AND user_id = 'cli:a'")
    rows, differ, most = derive.rebuild(c)
    assert (rows, differ) == (4, 1) and abs(most - 0.5) < 1e-9
    assert derive.stored(c) == good


def test_the_benchmark_script_runs(tmp_path):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("ratings_bench",
                                                  Path(__file__).resolve().parents[2] / "benchmarks" / "ratings.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.run(tables=300, players=20)
    assert figures["replayed"] == 300 and figures["rated_rows"] > 0
