"""The rule book read paragraph by paragraph (cited §n as in docs/rulings/bloodwood.md): one test per rule
that the other test files do not already pin down, each failing if the referee did otherwise."""
import pytest

from bot.engine import Code
from bot.games.bloodwood import GAME
from bot.games.bloodwood.setup import composition

from .helpers import act, event, kinds, pending, public, put_mark, reject, run, set_hand, set_turn, table


def night(hands=None, seats=5, **kw):
    """A night table where every seat not listed holds no cards (so no counter window opens for it)."""
    base = {s: [] for s in range(1, seats)}
    return table(seats=seats, phase="night", hands={**base, **(hands or {})}, **kw)


def quiet_turn(state, seat, deck="day"):
    """The seat discards its first card (or passes with an empty hand) and draws up from ``deck``."""
    if state["hands"][seat]:
        state = act(state, seat, type="discard", card=state["hands"][seat][0])
    else:
        state = act(state, seat, type="pass")
    while state["step"] and state["step"]["kind"] == "draw":
        state = act(state, state["step"]["seat"], type="draw", deck=deck)
    return state


# ------------------------------------------------------------------------------------------ §1 set-up
#: BW-2's table: (plain roles of the larger team, plain roles of the other team) with its leader
BW2 = {5: (3, 1), 6: (2, 2), 7: (4, 2), 8: (3, 3), 9: (5, 3), 10: (4, 4), 11: (6, 4), 12: (5, 5)}


@pytest.mark.parametrize("seats", range(5, 13))
def test_the_role_cards_are_exactly_the_table_of_bw2(seats):
    big, small = BW2[seats]
    if seats % 2:
        assert composition(seats, True, "werewolves") == {"vampire": small, "dracula": 1, "werewolf": big, "alpha": 0}
        assert composition(seats, True, "vampires") == {"vampire": big, "dracula": 0, "werewolf": small, "alpha": 1}
        # §1.4 allows the leaderless variant only at an even count (BW-3).
        assert composition(seats, False, "vampires") == composition(seats, True, "vampires")
    else:
        assert composition(seats, True, "vampires") == {"vampire": big, "dracula": 1, "werewolf": big, "alpha": 1}
        assert composition(seats, False, "vampires") == {"vampire": big + 1, "dracula": 0, "werewolf": big + 1,
                                                         "alpha": 0}


def test_each_leader_sees_every_role_including_the_other_leader_and_nobody_else_does():
    state = table(seats=6)  # ROLES_6: Dracula at 0, The Alpha at 3
    roles = state["roles"]
    for seat in range(6):
        shown = [p["role"] for p in GAME.view(state, seat)["players"]]
        if seat in (0, 3):
            assert shown == roles
        else:
            assert shown == [roles[s] if s == seat else None for s in range(6)]


# ------------------------------------------------------------------------------------------ §2 turns, hand limit
def test_nobody_starts_a_turn_with_more_than_four_cards_after_voodoo():
    """§1.7: four cards are the most a player may hold at the start of his turn (BW-8)."""
    state = night({0: ["voodoo", "bite", "chains", "keys"], 1: ["candle", "thief", "amulet", "vaccine"]})
    put_mark(state, 1, "sleep")  # he would sleep through his turn and still hold six
    state = act(state, 0, type="play", card="voodoo", target=1)  # tranquilized: no counter window
    state = act(state, 0, type="keep", card="amulet")
    state = act(state, 0, type="done")
    assert pending(state) == [(1, "choice", "bloodwood.prompt.trim")]
    assert reject(state, 0, type="discard", card="amulet").code == Code.NOT_YOUR_TURN
    state = act(state, 1, type="discard", card="thief")
    state = act(state, 1, type="discard", card="candle")
    assert len(state["hands"][1]) == 4 and state["turn"]["seat"] == 2, "seat 1 slept through its turn"


def test_an_illegal_play_is_refused_and_costs_nothing():
    """§9.1 (inattention) under a referee: the play never reaches the table (BW-27)."""
    state = table(hands={0: ["bite", "vaccine", "keys", "thief"]})
    refusal = reject(state, 0, type="play", card="bite", target=1)
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.only_night", "§6.1")
    assert state["hands"][0] == ["bite", "keys", "thief", "vaccine"] and state["dna"][1] == "pure"
    assert pending(state) == [(0, "turn", "bloodwood.prompt.turn")] and state["discard"] == []


# ------------------------------------------------------------------------------------------ §4 the end
def _declare(state, seat, names):
    moves = [(seat, {"type": "declare"})] + [(seat, {"type": "name", "seat": s}) for s in names]
    return run(state, *moves, (seat, {"type": "confirm"}))


def test_bite_the_last_enemy_then_declare_in_the_same_turn():
    """§4 lets a pure player declare at any moment; the referee gives him the floor after his own card too,
    while he draws up (BW-25), so the enemy gets no round to cure himself first."""
    state = night({0: ["bite", "keys"]})  # ROLES_5: werewolves at 1, 3, 4
    state["dna"][3] = state["dna"][4] = "mutated"
    state = act(state, 0, type="play", card="bite", target=1)
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")]
    assert {"type": "declare"} in GAME.legal_actions(state, 0)
    state, events = _declare(state, 0, [1, 3, 4])
    assert state["outcome"]["winners"] == [0, 2] and state["outcome"]["reason"] == "bloodwood.outcome.declared.vampires"
    assert "draw" not in kinds(events)


def test_no_declaring_while_drawing_for_someone_elses_card_or_when_mutated():
    state = table(hands={0: ["pandora", "keys"], 2: []})
    state = act(state, 0, type="play", card="pandora", target=2)
    assert pending(state) == [(2, "choice", "bloodwood.prompt.draw")]
    assert {"type": "declare"} not in GAME.legal_actions(state, 2)
    refusal = reject(state, 2, type="declare")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.declare_own_turn", "BW-25")
    state = table(phase="night", hands={0: ["bite", "keys"], 1: ["mirror"]})
    state = act(state, 0, type="play", card="bite", target=1)
    state = act(state, 1, type="allow")
    state["dna"][0] = "mutated"
    assert {"type": "declare"} not in GAME.legal_actions(state, 0)
    assert reject(state, 0, type="declare").key == "bloodwood.reject.mutated_cannot_declare"


def test_another_pure_player_may_declare_at_a_quiet_moment_of_someone_elses_turn():
    """§4: "any pure player may declare"; BW-25: also during another player's turn, while that player chooses
    his card or draws — offered, not prompted — and the declaration is judged like any other."""
    state = table()  # seat 0 to move; ROLES_5: werewolves at 1, 3, 4, the vampires are 0 and 2
    state["dna"][1] = state["dna"][3] = state["dna"][4] = "mutated"
    assert GAME.legal_actions(state, 2) == [] and [p.seat for p in GAME.to_act(state)] == [0]
    assert GAME.anytime_actions(state, 2) == [{"type": "declare"}]
    assert GAME.anytime_actions(state, 0) == [] and GAME.anytime_actions(state, 1) == []  # own turn; mutated
    assert reject(state, 1, type="declare").key == "bloodwood.reject.mutated_cannot_declare"  # nothing offered
    state, events = _declare(state, 2, [1, 3, 4])
    assert kinds(events)[0] == "declared" and event(events, "declared")["data"]["seat"] == 2
    assert state["outcome"]["winners"] == [0, 2]


def test_no_out_of_turn_declaration_inside_a_card():
    """BW-25: never in the middle of a card's resolution (a counter window here)."""
    state = table(phase="night", hands={0: ["bite", "keys"], 1: ["mirror"]})
    state = act(state, 0, type="play", card="bite", target=1)
    assert pending(state) == [(1, "reaction", "bloodwood.prompt.counter")]
    assert GAME.anytime_actions(state, 2) == []
    refusal = reject(state, 2, type="declare")
    assert (refusal.code, refusal.key, refusal.rule) == (Code.NOT_YOUR_TURN, "bloodwood.reject.declare_not_now", "BW-25")


def test_a_sleeping_pure_player_may_declare_unless_the_table_option_bars_it():
    """§4: «будь-хто з немутованих гравців може заявити»; the Tranquilizer takes the turn and the defence
    (§6.4), not that right.  Option ``asleep_may_declare: false`` is the reading that a sleeper does nothing."""
    state = table()
    put_mark(state, 2, "sleep")
    assert GAME.anytime_actions(state, 2) == [{"type": "declare"}]
    state = act(state, 2, type="declare")
    assert state["step"] == {"kind": "declare", "opened": 1001.0, "seat": 2, "named": []}
    barred = table(options={"asleep_may_declare": False})
    put_mark(barred, 2, "sleep")
    assert GAME.anytime_actions(barred, 2) == [] and GAME.anytime_actions(barred, 3) == [{"type": "declare"}]
    refusal = reject(barred, 2, type="declare")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.asleep_cannot_declare", "BW-25")
    assert reject(barred, 2, type="discard", card="keys").key == "core.reject.not_your_turn"


def test_a_forever_mutated_enemy_counts_as_mutated_and_roles_are_shown_to_every_seat_at_the_end():
    state = table()
    state["dna"][1:] = ["forever", "pure", "mutated", "forever"]
    state, events = _declare(state, 0, [1, 3, 4])
    assert state["outcome"]["winners"] == [0, 2]
    for seat in (None, 0, 1, 2, 3, 4):
        assert [p["role"] for p in GAME.view(state, seat)["players"]] == state["roles"]
    assert event(events, "roles_revealed") in public(events)


# ------------------------------------------------------------------------------------------ §6.1 Bite, §6.2 Curse Mark
def test_bite_cures_a_mutated_player_and_takes_his_mark():
    """§6.1: a second Bite returns the DNA to Purity; §6.2: «його кусають» — the mark passes to the biter."""
    state = night({0: ["bite", "keys"]})
    state["dna"][1] = "mutated"
    put_mark(state, 1, "curse", left=1)
    state, events = run(state, (0, {"type": "play", "card": "bite", "target": 1}))
    assert state["dna"][1] == "pure" and state["curse"][1] is None
    assert state["curse"][0]["left"] == 2 and state["dna"][0] == "pure", "the biter's DNA does not change"
    assert event(events, "curse_passed")["data"]["receiver"] == 0


def test_a_mark_passed_by_bite_gives_the_receiver_two_of_his_own_turns():
    state = night({0: ["bite", "keys", "vaccine", "candle"], 1: ["keys"], 2: ["keys"]})
    put_mark(state, 0, "curse", left=1)
    state = act(state, 0, type="play", card="bite", target=1)
    state = act(state, 1, type="allow")
    state = act(state, 0, type="draw", deck="day")
    assert state["curse"][0] is None, "the biter got rid of it within his last turn"
    state = quiet_turn(state, 1)
    assert state["curse"][1]["left"] == 1
    for seat in (2, 3, 4, 0):
        state = quiet_turn(state, seat)
    state = quiet_turn(state, 1)
    assert state["dna"][1] == "forever" and state["curse"][1] is None


def test_an_extra_turn_is_not_a_second_turn_for_the_curse():
    """BW-12: Eclipse's extra turn continues the same turn of the rotation."""
    state = table(hands={0: ["day_eclipse", "keys", "vaccine", "thief"]})
    put_mark(state, 0, "curse", left=2)
    state = act(state, 0, type="play", card="day_eclipse")
    state = act(state, 0, type="draw", deck="night")
    state = quiet_turn(state, 0)
    assert state["curse"][0]["left"] == 1 and state["dna"][0] == "pure"


def test_getting_rid_of_the_mark_in_the_last_turn_saves_the_carrier():
    state = table(hands={0: ["candle", "keys"]})
    put_mark(state, 0, "curse", left=1)
    state, events = run(state, (0, {"type": "play", "card": "candle", "target": 0}),
                        (0, {"type": "draw_all", "day": 2, "night": 1}))
    assert state["dna"][0] == "pure" and state["curse"][0] is None and "mutated_forever" not in kinds(events)


def test_mutated_forever_stays_in_the_game_and_only_bite_curse_and_vaccine_are_barred():
    """§6.2: «мутує без можливості відновитись, але лишається в грі. На нього більше не можна грати
    Curse Mark, Bite та Vaccine»."""
    state = night({0: ["bite", "curse_mark", "chains", "tranquilizer"], 1: []})
    state["dna"][1] = "forever"
    for card in ("bite", "curse_mark"):
        assert reject(state, 0, type="play", card=card, target=1).key == "bloodwood.reject.target_forever"
    assert act(state, 0, type="play", card="chains", target=1)["chains"][1]
    assert act(state, 0, type="play", card="tranquilizer", target=1)["sleep"][1]
    # He still plays: a Bite of his own on someone else.
    set_hand(state, 1, ["bite"])
    set_turn(state, 1)
    state = act(state, 1, type="play", card="bite", target=2)
    assert state["dna"][2] == "mutated"


# ------------------------------------------------------------------------------------------ §6.3 Chains, §7.3 Keys
def test_a_chained_player_plays_day_cards_discards_night_cards_and_frees_himself_with_keys():
    state = table(hands={0: ["keys", "bite", "mirror", "vaccine"]})
    put_mark(state, 0, "chains")
    plays = [a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "play"]
    assert plays == ["keys", "vaccine"]
    assert {"type": "discard", "card": "bite"} in GAME.legal_actions(state, 0)
    state = act(state, 0, type="play", card="keys", target=0)
    assert not state["chains"][0] and state["discard"] == ["keys", "chains"]


# ------------------------------------------------------------------------------------------ §6.6-§6.8, §7.8 counters
def test_leshy_and_hunter_open_no_counter_window_even_for_mirror_and_amulet_holders():
    state = night({0: ["leshy", "hunter"], 1: ["mirror", "amulet"], 2: ["mirror"]})
    after = act(state, 0, type="play", card="leshy")
    assert {p[0] for p in pending(after)} == {1, 2} and after["step"]["kind"] == "leshy"
    assert GAME.legal_actions(after, 1) == [{"type": "discard", "card": "amulet"}, {"type": "discard", "card": "mirror"}]
    after = act(state, 0, type="play", card="hunter")
    assert after["step"]["kind"] == "give" and after["in_flight"] is None


@pytest.mark.parametrize("card", ["thief", "blood_test", "pandora", "vaccine", "confession"])
def test_day_cards_cannot_be_countered(card):
    """Mirror and Amulet «не діють проти карт дня» (§6.8, §7.8)."""
    state = table(hands={0: [card], 1: ["mirror", "amulet"]})
    state["dna"][1] = "mutated"
    state = act(state, 0, type="play", card=card, target=1)
    assert state["step"]["kind"] != "counter" and state["in_flight"] is None


@pytest.mark.parametrize("counter", ["mirror", "amulet"])
def test_a_reflected_card_cannot_be_answered_by_the_attacker(counter):
    """§6.8: the card turns on its player «без можливості захиститись за допомогою Amulet чи Mirror»."""
    state = night({0: ["tranquilizer", counter], 1: ["mirror"]})
    state, events = run(state, (0, {"type": "play", "card": "tranquilizer", "target": 1}),
                        (1, {"type": "counter", "card": "mirror"}))
    assert kinds(events).count("counter_window") == 1, "only the target was asked"
    assert state["sleep"][0] and state["hands"][0] == [counter] and state["turn"]["seat"] == 1


def test_a_counter_is_not_answered_by_the_attackers_allies_or_anyone_else():
    state = night({0: ["bite", "keys"], 1: ["amulet"], 2: ["mirror", "amulet"]})
    state = act(state, 0, type="play", card="bite", target=1)
    assert pending(state) == [(1, "reaction", "bloodwood.prompt.counter")]
    refusal = reject(state, 2, type="counter", card="amulet")
    assert (refusal.code, refusal.key, refusal.rule) == (Code.ILLEGAL, "bloodwood.reject.counter_not_for_others", "§7.8")
    refusal = reject(state, 0, type="counter", card="mirror")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.counter_not_for_others", "§6.8")


# ------------------------------------------------------------------------------------------ §8 special cards
def test_a_special_card_from_the_night_deck_is_played_by_day():
    state = table(hands={0: ["night_time_loop", "keys", "vaccine", "thief"]})
    state = act(state, 0, type="play", card="night_time_loop")
    assert state["direction"] == -1 and state["phase"] == "day" and state["step"]["left"] == 1


def test_the_next_player_may_answer_an_eclipse_with_his_own():
    """BW-10: «дві такі карти підряд» bars the extra turn only; the next player's turn is a new turn."""
    state = table(hands={0: ["day_eclipse", "keys", "vaccine", "thief"], 1: ["night_eclipse", "bite"]})
    state = act(state, 0, type="play", card="day_eclipse")
    state = act(state, 0, type="draw", deck="night")
    state = quiet_turn(state, 0)
    assert state["turn"]["seat"] == 1 and state["phase"] == "night"
    state = act(state, 1, type="play", card="night_eclipse")
    assert state["phase"] == "day" and state["phase_turns"] == 0 and state["turn"]["extra"] == "eclipse"


# ------------------------------------------------------------------------------------------ §7 day cards
def test_vaccine_may_be_played_on_a_pure_player():
    """§7.1 bars only a player mutated forever; on a pure player it changes nothing (a bluff is legal, BW-15)."""
    state = table(hands={0: ["vaccine", "keys"]})
    state, events = run(state, (0, {"type": "play", "card": "vaccine", "target": 3}))
    assert state["dna"][3] == "pure" and event(events, "vaccinated")["data"] == {"seat": 3}


def test_thief_draws_up_only_when_below_four():
    """§7.5: «Якщо після крадіжки у нього менше 4 карт, він добирає до 4»."""
    state = table(hands={0: ["thief", "keys", "vaccine", "candle"], 1: ["amulet"]})
    state, events = run(state, (0, {"type": "play", "card": "thief", "target": 1}))
    assert state["hands"][0] == ["amulet", "candle", "keys", "vaccine"] and "draw" not in kinds(events)
    assert state["turn"]["seat"] == 1


def test_pandora_on_another_player_who_held_nothing_gives_him_four():
    """§7.4: «той скидає всі карти та набирає 4 нові, навіть якщо раніше не мав карт»; then the player refills."""
    state = table(hands={0: ["pandora", "keys", "vaccine", "candle"], 3: []})
    state = act(state, 0, type="play", card="pandora", target=3)
    state = act(state, 3, type="draw_all", day=2, night=2)
    assert len(state["hands"][3]) == 4
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")] and state["step"]["left"] == 1


def test_the_hunter_keeps_at_most_four_of_the_cards_received_citing_its_own_paragraph():
    hands = {0: ["hunter"], 1: ["keys"], 2: ["vaccine"], 3: ["mirror"], 4: ["thief"], 5: ["amulet"]}
    state = night(hands, seats=6)
    state = act(state, 0, type="play", card="hunter")
    for seat, card in hands.items():
        if seat:
            state = act(state, seat, type="give", card=card[0])
    for card in ("amulet", "keys", "mirror", "thief"):
        state = act(state, 0, type="keep", card=card)
    refusal = reject(state, 0, type="keep", card="vaccine")
    assert (refusal.key, refusal.rule, refusal.params) == ("bloodwood.reject.keep_limit", "§6.7", {"limit": 4})


def test_a_time_loop_on_the_last_turn_of_a_phase_restarts_it_from_that_player():
    """§8.2 with §3: the count restarts with the Time Loop's player, the phase lasts one turn per player from
    him, and he begins the next phase."""
    state = table(first=0, hands={4: ["day_time_loop", "keys", "vaccine", "thief"]})
    for seat in (0, 1, 2, 3):
        state = quiet_turn(state, seat)
    assert state["turn"]["seat"] == 4 and state["phase_turns"] == 4
    state = act(state, 4, type="play", card="day_time_loop")
    state = act(state, 4, type="draw", deck="day")
    state = quiet_turn(state, 4)
    for seat in (3, 2, 1, 0):
        assert state["phase"] == "day" and state["turn"]["seat"] == seat
        state = quiet_turn(state, seat)
    assert state["phase"] == "night" and state["turn"]["seat"] == 4 and state["direction"] == -1
