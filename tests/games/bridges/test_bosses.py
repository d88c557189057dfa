"""Chapter 3: the referee plays every boss by its priority lines in the neutral phase, picks targets by the
general rule, drops loot from the d4 tables, and each boss's special behaviour."""
import pytest

from bot.games.bridges import GAME

from .helpers import act, apply, boss_hp, end_all, find, hp, place, table


def turns(events, boss):
    return [e["data"] for e in events if e["kind"] == "boss_turn" and e["data"]["boss"] == boss]


def test_the_lowest_health_is_targeted():
    state = table(["master", "burilla"])
    place(state, 0, "2", armour="plate_armour")
    place(state, 1, "2", hp=3)
    state = act(state, 1, type="guard", on=False)
    state, events = end_all(state)
    assert turns(events, "karate")[0]["targets"] == [1] and turns(events, "karate")[0]["line"] == 1


def test_on_a_tie_the_ranged_character_then_the_last_to_act():
    """§3 «Выбор цели»: equal health → the one with a ranged weapon; still equal → the last player to act."""
    state = table(["master", "scout"])
    place(state, 0, "2", hp=2, hands=["crossbow"])
    place(state, 1, "2", hp=2)
    state, events = end_all(state)
    assert turns(events, "karate")[0]["targets"] == [0]
    for option, victim in (("acted", 1), ("moved", 0)):
        state = table(["master", "scout"], options={"tie_break": option})
        place(state, 0, "chs", hp=2)
        place(state, 1, "chs", hp=2)
        state = act(state, 1, type="move", to="2")
        state = act(state, 0, type="move", to="2")   # seat 0 moved last
        state = act(state, 1, type="trap")            # seat 1 spent AP last
        state, events = end_all(state)
        assert turns(events, "karate")[0]["targets"] == [victim], option


def test_krabulon_sweeps_two_or_more_and_squeezes_one():
    state = table(["master", "burilla"])
    place(state, 0, "CRB", armour="plate_armour")
    place(state, 1, "CRB", armour="plate_armour")
    state = act(state, 1, type="guard", on=False)
    state, events = end_all(state)
    assert turns(events, "krabulon")[0]["ability"] == "claw_sweep"
    assert hp(state, 0) == 6 - 2 and hp(state, 1) == 7 - 2
    assert find(events, "counter", seat=0), "the sweep is answered"
    solo = place(table(["master"]), 0, "CRB", armour="plate_armour")
    solo, events = end_all(solo)
    assert turns(events, "krabulon")[0]["ability"] == "claw_squeeze" and hp(solo, 0) == 2


def test_krabulon_uses_melee_and_lasers_in_the_same_turn():
    """§3.1: «Использует и Ближний и Дальний бой в свой ход»: claws on his island, lasers on trl (BR-12)."""
    state = table(["master", "burilla"])
    place(state, 0, "CRB", armour="plate_armour")
    place(state, 1, "trl")
    state, events = end_all(state)
    used = [(t["group"], t["ability"]) for t in turns(events, "krabulon")]
    assert used == [(1, "claw_squeeze"), (2, "lasers")]
    assert hp(state, 0) == 6 - 4 and hp(state, 1) == 4 - 2


def test_stepping_next_to_krabulon_provokes_his_lasers_at_the_base():
    """§3.1: once a player has appeared on the neighbouring island, Krabulon lasers the Base whenever he
    cannot attack a player."""
    state = place(table(["master"]), 0, "4", armour="plate_armour")
    state = boss_hp(state, "golemko", 0)
    result = apply(state, 0, type="move", to="trl")
    assert result.state["provoked"] and find(result.events, "provoked")
    state = act(result.state, 0, type="end")
    assert hp(state, 0) == 6 - 2 and state["base_hp"] == 10, "he could laser the player on trl"
    state = act(state, 0, type="move", to="4")
    state, events = end_all(state)
    assert state["base_hp"] == 8 and find(events, "base_lasers")


def test_an_unprovoked_krabulon_leaves_the_base_alone_and_damage_provokes_him():
    state = place(table(["master"]), 0, "BSE")
    state, events = end_all(state)
    assert state["base_hp"] == 10 and not state["provoked"]
    state = place(table(["burilla"]), 0, "CRB", hands=["extending_arm"])
    state = act(state, 0, type="attack", boss="krabulon", mode="body")
    assert state["provoked"] and state["bosses"]["krabulon"]["hp"] == 18 - 4


def test_golemko_slams_kicks_or_drinks_tea():
    state = table(["master", "burilla"])
    place(state, 0, "4", armour="plate_armour")
    place(state, 1, "4", armour="plate_armour")
    state = act(state, 1, type="guard", on=False)
    state, events = end_all(state)
    assert turns(events, "golemko")[0]["ability"] == "ground_slam" and hp(state, 0) == 4
    alone = table(["master"])
    boss_hp(alone, "golemko", 5)
    alone, events = end_all(alone)
    assert turns(events, "golemko")[0]["ability"] == "tea" and alone["bosses"]["golemko"]["hp"] == 6


def test_golemko_is_at_peace_while_the_bum_is_dead_until_attacked():
    """§3.2: peace once Karate-bum dies (only tea); an attack ends it, and he answers that attack (BR-10)."""
    state = table(["burilla", "master"])
    place(state, 0, "2", hands=["greatsword"])
    place(state, 1, "4", armour="plate_armour")
    boss_hp(state, "karate", 1)
    result = apply(state, 0, type="attack", boss="karate", mode="body")
    assert find(result.events, "peace", boss="golemko")
    state, events = end_all(result.state)
    assert turns(events, "golemko")[0]["why"] == "peace" and hp(state, 1) == 6
    result = apply(state, 1, type="attack", boss="golemko", mode="body")
    assert find(result.events, "boss_counter", boss="golemko") and hp(result.state, 1) == 3
    state, events = end_all(result.state)
    assert turns(events, "golemko")[0]["ability"] == "kick"


def test_the_casserole_bakes_while_the_archer_lives_and_nobody_attacked_him():
    state = place(table(["master"]), 0, "3", armour="plate_armour")
    boss_hp(state, "casserole", 3)
    state, events = end_all(state)
    assert turns(events, "casserole")[0]["ability"] == "bakery" and state["bosses"]["casserole"]["hp"] == 5
    assert turns(events, "casserole")[0]["skipped"] == [1, 2] and hp(state, 0) == 6


@pytest.mark.parametrize("option,beam", [("retaliates", True), ("counter_only", False)])
def test_an_attacked_casserole_retaliates_in_his_turn_by_default(option, beam):
    """§3.3 «Атакует только когда в этом же раунде его атаковали» (BR-9, option casserole)."""
    state = place(table(["burilla"], options={"casserole": option}), 0, "3", armour="plate_armour",
                  hands=["extending_arm"])
    state = act(state, 0, type="attack", boss="casserole", mode="body")
    state, events = end_all(state)
    assert (turns(events, "casserole")[0]["ability"] == "hell_beam") == beam
    assert hp(state, 0) == (7 - 3 if beam else 7)


def test_the_casserole_hunts_once_the_archer_is_dead():
    """§3.3 lines 1-2: his own island first, else a neighbouring one."""
    state = table(["master", "burilla"])
    boss_hp(state, "archer", 0)
    place(state, 0, "3", armour="plate_armour")
    place(state, 1, "chn")
    state, events = end_all(state)
    assert turns(events, "casserole")[0]["line"] == 1 and turns(events, "casserole")[0]["targets"] == [0]
    state = table(["master"])
    boss_hp(state, "archer", 0)
    place(state, 0, "trl", armour="plate_armour")
    state, events = end_all(state)
    assert turns(events, "casserole")[0]["line"] == 2 and turns(events, "casserole")[0]["targets"] == [0]


def test_the_casserole_answers_a_melee_attack_with_a_fireball_when_two_stand_by_him():
    state = table(["burilla", "master"])
    place(state, 0, "3", armour="plate_armour")
    place(state, 1, "3", armour="plate_armour")
    state = act(state, 0, type="guard", on=False)
    result = apply(state, 1, type="attack", boss="casserole", mode="body")
    assert find(result.events, "boss_counter")[0]["data"]["ability"] == "fireball"
    assert hp(result.state, 0) == 6 and hp(result.state, 1) == 5


def test_the_bum_punches_on_his_island_and_bottles_his_attacker_next_door():
    """§3.4: priority 1 Karate Punch; priority 2 the Karate Bottle at the one who attacked him, if adjacent."""
    state = place(table(["master"], placement=["golemko", "karate", "casserole", "archer"]), 0, "chs",
                  hands=["crossbow"], armour="plate_armour")
    result = apply(state, 0, type="attack", boss="karate", mode="weapons")
    assert find(result.events, "boss_counter")[0]["data"]["ability"] == "karate_bottle" and hp(result.state, 0) == 5
    state, events = end_all(result.state)
    assert turns(events, "karate")[0]["line"] == 2 and hp(state, 0) == 4


def test_the_archer_shoots_next_door_unless_someone_stands_on_his_island():
    """§3.5: Eye Shot at a neighbouring island; no attack at all while a player is on his island."""
    state = place(table(["master"]), 0, "chs", armour="plate_armour")
    state, events = end_all(state)
    assert turns(events, "archer")[0]["ability"] == "eye_shot" and hp(state, 0) == 4
    state = table(["master", "burilla"])
    place(state, 0, "chs", armour="plate_armour")
    place(state, 1, "1")
    state, events = end_all(state)
    assert turns(events, "archer")[0]["why"] == "visited" and hp(state, 0) == 6


@pytest.mark.parametrize("n", [1, 2, 4])
@pytest.mark.parametrize("roll", [1, 2, 3, 4])
def test_drops_are_the_d4_table_plus_n_minus_one_coins(n, roll):
    """§3 «Дроп»: items and «написанное кол-во монет + N - 1»; they go to the Bank at once (§1.4)."""
    drops = {1: ({"recurve_bow": 1, "spring": 2}, 3), 2: ({"crossbow": 1}, 3), 3: ({"spring": 4}, 2),
             4: ({"crossbow": 1, "spring": 2}, 1)}
    state = table(["master", "scout", "mage", "burilla"][:n], rolls={"bridges.drop": [roll]})
    place(state, 0, "1", hands=["greatsword"])
    boss_hp(state, "archer", 1)
    state = act(state, 0, type="attack", boss="archer", mode="body")
    items, coins = drops[roll]
    burilla = 4 if n == 4 else 0
    assert state["bank"] == {"coins": burilla + coins + n - 1, "items": dict(sorted(items.items()))}
    assert all(sorted(state["fresh"][s]) == sorted(i for i, k in items.items() for _ in range(k)) for s in range(n))


def test_the_bosses_act_by_island_or_by_the_books_list():
    state = table(["master"], placement=["golemko", "casserole", "karate", "archer"])
    state, events = end_all(state)
    assert [t["boss"] for t in turns_all(events)] == ["golemko", "casserole", "karate", "archer", "krabulon"]
    state = table(["master"], placement=["golemko", "casserole", "karate", "archer"], options={"boss_order": "list"})
    state, events = end_all(state)
    assert [t["boss"] for t in turns_all(events)] == ["archer", "karate", "casserole", "golemko", "krabulon"]


def turns_all(events):
    return [e["data"] for e in events if e["kind"] == "boss_turn"]


def test_killing_krabulon_wins_for_everyone():
    state = table(["burilla", "mage"])
    place(state, 0, "CRB", hands=["greatsword"])
    boss_hp(state, "krabulon", 3)
    state = act(state, 0, type="attack", boss="krabulon", mode="body")
    assert state["outcome"]["winners"] == [0, 1] and state["outcome"]["reason"] == "bridges.outcome.victory"
    assert GAME.to_act(state) == []
