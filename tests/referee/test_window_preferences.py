"""A player's window preference (issue 35, bot/referee/windowprefs.py): the referee passes for them at a moment
that depends on the table's secret seed, the seat and the window only — never on a hand — records the pass as
the seat's action under the user ``preference``, and the terminal sets it as /table windows does."""
import random

import pytest

from bot.engine import get_game
from bot.referee import windowprefs
from bot.referee.service import Accepted
from bot.terminal import cli

GAME = get_game("raiders")


def _window(seed="w"):
    """A Raiders window: Alice's first capture, every seat asked."""
    state = GAME.initial_state(3, seed=seed, stack={"first": 0}, options={"window_seconds": 6 * 3600}).state
    capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
    return GAME.apply(state, 0, capture, now=1000.0).state


@pytest.mark.parametrize("mode", ["after", "held"])
def test_the_pass_comes_at_the_same_moment_whatever_the_seat_holds(mode):
    state = _window()
    prefs = {1: (mode, 1.5), 2: ("ask", None)}
    expected = windowprefs.passes(GAME, state, 7, "secret", prefs, set())
    assert [seat for _, seat, _ in expected] == [1], "Carol asked to be asked"
    at = expected[0][0]
    assert 1000.0 + 1.5 * 3600 <= at < 1000.0 + 1.5 * 3600 + windowprefs.JITTER
    rng, held = random.Random(3), set()
    for _ in range(40):  # Bob's hand (and everything else Alice cannot see) dealt again
        other = GAME.unseen_variant(state, 0, rng)
        held.add(windowprefs.holds_answer(GAME, other, 1))
        assert windowprefs.passes(GAME, other, 7, "secret", prefs, set()) == expected
    assert held == {True, False}, "the deals compared include hands with and without an answer"


def test_the_random_part_is_the_seeds_and_the_windows_not_the_games_rng():
    state = _window()
    before = dict(state["rng"]) if isinstance(state["rng"], dict) else state["rng"]
    one = windowprefs.passes(GAME, state, 7, "secret", {1: ("after", 1.0)}, set())
    assert windowprefs.passes(GAME, state, 7, "secret", {1: ("after", 1.0)}, set()) == one
    assert state["rng"] == before, "the game's own random source is untouched"
    assert windowprefs.passes(GAME, state, 7, "other", {1: ("after", 1.0)}, set()) != one, "drawn from the seed"
    assert windowprefs.passes(GAME, state, 8, "secret", {1: ("after", 1.0)}, set()) != one, "and the table"
    assert windowprefs.passes(GAME, state, 7, "secret", {1: ("after", 1.0)}, {1}) == [], "a bot is never passed"


def test_only_the_modes_and_hours_a_player_may_set_are_taken():
    assert windowprefs.parse("after", None) == ("after", windowprefs.DEFAULT_HOURS)
    assert windowprefs.parse("held", "2.5") == ("held", 2.5)
    assert windowprefs.parse("ask", 5) == ("ask", None)
    assert windowprefs.parse("after", -1) is None and windowprefs.parse("after", 10_000) is None
    assert windowprefs.parse("never", 1) is None and windowprefs.parse("after", "soon") is None


async def _raiders(referee, store, seed="w"):
    table = await referee.create_table("raiders", creator="u:a", creator_name="a",
                                       options={"window_seconds": 6 * 3600}, origin="terminal")
    for name in ("b", "c"):
        await referee.join(table.id, f"u:{name}", name)
    await referee.start(table.id, "u:a", seed=seed, stack={"first": 0}, moderator=True)
    return table.id


async def test_the_referee_passes_for_the_seat_at_that_moment_recorded_as_a_preferences_pass(env):
    store, referee, clock = env
    table_id = await _raiders(referee, store)
    assert await referee.set_window_preference("u:b", "after", 2) == ("after", 2.0)
    state = await store.state(table_id)
    capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
    assert isinstance(await referee.act(table_id, "u:a", capture), Accepted)
    state = await store.state(table_id)
    table = await store.get_table(table_id)
    since = next(p.since for p in GAME.to_act(state) if p.seat == 1)
    due = since + windowprefs.delay(table.seed, table_id, 1, since, 2.0)
    assert table.next_deadline == pytest.approx(due), "the clock looks at the table when the pass is due"
    clock.t = due - 1
    assert await referee.tick() == [], "not a second early"
    clock.t = due + 0.5
    done = await referee.tick()
    assert [a.seat for a in done] == [1]
    last = (await store.actions(table_id))[-1]
    assert (last.seat, last.user_id, last.action) == (1, windowprefs.PREFERENCE, {"type": "pass"})
    assert sorted(p.seat for p in GAME.to_act(await store.state(table_id))) == [0, 2], "the others still asked"
    assert await referee.tick() == [], "passed once"
    from bot.referee.record import verify_table
    assert (await verify_table(store, table_id, moderator=True)).ok, "the record, the preference's pass in it, replays"


async def test_a_table_of_its_own_overrides_the_default_and_a_change_is_looked_at_at_once(env):
    store, referee, clock = env
    table_id = await _raiders(referee, store)
    await referee.set_window_preference("u:b", "after", 1)
    assert await referee.set_window_preference("u:b", "ask", table_id=table_id) == ("ask", None)
    state = await store.state(table_id)
    capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
    await referee.act(table_id, "u:a", capture)
    clock.t += 3 * 3600
    assert await referee.tick() == [], "asked at this table, whatever the default"
    await referee.set_window_preference("u:c", "held", 0, table_id=table_id)  # an hour's draw at most: due now
    assert (await store.get_table(table_id)).next_deadline <= clock.t, "the clock looks at once"
    assert [a.seat for a in await referee.tick()] == [2]
    refused = await referee.set_window_preference("u:zed", "after", 1, table_id=table_id)
    assert getattr(refused, "key", None) == "core.reject.not_your_seat"
    assert getattr(await referee.set_window_preference("u:b", "often"), "key", None) == "windows.reject.bad"


def test_the_terminal_sets_it_as_discord_does(tmp_path, capsys):
    db = str(tmp_path / "j.db")

    def run(*a):
        capsys.readouterr()
        return cli.main(["--db", db, "--locale", "en", *a]), capsys.readouterr()

    code, out = run("windows", "after", "--hours", "3", "--user", "bob")
    assert code == 0 and "Done, at every table" in out.out and "3 h" in out.out, out
    code, out = run("windows", "held", "--hours", "500", "--user", "bob")
    assert code == 1 and "hours from 0 to 168" in out.err, out
    code, out = run("windows", "ask", "--table", "9", "--user", "bob")
    assert code == 1 and "9" in out.err, out
    import sqlite3
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT user_id, table_id, mode, hours FROM window_preferences").fetchall() == \
            [("cli:bob", 0, "after", 3.0)]


def test_the_about_seat_is_told_once_per_window_and_the_turn_it_interrupts_goes_on_unpinged():
    import json

    from bot.discord.windows import about_pings, live_shows, pingable

    turn = {"to_act": [{"seat": 0, "kind": "turn", "prompt": "p", "deadline": None}]}
    window = {"to_act": [{"seat": s, "kind": "reaction", "prompt": "w", "deadline": 500.0, "about": [1],
                          "since": 100.0} for s in (0, 1, 2)]}
    stored = json.loads(live_shows(turn, []))
    assert about_pings(window, stored) == {1: 500.0}
    stored = json.loads(live_shows(window, stored))
    assert about_pings(window, stored) == {}, "told once"
    fewer = {"to_act": window["to_act"][1:]}  # Alice passed: the same window
    assert about_pings(fewer, stored) == {}
    stored = json.loads(live_shows(fewer, stored))
    again = {"to_act": [{**p, "since": 200.0} for p in window["to_act"]]}  # a шняга asks everyone anew
    assert about_pings(again, stored) == {1: 500.0}
    back = list(pingable(turn, json.loads(live_shows(again, stored))))
    assert [(p["seat"], p["new_turn"]) for p in back] == [(0, False)], "the turn goes on without a ping"


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
def test_the_about_line_and_the_waiting_line_are_whole_in_every_language(locale):
    from bot.discord.windows import about_line, waiting_lines, with_headline

    line = about_line(GAME, 12, "⚔ Alice: захват «Казино»", 1_764_400_000.0, locale)
    assert "{" not in line and "12" in line and "2025-11-29 07:06 UTC" in line and "«Казино»" in line
    assert "{" not in about_line(GAME, 12, "", 1_764_400_000.0, locale)
    view = {"to_act": [{"seat": 0, "kind": "turn", "deadline": 900.0, "prompt": "p"},
                       {"seat": 2, "kind": "reaction", "deadline": 600.0, "prompt": "w"}]}
    (waiting,) = waiting_lines(view, ["Alice", "Bob", "Carol"], locale)
    assert "Carol" in waiting and "Alice" not in waiting and "<t:600:" in waiting
    content = "\n".join(["**head**", *[f"▸ move {i} " + "x" * 300 for i in range(8)], "```board```"])
    fitted = with_headline("⚡ " + "y" * 100, content)
    assert len(fitted) <= 2000 and fitted.startswith("⚡ ") and fitted.endswith("```board```")
    assert "▸ move 0 " not in fitted and "▸ move 7 " in fitted, "the oldest recap lines give way"
