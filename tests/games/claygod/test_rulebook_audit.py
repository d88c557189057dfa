"""An audit of the rule book against the engine, paragraph by paragraph, for what the other files do not
pin down: terms counted in full turns across extra and skipped turns (rule 7, ruling CG-6), the Clock (CG-25),
two cards and the hand-over (§4, CG-28), the table card and the deck (§1, §3.2, §4), freezing (§3.6-§3.8, CG-11,
CG-13)."""
import pytest

from bot.engine.playout import play
from bot.games.claygod import GAME
from bot.games.claygod.cards import card_ids

from .helpers import act, apply, frozen, kinds, numbers, pass_turn, push, ready, reject, roll, table


def effect(state, seat, card):
    return next(e for e in state["players"][seat]["effects"] if e["card"] == card)


def ready_maximised(state, seat, dice=(6, 6, 6, 6, 6, 6, 6)):
    """``ready`` for a seat with one maximised energy: six dice are thrown (1s and 2s beside the 6 form no
    combination), then the dice are set."""
    state = roll(state, seat, [1, 2, 1, 2, 1, 2]).state
    assert state["turn"]["stage"] == "action"
    for colour, value in zip(state["players"][seat]["dice"], dice):
        state["players"][seat]["dice"][colour]["value"] = value
    return state


# ------------------------------------------------------------------------------ terms across extra turns
def test_extra_turns_are_inside_the_full_turn_and_do_not_count_among_the_ten_turns():
    """Rule 7: «полный ход — это когда ход проходит по кругу и возвращается к игроку»."""
    state = act(ready(table(hands=(["dolmen", "trumpet"], [])), 0), 0, type="play", card="dolmen")
    state = pass_turn(state, 1)
    assert effect(state, 0, "dolmen")["turns_left"] == 9
    state = act(ready_maximised(state, 0), 0, type="play", card="trumpet")
    assert state["turn"]["seat"] == 0 and state["turn"]["extra"] and effect(state, 0, "dolmen")["turns_left"] == 9
    state = act(ready_maximised(state, 0), 0, type="restore_sphere")
    assert state["turn"]["seat"] == 0 and effect(state, 0, "dolmen")["turns_left"] == 9
    state = act(ready_maximised(state, 0), 0, type="restore_sphere")
    assert state["turn"]["seat"] == 1 and effect(state, 0, "dolmen")["turns_left"] == 9
    state = pass_turn(state, 1)
    assert effect(state, 0, "dolmen")["turns_left"] == 8 and state["players"][0]["turns"] == 3


def test_the_table_option_counts_every_extra_turn_as_a_turn():
    state = table(hands=(["dolmen", "trumpet"], []), count_turns="every")
    state = act(ready(state, 0), 0, type="play", card="dolmen")
    state = pass_turn(state, 1)
    state = act(ready_maximised(state, 0), 0, type="play", card="trumpet")
    assert state["turn"]["seat"] == 0 and effect(state, 0, "dolmen")["turns_left"] == 8
    state = act(ready_maximised(state, 0), 0, type="restore_sphere")
    assert effect(state, 0, "dolmen")["turns_left"] == 7 and state["players"][0]["turns"] == 4


def test_the_drain_and_a_curse_act_once_a_round_not_in_each_extra_turn():
    state = ready(table(hands=(["trumpet", "vampire_helm"], []), stats=[{"sphere": -4}, {}]), 0)
    assert numbers(state) == [(48, -4), (52, 50)], "rule 7 at the first turn's start"
    state = act(state, 0, type="play", card="vampire_helm")  # health -1 every turn, sphere +30
    state = pass_turn(state, 1)
    assert numbers(state)[0] == (47, 26), "the helm at the turn's start; the sphere is no longer below 0"
    state["players"][0]["sphere"] = -4
    state = act(ready(state, 0), 0, type="play", card="trumpet")
    state = pass_turn(pass_turn(state, 0), 0)
    assert numbers(state) == [(47, -4), (52, 46)], "two extra turns: neither the helm nor the drain acted"
    state = pass_turn(state, 1)
    assert numbers(state) == [(44, -4), (54, 46)], "the next full turn: the helm -1, the drain -2 (+2)"


def test_three_sixes_hold_the_rollers_die_through_an_extra_turn_and_the_enemys_through_their_next():
    state = pass_turn(table(first=1, hands=(["swift_boots"], [])), 1)
    state = roll(state, 0, [6, 6, 6, 1, 2, 3, 5]).state
    state = act(state, 0, type="combo_freeze", colour="red")
    enemy_red = state["players"][1]["dice"]["red"]["value"]
    state = act(state, 0, type="combo_freeze", colour="red")
    state["players"][0]["dice"]["green"]["value"] = 5  # the boots cost yellow 5, green 5
    state = act(state, 0, type="play", card="swift_boots")
    assert state["turn"]["seat"] == 0, "+1 turn"
    assert frozen(state, 0) == {"red": 1} and frozen(state, 1) == {"red": 1}
    applied = roll(state, 0, [1, 1, 1, 1, 1, 1])  # six dice thrown: red is held in the extra turn
    assert applied.state["players"][0]["dice"]["red"]["value"] == 6
    state = act(applied.state, 0, type="restore_sphere")
    assert frozen(state, 0) == {}, "the roller's die thaws after the extra turn's roll"
    assert state["turn"]["seat"] == 1 and frozen(state, 1) == {"red": 1}
    applied = roll(state, 1, [2, 2, 2, 2, 2, 2])
    assert applied.state["players"][1]["dice"]["red"]["value"] == enemy_red
    assert frozen(act(applied.state, 1, type="restore_sphere"), 1) == {}


def test_a_hold_through_the_next_roll_outlasts_a_skipped_turn():
    """CG-11/CG-18: three sixes and §3.6 hold a die through its owner's next roll; a skipped turn has none."""
    state = pass_turn(table(first=1, hands=(["wyvern_gaze"], [])), 1)
    state = roll(state, 0, [6, 6, 6, 1, 2, 3, 5]).state
    state = act(state, 0, type="combo_freeze", colour="red")
    enemy_blue = state["players"][1]["dice"]["blue"]["value"]
    state = act(state, 0, type="combo_freeze", colour="blue")
    state["players"][0]["dice"]["green"]["value"] = 4  # the gaze costs orange 4, green 4, violet 4
    state = act(state, 0, type="play", card="wyvern_gaze")  # the enemy's next turn is skipped
    assert state["players"][1]["turns"] == 2 and state["turn"]["seat"] == 0
    assert frozen(state, 1) == {"blue": 1}, "the skipped turn had no roll: still held"
    state = roll(state, 0, [2, 3, 2, 3, 2, 3]).state  # red is held through this roll
    state = act(state, 0, type="discard", card=state["players"][0]["hand"][0])
    assert frozen(state, 0) == {} and frozen(state, 1) == {"blue": 1}
    applied = roll(state, 1, [1, 1, 1, 1, 1, 1])
    assert applied.state["players"][1]["dice"]["blue"]["value"] == enemy_blue


def test_the_clock_counts_full_turns_not_extra_ones():
    state = ready(table(hands=(["clock", "trumpet"], []), clock_mode="turns", clock_turns=2), 0)
    state = act(state, 0, type="play", card="clock")
    state = pass_turn(state, 1)
    assert effect(state, 0, "clock")["turns_left"] == 1
    state = act(ready(state, 0), 0, type="play", card="trumpet")  # two more turns in a row
    state = pass_turn(pass_turn(state, 0), 0)
    assert effect(state, 0, "clock")["turns_left"] == 1 and state["turn"]["seat"] == 1
    state = pass_turn(state, 1)
    assert effect(state, 0, "clock")["turns_left"] == 0 and state["outcome"] is None
    applied = apply(roll(state, 0, [2, 3, 2, 3, 2, 3, 1]).state, 0, type="restore_sphere")
    assert applied.state["outcome"]["winners"] == [1], "the second own full turn was the last: not won, lost"
    assert applied.state["players"][0]["turns"] == 3 and applied.state["players"][1]["turns"] == 2


# ------------------------------------------------------------------------------ terms across skipped turns
def test_skipped_turns_run_terms_down_and_their_spells_and_the_drain_still_act():
    state = ready(table(hands=(["banner", "prince_of_darkness"], []), stats=[{"sphere": -4}, {}]), 0)
    assert numbers(state)[0] == (48, -4), "rule 7 at the first turn's start"
    state = act(state, 0, type="play", card="banner")
    state = act(ready(pass_turn(state, 1), 0), 0, type="play", card="prince_of_darkness")
    # the second turn began at -3 (banner first, then the drain): 46 health
    assert numbers(state)[0] == (46, -3) and state["players"][0]["skip_turns"] == 5
    sphere, health = [], []
    for _ in range(5):  # each of seat 1's turns is followed by one of seat 0's skipped turns
        state = pass_turn(state, 1)
        sphere.append(state["players"][0]["sphere"])
        health.append(state["players"][0]["health"])
    assert sphere == [-2, -1, 0, 1, 2], "the banner acts in skipped turns"
    assert health == [44, 42, 42, 42, 42], "and so does rule 7, while the sphere is still below 0"
    # seat 1: +2 +2 (seat 0's first two turns), -7 (the prince), +2 +2 (skipped turns), -1 at each of 6 turns
    assert numbers(state)[1][0] == 50 + 2 + 2 - 7 + 2 + 2 - 6
    assert state["turn"]["seat"] == 1 and state["players"][0]["skip_turns"] == 0


def test_a_maximised_energy_runs_down_in_skipped_turns():
    state = ready(table(hands=(["dolmen", "prince_of_darkness"], [])), 0)
    state = act(state, 0, type="play", card="dolmen")
    state = act(ready_maximised(pass_turn(state, 1), 0), 0, type="play", card="prince_of_darkness")
    assert effect(state, 0, "dolmen")["turns_left"] == 9
    for _ in range(5):
        state = pass_turn(state, 1)
    assert state["players"][0]["turns"] == 7 and effect(state, 0, "dolmen")["turns_left"] == 4
    assert state["turn"]["seat"] == 1


def test_a_wyvern_gaze_skip_still_bleeds_the_ban_dagger():
    state = ready(table(hands=(["ban_dagger", "wyvern_gaze"], [])), 0)
    state = act(state, 0, type="play", card="ban_dagger")
    assert numbers(state)[1] == (48, 50), "-1 now and -1 as the enemy's turn starts"
    state = pass_turn(state, 1)
    applied = apply(ready(state, 0), 0, type="play", card="wyvern_gaze")
    assert kinds(applied.events).count("turn_skipped") == 1
    assert numbers(applied.state)[1] == (47, 47), "the skipped turn began: the dagger acted"
    assert applied.state["turn"]["seat"] == 0


# ------------------------------------------------------------------------------ the Clock
def test_a_clock_owner_who_wins_in_the_last_turn_wins():
    state = ready(table(hands=(["clock", "charmed_monster"], []), clock_mode="turns", clock_turns=1,
                        stats=[{}, {"health": 8}]), 0)
    state = act(state, 0, type="play", card="clock")
    state = pass_turn(state, 1)
    assert effect(state, 0, "clock")["turns_left"] == 0
    state = act(ready(state, 0), 0, type="play", card="charmed_monster")
    assert state["outcome"]["winners"] == [0] and state["outcome"]["reason"] == "claygod.outcome.health_low"


def test_the_clock_from_the_face_down_card_binds_its_player():
    state = ready(table(table_cards=["clock", None], clock_mode="turns", clock_turns=1,
                        stats=[{"health": 7, "sphere": 3}, {}]), 0, dice=(2, 2, 2, 2, 2, 2, 2))
    applied = apply(state, 0, type="play_table")
    assert numbers(applied.state)[0] == (50, 50)
    assert effect(applied.state, 0, "clock")["turns_left"] == 1
    state = pass_turn(pass_turn(applied.state, 1), 0)
    assert state["outcome"]["winners"] == [1] and state["outcome"]["params"] == {"loser": 0}


def test_the_clock_under_the_win_line_maximum_restores_to_200_and_a_point_more_wins():
    state = ready(table(hands=(["clock", "runaway_wolf"], []), maximum="win_line"), 0)
    state = act(state, 0, type="play", card="clock")
    assert numbers(state)[0] == (200, 200) and state["outcome"] is None, "200 is not above 200"
    state = act(ready(pass_turn(state, 1), 0), 0, type="play", card="runaway_wolf")
    assert state["outcome"]["winners"] == [0] and state["outcome"]["reason"] == "claygod.outcome.sphere_high"


def test_the_library_raises_what_the_clock_restores():
    state = ready(table(hands=(["library", "clock"], []), stats=[{"sphere": 20}, {}]), 0)
    state = act(state, 0, type="play", card="library")
    state = act(ready(pass_turn(state, 1), 0), 0, type="play", card="clock")
    assert numbers(state)[0] == (50, 55)


def test_a_live_clock_reaches_past_turns_and_strikes_at_the_first_late_action():
    state = ready(table(hands=(["clock"], []), clock_mode="live", turn_clock="off"), 0)
    state = act(state, 0, now=1000.0, type="play", card="clock")
    state = pass_turn(state, 1, now=1100.0)
    state = pass_turn(state, 0, now=1200.0)
    assert state["outcome"] is None and GAME.to_act(state)[0].deadline == 1300.0
    applied = apply(state, 1, now=1300.5, type="roll")
    assert kinds(applied.events)[:2] == ["clock_expired", "game_over"]
    assert applied.state["outcome"]["winners"] == [1]
    assert "rolled" not in kinds(applied.events), "the late action itself is not carried out"


# ------------------------------------------------------------------------------ §4: two cards
HANDS = (["demon", "sunset", "pearl", "eye", "flight"], ["ghost", "skeleton", "luck", "mask", "statue"])


def test_two_cards_at_once_are_judged_when_both_have_acted():
    """§4 «двумя картами одновременно»: rule 6 is checked once both cards have acted (CG-9, CG-28)."""
    state = ready(table(hands=HANDS, stats=[{}, {"health": 4}]), 0)
    applied = apply(state, 0, type="play_two", cards=["demon", "sunset"])
    assert applied.state["outcome"]["winners"] == [0]
    assert [e["data"]["card"] for e in applied.events if e["kind"] == "played"] == ["demon", "sunset"]
    assert numbers(applied.state)[0] == (52, 50) and "give_requested" not in kinds(applied.events)


def test_two_cards_one_after_the_other_the_first_ends_the_game_the_second_is_not_played():
    state = ready(table(hands=HANDS, stats=[{}, {"health": 4}], two_cards="in_order"), 0)
    applied = apply(state, 0, type="play_two", cards=["demon", "sunset"])
    assert applied.state["outcome"]["winners"] == [0]
    assert [e["data"]["card"] for e in applied.events if e["kind"] == "played"] == ["demon"]
    assert "sunset" in applied.state["players"][0]["hand"] and "give_requested" not in kinds(applied.events)


def test_two_cards_at_once_both_read_the_numbers_before_the_play():
    """Full Moon (own health -2) with Rescue (+20 below 5, else +5): at 6 health Rescue reads 6, not 4."""
    hands = (["full_moon", "rescue", "pearl", "eye", "flight"], HANDS[1])
    state = ready(table(hands=hands, stats=[{"health": 6}, {}]), 0)
    assert numbers(act(state, 0, type="play_two", cards=["full_moon", "rescue"]))[0] == (9, 50)
    state = ready(table(hands=hands, stats=[{"health": 6}, {}], two_cards="in_order"), 0)
    assert numbers(act(state, 0, type="play_two", cards=["full_moon", "rescue"]))[0] == (24, 50)


def test_two_cards_a_short_giver_hands_over_all_it_has_and_the_deck_makes_up_the_rest():
    state = ready(table(hands=HANDS, deck_top=["haze", "glazon"]), 0)
    state["discard"] = state["players"][1]["hand"][1:]  # seat 1 holds one card only
    state["players"][1]["hand"] = ["ghost"]
    state = act(state, 0, type="play_two", cards=["sunset", "demon"])
    assert state["turn"]["give"] == {"from": 1, "to": 0, "left": 1}
    state = act(state, 1, type="give", card="ghost")
    me, enemy = state["players"]
    assert me["hand"] == ["pearl", "eye", "flight", "ghost", "haze"], "the rest from the deck"
    assert enemy["hand"][0] == "glazon" and len(enemy["hand"]) == 5, "then the giver refills from the deck"
    GAME.check_invariants(state)


def test_two_cards_with_the_banner_ask_for_one_card_fewer():
    state = ready(table(hands=(["banner", "sunset", "pearl", "eye", "flight"], HANDS[1])), 0)
    state = act(state, 0, type="play_two", cards=["banner", "sunset"])
    assert state["turn"]["give"]["left"] == 1 and state["players"][0]["hand_size"] == 4


def test_two_cards_with_an_extra_turn_the_player_plays_again_after_the_hand_over():
    state = ready(table(hands=(["swift_boots", "sunset", "pearl", "eye", "flight"], HANDS[1])), 0)
    state = act(state, 0, type="play_two", cards=["swift_boots", "sunset"])
    state = act(act(state, 1, type="give", card="ghost"), 1, type="give", card="luck")
    assert state["turn"]["seat"] == 0 and state["turn"]["stage"] == "roll"
    assert "luck" in state["players"][0]["hand"]


def test_the_hand_over_is_owed_by_a_player_whose_next_turn_is_skipped():
    state = ready(table(hands=(["wyvern_gaze", "sunset", "pearl", "eye", "flight"], HANDS[1])), 0)
    state = act(state, 0, type="play_two", cards=["wyvern_gaze", "sunset"])
    assert GAME.to_act(state)[0].seat == 1
    state = act(act(state, 1, type="give", card="ghost"), 1, type="give", card="luck")
    assert state["turn"]["seat"] == 0 and state["players"][1]["turns"] == 1


# ------------------------------------------------------------------------------ the deck and the table card
def test_the_used_pile_with_the_cards_just_played_is_reshuffled_when_the_deck_runs_out():
    state = ready(table(hands=HANDS), 0)
    state["discard"], state["deck"] = state["deck"][1:], state["deck"][:1]
    state = act(state, 0, type="play_two", cards=["sunset", "demon"])
    state = act(act(state, 1, type="give", card="ghost"), 1, type="give", card="luck")
    GAME.check_invariants(state)
    assert state["discard"] == [] and {"sunset", "demon"} <= set(state["deck"])
    assert len(state["players"][1]["hand"]) == 5


def test_the_face_down_card_cannot_be_discarded_nor_named_from_the_hand():
    state = ready(table(table_cards=["demon", None]), 0)
    refusal = reject(state, 0, type="discard", card="demon")
    assert refusal.key == "claygod.reject.not_in_hand"
    refusal = reject(state, 0, type="play", card="demon")
    assert refusal.key == "claygod.reject.not_in_hand"
    assert all(a.get("card") != "demon" for a in GAME.legal_actions(state, 0))


def test_the_face_down_card_is_played_whatever_it_costs_but_not_with_an_energy_below_two():
    state = table(table_cards=["lift_curse", None])  # costs orange 6 and green 6
    state = ready(state, 0, dice=(2, 2, 2, 2, 2, 2, 2))
    assert numbers(act(state, 0, type="play_table"))[0] == (55, 50)
    for low in range(7):
        dice = [6] * 7
        dice[low] = 1
        state = ready(table(table_cards=["lift_curse", None]), 0, dice=dice)
        assert {"type": "play_table"} not in GAME.legal_actions(state, 0)


# ------------------------------------------------------------------------------ freezing
def test_freezing_all_keeps_lasting_freezes_lasting():
    state = pass_turn(table(first=1), 1)
    state = act(ready(state, 0), 0, type="freeze", side="own", colour="red")
    state = act(ready(pass_turn(state, 1), 0), 0, type="freeze_all", pay="sphere")
    assert frozen(state, 0)["red"] is None and frozen(state, 0)["blue"] == 1


def test_six_lasting_freezes_and_a_freeze_all_are_no_defeat():
    state = pass_turn(table(first=1), 1)
    state = ready(state, 0)
    for colour in ("red", "orange", "yellow", "green", "light_blue", "blue"):
        state["players"][0]["dice"][colour].update(frozen=True, frozen_turns=None)
    state = act(state, 0, type="freeze_all", pay="health")
    assert state["outcome"] is None and frozen(state, 0)["violet"] == 1


def test_the_seventh_lasting_freeze_loses_even_when_made_by_the_pyramid():
    state = pass_turn(table(first=1, hands=(["pyramid"], [])), 1)
    state = ready(state, 0)
    for colour in ("red", "yellow", "green", "light_blue", "blue"):
        state["players"][0]["dice"][colour].update(frozen=True, frozen_turns=None)
    state = act(state, 0, type="play", card="pyramid")
    assert state["outcome"]["winners"] == [1] and state["outcome"]["reason"] == "claygod.outcome.frozen"


def test_any_frozen_energy_may_be_thawed_a_snowflakes_too():
    state = table(hands=(["snowflake"], []))
    state = act(ready(state, 0), 0, type="play", card="snowflake")
    state = roll(state, 1, []).state
    state = act(state, 1, type="thaw", side="enemy", colour="blue")
    assert "blue" not in frozen(state, 0) and len(frozen(state, 0)) == 6


# ------------------------------------------------------------------------------ rule 6 and rule 7
def test_the_drain_can_carry_the_opponent_over_200():
    state = table(stats=[{}, {"health": 199, "sphere": 0}], first=1)
    state["players"][0]["sphere"] = -1
    state = pass_turn(state, 1)
    assert state["outcome"]["winners"] == [1] and state["outcome"]["reason"] == "claygod.outcome.health_high"


def test_a_curse_that_kills_its_bearer_at_the_start_of_a_turn():
    state = ready(table(hands=(["lord_of_hell"], []), stats=[{"health": 1}, {}]), 0)
    state = act(state, 0, type="play", card="lord_of_hell")
    assert state["outcome"] is None
    state = pass_turn(state, 1)
    assert state["outcome"]["winners"] == [1] and numbers(state)[0][0] == -1


def test_haze_can_bring_both_spheres_below_minus_fifty_a_draw():
    state = ready(table(hands=(["haze"], []), stats=[{"sphere": -48}, {"sphere": -50}]), 0)
    state = act(state, 0, type="play", card="haze")
    assert numbers(state) == [(48, -51), (52, -53)], "rule 7 drained seat 0 once, at its turn's start"
    assert state["outcome"]["winners"] == [] and state["outcome"]["reason"] == "claygod.outcome.both_fell"


# ------------------------------------------------------------------------------ Pandora's box and the table card
def _outcome_of(state, seat, action):
    after = act(state, seat, **action)
    keys = ("health", "sphere", "max_health", "max_sphere", "hand_size", "dice", "effects", "extra_turns",
            "skip_turns")
    return ([{k: p[k] for k in keys} for p in after["players"]], after["outcome"], after["turn"]["seat"],
            after["turn"]["number"])


@pytest.mark.parametrize("card", [c for c in card_ids() if c != "pandoras_box"])
def test_pandoras_box_and_the_face_down_card_release_exactly_the_cards_effect(card):
    """CG-24: the box acts as if the caster had played the card drawn; §3.2: a face-down card acts as the
    same card from the hand."""
    def fresh(**kw):
        return ready(table(stats=[{"health": 30, "sphere": 20}, {"health": 40, "sphere": 10}], seed=card, **kw), 0,
                     dice=(6, 6, 6, 6, 6, 6, 6))
    from_hand = _outcome_of(fresh(hands=([card], [])), 0, {"type": "play", "card": card})
    boxed = fresh(hands=(["pandoras_box"], []))
    push(boxed, "claygod.pandora", [card])
    assert _outcome_of(boxed, 0, {"type": "play", "card": "pandoras_box"}) == from_hand
    # Знамя and Жертва take the place they were played from (CG-20): the table place, here
    same_place = {"lost_place": "hand"} if card in ("banner", "sacrifice") else {}
    assert _outcome_of(fresh(table_cards=[card, None], **same_place), 0, {"type": "play_table"}) == from_hand


# ------------------------------------------------------------------------------ hand size (CG-20) and two Clocks
@pytest.mark.parametrize("card", ["banner", "sacrifice"])
def test_a_card_that_takes_its_place_for_good_from_the_table_takes_the_table_place(card):
    """Жертва «место этой карты теперь всегда будет свободно»; Знамя «на место знамени уже не поставишь
    воина»: played from the table, the table place stays empty (CG-20)."""
    state = ready(table(table_cards=[card, None], deck_top=["pearl", "eye"]), 0, dice=(2, 2, 2, 2, 2, 2, 2))
    applied = apply(state, 0, type="play_table")
    me = applied.state["players"][0]
    assert (len(me["hand"]), me["hand_size"], me["table_card"], me["table_place"]) == (5, 5, None, False)
    assert "table_place_lost" in kinds(applied.events) and applied.state["deck"][0] == "pearl"
    state = pass_turn(pass_turn(applied.state, 1), 0)
    assert state["players"][0]["table_card"] is None, "never refilled"
    assert GAME.render_view(GAME.view(state, 1), "ru", ["А", "Б"]).count("места на столе нет") == 1


def test_a_discard_always_draws_a_new_card_even_above_the_hand_size():
    """§3.3 «сбросить ненужную карту и взять новую из колоды»; the team's reading is an option (CG-20)."""
    for option, kept in (("always", 5), ("to_hand_size", 4)):
        state = ready(table(table_cards=["banner", None], deck_top=["pearl", "eye"], lost_place="hand",
                            discard_draw=option), 0, dice=(2, 2, 2, 2, 2, 2, 2))
        state = act(state, 0, type="play_table")
        me = state["players"][0]
        assert (len(me["hand"]), me["hand_size"], me["table_card"]) == (5, 4, "pearl")
        state = pass_turn(state, 1)
        card, deck = state["players"][0]["hand"][0], list(state["deck"])
        state = act(ready(state, 0), 0, type="discard", card=card)
        assert len(state["players"][0]["hand"]) == kept and len(state["deck"]) == len(deck) - (kept - 4)


def test_a_second_clock_does_not_extend_the_first():
    state = ready(table(hands=(["clock", "pandoras_box"], []), clock_mode="turns", clock_turns=2), 0)
    state = act(state, 0, type="play", card="clock")
    state = pass_turn(state, 1)
    state = ready(state, 0)
    push(state, "claygod.pandora", ["clock"])
    state = act(state, 0, type="play", card="pandoras_box")
    assert [e["turns_left"] for e in state["players"][0]["effects"]] == [1, 2]
    state = pass_turn(pass_turn(state, 1), 0)
    assert state["outcome"]["winners"] == [1] and state["outcome"]["reason"] == "claygod.outcome.clock"


def test_evening_can_carry_both_above_200_a_draw_of_two_winners():
    state = ready(table(hands=(["evening"], []), stats=[{"health": 200}, {"sphere": 200}]), 0)
    applied = apply(state, 0, type="play", card="evening")
    assert numbers(applied.state) == [(201, 51), (51, 201)]
    outcome = applied.state["outcome"]
    assert outcome["winners"] == [] and outcome["reason"] == "claygod.outcome.both_won"
    assert GAME.render_event(applied.events[-1], "ru", ["А", "Б"])


# ------------------------------------------------------------------------------ CG-6 in whole games
def _timed_effects(p):
    found = {}
    for e in p["effects"]:
        if e.get("turns_left") is not None:
            key = (e["kind"], e["card"], e.get("colour"))
            found[key] = None if key in found else e["turns_left"]  # a twin makes the key ambiguous
    return found


def test_every_term_runs_down_by_exactly_the_bearers_turns_in_bot_games():
    """Across every step of whole games — extra turns, skipped turns and hand-overs included — a term drops
    by exactly the number of its bearer's turns begun, and ends only when it has run out (ruling CG-6)."""
    checked = sum(_check_terms(seed) for seed in range(8))
    assert checked > 200, "the games exercised terms"


def _check_terms(seed):
    options = {"prince_skip": ("caster", "enemy")[seed % 2], "clock_mode": "turns", "turn_clock": "off"}
    po = play(GAME, 2, seed=f"terms-{seed}", bot_seed=seed, options=options)
    before, checked = po.initial, 0
    for step, after in zip(po.steps, po.states):
        events = apply(before, step["seat"], now=step["now"], **step["action"]).events
        refrozen = {e["data"].get("owner", e["data"].get("seat")) for e in events
                    if e["kind"] in ("frozen", "frozen_all", "snow", "max_frozen")}
        for seat in (0, 1):
            p0, p1 = before["players"][seat], after["players"][seat]
            begun = p1["turns"] - p0["turns"]
            old, new = _timed_effects(p0), _timed_effects(p1)
            for key, left in old.items():
                if left is None or new.get(key, 0) is None:
                    continue
                if key in new:
                    assert new[key] == left - begun, (key, left, begun)
                    checked += 1
                else:
                    assert left - begun <= 0 or after["outcome"] is not None, ("ended early", key, left, begun)
            for colour, d0 in p0["dice"].items():
                d1 = p1["dice"][colour]
                if d0["frozen_turns"] is None or not d0["frozen"] or "snow" in kinds(events) or seat in refrozen:
                    continue
                if d1["frozen"] and d1["frozen_turns"] is not None:
                    assert d1["frozen_turns"] == d0["frozen_turns"] - begun
                    checked += 1
                elif not d1["frozen"] and step["action"]["type"] != "thaw":
                    assert d0["frozen_turns"] - begun <= 0, ("thawed early", colour)
        before = after
    return checked
