"""The rule book paragraph by paragraph: the deal, the turn, the nine actions, two cards, the table card,
drawing and the reshuffle, the sphere below zero, winning and losing, turn order and the clocks."""
import pytest

from bot.engine import Reject
from bot.games.claygod import GAME
from bot.games.claygod.cards import card_ids

from .helpers import (act, apply, dice, event, frozen, kinds, numbers, pass_turn, push, ready, reject,
                      roll, set_dice, table)


# ------------------------------------------------------------------------------------------ rule 1, 2: the deal
def test_the_deal_five_in_hand_one_face_down_the_rest_a_deck():
    result = GAME.initial_state(2, seed="deal", now=0.0)
    state = result.state
    for p in state["players"]:
        assert len(p["hand"]) == 5 and p["table_card"] is not None
        assert (p["health"], p["sphere"]) == (50, 50) and all(d["value"] is None for d in p["dice"].values())
    assert len(state["deck"]) == 74 - 12 and state["discard"] == []
    dealt = [e for e in result.events if e["kind"] == "dealt"]
    assert [e["to"] for e in dealt] == [[0], [1]]
    assert event(result.events, "table_cards_set")["to"] == []
    assert state["turn"] == {"seat": state["turn"]["seat"], "number": 1, "extra": False, "stage": "roll",
                             "since": 0.0, "free_cast": False, "combos": [], "steps": [], "give": None}


def test_the_first_player_is_drawn_by_lot():
    for first in (0, 1):
        assert table(first=first)["turn"]["seat"] == first


def test_a_stacked_full_deck_is_dealt_in_the_documented_order():
    order = list(reversed(card_ids()))
    state = GAME.initial_state(2, seed="x", stack={"deck": order}).state
    assert state["players"][0]["hand"] == order[:5] and state["players"][0]["table_card"] == order[5]
    assert state["players"][1]["hand"] == order[6:11] and state["players"][1]["table_card"] == order[11]
    assert state["deck"] == order[12:]


@pytest.mark.parametrize("stack", [
    {"deck": card_ids()[:-1]}, {"deck": card_ids()[:-1] + ["demon"]}, {"hands": [["no_such_card"], []]},
    {"hands": [["demon"], ["demon"]]}, {"hands": [["demon"] * 6, []]}, {"deck": card_ids(), "hands": [[], []]},
    {"stats": [{"health": "lots"}, {}]}, {"table_cards": ["demon"]},
    {"hands": [["demon"], []], "used": ["demon"]}, {"used": ["eye", "eye"]}, {"deck_size": -1}, {"deck_size": 63},
    {"deck": card_ids(), "used": [card_ids()[0]]},
])
def test_a_bad_stack_is_refused(stack):
    with pytest.raises(Reject) as info:
        GAME.initial_state(2, seed="x", stack=stack)
    assert info.value.rejection.code == "bad_setup" and info.value.rejection.key == "claygod.reject.bad_stack"


def test_a_card_placed_twice_is_named_in_the_refusal():
    with pytest.raises(Reject) as info:
        GAME.initial_state(2, seed="x", stack={"hands": [["luck"], []], "table_cards": [None, "luck"]})
    assert info.value.rejection.params == {"key": "table_cards", "detail": "luck is placed twice (hands and table_cards)"}


def test_a_stacked_used_pile_and_a_short_deck_lead_to_the_reshuffle():
    stack = {"hands": [["eye"], []], "deck_top": ["haze", "glazon"], "used": ["clock", "banner"], "deck_size": 2}
    result = GAME.initial_state(2, seed="x", stack=stack, now=1000.0)
    state = result.state
    assert state["deck"] == ["haze", "glazon"] and state["discard"][:2] == ["clock", "banner"]
    assert len(state["discard"]) == 74 - 12 - 2 and event(result.events, "used_pile_set")["to"] is None
    GAME.check_invariants(state)
    full = GAME.initial_state(2, seed="x", stack={"deck": card_ids(), "used": ["sky_island"]}).state
    assert full["discard"] == ["sky_island"] and "sky_island" not in full["deck"] and len(full["deck"]) == 61

# ------------------------------------------------------------------------------------------ the roll
def test_one_value_per_thrown_die_in_colour_order_frozen_dice_take_none():
    state = ready(table(), 0, dice=(1, 2, 3, 4, 5, 6, 5))
    state = act(state, 0, type="freeze", side="own", colour="green")
    state = pass_turn(state, 1)
    applied = roll(state, 0, [6, 5, 6, 5, 6, 5])
    assert dice(applied.state, 0) == [6, 5, 6, 4, 5, 6, 5]
    assert applied.state["players"][0]["last_roll_sum"] == 37
    assert event(applied.events, "rolled")["data"]["held"] == ["green"]
    assert "claygod.dice" not in applied.state["rng"]["stack"], "every stacked value was used"


def test_ongoing_spells_act_before_the_sphere_drain():
    state = table(hands=(["banner"], []), stats=[{"sphere": -1}, {}])
    assert numbers(state) == [(48, -1), (52, 50)], "rule 7 at the first turn's start"
    state = act(ready(state, 0), 0, type="play", card="banner")
    state = pass_turn(state, 1)
    assert numbers(state)[0] == (48, 0), "the banner lifts the sphere to 0 first: no drain"


def test_sphere_below_zero_moves_two_health_to_the_opponent_every_own_turn():
    state = table(stats=[{}, {"sphere": -5}])
    state = pass_turn(state, 0)
    assert numbers(state) == [(52, 50), (48, -5)]
    state = pass_turn(pass_turn(state, 1), 0)
    assert numbers(state) == [(54, 50), (46, -5)]


# ------------------------------------------------------------------------------------------ rule 3: the actions
def test_action_1_needs_each_colour_covered():
    state = ready(table(hands=(["demon"], [])), 0, dice=(5, 6, 6, 6, 6, 6, 6))
    refusal = reject(state, 0, type="play", card="demon")
    assert (refusal.code, refusal.key, refusal.rule) == ("illegal", "claygod.reject.energy", "§3.1")
    assert refusal.params == {"colour": "🟥", "need": 6, "have": 5}
    assert {"type": "play", "card": "demon"} not in GAME.legal_actions(state, 0)


def test_action_2_the_table_card_whatever_its_cost_when_every_energy_is_two():
    state = table(table_cards=["demon", None], deck_top=["pearl", "eye"])
    state = ready(state, 0, dice=(2, 2, 2, 2, 2, 2, 2))
    applied = apply(state, 0, type="play_table")
    assert numbers(applied.state)[1] == (45, 48)
    assert event(applied.events, "played")["data"] == {"seat": 0, "card": "demon", "source": "table"}
    assert applied.state["players"][0]["table_card"] == "pearl", "a new face-down card from the deck"
    assert event(applied.events, "table_card_set")["to"] == []
    assert event(applied.events, "table_card_laid")["to"] is None
    set_dice(state, 0, (2, 2, 2, 1, 2, 2, 2))
    refusal = reject(state, 0, type="play_table")
    assert (refusal.key, refusal.rule, refusal.params) == ("claygod.reject.table_energy", "§3.2",
                                                           {"colour": "🟩", "have": 1, "need": 2})


def test_action_3_discard_and_take_the_top_card():
    state = ready(table(hands=(["ghost"], []), deck_top=["court_jester"]), 0)
    applied = apply(state, 0, type="discard", card="ghost")
    assert applied.state["discard"] == ["ghost"] and applied.state["players"][0]["hand"][-1] == "court_jester"
    assert event(applied.events, "drew")["to"] == [0] and event(applied.events, "drew_count")["to"] is None


def test_actions_4_and_5_trade_health_and_sphere():
    assert numbers(act(ready(table(), 0), 0, type="restore_health"))[0] == (52, 45)
    assert numbers(act(ready(table(), 0), 0, type="restore_sphere"))[0] == (45, 52)


@pytest.mark.parametrize("pay,expected", [("health", (40, 50)), ("sphere", (50, 40))])
def test_actions_6_and_7_freeze_every_own_energy_for_a_turn(pay, expected):
    state = ready(table(), 0, dice=(6, 5, 6, 5, 6, 5, 4))
    state = act(state, 0, type="freeze_all", pay=pay)
    assert numbers(state)[0] == expected and set(frozen(state, 0).values()) == {1}
    assert state["outcome"] is None, "a freeze with a term is no defeat (CG-13)"
    state = pass_turn(state, 1)
    applied = roll(state, 0, [])
    assert dice(applied.state, 0) == [6, 5, 6, 5, 6, 5, 4], "the whole roll is kept"
    state = act(applied.state, 0, type="restore_sphere")
    assert frozen(state, 0) == {}, "they thaw when that turn ends (rule 5)"


def test_action_8_freeze_and_thaw_any_energy():
    state = pass_turn(table(first=1), 1)
    state = ready(state, 0)
    enemy_red = state["players"][1]["dice"]["red"]["value"]
    state = act(state, 0, type="freeze", side="enemy", colour="red")
    assert frozen(state, 1) == {"red": None}
    state = roll(state, 1, [1] * 6).state
    assert state["players"][1]["dice"]["red"]["value"] == enemy_red
    state = act(state, 1, type="thaw", side="own", colour="red")
    assert frozen(state, 1) == {}


def test_action_8_refusals():
    state = ready(table(), 0)
    refusal = reject(state, 0, type="freeze", side="enemy", colour="red")
    assert (refusal.key, refusal.rule) == ("claygod.reject.not_rolled", "CG-32")
    refusal = reject(state, 0, type="thaw", side="own", colour="red")
    assert refusal.key == "claygod.reject.not_frozen"
    state = act(state, 0, type="freeze", side="own", colour="red")
    state = pass_turn(pass_turn(state, 1), 0)
    state = ready(state, 1)
    assert reject(state, 1, type="freeze", side="enemy", colour="red").key == "claygod.reject.already_frozen"
    assert reject(state, 1, type="freeze", side="nobody", colour="red").code == "malformed"
    assert reject(state, 1, type="freeze", side="enemy", colour="pink").code == "malformed"


def test_action_9_attack_when_the_sum_beats_the_opponents_last_roll():
    state = ready(table(), 0, dice=(1, 1, 1, 1, 1, 1, 2))
    assert {"type": "attack", "stat": "sphere"} in GAME.legal_actions(state, 0), "no earlier roll: 8 > 0"
    state = act(state, 0, type="attack", stat="sphere")
    assert numbers(state)[1] == (50, 49)
    state = roll(state, 1, [3, 3, 3, 3, 3, 3, 2]).state
    assert state["players"][1]["last_roll_sum"] == 20
    state = act(state, 1, type="attack", stat="health")
    assert numbers(state)[0] == (49, 50)
    state = ready(state, 0, dice=(3, 3, 3, 3, 3, 3, 2))
    refusal = reject(state, 0, type="attack", stat="health")
    assert (refusal.key, refusal.rule, refusal.params) == ("claygod.reject.attack_sum", "§3.9",
                                                           {"mine": 20, "theirs": 20})


# ------------------------------------------------------------------------------------------ rule 4: two cards
def test_two_cards_need_the_summed_energies():
    state = ready(table(hands=(["sunset", "ring_of_air"], [])), 0, dice=(6, 6, 6, 6, 6, 6, 6))
    refusal = reject(state, 0, type="play_two", cards=["sunset", "ring_of_air"])
    assert (refusal.key, refusal.rule, refusal.params) == ("claygod.reject.energy_two", "§4",
                                                           {"colour": "🩵", "need": 9, "have": 6})
    assert reject(state, 0, type="play_two", cards=["sunset", "sunset"]).code == "malformed"
    assert reject(state, 0, type="play_two", cards=["sunset"]).code == "malformed"


def test_two_cards_the_opponent_chooses_what_to_hand_over_and_draws_from_the_deck():
    state = table(hands=(["demon", "sunset", "pearl", "eye", "flight"], ["ghost", "skeleton", "luck", "mask",
                                                                          "statue"]), deck_top=["haze", "glazon"])
    state = ready(state, 0)
    applied = apply(state, 0, type="play_two", cards=["sunset", "demon"])
    assert [e["data"]["card"] for e in applied.events if e["kind"] == "played"] == ["sunset", "demon"]
    assert numbers(applied.state) == [(52, 50), (45, 48)]
    state = applied.state
    assert state["turn"]["stage"] == "give" and state["turn"]["give"] == {"from": 1, "to": 0, "left": 2}
    (pending,) = GAME.to_act(state)
    assert (pending.seat, pending.kind, pending.prompt) == (1, "choice", "claygod.prompt.give")
    assert reject(state, 0, type="give", card="pearl").code == "not_your_turn"
    first = apply(state, 1, type="give", card="ghost")
    assert event(first.events, "gave")["to"] == [0, 1] and event(first.events, "gave_count")["to"] is None
    done = apply(first.state, 1, type="give", card="skeleton")
    me, enemy = done.state["players"]
    assert me["hand"] == ["pearl", "eye", "flight", "ghost", "skeleton"]
    assert enemy["hand"] == ["luck", "mask", "statue", "haze", "glazon"]
    assert done.state["turn"]["seat"] == 1 and done.state["turn"]["stage"] == "roll"


# ------------------------------------------------------------------------------------------ rule 4: the reshuffle
def test_an_empty_deck_is_rebuilt_from_the_shuffled_used_pile():
    state = ready(table(hands=(["ghost"], [])), 0)
    state["discard"], state["deck"] = state["deck"], []
    order = ["ghost", *reversed(state["discard"])]
    push(state, "claygod.reshuffle", [order])  # one stacked value: the whole new deck, top first
    applied = apply(state, 0, type="discard", card="ghost")
    assert applied.state["players"][0]["hand"][-1] == "ghost", "drawn straight back from the top"
    assert event(applied.events, "reshuffled")["data"] == {"count": 63, "ruling": "§4"}
    assert event(applied.events, "shuffled")["to"] == []
    assert applied.state["discard"] == [] and applied.state["deck"] == order[1:]
    GAME.check_invariants(applied.state)


# ------------------------------------------------------------------------------------------ rule 6: win and loss
@pytest.mark.parametrize("stats,card,winners,reason", [
    ([{}, {"health": 3}], "dragonfly", [0], "health_low"),
    ([{}, {"sphere": -46}], "glazon", [0], "sphere_low"),
    ([{"health": 195}, {}], "fairy_alice", [0], "health_high"),
    ([{"sphere": 191}, {}], "court_jester", [0], "sphere_high"),
    ([{"health": 3}, {"health": 5}], "centaur_battle", [1], "health_low"),
    ([{"health": 3}, {"health": 4}], "centaur_battle", [], "both_fell"),
])
def test_winning_and_losing(stats, card, winners, reason):
    state = ready(table(hands=([card], []), stats=stats), 0)
    applied = apply(state, 0, type="play", card=card)
    assert applied.state["outcome"]["winners"] == winners
    assert applied.state["outcome"]["reason"] == f"claygod.outcome.{reason}"
    assert GAME.to_act(applied.state) == [] and kinds(applied.events)[-1] == "game_over"


@pytest.mark.parametrize("stats,card", [
    ([{}, {"health": 4}], "dragonfly"), ([{}, {"sphere": -45}], "glazon"),
    ([{"health": 193}, {}], "fairy_alice"), ([{"sphere": 190}, {}], "court_jester"),
])
def test_the_limits_themselves_do_not_decide(stats, card):
    state = ready(table(hands=([card], []), stats=stats), 0)
    assert act(state, 0, type="play", card=card)["outcome"] is None


def test_with_win_needs_both_one_number_above_200_does_not_win():
    state = ready(table(hands=(["fairy_alice", "court_jester"], []), stats=[{"health": 195, "sphere": 195}, {}],
                        win_needs="both"), 0)
    state = act(state, 0, type="play", card="fairy_alice")
    assert state["players"][0]["health"] == 202 and state["outcome"] is None, "CG-34: health alone is not enough"
    state = ready(pass_turn(state, 1), 0)
    applied = apply(state, 0, type="play", card="court_jester")
    assert applied.state["outcome"]["winners"] == [0]
    assert applied.state["outcome"]["reason"] == "claygod.outcome.both_high"
    assert GAME.render_event(event(applied.events, "game_over"), "ru", ["Аня", "Боб"])

def test_all_seven_dice_frozen_until_thawed_loses():
    state = pass_turn(table(first=1), 1)
    for colour in ("red", "orange", "yellow", "green", "light_blue", "blue", "violet"):
        assert state["outcome"] is None
        state = act(ready(state, 0), 0, type="freeze", side="enemy", colour=colour)
        if state["outcome"] is None:
            state = pass_turn(state, 1)
    assert state["outcome"]["winners"] == [0] and state["outcome"]["reason"] == "claygod.outcome.frozen"


# ------------------------------------------------------------------------------------------ the turn clock
def test_no_deadline_without_timed_spells():
    state = table(turn_clock="live")
    assert GAME.to_act(state)[0].deadline is None


def test_live_turn_clock_ten_seconds_while_a_timed_spell_runs():
    state = ready(table(hands=(["dolmen"], []), turn_clock="live"), 0)
    state = act(state, 0, now=1005.0, type="play", card="dolmen")
    (pending,) = GAME.to_act(state)
    assert (pending.seat, pending.deadline) == (1, 1015.0)
    assert GAME.apply(state, 1, {"type": "timeout"}, now=1014.0).code == "too_early"
    applied = apply(state, 1, now=1015.0, type="timeout")
    assert kinds(applied.events)[0] == "timed_out" and applied.state["turn"]["seat"] == 0
    assert applied.state["players"][1]["dice"]["red"]["value"] is None, "the turn was lost before the roll"


def test_async_turn_clock_counts_hours():
    state = ready(table(hands=(["dolmen"], []), turn_clock="async", async_turn_hours=2), 0)
    state = act(state, 0, type="play", card="dolmen")
    assert GAME.to_act(state)[0].deadline == 1000.0 + 2 * 3600


def test_a_late_hand_over_is_made_by_default():
    state = table(hands=(["dolmen", "sunset"], ["ghost", "skeleton", "luck", "mask", "statue"]), turn_clock="live")
    state = act(ready(state, 0), 0, now=1001.0, type="play_two", cards=["dolmen", "sunset"])
    assert GAME.to_act(state)[0].deadline == 1011.0, "the Dolmen is a timed spell: rule 8 applies"
    applied = apply(state, 1, now=1011.0, type="timeout")
    assert [e["data"]["card"] for e in applied.events if e["kind"] == "gave"] == ["ghost", "skeleton"]
    assert applied.state["turn"]["seat"] == 1 and applied.state["turn"]["stage"] == "roll"


def test_a_late_choice_is_made_by_default_and_the_action_is_lost():
    state = table(hands=(["dolmen"], []), turn_clock="live")
    state = act(ready(state, 0), 0, type="play", card="dolmen")
    state = pass_turn(state, 1, now=1001.0)
    applied = roll(state, 0, [6, 6, 6, 6, 6, 6], now=1002.0)  # the green die is maximised: seven sixes
    assert applied.state["turn"]["stage"] == "choose_combo"
    late = apply(applied.state, 0, now=1011.0, type="timeout")
    assert event(late.events, "combo")["data"]["combo"] == "seven_sixes", "the first choice listed"
    assert numbers(late.state)[0] == (150, 150) and late.state["turn"]["seat"] == 1


def test_an_action_after_the_turn_clock_ran_out_is_lost_like_a_timeout():
    """Rule 8: a move that arrives after its ten seconds (before the service's timeout) is not carried out."""
    state = table(hands=(["dolmen"], ["ghost"]), turn_clock="live")
    state = act(ready(state, 0), 0, now=1001.0, type="play", card="dolmen")
    late = apply(state, 1, now=1011.0, type="roll")
    assert kinds(late.events)[0] == "timed_out" and "rolled" not in kinds(late.events)
    assert late.state["turn"]["seat"] == 0 and late.state["players"][1]["last_roll_sum"] == 0
    state = roll(state, 1, [2, 3, 2, 3, 2, 3, 1], now=1010.0).state
    late = apply(state, 1, now=1011.5, type="discard", card="ghost")
    assert "ghost" in late.state["players"][1]["hand"] and late.state["discard"] == ["dolmen"]
    assert late.state["turn"]["seat"] == 0

# ------------------------------------------------------------------------------------------ extra and skipped turns
def test_extra_turns_are_taken_before_the_opponent_and_skips_pass_over_the_player():
    state = ready(table(hands=(["swift_boots", "wyvern_gaze"], [])), 0)
    state = act(state, 0, type="play", card="swift_boots")
    assert state["turn"]["seat"] == 0
    state = act(ready(state, 0), 0, type="play", card="wyvern_gaze")
    assert (state["turn"]["seat"], state["turn"]["number"]) == (0, 4)
    # rule 7's full turns: seat 0's first (with its extra turn) and the one after seat 1's skipped turn
    assert state["players"][1]["turns"] == 1 and state["players"][0]["turns"] == 2


def test_hand_size_never_below_the_floor():
    state = ready(table(hands=(["banner", "sacrifice"], [])), 0)
    state = act(state, 0, type="play", card="banner")
    state = act(ready(pass_turn(state, 1), 0), 0, type="play", card="sacrifice")
    assert state["players"][0]["hand_size"] == 3 and len(state["players"][0]["hand"]) == 3
