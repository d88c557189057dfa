"""The rules of windows that cost nothing and of the ping's recap, as pure functions (bot/discord/windows.py,
bot/discord/recap.py), and the referee's clock closing a window for everyone at once."""
import json

from bot.discord.recap import recap_lines, rows
from bot.discord.windows import live_shows, pingable
from bot.engine import get_game
from bot.referee.service import Accepted


def _view(*asks):
    return {"to_act": [{"seat": s, "kind": k, "prompt": "p", "deadline": d} for s, k, d in asks]}


def test_a_window_with_a_deadline_is_never_pinged_and_the_turn_it_interrupts_goes_on_unpinged():
    turn = _view((0, "turn", None))
    stored = json.loads(live_shows(turn, []))
    window = _view((0, "reaction", 100.0), (1, "reaction", 100.0), (2, "reaction", 100.0))
    assert list(pingable(window, stored)) == []
    stored = json.loads(live_shows(window, stored))
    back = [p for p in pingable(turn, stored)]
    assert [(p["seat"], p["new_turn"]) for p in back] == [(0, False)], "the same turn goes on: no new ping"
    nxt = [p for p in pingable(_view((1, "turn", None)), stored)]
    assert [(p["seat"], p["new_turn"]) for p in nxt] == [(1, True)]


def test_a_window_without_a_deadline_is_pinged_like_any_decision_passing_to_a_player():
    stored = json.loads(live_shows(_view((0, "turn", None)), []))
    window = _view((1, "reaction", None))
    assert [(p["seat"], p["new_turn"]) for p in pingable(window, stored)] == [(1, True)]


def test_the_recap_keeps_the_newest_lines_whole_within_the_room_and_counts_the_rest_with_a_link():
    assert recap_lines(["a", "b"], "en") == ["▸ a", "▸ b"]
    lines = [f"move {i}" for i in range(30)]
    shown = recap_lines(lines, "en", "https://judge.example/t/1", room=6)
    assert len(shown) == 6 and shown[-1] == "▸ move 29"
    assert "25 more" in shown[0] and "(<https://judge.example/t/1>)" in shown[0]
    assert "/стол журнал" in recap_lines(lines, "ru", room=6)[0]
    # a long line (a Gwent round's result) is never cut: it takes the rows it wraps to, older lines give way
    long = "Раунд 1 окончен, Alice 65 : 30 Bob. Раунд выигрывает Alice. " * 2
    shown = recap_lines(["short", "older", long.strip()], "ru", room=5)
    assert shown[-1] == "▸ " + long.strip() and sum(rows(line) for line in shown) <= 5
    assert rows("x" * 41) == 2 and rows("```\n" + "x" * 80 + "\n```") == 0  # the board's block is not prose


async def test_a_window_closes_at_its_deadline_for_everyone_who_has_not_answered_at_once(env):
    store, referee, clock = env
    game = get_game("raiders")
    table = await referee.create_table("raiders", creator="u:a", creator_name="a", options={"window_seconds": 600},
                                       origin="terminal")
    for name in ("b", "c"):
        await referee.join(table.id, f"u:{name}", name)
    await referee.start(table.id, "u:a", seed="w", stack={"first": 0}, moderator=True)
    state = await store.state(table.id)
    capture = next(a for a in game.legal_actions(state, 0) if a["type"] == "capture")
    assert isinstance(await referee.act(table.id, "u:a", capture), Accepted)
    await referee.act(table.id, "u:b", {"type": "pass"})
    assert sorted(p.seat for p in game.to_act(await store.state(table.id))) == [0, 2]
    clock.t += 601
    done = await referee.tick()
    assert sorted(a.seat for a in done) == [0, 2], "one look of the clock passes everyone still asked"
    assert (await store.state(table.id))["window"] is None
    assert [a.user_id for a in (await store.actions(table.id))[-2:]] == ["system", "system"]


async def test_a_standing_pass_answers_every_window_of_that_turn_as_the_players_own_and_no_later_turn(env):
    store, referee, clock = env
    game = get_game("raiders")
    table = await referee.create_table("raiders", creator="u:a", creator_name="a", origin="terminal")
    for name in ("b", "c"):
        await referee.join(table.id, f"u:{name}", name)
    await referee.start(table.id, "u:a", seed="c", stack={"first": 0}, moderator=True)
    state = await store.state(table.id)
    capture = next(a for a in game.legal_actions(state, 0) if a["type"] == "capture")
    first = await referee.act(table.id, "u:a", capture)
    assert isinstance(first, Accepted)
    assert isinstance(await referee.pass_windows(table.id, "u:b", seen_at=first.version), Accepted)
    assert [(a.seat, a.user_id, a.action) for a in (await store.actions(table.id))[-1:]] == \
        [(1, "u:b", {"type": "pass"})]
    for user in ("u:c", "u:a"):
        await referee.act(table.id, user, {"type": "pass"})
    state = await store.state(table.id)
    assert state["window"] is None
    shnyaga = next(a for a in game.legal_actions(state, 0) if a["type"] == "shnyaga")
    assert isinstance(await referee.act(table.id, "u:a", shnyaga), Accepted)  # a second window, the same turn
    state = await store.state(table.id)
    assert sorted(p.seat for p in game.to_act(state)) == [0, 2], "Bob's standing pass answered it at once"
    last = (await store.actions(table.id))[-1]
    assert (last.seat, last.user_id, last.action) == (1, "u:b", {"type": "pass"}), "recorded as his own"
    for user in ("u:c", "u:a"):
        await referee.act(table.id, user, {"type": "pass"})
    await referee.act(table.id, "u:a", {"type": "end"})
    state = await store.state(table.id)
    assert [p.seat for p in game.to_act(state)] == [1], "Bob's turn"
    capture = next(a for a in game.legal_actions(state, 1) if a["type"] == "capture")
    await referee.act(table.id, "u:b", capture)
    state = await store.state(table.id)
    assert 1 in [p.seat for p in game.to_act(state)], "a later turn asks him again"
    stale = await referee.pass_windows(table.id, "u:c", seen_at=first.version)
    assert getattr(stale, "key", None) == "core.reject.stale", "a button drawn in an earlier turn"
