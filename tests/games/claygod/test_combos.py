"""Every dice combination of the rule book, from stacked dice (tag claygod.dice, one value per die thrown,
red → violet), plus the choice between combinations and the full-throw rule (CG-14)."""
import pytest

from bot.games.claygod import GAME

from .helpers import act, apply, event, frozen, kinds, numbers, pass_turn, push, reject, roll, table


def rolled(values, first=0, **kwargs):
    state = table(first=first, **kwargs)
    return roll(state, first, values)


@pytest.mark.parametrize("values,combos", [
    ([6] * 7, ["seven_sixes", "five_sixes", "three_sixes", "all_even"]),
    ([6, 6, 6, 6, 6, 2, 4], ["five_sixes", "three_sixes", "all_even"]),
    ([5] * 7, ["seven_fives", "five_fives", "all_odd"]),
    ([5, 5, 5, 5, 5, 1, 3], ["five_fives", "all_odd"]),
    ([3] * 7, ["seven_threes", "twenty_one", "all_odd"]),
    ([1] * 7, ["seven_ones", "all_odd"]),
    ([2, 4, 2, 4, 2, 4, 2], ["twos_and_fours", "all_even"]),
])
def test_several_combinations_the_roller_chooses_one(values, combos):
    applied = rolled(values)
    assert applied.state["turn"]["stage"] == "choose_combo"
    assert applied.state["turn"]["combos"] == combos
    assert GAME.legal_actions(applied.state, 0) == [{"type": "combo", "combo": c} for c in combos]


def test_seven_sixes():
    state = act(rolled([6] * 7).state, 0, type="combo", combo="seven_sixes")
    assert numbers(state)[0] == (150, 150) and state["turn"]["stage"] == "action"


def test_five_sixes():
    state = act(rolled([6, 6, 6, 6, 6, 2, 4]).state, 0, type="combo", combo="five_sixes")
    assert numbers(state)[0] == (100, 100)


def test_seven_fives_leave_exactly_zero_which_is_still_alive():
    state = act(rolled([5] * 7).state, 0, type="combo", combo="seven_fives")
    assert numbers(state) == [(50, 50), (0, 0)] and state["outcome"] is None


def test_five_fives():
    state = act(rolled([5, 5, 5, 5, 5, 1, 3]).state, 0, type="combo", combo="five_fives")
    assert numbers(state) == [(50, 50), (25, 25)]


def test_seven_threes_set_both_to_fifty():
    state = act(rolled([3] * 7, stats=[{"health": 20, "sphere": 90}, {}]).state, 0, type="combo",
                combo="seven_threes")
    assert numbers(state)[0] == (50, 50)


def test_all_odd_and_all_even():
    applied = rolled([1, 3, 5, 1, 3, 5, 1])
    assert event(applied.events, "combo")["data"] == {"seat": 0, "combo": "all_odd"}
    assert numbers(applied.state)[0] == (40, 60) and applied.state["turn"]["stage"] == "action"
    applied = rolled([2, 4, 6, 2, 4, 6, 2])
    assert numbers(applied.state)[0] == (60, 40)


def test_fours_and_twos_swap_the_spheres():
    state = act(rolled([2, 4, 2, 4, 2, 4, 2], stats=[{"sphere": 10}, {"sphere": 70}]).state, 0, type="combo",
                combo="twos_and_fours")
    assert numbers(state) == [(50, 70), (50, 10)]


def test_seven_ones_any_card_without_energy():
    state = table(hands=(["demon", "snowflake", "luck"], []), table_cards=["trumpet", None])
    state = act(roll(state, 0, [1] * 7).state, 0, type="combo", combo="seven_ones")
    assert state["turn"]["free_cast"] is True
    legal = GAME.legal_actions(state, 0)
    assert {"type": "play", "card": "demon"} in legal and {"type": "play_table"} in legal
    assert {"type": "play_two", "cards": ["demon", "snowflake"]} in legal
    assert numbers(act(state, 0, type="play", card="demon"))[1] == (45, 48)


def test_flush_discard_any_cards_draw_to_five_then_play():
    state = table(hands=(["ghost", "skeleton", "eye", "demon", "sunset"], []), deck_top=["dragonfly", "pearl"])
    applied = roll(state, 0, [6, 5, 4, 3, 2, 1, 4])
    assert event(applied.events, "combo")["data"]["combo"] == "flush"
    state = act(applied.state, 0, type="flush_discard", card="ghost")
    state = act(state, 0, type="flush_discard", card="skeleton")
    assert state["turn"]["stage"] == "flush" and len(state["players"][0]["hand"]) == 3
    state = act(state, 0, type="flush_done")
    assert state["players"][0]["hand"] == ["eye", "demon", "sunset", "dragonfly", "pearl"]
    assert state["turn"]["stage"] == "action" and state["discard"] == ["ghost", "skeleton"]


def test_flush_in_any_order_unless_the_table_wants_colour_order():
    assert rolled([1, 2, 3, 4, 5, 6, 1]).state["turn"]["stage"] == "flush"
    assert rolled([1, 2, 3, 4, 5, 6, 1], flush_order="colours").state["turn"]["stage"] == "action"
    assert rolled([6, 5, 4, 3, 2, 1, 1], flush_order="colours").state["turn"]["stage"] == "flush"


def test_twenty_one_swaps_one_card_blind():
    state = table(hands=(["demon", "sunset"], ["pearl", "eye", "flight"]))
    applied = roll(state, 0, [2, 2, 2, 3, 4, 4, 4])
    assert applied.state["turn"]["stage"] == "swap"
    push(applied.state, "claygod.swap", ["eye"])
    swapped = apply(applied.state, 0, type="swap_give", card="demon")
    me, enemy = swapped.state["players"]
    assert "eye" in me["hand"] and "demon" not in me["hand"]
    assert "demon" in enemy["hand"] and "eye" not in enemy["hand"]
    assert event(swapped.events, "swapped")["to"] == [0, 1]
    assert event(swapped.events, "swapped_public")["data"] == {"seat": 0}
    assert swapped.state["turn"]["stage"] == "action"


def test_three_sixes_freeze_one_energy_of_each_player_for_one_turn():
    state = pass_turn(table(first=1), 1)  # so that seat 1's dice have been rolled
    applied = roll(state, 0, [6, 6, 6, 1, 2, 3, 5])
    assert applied.state["turn"]["stage"] == "freeze_own"
    state = act(applied.state, 0, type="combo_freeze", colour="red")
    assert state["turn"]["stage"] == "freeze_enemy"
    enemy_blue = state["players"][1]["dice"]["blue"]["value"]
    state = act(state, 0, type="combo_freeze", colour="blue")
    assert frozen(state, 0) == {"red": 1} and state["turn"]["stage"] == "action"
    state = act(state, 0, type="restore_sphere")
    assert frozen(state, 1) == {"blue": 1}, "held through seat 1's next roll"
    after = roll(state, 1, [1, 1, 1, 1, 1, 1])  # six dice thrown: blue is held
    assert after.state["players"][1]["dice"]["blue"]["value"] == enemy_blue
    assert frozen(after.state, 1) == {"blue": 0}, "used by this roll: it thaws as the turn ends"
    assert "combo" not in kinds(after.events), "a roll with a held die forms no combination (CG-14)"
    state = act(after.state, 1, type="restore_sphere")
    assert frozen(state, 1) == {} and frozen(state, 0) == {"red": 1}


def test_three_sixes_skip_the_enemy_pick_when_nothing_can_be_frozen():
    applied = rolled([6, 6, 6, 1, 2, 3, 5])  # seat 1 has never rolled
    state = act(applied.state, 0, type="combo_freeze", colour="green")
    assert state["turn"]["stage"] == "action"
    assert frozen(state, 0) == {"green": 1} and frozen(state, 1) == {}


def test_held_dice_block_combinations_unless_the_table_counts_them():
    for option, expected in ((False, "action"), (True, "choose_combo")):
        state = table(frozen_combos=option, hands=(["pyramid"], []))
        state = roll(state, 0, [2, 3, 2, 3, 2, 3, 1]).state
        for die in state["players"][0]["dice"].values():
            die["value"] = 5
        state = act(state, 0, type="play", card="pyramid")  # orange and violet at 6, frozen
        state = pass_turn(state, 1)
        assert roll(state, 0, [6, 6, 6, 6, 6]).state["turn"]["stage"] == expected


def test_a_combination_that_was_not_rolled_is_refused():
    state = rolled([6] * 7).state
    refusal = reject(state, 0, type="combo", combo="seven_fives")
    assert (refusal.code, refusal.key) == ("illegal", "claygod.reject.no_such_combo")
    refusal = reject(state, 0, type="play", card="demon")
    assert refusal.key == "claygod.reject.stage.choose_combo"


def test_the_end_of_the_flush_is_announced_even_when_no_card_is_replaced():
    """A channel must see the flush end, or the table seems to stall between the roll and the action."""
    state = table()
    applied = roll(state, 0, [6, 5, 4, 3, 2, 1, 2])
    assert applied.state["turn"]["stage"] == "flush"
    done = apply(applied.state, 0, type="flush_done")
    assert event(done.events, "flush_done")["data"]["count"] == 0 and event(done.events, "flush_done")["to"] is None
    assert GAME.render_event(event(done.events, "flush_done"), "ru", ["Аня", "Боб"]).startswith("Аня заканчивает")


def _held_violet(**options):
    """Seat 0's violet die frozen at 5 through its next roll (a §3.8-style hold), then six dice thrown."""
    state = table(**options)
    die = state["players"][0]["dice"]["violet"]
    die.update(value=5, frozen=True, frozen_turns=None, frozen_rolls=1, frozen_by="test")
    return state


@pytest.mark.parametrize("options, combos", [
    ({}, []),                                                   # CG-14 as written: a held die, no combination
    ({"thrown_combos": True}, ["all_even"]),                    # the six thrown dice: all even
    ({"frozen_combos": True}, []),                              # all seven: the held 5 spoils "all even"
    ({"frozen_combos": True, "thrown_combos": True}, []),       # frozen_combos counts the held die first
])
def test_a_roll_with_a_held_die_under_each_reading_of_cg14(options, combos):
    applied = roll(_held_violet(**options), 0, [2, 4, 6, 2, 4, 6])
    assert applied.state["players"][0]["dice"]["violet"]["value"] == 5, "the held die keeps its value"
    found = applied.state["turn"]["combos"] or [e["data"]["combo"] for e in applied.events if e["kind"] == "combo"]
    assert found == combos


def test_thrown_dice_alone_count_towards_a_count_combination():
    # five sixes among the six thrown dice: the held violet 5 does not spoil it, and no seventh six is needed
    applied = roll(_held_violet(thrown_combos=True), 0, [6, 6, 6, 6, 6, 1])
    assert applied.state["turn"]["combos"] == ["five_sixes", "three_sixes"]
