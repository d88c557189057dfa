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


def test_other_players_cannot_declare_out_of_turn():
    """BW-25: the floor is the turn's; a seat the table is not waiting for is refused."""
    state = table()
    state["dna"][1] = state["dna"][3] = state["dna"][4] = "mutated"
    assert reject(state, 2, type="declare").code == Code.NOT_YOUR_TURN
    assert GAME.legal_actions(state, 2) == []


def test_a_forever_mutated_enemy_counts_as_mutated_and_roles_are_shown_to_every_seat_at_the_end():
    state = table()
    state["dna"][1:] = ["forever", "pure", "mutated", "forever"]
    state, events = _declare(state, 0, [1, 3, 4])
    assert state["outcome"]["winners"] == [0, 2]
    for seat in (None, 0, 1, 2, 3, 4):
        assert [p["role"] for p in GAME.view(state, seat)["players"]] == state["roles"]
    assert event(events, "roles_revealed") in public(events)
