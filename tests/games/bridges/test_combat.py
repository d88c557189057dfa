"""§1.5 combat: the attacker first, the immediate counter-attack, damage kinds, the technique, the mark,
and everything that changes a blow (§1.3 Scout and Burilla, §1.8 Fortifications, §4 items)."""
from bot.games.bridges import GAME

from .helpers import act, apply, boss_hp, end_all, find, hp, kinds, place, reject, table


def test_the_attacker_strikes_first_then_the_boss_counter_attacks_in_melee():
    """A bare-handed Burilla (DMG 2) hits Golemko for 2; Golemko answers a melee attack with Kick (3)."""
    state = place(table(["burilla"]), 0, "4")
    result = apply(state, 0, type="attack", boss="golemko", mode="body")
    assert result.state["bosses"]["golemko"]["hp"] == 12 - 2
    assert hp(result.state, 0) == 4 - 3
    order = [k for k in kinds(result.events) if k in ("blow", "boss_counter")]
    assert order == ["blow", "boss_counter"]
    assert result.state["chars"][0]["ap"] == 1


def test_a_boss_killed_by_the_blow_does_not_counter_attack():
    state = boss_hp(place(table(["burilla"]), 0, "4"), "golemko", 2)
    result = apply(state, 0, type="attack", boss="golemko", mode="body")
    assert result.state["bosses"]["golemko"]["hp"] == 0 and hp(result.state, 0) == 4
    assert not find(result.events, "boss_counter")


def test_plus_damage_adds_to_the_character_and_plain_damage_is_a_separate_source():
    """§1.5: Greatsword +3 adds to DMG 1 (4); a Crossbow's 2 is its own source, chosen instead of the body."""
    state = place(table(["master"]), 0, "4", hands=["greatsword"])
    assert apply(state, 0, type="attack", boss="golemko", mode="body").state["bosses"]["golemko"]["hp"] == 12 - 4
    state = place(table(["master"]), 0, "4", hands=["crossbow", "extending_arm"])
    body = apply(state, 0, type="attack", boss="golemko", mode="body").state
    weapons = apply(state, 0, type="attack", boss="golemko", mode="weapons").state
    assert body["bosses"]["golemko"]["hp"] == 12 - 3      # 1 + 2 (the arm), the crossbow does not add
    assert weapons["bosses"]["golemko"]["hp"] == 12 - 2   # the crossbow alone


def test_two_crossbows_are_two_sources_and_the_technique_changes_each():
    """§1.5: a 6 gives +2 to every source: 2+2 becomes 4+4."""
    state = place(table(["master"], rolls={"bridges.risky": [6]}), 0, "4", hands=["crossbow", "crossbow"])
    result = apply(state, 0, type="attack", boss="golemko", mode="weapons", risky=True)
    assert find(result.events, "blow")[0]["data"]["sources"] == [4, 4]
    assert result.state["bosses"]["golemko"]["hp"] == 12 - 8


def test_the_technique_table_and_its_minimum_of_one():
    """§1.5: 6 → +2, 5 → +1, 2-4 → +0, 1 → -1 but never below 1."""
    for roll, expect in ((6, 4), (5, 3), (4, 2), (3, 2), (2, 2), (1, 1)):
        state = place(table(["mage"], rolls={"bridges.risky": [roll]}), 0, "4")
        state["chars"][0]["hp"] = 2
        result = apply(state, 0, type="attack", boss="golemko", mode="body", risky=True)
        assert find(result.events, "blow")[0]["data"]["sources"] == [1 + (expect - 2)] if roll != 1 else [1]
    state = place(table(["burilla"], rolls={"bridges.risky": [1]}), 0, "4")
    result = apply(state, 0, type="attack", boss="golemko", mode="body", risky=True)
    assert find(result.events, "blow")[0]["data"]["sources"] == [1]   # 2 - 1


def test_the_technique_is_once_a_round():
    state = place(table(["burilla"], rolls={"bridges.risky": [3]}), 0, "3", armour="plate_armour",
                  hands=["extending_arm"])
    state = act(state, 0, type="attack", boss="casserole", mode="body", risky=True)
    refusal = reject(state, 0, type="attack", boss="casserole", mode="body", risky=True)
    assert (refusal.key, refusal.rule) == ("bridges.reject.risky_used", "§1.5")
    state = act(state, 0, type="attack", boss="casserole", mode="body")
    state, _ = end_all(state)
    assert state["outcome"] is None and hp(state, 0) == 7 - 3   # the Casserole's Hellfire Beam (BR-9)
    assert state["chars"][0]["risky"] is False, "a new round, a new technique"


def test_the_scouts_mark_doubles_one_attack_then_goes():
    """§1.3: the mark costs 1 AP on an enemy of the Scout's island; the next attack on it is doubled."""
    state = place(place(table(["scout", "burilla"]), 0, "4"), 1, "4")
    state = act(state, 0, type="mark", boss="golemko")
    assert state["bosses"]["golemko"]["marked"] and state["chars"][0]["ap"] == 1
    state = act(state, 1, type="attack", boss="golemko", mode="body")
    assert state["bosses"]["golemko"]["hp"] == 24 - 4 and not state["bosses"]["golemko"]["marked"]
    assert reject(place(table(["burilla"]), 0, "4"), 0, type="mark", boss="golemko").rule == "§1.3"


def test_ranged_weapons_reach_connected_islands_and_provoke_a_ranged_counter():
    """§4.2: the Crossbow hits Golemko on [4] from chn; Golemko answers with Rock Throw (1)."""
    state = place(table(["master"]), 0, "chn", hands=["crossbow"])
    assert reject(state, 0, type="attack", boss="golemko", mode="body").rule == "§1.5"
    result = apply(state, 0, type="attack", boss="golemko", mode="weapons")
    assert result.state["bosses"]["golemko"]["hp"] == 10 and hp(result.state, 0) == 2
    assert find(result.events, "boss_counter")[0]["data"]["ability"] == "rock_throw"
    bow = place(table(["master"]), 0, "chn", hands=["recurve_bow"])
    assert reject(bow, 0, type="attack", boss="golemko", mode="weapons").key == "bridges.reject.out_of_reach"


def test_the_extending_arm_and_the_forest_staff_provoke_no_counter():
    state = place(table(["burilla"]), 0, "4", hands=["extending_arm", "extending_arm"])
    result = apply(state, 0, type="attack", boss="golemko", mode="body")
    assert result.state["bosses"]["golemko"]["hp"] == 12 - 6 and hp(result.state, 0) == 4
    mage = place(table(["mage"]), 0, "4", hands=["forest_staff"])
    result = apply(mage, 0, type="attack", boss="golemko", mode="weapons")
    assert result.state["bosses"]["golemko"]["hp"] == 12 - 3 and hp(result.state, 0) == 2


def test_the_dark_archers_strike_comes_before_the_blow():
    """§3.5: the Archer's melee counter «Удар» (1) strikes first; a 1-HP attacker falls and deals nothing."""
    state = place(table(["burilla"]), 0, "1")
    result = apply(state, 0, type="attack", boss="archer", mode="body")
    order = [k for k in kinds(result.events) if k in ("boss_counter", "blow")]
    assert order == ["boss_counter", "blow"] and hp(result.state, 0) == 3
    assert result.state["bosses"]["archer"]["hp"] == 5 - 2
    weak = place(table(["mage"]), 0, "1", hp=1)
    result = apply(weak, 0, type="attack", boss="archer", mode="body")
    assert result.state["outcome"]["winners"] == [] and result.state["bosses"]["archer"]["hp"] == 5


def test_a_ranged_attack_on_the_archer_is_answered_after_it_with_an_eye_shot():
    state = place(table(["master"]), 0, "chs", hands=["crossbow"])
    result = apply(state, 0, type="attack", boss="archer", mode="weapons")
    assert [k for k in kinds(result.events) if k in ("boss_counter", "blow")] == ["blow", "boss_counter"]
    assert hp(result.state, 0) == 1 and result.state["bosses"]["archer"]["hp"] == 3


def test_a_character_counter_attacks_a_boss_blow_with_full_damage_but_not_a_counter():
    """§1.5: Golemko's Kick (3) in the neutral phase is answered at once by the Master's Greatsword (1+3=4);
    the Master's own attack draws Golemko's counter, which is not answered again."""
    state = place(table(["master"]), 0, "4", hands=["greatsword"], armour="plate_armour")
    state, events = end_all(state)
    assert find(events, "counter", seat=0)[0]["data"]["amount"] == 4
    assert state["bosses"]["golemko"]["hp"] == 12 - 4 and hp(state, 0) == 6 - 3
    result = apply(state, 0, type="attack", boss="golemko", mode="body")
    assert not find(result.events, "counter"), "no counter to a counter"


def test_burilla_and_the_giant_shield_never_counter_attack():
    state = place(table(["burilla"]), 0, "4", armour="plate_armour")
    state, events = end_all(state)
    assert find(events, "no_counter", seat=0) and state["bosses"]["golemko"]["hp"] == 12
    shield = place(table(["master"]), 0, "4", hands=["giant_shield"])
    shield, events = end_all(shield)
    assert find(events, "no_counter", seat=0) and shield["bosses"]["golemko"]["hp"] == 12


def test_no_answer_abilities_are_not_counter_attacked():
    """§3.4: the Bum's Karate Punch is «Без ответа»."""
    state = place(table(["master"]), 0, "2", hands=["greatsword"], armour="plate_armour")
    state, events = end_all(state)
    assert hp(state, 0) == 6 - 2 and not find(events, "counter")


def test_fortifications_take_one_off_each_attack_and_fall_after_three():
    """§1.8: -1 from attacks for everyone on the island; three attacks of any kind, then it collapses."""
    state = place(table(["master"], coins=3), 0, "4", armour="plate_armour")
    state = act(state, 0, type="build", building="fort")
    assert state["bank"]["coins"] == 3, "the Master builds without coins"
    state, events = end_all(state)                  # Kick 3 → 2
    assert hp(state, 0) == 6 - 2 and state["buildings"]["4"]["hits"] == 1
    state = act(state, 0, type="attack", boss="golemko", mode="body")   # counter Kick → 2
    assert hp(state, 0) == 6 - 4 and state["buildings"]["4"]["hits"] == 2
    state, events = end_all(state)                  # the third attack is reduced too, then the fort falls
    assert hp(state, 0) == 0 and "4" not in state["buildings"] and find(events, "fort_broken")
    assert state["outcome"]["reason"] == "bridges.outcome.fallen"


def test_burilla_takes_half_of_an_allys_damage_rounded_up_even_from_an_area_attack():
    """§1.3: Ground Slam (2 to all) with Burilla and two allies: Burilla 2 + 1 + 1, the allies nothing."""
    state = table(["burilla", "master", "mage"])
    for seat in range(3):
        place(state, seat, "4")
    state["chars"][0]["hp"] = 4
    state, events = end_all(state)
    assert [hp(state, s) for s in range(3)] == [0, 3, 2] and state["outcome"]["winners"] == []
    hurt = {e["data"]["seat"]: e["data"] for e in find(events, "char_hurt")}
    assert hurt[1]["guard"] == 0 and hurt[2]["guard"] == 0 and hurt[0]["taken"] == 4


def test_burilla_protection_can_be_switched_off():
    state = table(["burilla", "master"])
    place(state, 0, "4")
    place(state, 1, "4", armour="plate_armour")
    state = act(state, 0, type="guard", on=False)
    state, _ = end_all(state)
    assert hp(state, 0) == 2 and hp(state, 1) == 4


def test_a_shield_ball_absorbs_three_until_the_next_players_phase():
    state = place(table(["master"], items={"shield_ball": 2}), 0, "4", armour="plate_armour")
    state = act(state, 0, type="use", item="shield_ball")
    assert reject(state, 0, type="use", item="shield_ball").rule == "BR-18"
    state, events = end_all(state)    # Kick 3 absorbed
    assert hp(state, 0) == 6 and state["chars"][0]["shield"] == 0


def test_the_spiked_shell_hurts_a_melee_attacker_unless_the_blow_was_blocked():
    """§4.4: Golemko's Kick on the wearer: he takes 2 back; not when a Shield ball swallowed the blow."""
    state = place(table(["burilla"]), 0, "4", armour="spiked_shell")
    state, events = end_all(state)
    assert find(events, "thorns") and state["bosses"]["golemko"]["hp"] == 12 - 2
    blocked = place(table(["burilla"], items={"shield_ball": 1}), 0, "4", armour="spiked_shell")
    blocked = act(blocked, 0, type="use", item="shield_ball")
    blocked, events = end_all(blocked)
    assert not find(events, "thorns") and blocked["bosses"]["golemko"]["hp"] == 12


def test_the_thorns_strike_even_when_the_wearer_dies():
    state = place(table(["mage"]), 0, "4", armour="spiked_shell", hp=1)
    state, events = end_all(state)
    assert find(events, "thorns") and state["bosses"]["golemko"]["hp"] == 10
    assert state["outcome"]["winners"] == []


def test_a_trap_stops_a_counter_attack_and_hurts_the_boss():
    """§1.3: the counter fails, the boss takes 1, the trap breaks; one trap per island."""
    state = place(place(table(["scout", "burilla"]), 0, "4"), 1, "4")
    state = act(state, 0, type="trap")
    assert reject(state, 0, type="trap").key == "bridges.reject.trap_there"
    result = apply(state, 1, type="attack", boss="golemko", mode="body")
    assert find(result.events, "trap_sprung") and hp(result.state, 1) == 4
    assert result.state["bosses"]["golemko"]["hp"] == 24 - 2 - 1 and result.state["traps"] == []


def test_a_trap_also_stops_the_archers_first_strike():
    state = place(place(table(["scout", "burilla"]), 0, "1"), 1, "1")
    state = act(state, 0, type="trap")
    result = apply(state, 1, type="attack", boss="archer", mode="body")
    assert hp(result.state, 1) == 4 and result.state["bosses"]["archer"]["hp"] == 10 - 1 - 2


def test_a_boss_out_of_reach_or_dead_is_refused_with_the_rule():
    state = place(table(["burilla"]), 0, "chs")
    assert reject(state, 0, type="attack", boss="golemko", mode="body").rule == "§1.5"
    dead = boss_hp(place(table(["burilla"]), 0, "4"), "golemko", 0)
    assert reject(dead, 0, type="attack", boss="golemko", mode="body").rule == "§3"


def test_attacks_cost_one_ap_and_stop_at_zero():
    state = place(table(["burilla"]), 0, "4", armour="plate_armour")
    state = act(state, 0, type="attack", boss="golemko", mode="body")
    state = act(state, 0, type="attack", boss="golemko", mode="body")
    refusal = reject(state, 0, type="attack", boss="golemko", mode="body")
    assert refusal.key == "bridges.reject.no_ap" and GAME.to_act(state)


def test_the_trap_action_names_its_island_and_only_the_scouts_own_is_allowed():
    """§1.3 «Может поставить ловушку за 1 ОД на свой остров»: a trap on another island is refused citing §1.3
    (not as a malformed action); the choices offer the trap with its island; an action of rules version 2
    without the island still means the Scout's own."""
    state = place(table(["scout", "burilla"]), 0, "chs")
    assert {"type": "trap", "island": "chs"} in GAME.legal_actions(state, 0)
    assert not any(a["type"] == "trap" and a.get("island") != "chs" for a in GAME.legal_actions(state, 0))
    refusal = reject(state, 0, type="trap", island="4")
    assert (refusal.code, refusal.key, refusal.rule) == ("illegal", "bridges.reject.trap_own_island", "§1.3")
    assert refusal.message("ru") == ("Ловушку Скаут ставит только на свой остров (Ближний сундук), "
                                     "не на «Остров 4». (см. §1.3)")
    assert "Isle 4" in refusal.message("en") and "Острів 4" in refusal.message("uk")
    assert reject(state, 0, type="trap", island="nowhere").code == "malformed"
    result = apply(state, 0, type="trap", island="chs")
    assert result.state["traps"] == ["chs"] and find(result.events, "trap_set")[0]["data"]["island"] == "chs"
    assert GAME.describe_action(state, 0, {"type": "trap", "island": "chs"}, "ru") == "Ловушка: Ближний сундук (1 ОД)"
    old = place(table(["scout", "burilla"]), 0, "2")
    assert act(old, 0, type="trap")["traps"] == ["2"]
