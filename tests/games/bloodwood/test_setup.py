"""Set-up (§1): role split per player count (BW-2, BW-3), private role deals and the leaders' look by DM,
the 2 + 2 deal, DNA, the first phase, the first player, the winner's rule and stacked set-ups."""
from collections import Counter

import pytest

from bot.engine import Code, Reject
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import catalogue
from bot.games.bloodwood.setup import composition

from .helpers import NOW, act, deck_size, event, kinds, pending, reject, table

#: seats -> (plain roles of the larger team, the smaller team's plain roles, whether it has a leader)
SPLITS = {5: (3, 1), 6: (2, 2), 7: (4, 2), 8: (3, 3), 9: (5, 3), 10: (4, 4), 11: (6, 4), 12: (5, 5)}


@pytest.mark.parametrize("seats", range(5, 13))
def test_role_split_for_every_player_count(seats):
    for larger in ("vampires", "werewolves"):
        counts = composition(seats, True, larger)
        assert sum(counts.values()) == seats
        vampires = counts["vampire"] + counts["dracula"]
        werewolves = counts["werewolf"] + counts["alpha"]
        if seats % 2 == 0:
            assert vampires == werewolves == seats // 2
            assert counts["dracula"] == counts["alpha"] == 1
        else:
            big, small = ("vampire", "werewolf") if larger == "vampires" else ("werewolf", "vampire")
            leader_of_small = "alpha" if small == "werewolf" else "dracula"
            assert counts[big] == seats // 2 + 1, "the larger team has only plain roles"
            assert counts[small] == SPLITS[seats][1] and counts[leader_of_small] == 1
            assert counts["dracula" if big == "vampire" else "alpha"] == 0


@pytest.mark.parametrize("seats", range(5, 13))
def test_leaderless_variant_applies_only_to_even_counts(seats):
    counts = composition(seats, False, "vampires")
    leaders = counts["dracula"] + counts["alpha"]
    assert leaders == (0 if seats % 2 == 0 else 1)


def test_a_fresh_table():
    result = GAME.initial_state(7, seed="fresh", now=NOW)
    state = result.state
    assert state["phase"] == "day" and state["dna"] == ["pure"] * 7
    for seat in range(7):
        hand = state["hands"][seat]
        assert Counter(catalogue().cards[c].deck for c in hand) == {"day": 2, "night": 2}
    assert len(state["decks"]["day"]) == deck_size("day") - 14
    assert len(state["decks"]["night"]) == deck_size("night") - 14
    assert Counter(state["roles"]) == +Counter(state["composition"])
    first = event(result.events, "first_player")["data"]
    assert first["how"] == "lot" and pending(state) == [(first["seat"], "turn", "bloodwood.prompt.turn")]


def test_roles_go_by_private_events_and_only_leaders_see_everyone():
    result = GAME.initial_state(6, seed="roles", now=NOW)
    roles = result.state["roles"]
    role_events = [e for e in result.events if e["kind"] == "role"]
    assert [(e["to"], e["data"]["role"]) for e in role_events] == [([s], roles[s]) for s in range(6)]
    sights = [e for e in result.events if e["kind"] == "leader_sight"]
    leaders = [s for s, r in enumerate(roles) if r in ("dracula", "alpha")]
    assert [e["to"] for e in sights] == [[s] for s in leaders] and len(leaders) == 2
    assert all(e["data"]["roles"] == roles for e in sights)
    public = [e for e in result.events if e["to"] is None]
    assert not any("role" in e["data"] or "roles" in e["data"] for e in public)
    assert event(result.events, "leaders_looked")["data"] == {"count": 2}
    for seat in range(6):
        view = GAME.view(result.state, seat)
        shown = [p["role"] for p in view["players"]]
        assert shown == (roles if seat in leaders else [roles[s] if s == seat else None for s in range(6)])


def test_leaderless_table_has_no_leader_look():
    result = GAME.initial_state(8, seed="noleaders", options={"leaders": False}, now=NOW)
    assert set(result.state["roles"]) <= {"vampire", "werewolf"}
    assert "leader_sight" not in kinds(result.events) and "leaders_looked" not in kinds(result.events)


def test_first_player_by_lot_can_be_stacked():
    state = table(seats=5, first=3)
    assert state["turn"]["seat"] == 3 and pending(state)[0][0] == 3


def test_first_player_chosen_by_the_first_seat():
    state = GAME.initial_state(5, seed="host", options={"first_player": "host"}, now=NOW).state
    assert pending(state) == [(0, "choice", "bloodwood.prompt.first")]
    assert reject(state, 0, type="first", seat=9).code == Code.MALFORMED
    state = act(state, 0, type="first", seat=2)
    assert state["turn"]["seat"] == 2 and pending(state) == [(2, "turn", "bloodwood.prompt.turn")]


def test_winners_rule_assigns_every_role_then_the_first_player():
    result = GAME.initial_state(5, seed="winner", options={"role_deal": "host"}, now=NOW)
    state = result.state
    assert state["roles"] is None and pending(state) == [(0, "choice", "bloodwood.prompt.assign")]
    assert "role" not in kinds(result.events)
    wanted = [r for r, n in state["composition"].items() for _ in range(n)]
    other = next(r for r in catalogue().roles if r not in wanted)
    assert reject(state, 0, type="assign", role=other).key == "bloodwood.reject.bad_role"
    events = []
    for role in wanted:
        assert {"type": "assign", "role": role} in GAME.legal_actions(state, 0)
        applied = GAME.apply(state, 0, {"type": "assign", "role": role}, now=NOW)
        state, events = applied.state, events + applied.events
    assert state["roles"] == wanted and state["assigner"] == 0
    assert [e["to"] for e in events if e["kind"] == "role"] == [[s] for s in range(5)]
    # The assigner knows every role; the others only their own.
    assert [p["role"] for p in GAME.view(state, 0)["players"]] == wanted
    assert [p["role"] for p in GAME.view(state, 1)["players"]] == [None, wanted[1], None, None, None]
    assert pending(state) == [(0, "choice", "bloodwood.prompt.first")]
    state = act(state, 0, type="first", seat=4)
    assert state["turn"]["seat"] == 4


def test_stacked_decks_and_roles():
    day = catalogue().deck_list("day")
    night = list(reversed(catalogue().deck_list("night")))
    state = GAME.initial_state(5, seed="s", now=NOW, stack={"day_deck": day, "night_deck": night,
                                                             "roles": ["werewolf", "vampire", "dracula", "werewolf",
                                                                       "werewolf"]}).state
    assert state["hands"][0] == sorted(day[:2] + night[:2])
    assert state["hands"][1] == sorted(day[2:4] + night[2:4])
    assert state["decks"]["day"] == day[10:]
    assert state["roles"][2] == "dracula"


@pytest.mark.parametrize("stack, key", [
    ({"day_deck": "vaccine"}, "bloodwood.reject.bad_stack"),
    ({"day_deck": ["bite"] * 68}, "bloodwood.reject.stack_unknown_card"),
    ({"night_deck": ["mirror"] * 9}, "bloodwood.reject.stack_too_many"),
    ({"roles": ["vampire"] * 5}, "bloodwood.reject.stack_roles"),
    ({"roles": ["dracula", "alpha", "vampire", "werewolf", "werewolf"]}, "bloodwood.reject.stack_roles"),
])
def test_bad_stacks_are_refused_saying_what_is_wrong(stack, key):
    with pytest.raises(Reject) as info:
        GAME.initial_state(5, seed="s", now=NOW, stack=stack)
    assert info.value.rejection.code == Code.BAD_SETUP
    assert info.value.rejection.key == key
    assert "{" not in info.value.rejection.message("en")


def test_a_stacked_deck_may_give_only_its_top_cards():
    state = GAME.initial_state(5, seed="s", now=NOW, stack={"night_deck": ["hunter"] * 4 + ["bite"]}).state
    hands = state["hands"]
    assert hands[0].count("hunter") == 2 and hands[1].count("hunter") == 2 and "bite" in hands[2]
    everything = [c for hand in hands for c in hand] + state["decks"]["night"] + state["decks"]["day"]
    assert sorted(everything) == sorted(catalogue().deck_list("day") + catalogue().deck_list("night"))


def test_the_larger_team_of_an_odd_table_is_drawn_by_lot():
    for larger in ("vampires", "werewolves"):
        state = GAME.initial_state(7, seed="odd", now=NOW, stack={"rolls": {"bloodwood.larger_team": [larger]}}).state
        plain = "vampire" if larger == "vampires" else "werewolf"
        assert state["composition"][plain] == 4
