"""Economy, items and buildings: §1.3 slots and +MHP, §1.7 the Bank, §1.8 buildings, §2 chests, chapter 4
items, §5 the craftsman and the troll, the Master's abilities."""
import pytest

from bot.games.bridges import GAME

from .helpers import act, end_all, find, hp, place, reject, table


def test_the_craftsman_sells_tier_one_and_tier_two_only_with_the_blueprints_once_each():
    state = table(["mage"], coins=20)
    state = act(state, 0, type="buy", item="recurve_bow")
    assert state["bank"]["coins"] == 19 and state["bank"]["items"] == {"recurve_bow": 1}
    refusal = reject(state, 0, type="buy", item="crossbow")
    assert (refusal.key, refusal.rule) == ("bridges.reject.need_blueprints", "§5.2")
    state = act(state, 0, type="blueprints")
    assert state["bank"]["coins"] == 14 and reject(state, 0, type="blueprints").rule == "§1.3"
    state = act(state, 0, type="buy", item="crossbow")
    assert reject(state, 0, type="buy", item="crossbow").key == "bridges.reject.tier2_once"
    state = act(state, 0, type="buy", item="potion")
    state = act(state, 0, type="buy", item="potion")
    assert state["bank"]["items"]["potion"] == 2, "tier 1 has no limit"


def test_the_troll_sells_his_stock_only_on_his_island_and_not_twice_the_craftsmans():
    state = place(table(["mage"], coins=10), 0, "trl")
    for item, left in (("spring", 9), ("shield_ball", 7), ("spiked_shell", 4), ("spring", 3)):
        state = act(state, 0, type="buy", item=item)
        assert state["bank"]["coins"] == left
    assert reject(state, 0, type="buy", item="potion").rule == "§5.3"
    far = place(table(["mage"], coins=10), 0, "chs")
    assert reject(far, 0, type="buy", item="spring").key == "bridges.reject.no_shop"
    poor = place(table(["mage"], coins=3), 0, "trl")
    refusal = reject(poor, 0, type="buy", item="bomb")
    assert (refusal.key, refusal.params["need"], refusal.params["have"]) == ("bridges.reject.no_coins", 4, 3)


def test_showing_the_extending_arm_opens_its_trade_for_two_coins():
    """§5.1: come to the craftsman while the Bank has an Arm: the trade opens for good."""
    state = table(["burilla"], coins=6, items={"extending_arm": 1})
    assert state["arm_trade"], "everyone starts at the craftsman"
    state = act(state, 0, type="buy", item="extending_arm")
    state = act(state, 0, type="buy", item="extending_arm")
    assert state["bank"]["coins"] == 6 + 4 - 4 and state["bank"]["items"]["extending_arm"] == 3
    closed = table(["burilla"], coins=6)
    assert reject(closed, 0, type="buy", item="extending_arm").key == "bridges.reject.show_hand"


def test_a_worn_arm_opens_the_trade_only_by_option():
    """§5.1: «надо просто прийти к ремесленнику, когда в Банке есть Рука» — an Arm in a character's hand is not
    in the Bank; ``arm_trade: owned`` counts it too (BR-21)."""
    for option, opens in (("bank", False), ("owned", True)):
        state = table(["burilla"], items={"extending_arm": 1}, options={"arm_trade": option})
        state["arm_trade"] = False  # as if the Arm had come after the team left the Base, worn at once
        state["bank"]["items"] = {}
        state = place(state, 0, "chs", hands=["extending_arm"])
        state = act(state, 0, type="move", to="BSE")
        assert state["arm_trade"] is opens, option


def test_the_camp_heals_whoever_starts_the_round_on_the_base():
    state = table(["master", "mage"], coins=2)
    place(state, 0, "BSE", hp=1)
    place(state, 1, "chs", hp=4, armour="plate_armour")
    state = act(state, 0, type="camp")
    assert state["camp"] and state["bank"]["coins"] == 2, "the Master builds it without coins (BR-20)"
    assert reject(state, 0, type="camp").rule == "§5.1"
    state, events = end_all(state)
    assert hp(state, 0) == 3 and find(events, "camp_heal", seat=0)
    assert not find(events, "camp_heal", seat=1), "only on the Base"


def test_the_camp_is_free_for_the_master_and_paid_by_option():
    """§5.1 «Возвести Лагерь: Построить уютный лагерь» + §1.3 the Master's «Возведение построек не требует
    монет»: built, so free for him; ``master_camp: pay`` treats it as an upgrade bought like any other."""
    state = act(table(["master"], coins=0), 0, type="camp")
    assert state["camp"] and state["bank"]["coins"] == 0
    refusal = reject(table(["master"], coins=1, options={"master_camp": "pay"}), 0, type="camp")
    assert (refusal.key, refusal.rule) == ("bridges.reject.no_coins", "§5.1")
    assert reject(table(["mage"], coins=1), 0, type="camp").key == "bridges.reject.no_coins"


def test_the_master_dismantles_for_half_the_price_rounded_down():
    state = place(table(["master"], items={"bomb": 1, "spring": 1}), 0, "chn")
    state = act(state, 0, type="dismantle", item="bomb")
    state = act(state, 0, type="dismantle", item="spring")
    assert state["bank"] == {"coins": 2, "items": {}}
    assert reject(table(["mage"], items={"bomb": 1}), 0, type="dismantle", item="bomb").rule == "§1.3"


def test_a_chest_gives_two_plus_n_minus_one_coins_once():
    for n in (1, 3):
        state = table(["master", "mage", "scout"][:n])
        state = act(state, 0, type="move", to="chs")
        assert state["bank"]["coins"] == 2 + n - 1 and state["chests"] == ["chn"]
        state = act(state, 0, type="move", to="BSE")
        state, _ = end_all(state)
        state = act(state, 0, type="move", to="chs")
        assert state["bank"]["coins"] == 2 + n - 1


def test_moving_follows_the_map_and_costs_one_ap_or_two_in_plate():
    state = table(["master"])
    assert reject(state, 0, type="move", to="1").rule == "§1.4"
    plate = place(table(["master"]), 0, "BSE", armour="plate_armour")
    plate = act(plate, 0, type="move", to="chs")
    assert plate["chars"][0]["ap"] == 0
    assert reject(plate, 0, type="move", to="1").key == "bridges.reject.no_ap"


def test_the_spiked_shell_allows_one_relocation_a_phase():
    state = place(table(["master"], items={"spring": 1}), 0, "BSE", armour="spiked_shell")
    state = act(state, 0, type="move", to="chs")
    assert reject(state, 0, type="move", to="1").rule == "§4.4"
    assert reject(state, 0, type="spring", to="CRB").rule == "§4.4"


def test_a_spring_jumps_to_any_island_for_free():
    state = act(table(["master"], items={"spring": 1}), 0, type="spring", to="chn")
    assert state["chars"][0]["at"] == "chn" and state["chars"][0]["ap"] == 2 and state["bank"]["coins"] == 2


def test_equipment_changes_only_on_the_base_or_at_once_when_received():
    """§1.3: away from the Base an item can be put on only when it has just been received."""
    state = place(table(["master"], items={"crossbow": 1}), 0, "chs")
    assert reject(state, 0, type="equip", item="crossbow").rule == "§1.3"
    at_base = act(table(["master"], items={"crossbow": 1}), 0, type="equip", item="crossbow")
    assert at_base["chars"][0]["hands"] == ["crossbow"]
    assert reject(place(at_base, 0, "chs"), 0, type="unequip", item="crossbow").rule == "§1.3"


def test_an_item_received_away_from_the_base_may_be_put_on_at_once_and_heals_its_mhp():
    """§1.3: the drop of Golemko (d4 = 1: Plate Armour): worn at once, the wearer heals +3."""
    state = table(["burilla"], rolls={"bridges.drop": [1]})
    place(state, 0, "4", hp=2, hands=["greatsword"])
    state["bosses"]["golemko"]["hp"] = 5
    state = act(state, 0, type="attack", boss="golemko", mode="body")
    state = act(state, 0, type="equip", item="plate_armour")
    assert state["chars"][0]["armour"] == "plate_armour" and hp(state, 0) == 2 + 3
    assert state["fresh"][0] == ["potion"]
    state = act(state, 0, type="guard", on=False)
    assert state["fresh"][0] == [], "any other action ends the moment"


def test_plus_mhp_from_the_bank_on_the_base_does_not_heal():
    state = act(table(["master"], items={"plate_armour": 1}), 0, type="equip", item="plate_armour")
    assert hp(state, 0) == 3 and GAME.view(state, 0)["mhp"][0] == 6
    state = act(state, 0, type="unequip", item="plate_armour")
    assert hp(state, 0) == 3


def test_bought_items_are_received_and_heal_when_worn_at_once():
    state = act(table(["master"], coins=2), 0, type="buy", item="plate_armour")
    state = act(state, 0, type="equip", item="plate_armour")
    assert hp(state, 0) == 6


def test_taking_off_a_plus_mhp_item_lowers_health_to_the_new_maximum():
    state = place(table(["master"]), 0, "BSE", armour="plate_armour")
    state = act(state, 0, type="unequip", item="plate_armour")
    assert hp(state, 0) == 3


def test_hands_and_the_armour_slot():
    """Two hands: a two-handed item replaces what is held; the staves are the Mage's (§4.3)."""
    state = place(table(["master"], items={"greatsword": 1, "crossbow": 1}), 0, "BSE", hands=["extending_arm"])
    assert reject(state, 0, type="equip", item="greatsword").key == "bridges.reject.bad_replace"
    state = act(state, 0, type="equip", item="greatsword", replace=["extending_arm"])
    assert state["chars"][0]["hands"] == ["greatsword"] and state["bank"]["items"]["extending_arm"] == 1
    refusal = reject(table(["master"], items={"forest_staff": 1}), 0, type="equip", item="forest_staff")
    assert refusal.rule == "§4.3"
    options = [a for a in GAME.legal_actions(state, 0) if a["type"] == "equip" and a["item"] == "crossbow"]
    assert options == [{"type": "equip", "item": "crossbow", "replace": ["greatsword"]}]


def test_a_potion_heals_one_and_is_refused_at_full_health():
    state = place(table(["master"], items={"potion": 1}), 0, "chs", hp=1)
    state = act(state, 0, type="use", item="potion")
    assert hp(state, 0) == 2 and "potion" not in state["bank"]["items"]
    assert reject(table(["master"], items={"potion": 1}), 0, type="use", item="potion").rule == "§4.5"


@pytest.mark.parametrize("n", [1, 2])
def test_a_bomb_blows_at_the_start_of_the_next_round_for_everyone_on_its_island(n):
    """§4.5, BR-13: 1 AP; 3×N to bosses and characters alike."""
    state = table(["burilla", "master"][:n], items={"bomb": 1, "spring": 1})
    place(state, 0, "4")
    state = act(state, 0, type="bomb")
    assert state["chars"][0]["ap"] == 1 and state["bombs"][0]["at"] == "4"
    state = act(state, 0, type="spring", to="BSE")
    state, events = end_all(state)
    assert find(events, "bomb_blast") and state["bosses"]["golemko"]["hp"] == 12 * n - 3 * n
    assert state["bombs"] == []


def test_a_bomb_can_blow_before_the_bosses_act_by_option():
    state = table(["burilla"], items={"bomb": 1}, options={"bomb_timing": "neutral"})
    place(state, 0, "2", armour="plate_armour")
    state = act(state, 0, type="bomb")
    state, events = end_all(state)
    kinds_ = [e["kind"] for e in events]
    assert kinds_.index("bomb_blast") < kinds_.index("boss_turn")
    assert state["bosses"]["karate"]["hp"] == 3 and hp(state, 0) == 7 - 3 - 2


def test_fortifications_cost_three_coins_one_ap_and_one_building_per_island():
    state = table(["mage"], coins=3, items={"spring": 1})
    state = act(state, 0, type="build", building="fort")
    assert state["bank"]["coins"] == 0 and state["chars"][0]["ap"] == 1
    assert reject(state, 0, type="build", building="catapult").rule == "§1.8"


def test_the_catapult_charges_for_one_ap_and_launches_once():
    """§1.8: 2 coins and a Spring; charge (1 AP); «Запуск Себя» or «Запуск Предмета» spends the charge."""
    state = table(["mage", "master"], coins=2, items={"spring": 2, "potion": 1, "bomb": 1})
    state = act(state, 0, type="build", building="catapult")
    assert state["bank"]["coins"] == 0 and state["bank"]["items"]["spring"] == 1
    assert reject(state, 0, type="launch", to="CRB").key == "bridges.reject.not_charged"
    state = act(state, 0, type="charge")
    state = act(state, 1, type="launch", to="3")
    assert state["chars"][1]["at"] == "3" and not state["buildings"]["BSE"]["charged"]
    state, _ = end_all(state)
    state = act(state, 0, type="charge")
    state = act(state, 0, type="launch_item", item="bomb", island="CRB")
    assert state["bombs"] == [{"at": "CRB", "round": 2, "by": 0}]
    assert reject(state, 0, type="launch_item", item="potion", seat=1).key == "bridges.reject.not_charged"


def test_the_catapult_sends_a_spring_to_an_ally_who_jumps():
    state = table(["burilla", "master"], items={"spring": 2})
    state["buildings"]["BSE"] = {"kind": "catapult", "charged": True}
    place(state, 1, "3")
    assert reject(state, 0, type="launch_item", item="spring", seat=1).rule == "BR-19"
    state = act(state, 0, type="launch_item", item="spring", seat=1, to="BSE")
    assert state["chars"][1]["at"] == "BSE" and state["bank"]["items"]["spring"] == 1


def test_the_scout_moves_an_ally_to_a_neighbouring_island():
    state = table(["scout", "master"])
    place(state, 1, "chn")
    state = act(state, 0, type="push", seat=1, to="3")
    assert state["chars"][1]["at"] == "3" and state["chars"][0]["ap"] == 1 and state["chars"][1]["ap"] == 2
    assert reject(state, 0, type="push", seat=1, to="CRB").rule == "§1.3", "«на соседний остров»"
    assert reject(state, 0, type="push", seat=0, to="chs").key == "bridges.reject.not_ally"


def test_two_copies_received_together_can_both_be_put_on_at_once():
    """BR-4: each copy just received is its own moment (a regression: the first took the second's with it)."""
    state = table(["burilla"], items={"extending_arm": 2, "plate_armour": 1})
    state["fresh"] = [["extending_arm", "extending_arm", "plate_armour"]]
    state = place(state, 0, "chs")
    state = act(state, 0, type="equip", item="extending_arm")
    state = act(state, 0, type="equip", item="extending_arm")
    state = act(state, 0, type="equip", item="plate_armour")
    assert state["chars"][0]["hands"] == ["extending_arm", "extending_arm"] and hp(state, 0) == 7
