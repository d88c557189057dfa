"""Deadlines (§9.2, BW-28): the slowness rule costs the turn; every other decision is completed for the
absent player."""
from bot.engine import Code
from bot.games.bloodwood import GAME

from .helpers import NOW, act, kinds, pending, put_mark, table

SLOW = {"turn_seconds": 60}


def timeout(state, seat):
    deadline = next(p.deadline for p in GAME.to_act(state) if p.seat == seat)
    return GAME.apply(state, seat, {"type": "timeout"}, now=deadline)


def test_no_deadline_without_the_slowness_rule():
    state = table()
    assert GAME.to_act(state)[0].deadline is None
    assert GAME.apply(state, 0, {"type": "timeout"}, now=NOW + 10 ** 6).code == Code.TOO_EARLY


def test_a_slow_turn_is_lost_without_drawing():
    state = table(options=SLOW, hands={0: ["keys", "vaccine"]})
    put_mark(state, 0, "curse", left=2, since=0)
    assert GAME.to_act(state)[0].deadline == NOW + 60
    assert GAME.apply(state, 0, {"type": "timeout"}, now=NOW + 59).code == Code.TOO_EARLY
    result = timeout(state, 0)
    assert kinds(result.events)[:3] == ["timed_out", "turn_skipped", "curse_countdown"]
    assert result.state["hands"][0] == ["keys", "vaccine"] and result.state["turn"]["seat"] == 1
    assert result.state["phase_turns"] == 1


def test_a_picked_card_without_a_target_is_lost_with_the_turn():
    state = table(options=SLOW, phase="night", hands={0: ["bite", "keys"]})
    state = act(state, 0, type="play", card="bite")
    result = timeout(state, 0)
    assert result.state["hands"][0] == ["bite", "keys"] and result.state["turn"]["seat"] == 1


def test_draws_are_completed_at_random():
    state = table(options=SLOW, hands={0: ["keys"]})
    state = act(state, 0, type="discard", card="keys")
    state["rng"]["stack"] = {"bloodwood.timeout": [{"type": "draw", "deck": "night"},
                                                   {"type": "draw_all", "day": 2, "night": 1}]}
    night_top = state["decks"]["night"][0]
    result = timeout(state, 0)
    hand = result.state["hands"][0]
    assert len(hand) == 4 and night_top in hand and result.state["turn"]["seat"] == 1


def test_leshy_discards_are_made_for_the_absent_player_only():
    state = table(options=SLOW, phase="night", hands={0: ["leshy"], 1: ["keys", "bite", "vaccine"], 2: ["candle"],
                                                      3: [], 4: []})
    state = act(state, 0, type="play", card="leshy")
    result = timeout(state, 1)
    assert len(result.state["hands"][1]) == 1 and pending(result.state) == [(2, "choice", "bloodwood.prompt.leshy")]


def test_keep_is_topped_up_at_random():
    state = table(options=SLOW, phase="night", hands={0: ["voodoo", "bite"], 1: ["keys", "vaccine", "candle", "thief"]})
    state = act(state, 0, type="play", card="voodoo", target=1)
    state = act(state, 1, type="allow")
    state = act(state, 0, type="keep", card="bite")
    result = timeout(state, 0)
    assert "bite" in result.state["hands"][0] and len(result.state["hands"][0]) == 4
    assert len(result.state["hands"][1]) == 1


def test_confession_recipient_is_drawn_when_the_confessor_is_absent():
    state = table(options=SLOW, hands={0: ["confession"]})
    state = act(state, 0, type="play", card="confession", target=2)
    state["rng"]["stack"] = {"bloodwood.timeout": [{"type": "show", "seat": 4}]}
    result = timeout(state, 2)
    assert result.state["confessed"][2] == [4] and [4, 2] in result.state["known"]


def test_the_hosts_choices_are_drawn_when_the_host_is_absent():
    state = GAME.initial_state(5, seed="slow", options={**SLOW, "role_deal": "host"}, now=NOW).state
    result = timeout(state, 0)
    assert result.state["roles"] is not None and pending(result.state) == [(0, "choice", "bloodwood.prompt.first")]
    result = timeout(result.state, 0)
    assert result.state["turn"] is not None


def test_a_timed_out_draw_never_declares_for_the_absent_player():
    """Declaring is offered while drawing (BW-25), but a deadline completes only the draws (BW-28)."""
    from bot.engine.rng import rng_state

    state = table(options=SLOW, hands={0: ["keys"]})
    state = act(state, 0, type="discard", card="keys")
    assert {"type": "declare"} in GAME.legal_actions(state, 0)
    for i in range(40):
        state["rng"] = rng_state(f"absent-{i}")
        result = timeout(state, 0)
        assert "declared" not in kinds(result.events) and result.state["turn"]["seat"] == 1
