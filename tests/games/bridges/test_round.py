"""§1.2: the shared action phase (any order, several seats at once), its end, the neutral phase, and the end
of the game (§1.6, §1.9, §5.1)."""
import random

from bot.engine import Code
from bot.games.bridges import GAME

from .helpers import NOW, act, apply, end_all, find, hp, kinds, place, reject, table


def pending(state):
    return sorted(p.seat for p in GAME.to_act(state))


def test_every_seat_with_its_phase_open_is_asked_at_once_and_may_interleave():
    """§1.2.1: one player spends 1 AP, another 2, then the first his last one."""
    state = table(["master", "mage", "scout"])
    assert pending(state) == [0, 1, 2]
    state = act(state, 0, type="move", to="chs")
    state = act(state, 1, type="move", to="chs")
    state = act(state, 1, type="move", to="BSE")
    state = act(state, 0, type="move", to="BSE")
    assert [c["ap"] for c in state["chars"]] == [0, 0, 2] and pending(state) == [0, 1, 2]


def test_the_neutral_phase_comes_only_when_every_seat_has_ended():
    state = table(["master", "mage"])
    state = act(state, 0, type="end")
    assert pending(state) == [1] and state["round"] == 1
    assert reject(state, 0, type="move", to="chs").code == Code.NOT_YOUR_TURN
    result = apply(state, 1, type="end")
    assert "neutral_phase" in kinds(result.events) and result.state["round"] == 2
    assert pending(result.state) == [0, 1] and [c["ap"] for c in result.state["chars"]] == [2, 2]


def test_by_the_book_a_seat_ends_its_phase_only_with_its_ap_spent():
    """§1.2.1: «Эта фаза продолжается до тех пор, пока все игроки не потратят все свои Очки Действия»."""
    state = table(["master", "mage"], coins=5, options={"phase_end": "spend"})
    refusal = reject(state, 0, type="end")
    assert (refusal.key, refusal.rule, dict(refusal.params)) == ("bridges.reject.spend_ap", "§1.2", {"ap": 2})
    assert {"type": "end"} not in GAME.legal_actions(state, 0)
    state = act(state, 0, type="move", to="chs")
    state = act(state, 0, type="move", to="BSE")
    state = act(state, 0, type="buy", item="recurve_bow")  # free actions at 0 AP, until the seat ends
    result = apply(state, 0, type="end")
    assert find(result.events, "phase_ended", seat=0)[0]["data"] == {"seat": 0, "ap": 0, "how": "end", "rule": "§1.2"}


def test_by_the_book_a_seat_with_nothing_to_spend_its_ap_on_may_still_end():
    """BR-1: a Mage in Plate Armour with 1 AP on an island without a boss cannot move (2 AP, §4.4), attack, build
    (no coins) or lay a bomb: the phase would never end, so the seat ends it and loses the AP."""
    state = table(["mage", "master"], items={"plate_armour": 1}, options={"phase_end": "spend"})
    state["bank"]["items"] = {}
    state = place(state, 0, "chs", armour="plate_armour")
    assert reject(state, 0, type="end").key == "bridges.reject.spend_ap", "2 AP: it can still move"
    state["chars"][0]["ap"] = 1
    result = apply(state, 0, type="end")
    assert find(result.events, "phase_ended", seat=0)[0]["data"]["rule"] == "BR-1"


def test_a_seat_may_end_with_ap_left_by_option_and_keeps_its_free_actions_at_zero():
    """Option ``phase_end: explicit`` (BR-1): ending early is allowed; at 0 AP the seat may still buy, equip,
    drink until it ends."""
    state = table(["master"], coins=5)
    state = act(state, 0, type="move", to="chs")
    state = act(state, 0, type="move", to="BSE")
    assert state["chars"][0]["ap"] == 0 and pending(state) == [0]
    state = act(state, 0, type="buy", item="recurve_bow")
    assert state["bank"]["items"] == {"recurve_bow": 1}
    result = apply(state, 0, type="end")
    assert find(result.events, "phase_ended", seat=0)[0]["data"]["ap"] == 0


def test_with_phase_end_auto_a_seat_at_zero_ap_is_done():
    state = table(["master", "mage"], options={"phase_end": "auto"})
    state = act(state, 0, type="move", to="chs")
    state = act(state, 0, type="move", to="BSE")
    assert pending(state) == [1]


def test_a_deadline_ends_an_absent_seats_phase():
    state = table(["master", "mage"], options={"phase_seconds": 60})
    assert {p.deadline for p in GAME.to_act(state)} == {NOW + 60}
    early = GAME.apply(state, 1, {"type": "timeout"}, now=NOW + 10)
    assert early.code == Code.TOO_EARLY
    state = act(state, 0, type="end")
    result = GAME.apply(state, 1, {"type": "timeout"}, now=NOW + 61)
    assert "timed_out" in kinds(result.events) and result.state["round"] == 2


def test_a_character_at_zero_health_loses_the_game_at_once():
    """§1.6: «Единство или смерть»."""
    state = place(table(["mage", "master"]), 0, "2")
    state, events = end_all(state)
    assert state["outcome"]["winners"] == [] and state["outcome"]["params"]["seats"] == [0]
    assert kinds(events)[-1] == "game_over" and GAME.to_act(state) == []


def test_the_base_at_zero_health_loses_the_game():
    """§5.1: the Base has 10 health; provoked Krabulon's lasers take 2 a round."""
    state = table(["master"])
    state["provoked"] = True
    for _ in range(5):
        state, _ = end_all(state)
    assert state["base_hp"] == 0 and state["outcome"]["reason"] == "bridges.outcome.base"


def test_malformed_actions_are_refused_and_change_nothing():
    state = table(["master"])
    for action in ({"type": "move"}, {"type": "move", "to": "nowhere"}, {"type": "move", "to": "chs", "x": 1},
                   {"type": "attack", "boss": "golemko", "mode": "kick"}, {"type": "fly"},
                   {"type": "equip", "item": "crossbow", "replace": "all"}, {"type": "push", "seat": True, "to": "1"}):
        result = GAME.apply(state, 0, action)
        assert result.code in (Code.MALFORMED, Code.ILLEGAL), action


def test_the_legal_list_and_the_refusals_agree():
    """Every offered action is accepted; a random sample of the rest is refused."""
    rnd = random.Random(3)
    state = table(["burilla", "scout", "master", "mage"], coins=20, items={"spring": 2, "bomb": 1, "potion": 1,
                                                                           "shield_ball": 1, "crossbow": 1})
    for _ in range(60):
        if state["outcome"] is not None:
            break
        seat = rnd.choice(pending(state))
        legal = GAME.legal_actions(state, seat)
        for action in legal:
            assert GAME.apply(state, seat, action).__class__.__name__ == "Applied", action
        state = act(state, seat, **rnd.choice(legal))


def test_at_0_ap_the_phase_ends_in_the_same_move_unless_the_table_waits_for_end():
    """BR-1, option zero_ap: by default (``end``, rules version 4) the action that spends a seat's last AP ends its
    phase too, with no End of its own to press, force or record; with ``referee`` (rules version 3's end) the
    referee takes the End as a forced move; with ``wait`` (before rules version 3) the seat keeps its free actions
    until End."""
    state = table(["master", "mage"], coins=5, options={"phase_end": "spend", "zero_ap": "end"})
    assert GAME.forced_action(state, 0, GAME.legal_actions(state, 0)) is None, "2 AP: the seat decides"
    state = act(state, 0, type="move", to="chs")
    assert not state["chars"][0]["done"] and pending(state) == [0, 1]
    result = apply(state, 0, type="move", to="BSE")
    (ended,) = find(result.events, "phase_ended", seat=0)
    assert ended["data"]["how"] == "auto" and ended["data"]["rule"] == "§1.2"
    state = result.state
    assert state["chars"][0]["done"] and pending(state) == [1] and state["round"] == 1
    assert GAME.to_act(state)[0].prompt == "bridges.prompt.actions_auto"
    state = act(act(state, 1, type="move", to="chs"), 1, type="move", to="BSE")
    assert state["round"] == 2, "the last seat's last AP begins the neutral phase"

    forced = table(["master", "mage"], coins=5, options={"phase_end": "spend", "zero_ap": "referee"})
    forced = act(act(forced, 0, type="move", to="chs"), 0, type="move", to="BSE")
    assert not forced["chars"][0]["done"] and pending(forced) == [0, 1]
    assert GAME.forced_action(forced, 0, GAME.legal_actions(forced, 0)) == {"type": "end"}
    assert GAME.forced_action(forced, 1, GAME.legal_actions(forced, 1)) is None
    assert "end" in GAME.auto_actions
    assert GAME.to_act(forced)[0].prompt == "bridges.prompt.actions_auto"

    waiting = table(["master", "mage"], coins=5, options={"phase_end": "spend", "zero_ap": "wait"})
    waiting = act(act(waiting, 0, type="move", to="chs"), 0, type="move", to="BSE")
    assert GAME.forced_action(waiting, 0, GAME.legal_actions(waiting, 0)) is None
    assert GAME.to_act(waiting)[0].prompt == "bridges.prompt.actions"
    waiting = act(waiting, 0, type="buy", item="potion")  # a free action at 0 AP, as before
    assert not waiting["chars"][0]["done"]


def test_ending_is_confirmed_only_when_ap_could_still_be_spent():
    """BR-1: End gives up AP only when something could still be done with them; with nothing left to do (or 0
    AP) no second question."""
    state = table(["mage", "master"], options={"phase_end": "explicit"})
    state["bank"]["items"] = {}
    assert GAME.confirm(state, 0, {"type": "end"}), "2 AP and islands to move to"
    state = place(state, 0, "chs", armour="plate_armour")
    state["chars"][0]["ap"] = 1  # Plate Armour: a move costs 2; no boss, no coins: nothing costs 1 AP here
    assert not GAME.confirm(state, 0, {"type": "end"})
    spend = table(["mage", "master"], options={"phase_end": "spend"})
    spend["bank"]["items"] = {}
    spend = place(spend, 0, "chs", armour="plate_armour")
    spend["chars"][0]["ap"] = 1
    assert {"type": "end"} in GAME.legal_actions(spend, 0) and not GAME.confirm(spend, 0, {"type": "end"})
    spend["chars"][0]["ap"] = 0
    assert not GAME.confirm(spend, 0, {"type": "end"})


def test_a_last_blow_that_brings_a_drop_leaves_the_moment_of_receiving_open():
    """BR-1 with BR-4: under ``zero_ap: end`` the last AP ends the phase, except when that blow brought an item
    the seat may put on at once (Golemko's Plate Armour, d4 = 1): the moment is the seat's choice, so the phase
    waits for it (nobody forces End) and ends with it; a seat that does not want it presses End."""
    def killing_blow():
        state = table(["burilla", "mage"], options={"phase_end": "spend", "zero_ap": "end"},
                      rolls={"bridges.drop": [1]})
        place(state, 0, "4", hp=2, hands=["greatsword"])
        state["chars"][0]["ap"] = 1
        state["bosses"]["golemko"]["hp"] = 5
        return act(state, 0, type="attack", boss="golemko", mode="body")

    state = killing_blow()
    assert state["chars"][0]["ap"] == 0 and not state["chars"][0]["done"] and pending(state) == [0, 1]
    assert GAME.forced_action(state, 0, GAME.legal_actions(state, 0)) is None
    result = apply(state, 0, type="equip", item="plate_armour")
    assert hp(result.state, 0) == 2 + 3 and result.state["chars"][0]["done"]
    assert find(result.events, "phase_ended", seat=0) and pending(result.state) == [1]

    state = killing_blow()
    state = act(state, 0, type="end")  # no confirmation asked: nothing costs AP any more
    assert state["chars"][0]["done"] and state["chars"][0]["armour"] is None


def test_at_most_one_recorded_action_in_seven_ends_a_phase():
    """Issue 35: End was 35 % of a Bridges record (the referee's forced End after every seat's last AP).  Played
    with the built-in team, the referee taking every forced move as a table with ``auto_forced`` does, End is at
    most 15 % of the recorded actions of the action phase, and of the players' own decisions."""
    recorded = ends = decisions = chosen_ends = 0
    for seats, seed in ((1, "share-a"), (2, "share-b"), (2, "share-c"), (3, "share-d")):
        state = GAME.initial_state(seats, seed=seed, options={"pace": "correspondence"}, now=NOW).state
        while state["outcome"] is None and state["round"] <= 12:
            owed = [p.seat for p in GAME.to_act(state)]
            forced = [(s, f) for s in owed if (f := GAME.forced_action(state, s, GAME.legal_actions(state, s)))]
            seat, action = forced[0] if forced else (owed[0], None)
            if action is None:
                action = GAME.bot_action(state, seat, random.Random(f"{seed}:{state['version']}"))
            if state["phase"] == "actions":
                recorded += 1
                ends += action["type"] == "end"
                if not forced:
                    decisions += 1
                    chosen_ends += action["type"] == "end"
            state = act(state, seat, **action)
    assert recorded > 100
    assert ends / recorded <= 0.15 and chosen_ends / decisions <= 0.15, (ends, recorded, chosen_ends, decisions)
