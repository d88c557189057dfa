"""Turns and phases (§2, §3): play one card of the phase or discard one, refill to 4 choosing the decks,
the hand limit, the phase flip after every seat's turn, deck reshuffles, Eclipse / Time Loop and their extra
turn, the "no two in a row" rule, and the Tranquilizer's lost turn."""
from bot.engine import Code
from bot.games.bloodwood import GAME

from .helpers import act, event, kinds, pending, put_mark, reject, run, set_hand, table


def test_legal_actions_of_a_day_turn():
    state = table(hands={0: ["bite", "keys", "mirror", "vaccine"]})
    assert GAME.legal_actions(state, 0) == [
        {"type": "play", "card": "vaccine"},
        {"type": "discard", "card": "bite"}, {"type": "discard", "card": "keys"},
        {"type": "discard", "card": "mirror"}, {"type": "discard", "card": "vaccine"},
        {"type": "declare"},
    ]
    assert GAME.legal_actions(state, 1) == []


def test_refusals_name_the_rule():
    state = table(hands={0: ["bite", "keys", "mirror", "vaccine"]})
    assert (reject(state, 0, type="play", card="bite").key, reject(state, 0, type="play", card="bite").rule) == (
        "bloodwood.reject.only_night", "§6.1")
    assert reject(state, 0, type="play", card="mirror").key == "bloodwood.reject.counter_only"
    assert reject(state, 0, type="play", card="keys").key == "bloodwood.reject.no_target"
    assert reject(state, 0, type="play", card="candle").key == "bloodwood.reject.not_in_hand"
    assert reject(state, 0, type="pass").key == "bloodwood.reject.must_play_or_discard"
    assert reject(state, 0, type="play", card="no_such").code == Code.MALFORMED
    assert reject(state, 0, type="draw", deck="day").key == "bloodwood.reject.not_now"
    assert reject(state, 0, type="fly").code == Code.MALFORMED
    assert reject(state, 1, type="discard", card="bite").code == Code.NOT_YOUR_TURN


def test_discard_then_refill_choosing_the_deck():
    state = table(hands={0: ["bite", "keys", "mirror", "vaccine"]})
    state = act(state, 0, type="discard", card="keys")
    assert state["discard"] == ["keys"] and pending(state) == [(0, "turn", "bloodwood.prompt.draw")]
    assert GAME.legal_actions(state, 0) == [{"type": "draw", "deck": "day"}, {"type": "draw", "deck": "night"},
                                            {"type": "declare"}]
    top = state["decks"]["night"][0]
    state = act(state, 0, type="draw", deck="night")
    assert top in state["hands"][0] and len(state["hands"][0]) == 4
    assert state["turn"]["seat"] == 1 and state["phase_turns"] == 1


def test_pass_only_without_a_playable_card_and_draw_all_at_once():
    state = table(hands={0: ["bite", "mirror"]})
    assert {"type": "pass"} in GAME.legal_actions(state, 0)
    state = act(state, 0, type="pass")
    splits = [a for a in GAME.legal_actions(state, 0) if a["type"] == "draw_all"]
    assert splits == [{"type": "draw_all", "day": 2, "night": 0}, {"type": "draw_all", "day": 1, "night": 1},
                      {"type": "draw_all", "day": 0, "night": 2}]
    assert reject(state, 0, type="draw_all", day=2, night=1).key == "bloodwood.reject.split_total"
    assert reject(state, 0, type="draw_all", day="2", night=0).code == Code.MALFORMED
    day_top = state["decks"]["day"][0]
    state = act(state, 0, type="draw_all", day=1, night=1)
    assert day_top in state["hands"][0] and len(state["hands"][0]) == 4 and state["turn"]["seat"] == 1


def test_empty_hand_passes_and_draws_four():
    state = table(hands={0: []})
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}, {"type": "declare"}]
    state = act(state, 0, type="pass")
    assert state["step"]["left"] == 4


def _quiet_turn(state, seat):
    """Discard the seat's first card and draw it back from the day deck."""
    state = act(state, seat, type="discard", card=state["hands"][seat][0])
    return act(state, seat, type="draw", deck="day")


def test_the_phase_flips_after_every_seat_and_the_starter_begins_again():
    state = table(first=2)
    events = []
    for seat in (2, 3, 4, 0, 1):
        assert state["phase"] == "day" and state["turn"]["seat"] == seat
        result = GAME.apply(state, seat, {"type": "discard", "card": state["hands"][seat][0]}, now=1001.0)
        result = GAME.apply(result.state, seat, {"type": "draw", "deck": "day"}, now=1001.0)
        state, events = result.state, result.events
    assert state["phase"] == "night" and state["turn"]["seat"] == 2 and state["phase_turns"] == 0
    assert kinds(events)[-2:] == ["phase", "turn"]


def test_hand_limit_at_the_end_of_ones_turn():
    state = table(hands={0: ["vaccine", "candle", "keys", "thief", "blood_test", "confession"]})
    state = act(state, 0, type="discard", card="keys")
    assert pending(state) == [(0, "turn", "bloodwood.prompt.trim")]
    state, events = run(state, (0, {"type": "discard", "card": "thief"}))
    assert event(events, "discarded")["data"] == {"seat": 0, "card": "thief", "why": "trim", "rule": "§2"}
    assert state["turn"]["seat"] == 1 and len(state["hands"][0]) == 4
    assert state["discard"] == ["keys", "thief"]


def test_an_empty_deck_is_rebuilt_from_its_discarded_cards():
    state = table(hands={0: ["bite", "vaccine", "keys", "thief"]})
    state["decks"]["night"].remove("bite")
    state["discard"] = [*state["decks"]["day"], "bite"]
    state["decks"]["day"] = []
    GAME.check_invariants(state)
    state = act(state, 0, type="discard", card="keys")
    day_cards = [c for c in state["discard"] if c != "bite"]
    order = list(reversed(day_cards))
    state["rng"]["stack"] = {"bloodwood.day_reshuffle": [order]}
    result = GAME.apply(state, 0, {"type": "draw", "deck": "day"}, now=1001.0)
    state = result.state
    reshuffled = event(result.events, "reshuffled")["data"]
    assert reshuffled == {"deck": "day", "count": len(day_cards), "rule": "BW-6"}
    recorded = event(result.events, "deck_order")
    assert recorded["to"] == [] and recorded["data"]["order"] == order
    assert state["discard"] == ["bite"], "only the day cards were reshuffled"
    assert order[0] in state["hands"][0] and state["decks"]["day"] == order[1:]


def _one_day_card_left(options=None):
    """Seat 0 has discarded Keys and is to draw; the day deck holds one card, the other day cards and a Bite
    lie in the discard.  Returns the state and the last card of the deck."""
    state = table(options=options, hands={0: ["bite", "vaccine", "keys", "thief"]})
    last = state["decks"]["day"][-1]
    state["discard"] = [*state["decks"]["day"][:-1], "bite"]
    state["decks"]["night"].remove("bite")
    state["decks"]["day"] = [last]
    return act(state, 0, type="discard", card="keys"), last


def test_the_deck_is_rebuilt_the_moment_its_last_card_is_drawn():
    """§1.1: «Якщо карти в будь-якій колоді закінчуються, перемішайте карти з відбою»: when the last card
    leaves, not at the next draw, so a card discarded afterwards stays in the pile and nobody sees an empty
    deck that still has cards to come."""
    state, last = _one_day_card_left()
    order = sorted(c for c in state["discard"] if c != "bite")
    state["rng"]["stack"] = {"bloodwood.day_reshuffle": [order]}
    state, events = run(state, (0, {"type": "draw", "deck": "day"}))
    assert kinds(events)[:3] == ["draw", "drew", "reshuffled"] and last in state["hands"][0]
    assert event(events, "reshuffled")["data"] == {"deck": "day", "count": len(order), "rule": "§1.1"}
    assert state["decks"]["day"] == order and state["discard"] == ["bite"]
    assert GAME.view(state, None)["decks"]["day"] == len(order)


def test_option_rebuilds_the_deck_only_at_the_next_draw():
    state, _ = _one_day_card_left({"reshuffle": "draw"})
    state, events = run(state, (0, {"type": "draw", "deck": "day"}))
    assert "reshuffled" not in kinds(events) and state["decks"]["day"] == [] and "keys" in state["discard"]
    state = act(state, 1, type="discard", card=state["hands"][1][0])
    state, events = run(state, (1, {"type": "draw", "deck": "day"}))
    assert event(events, "reshuffled")["data"]["rule"] == "BW-6" and state["discard"] == ["bite"]


def test_chains_forbid_night_cards_but_not_special_ones():
    state = table(phase="night", hands={0: ["bite", "night_eclipse", "mirror", "chains"]})
    put_mark(state, 0, "chains")
    assert reject(state, 0, type="play", card="bite").key == "bloodwood.reject.chained"
    plays = [a for a in GAME.legal_actions(state, 0) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "night_eclipse"}]


def test_eclipse_flips_the_phase_restarts_the_count_and_gives_an_extra_turn():
    state = table(first=0, hands={0: ["day_eclipse", "vaccine", "keys", "candle"]})
    state["phase_turns"] = 3
    state, events = run(state, (0, {"type": "play", "card": "day_eclipse"}))
    assert state["phase"] == "night" and state["phase_turns"] == 0
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")] and state["step"]["left"] == 1
    state, events = run(state, (0, {"type": "draw", "deck": "night"}))
    assert event(events, "extra_turn")["data"] == {"seat": 0, "special": "eclipse"}
    assert pending(state) == [(0, "turn", "bloodwood.prompt.turn")] and len(state["hands"][0]) == 4
    state = act(state, 0, type="discard", card="keys")
    state = act(state, 0, type="draw", deck="day")
    # The extra turn was the first of the new phase: four more turns, then day again.
    assert state["phase_turns"] == 1 and state["turn"]["seat"] == 1
    for seat in (1, 2, 3, 4):
        assert state["phase"] == "night"
        state = _quiet_turn(state, seat)
    assert state["phase"] == "day" and state["turn"]["seat"] == 0


def test_time_loop_reverses_the_direction_and_restarts_the_count():
    state = table(first=2, hands={2: ["day_time_loop", "vaccine", "keys", "candle"]})
    state["phase_turns"] = 4
    state = act(state, 2, type="play", card="day_time_loop")
    assert state["direction"] == -1 and state["phase_turns"] == 0 and state["phase"] == "day"
    state = act(state, 2, type="draw", deck="day")
    state = act(state, 2, type="discard", card="keys")
    state = act(state, 2, type="draw", deck="day")
    assert state["turn"]["seat"] == 1, "play now goes the other way"
    for seat in (1, 0, 4, 3):
        assert state["phase"] == "day"
        state = _quiet_turn(state, seat)
    assert state["phase"] == "night" and state["turn"]["seat"] == 2


def test_no_special_card_in_the_extra_turn():
    state = table(hands={0: ["day_eclipse", "day_time_loop", "vaccine", "keys"]})
    state = act(state, 0, type="play", card="day_eclipse")
    state = act(state, 0, type="draw", deck="day")
    refusal = reject(state, 0, type="play", card="day_time_loop")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.two_in_a_row", "BW-10")
    assert not any(a.get("card") == "day_time_loop" for a in GAME.legal_actions(state, 0) if a["type"] == "play")


def test_option_bars_only_the_same_special_card():
    state = table(options={"extra_turn_specials": "other"},
                  hands={0: ["day_eclipse", "day_time_loop", "vaccine", "keys"]})
    state = act(state, 0, type="play", card="day_time_loop")
    state = act(state, 0, type="draw", deck="night")
    state = act(state, 0, type="play", card="day_eclipse")
    assert state["phase"] == "night" and state["turn"]["extra"] == "eclipse"
    set_hand(state, 0, ["night_time_loop", "night_eclipse", "bite"])
    state["step"] = {**state["step"], "kind": "turn", "card": None}
    state["step"].pop("left"), state["step"].pop("then")
    refusal = reject(state, 0, type="play", card="night_eclipse")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.two_in_a_row", "§8.1"), "the card's own words"
    assert {"type": "play", "card": "night_time_loop"} in GAME.legal_actions(state, 0)


def test_a_tranquilized_player_misses_the_turn_without_drawing():
    state = table(hands={1: ["bite"]})
    put_mark(state, 1, "sleep")
    result = GAME.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]}, now=1001.0)
    result = GAME.apply(result.state, 0, {"type": "draw", "deck": "day"}, now=1001.0)
    state = result.state
    assert kinds(result.events)[-3:] == ["turn", "slept", "turn"]
    assert state["sleep"][1] is False and state["hands"][1] == ["bite"] and state["discard"][-1] == "tranquilizer"
    assert state["turn"]["seat"] == 2 and state["phase_turns"] == 2, "the lost turn counts for the phase"
