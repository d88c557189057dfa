"""Every card's effect (§6, §7), with the Curse Mark's countdown and its edge cases.  Targets hold no cards
unless a test says otherwise, so no counter window opens (those are in test_counter.py)."""
from bot.games.bloodwood import GAME

from .helpers import (
    NAMES, act, event, kinds, pending, public, put_mark, reject, run, seen_by, set_hand, set_turn, table,
)


def night_table(hands=None, seats=5, **kw):
    base = {s: [] for s in range(1, seats)}
    return table(seats=seats, phase="night", hands={**base, **(hands or {})}, **kw)


# ------------------------------------------------------------------------------------------ Bite
def test_bite_toggles_dna_and_refills():
    state = night_table({0: ["bite", "bite", "keys", "vaccine"]})
    state = act(state, 0, type="play", card="bite", target=1)
    assert state["dna"][1] == "mutated" and state["discard"] == ["bite"]
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")] and state["step"]["left"] == 1
    set_turn(state, 0)
    state = act(state, 0, type="play", card="bite", target=1)
    assert state["dna"][1] == "pure"


def test_bite_is_played_in_two_steps_the_card_then_the_target():
    state = night_table({0: ["bite", "keys", "vaccine", "candle"]})
    state = act(state, 0, type="play", card="bite")
    assert state["step"]["card"] == "bite" and pending(state) == [(0, "turn", "bloodwood.prompt.turn")]
    assert GAME.legal_actions(state, 0) == [*({"type": "target", "seat": s} for s in (1, 2, 3, 4)),
                                            {"type": "cancel"}]
    assert reject(state, 0, type="discard", card="keys").key == "bloodwood.reject.pick_target"
    state = act(state, 0, type="cancel")
    assert state["step"]["card"] is None
    state = act(state, 0, type="play", card="bite")
    state = act(state, 0, type="target", seat=3)
    assert state["dna"][3] == "mutated"


def test_bite_targets():
    state = night_table({0: ["bite"]})
    state["dna"][2] = "forever"
    refusal = reject(state, 0, type="play", card="bite", target=0)
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.not_on_self", "§6.1")
    assert reject(state, 0, type="play", card="bite", target=2).key == "bloodwood.reject.target_forever"


def test_a_cursed_biter_passes_the_mark_to_the_bitten():
    state = night_table({0: ["bite"]})
    put_mark(state, 0, "curse", left=1)
    state, events = run(state, (0, {"type": "play", "card": "bite", "target": 1}))
    assert state["curse"][0] is None and state["curse"][1] == {"left": 2, "since": state["turn_no"]}
    assert event(events, "curse_passed")["data"] == {"seat": 0, "receiver": 1, "left": 2, "rule": "§6.2"}


def test_biting_a_cursed_player_takes_the_mark():
    state = night_table({0: ["bite"]})
    put_mark(state, 1, "curse", left=1)
    state = act(state, 0, type="play", card="bite", target=1)
    assert state["curse"][1] is None and state["curse"][0]["left"] == 2


def test_two_carriers_swap_marks_with_fresh_countdowns():
    state = night_table({0: ["bite"]})
    put_mark(state, 0, "curse", left=1)
    put_mark(state, 1, "curse", left=1)
    state, events = run(state, (0, {"type": "play", "card": "bite", "target": 1}))
    assert state["curse"][0]["left"] == state["curse"][1]["left"] == 2
    assert [e["data"]["rule"] for e in events if e["kind"] == "curse_passed"] == ["BW-13", "BW-13"]


def test_a_mark_does_not_pass_to_a_player_mutated_forever():
    state = night_table({0: ["bite"]})
    state["dna"][0] = "forever"
    put_mark(state, 1, "curse", left=1)
    state = act(state, 0, type="play", card="bite", target=1)
    assert state["curse"][1]["left"] == 1 and state["curse"][0] is None and state["dna"][1] == "mutated"


# ------------------------------------------------------------------------------------------ Curse Mark
def test_curse_mark_lies_on_the_target():
    state = night_table({0: ["curse_mark", "curse_mark"]})
    state, events = run(state, (0, {"type": "play", "card": "curse_mark", "target": 1}))
    assert state["curse"][1]["left"] == 2 and "curse_mark" not in state["discard"]
    assert event(events, "cursed")["data"] == {"seat": 1, "left": 2}
    set_turn(state, 0)
    assert reject(state, 0, type="play", card="curse_mark", target=1).key == "bloodwood.reject.target_cursed"
    state["dna"][2] = "forever"
    assert reject(state, 0, type="play", card="curse_mark", target=2).key == "bloodwood.reject.target_forever"


def _draw_up(state):
    events = []
    while state["step"] and state["step"]["kind"] == "draw":
        result = GAME.apply(state, state["step"]["seat"], {"type": "draw", "deck": "day"}, now=1001.0)
        state, events = result.state, events + result.events
    return state, events


def _pass_turn(state, seat):
    """The seat discards a card (or passes), then draws up to 4 from the day deck."""
    if state["hands"][seat]:
        state = act(state, seat, type="discard", card=state["hands"][seat][0])
    else:
        state = act(state, seat, type="pass")
    return _draw_up(state)[0]


def test_curse_countdown_two_own_turns_then_mutation_forever():
    state = night_table({0: ["curse_mark", "bite", "keys", "vaccine"], 1: ["keys"]})
    state = act(state, 0, type="play", card="curse_mark", target=1)
    state = act(state, 1, type="allow")
    state = act(state, 0, type="draw", deck="night")
    state = act(state, 1, type="discard", card="keys")
    state, events = _draw_up(state)
    assert state["curse"][1]["left"] == 1 and event(events, "curse_countdown")["data"] == {"seat": 1, "left": 1}
    for seat in (2, 3, 4, 0):
        state = _pass_turn(state, seat)
    assert state["curse"][1]["left"] == 1, "only the carrier's own turns count"
    state = act(state, 1, type="discard", card=state["hands"][1][0])
    state, events = _draw_up(state)
    assert state["dna"][1] == "forever" and state["curse"][1] is None and "curse_mark" in state["discard"]
    assert event(events, "mutated_forever")["data"] == {"seat": 1, "rule": "§6.2"}
    # Mutated forever: no more Bite, Curse Mark or Vaccine on him, and no declaring.
    set_turn(state, 1)
    assert {"type": "declare"} not in GAME.legal_actions(state, 1)
    assert reject(state, 1, type="declare").key == "bloodwood.reject.mutated_cannot_declare"


def test_the_turn_the_mark_arrives_in_does_not_count():
    state = night_table({0: ["bite"]})
    put_mark(state, 1, "curse", left=1, since=0)
    state = act(state, 0, type="play", card="bite", target=1)
    state = act(state, 0, type="draw", deck="night")
    assert state["curse"][0] == {"left": 2, "since": 1}, "the biter took the mark in his own turn"


def test_a_turn_lost_to_the_tranquilizer_counts_for_the_curse():
    state = night_table({0: ["keys"]})
    put_mark(state, 1, "curse", left=2, since=0)
    put_mark(state, 1, "sleep")
    state = _pass_turn(state, 0)
    assert state["curse"][1]["left"] == 1 and state["turn"]["seat"] == 2


def test_the_countdown_ends_in_mutation_even_on_a_lost_turn():
    state = night_table({0: ["keys"]})
    put_mark(state, 1, "curse", left=1, since=0)
    put_mark(state, 1, "sleep")
    state = _pass_turn(state, 0)
    assert state["dna"][1] == "forever"


def test_candle_lifts_the_curse():
    state = table(hands={0: ["candle", "vaccine"], 1: []})
    assert reject(state, 0, type="play", card="candle", target=1).key == "bloodwood.reject.no_target"
    put_mark(state, 1, "curse")
    assert reject(state, 0, type="play", card="candle", target=2).key == "bloodwood.reject.target_not_cursed"
    state = act(state, 0, type="play", card="candle", target=1)
    assert state["curse"][1] is None and state["discard"] == ["candle", "curse_mark"]


def test_candle_on_oneself():
    state = table(hands={0: ["candle"]})
    put_mark(state, 0, "curse")
    state = act(state, 0, type="play", card="candle", target=0)
    assert state["curse"][0] is None


# ------------------------------------------------------------------------------------------ Chains, Keys
def test_chains_and_keys():
    state = night_table({0: ["chains", "chains"]})
    state = act(state, 0, type="play", card="chains", target=1)
    assert state["chains"][1] and "chains" not in state["discard"]
    set_turn(state, 0)
    assert reject(state, 0, type="play", card="chains", target=1).key == "bloodwood.reject.target_chained"
    state["phase"] = "day"
    set_hand(state, 2, ["keys"])
    set_turn(state, 2)
    assert reject(state, 2, type="play", card="keys", target=3).key == "bloodwood.reject.target_not_chained"
    state = act(state, 2, type="play", card="keys", target=1)
    assert not state["chains"][1] and state["discard"][-2:] == ["keys", "chains"]


def test_tranquilizer_cannot_be_doubled():
    state = night_table({0: ["tranquilizer"]})
    put_mark(state, 1, "sleep")
    assert reject(state, 0, type="play", card="tranquilizer", target=1).key == "bloodwood.reject.target_asleep"
    state = act(state, 0, type="play", card="tranquilizer", target=2)
    assert state["sleep"][2]


# ------------------------------------------------------------------------------------------ Voodoo
def test_voodoo_takes_the_hand_keeps_up_to_four_and_returns_the_rest():
    state = night_table({0: ["voodoo", "bite", "chains", "keys"], 1: ["mirror", "bite"]})
    state["chains"][1] = True  # a chained target holding only night cards cannot counter: no window
    state["decks"]["night"].remove("chains")
    state, events = run(state, (0, {"type": "play", "card": "voodoo", "target": 1}))
    assert state["hands"][1] == [] and state["hands"][0] == ["bite", "bite", "chains", "keys", "mirror"]
    assert pending(state) == [(0, "choice", "bloodwood.prompt.keep_voodoo")]
    seen = event(events, "cards_seen")
    assert seen["to"] == [0] and seen["data"]["cards"] == ["bite", "mirror"]
    for card in ("mirror", "bite", "bite", "chains"):
        state = act(state, 0, type="keep", card=card)
    assert reject(state, 0, type="keep", card="keys").key == "bloodwood.reject.keep_limit"
    state = act(state, 0, type="unkeep", card="chains")
    state = act(state, 0, type="keep", card="keys")
    state, events = run(state, (0, {"type": "done"}))
    assert state["hands"][0] == ["bite", "bite", "keys", "mirror"] and state["hands"][1] == ["chains"]
    assert event(events, "voodoo_returned")["data"] == {"seat": 0, "target": 1, "count": 1, "day": 0, "night": 1}
    assert event(events, "cards_returned")["to"] == [0, 1]
    assert "draw" not in kinds(events) and state["turn"]["seat"] == 1, "nobody draws after Voodoo"


def test_voodoo_may_return_more_than_four_and_the_target_trims_at_the_end_of_the_turn():
    state = night_table({0: ["voodoo", "bite", "chains", "keys"], 1: ["candle", "thief", "amulet", "vaccine"]})
    state = act(state, 0, type="play", card="voodoo", target=1)
    state = act(state, 1, type="allow")
    state = act(state, 0, type="keep", card="amulet")
    state = act(state, 0, type="done")
    assert state["hands"][0] == ["amulet"] and len(state["hands"][1]) == 6
    # Nobody starts a turn with more than 4 (§1.7, BW-8): the target discards two of his choice first.
    assert pending(state) == [(1, "choice", "bloodwood.prompt.trim")] and state["turn"]["seat"] == 0
    state, events = run(state, (1, {"type": "discard", "card": "thief"}), (1, {"type": "discard", "card": "chains"}))
    assert event(events, "discarded")["data"]["rule"] == "BW-8", "§2 binds only the turn's player"
    assert state["hands"][1] == ["bite", "candle", "keys", "vaccine"]
    assert state["turn"]["seat"] == 1 and pending(state) == [(1, "turn", "bloodwood.prompt.turn")]


# ------------------------------------------------------------------------------------------ Leshy, Hunter
def test_leshy_every_other_player_discards_two():
    state = night_table({0: ["leshy", "bite"], 1: ["keys", "vaccine", "candle"], 2: ["bite"], 3: [],
                         4: ["thief", "mirror"]})
    state = act(state, 0, type="play", card="leshy")
    assert pending(state) == [(1, "choice", "bloodwood.prompt.leshy"), (2, "choice", "bloodwood.prompt.leshy"),
                              (4, "choice", "bloodwood.prompt.leshy")]
    state = act(state, 2, type="discard", card="bite")
    state = act(state, 4, type="discard", card="mirror")
    state = act(state, 1, type="discard", card="vaccine")
    assert [p[0] for p in pending(state)] == [1, 4]
    state = act(state, 1, type="discard", card="keys")
    state = act(state, 4, type="discard", card="thief")
    assert state["hands"][1] == ["candle"] and state["hands"][4] == [] and state["hands"][2] == []
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")] and state["step"]["left"] == 3


def test_hunter_collects_one_card_from_each_and_keeps_four():
    hands = {0: ["hunter", "bite", "chains"], 1: ["keys"], 2: ["vaccine", "candle"], 3: ["mirror"],
             4: ["thief"], 5: ["amulet", "blood_test"]}
    state = night_table(hands, seats=6)
    state, events = run(state, (0, {"type": "play", "card": "hunter"}))
    assert state["hands"][0] == [] and state["discard"] == ["hunter", "bite", "chains"]
    assert [p[0] for p in pending(state)] == [1, 2, 3, 4, 5]
    for seat, card in ((1, "keys"), (2, "candle"), (3, "mirror"), (4, "thief")):
        state, events = run(state, (seat, {"type": "give", "card": card}))
        assert event(events, "given_card")["to"] == [0, seat]
        assert "card" not in event(events, "gave")["data"]
    state = act(state, 5, type="give", card="amulet")
    assert pending(state) == [(0, "choice", "bloodwood.prompt.keep_hunter")]
    for card in ("amulet", "mirror", "candle", "keys"):
        state = act(state, 0, type="keep", card=card)
    state, events = run(state, (0, {"type": "done"}))
    assert state["hands"][0] == ["amulet", "candle", "keys", "mirror"] and state["discard"][-1] == "thief"
    assert "draw" not in kinds(events) and state["turn"]["seat"] == 1, "the Hunter's turn ends without drawing"


def test_hunter_keeps_everything_when_no_more_than_four_come():
    state = night_table({0: ["hunter"], 1: ["keys"], 3: ["bite"]})
    state = act(state, 0, type="play", card="hunter")
    state = act(state, 1, type="give", card="keys")
    state = act(state, 3, type="give", card="bite")
    assert state["hands"][0] == ["bite", "keys"] and state["turn"]["seat"] == 1


# ------------------------------------------------------------------------------------------ day cards
def test_pandora_on_oneself_discards_everything_and_draws_four():
    state = table(hands={0: ["pandora", "keys", "bite"]})
    state = act(state, 0, type="play", card="pandora", target=0)
    assert state["discard"] == ["pandora", "bite", "keys"] and state["step"]["left"] == 4


def test_pandora_on_another_player():
    state = table(hands={0: ["pandora", "keys"], 2: []})
    state = act(state, 0, type="play", card="pandora", target=2)
    assert pending(state) == [(2, "choice", "bloodwood.prompt.draw")] and state["step"]["left"] == 4
    state = act(state, 2, type="draw_all", day=1, night=3)
    assert len(state["hands"][2]) == 4
    assert pending(state) == [(0, "turn", "bloodwood.prompt.draw")] and state["step"]["left"] == 3


def test_thief_takes_blindly_among_the_chosen_back():
    state = table(hands={0: ["thief"], 1: ["keys", "mirror", "bite"]})
    state = act(state, 0, type="play", card="thief", target=1)
    assert pending(state) == [(0, "turn", "bloodwood.prompt.thief_back")]
    assert GAME.legal_actions(state, 0) == [{"type": "steal", "deck": "day"}, {"type": "steal", "deck": "night"}]
    state["rng"]["stack"] = {"bloodwood.thief": ["mirror"]}
    state, events = run(state, (0, {"type": "steal", "deck": "night"}))
    assert state["hands"][0] == ["mirror"] and state["hands"][1] == ["bite", "keys"]
    assert event(events, "stolen_card")["to"] == [0, 1]
    assert event(events, "stole")["data"] == {"seat": 0, "target": 1, "deck": "night"}
    assert state["step"]["left"] == 3


def test_thief_with_one_back_and_on_an_empty_hand():
    state = table(hands={0: ["thief", "thief"], 1: ["keys"], 2: []})
    refusal = reject(state, 0, type="play", card="thief", target=2)
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.target_empty_hand", "BW-15"), "the book is silent"
    state = act(state, 0, type="play", card="thief", target=1)
    assert state["hands"][0] == ["keys", "thief"] and state["hands"][1] == []


def test_blood_test_shows_the_role_to_the_player_only():
    state = table(hands={0: ["blood_test"]})
    state, events = run(state, (0, {"type": "play", "card": "blood_test", "target": 3}))
    seen = event(events, "role_seen")
    assert seen["to"] == [0] and seen["data"] == {"seat": 0, "subject": 3, "role": "werewolf"}
    assert [0, 3] in state["known"]
    assert GAME.view(state, 0)["players"][3]["role"] == "werewolf"
    assert GAME.view(state, 2)["players"][3]["role"] is None
    assert all("role" not in e["data"] for e in public(events))
    assert reject(table(hands={0: ["blood_test"]}), 0, type="play", card="blood_test", target=0).key == (
        "bloodwood.reject.not_on_self")


def test_confession_the_confessor_chooses_and_never_repeats_a_recipient():
    state = table(hands={0: ["confession", "confession"]})
    state = act(state, 0, type="play", card="confession", target=2)
    assert pending(state) == [(2, "choice", "bloodwood.prompt.confess")]
    assert GAME.legal_actions(state, 2) == [{"type": "show", "seat": s} for s in (0, 1, 3, 4)]
    assert reject(state, 2, type="show", seat=2).key == "bloodwood.reject.bad_recipient"
    state, events = run(state, (2, {"type": "show", "seat": 4}))
    assert event(events, "role_seen")["to"] == [4] and event(events, "confessed")["to"] is None
    assert GAME.view(state, 4)["players"][2]["role"] == "vampire"
    state = act(state, 0, type="draw", deck="day")
    set_turn(state, 0)
    state = act(state, 0, type="play", card="confession", target=2)
    assert {"type": "show", "seat": 4} not in GAME.legal_actions(state, 2)
    assert reject(state, 2, type="show", seat=4).key == "bloodwood.reject.bad_recipient"


def test_confession_on_oneself_and_on_someone_who_confessed_to_all():
    state = table(hands={0: ["confession"]})
    state["confessed"][3] = [0, 1, 2, 4]
    assert reject(state, 0, type="play", card="confession", target=3).key == "bloodwood.reject.target_confessed_to_all"
    state = act(state, 0, type="play", card="confession", target=0)
    assert pending(state) == [(0, "choice", "bloodwood.prompt.confess")]


def test_vaccine():
    state = table(hands={0: ["vaccine", "vaccine"]})
    state["dna"][1] = "mutated"
    state["dna"][2] = "forever"
    assert reject(state, 0, type="play", card="vaccine", target=2).key == "bloodwood.reject.target_forever"
    state = act(state, 0, type="play", card="vaccine", target=1)
    assert state["dna"][1] == "pure"
    set_turn(state, 0)
    state["dna"][0] = "mutated"
    state = act(state, 0, type="play", card="vaccine", target=0)
    assert state["dna"][0] == "pure"


def test_private_events_name_only_what_their_readers_may_see():
    state = night_table({0: ["voodoo"], 1: ["keys", "vaccine"]})
    state, events = run(state, (0, {"type": "play", "card": "voodoo", "target": 1}), (1, {"type": "allow"}))
    for seat in (2, 3, 4):
        assert not any("cards" in e["data"] for e in seen_by(events, seat))
    line = GAME.render_event(event(events, "voodoo_taken"), "ru", NAMES)
    assert "Аня" in line and "Боб" in line and "Keys" not in line
