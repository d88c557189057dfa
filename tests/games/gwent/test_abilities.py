"""Unit abilities and special cards, each with its exact effect."""
from bot.engine import Code

from .helpers import act, apply, discard, event, find, give, kinds, place, reject, score, strength, table


def row_of(s, uid):
    return next((side, row) for side in (0, 1) for row in ("melee", "ranged", "siege") if uid in s["rows"][side][row])


# ---------------------------------------------------------------------------------------------- spies
def test_spy_goes_to_the_enemy_and_draws_one_card_in_standard():
    s = table()
    spy = give(s, 0, "prince_stennis")
    hand = len(s["hand"][0])
    result = apply(s, 0, type="play", card=spy)
    s = result.state
    assert row_of(s, spy) == (1, "melee")
    assert len(s["hand"][0]) == hand - 1 + 1
    assert score(s, 1) == 50 and score(s, 0) == 0
    drew = event(result.events, "drew")
    assert drew["to"] == [0] and len(drew["data"]["cards"]) == 1
    assert event(result.events, "drew_count")["to"] is None


def test_spy_draws_two_in_hardgwent_only_after_the_turn():
    s = table(variant="hardgwent")
    s = act(s, 0, type="play", card=give(s, 0, "ves"))   # the round's first turn: one card only
    spy, other = give(s, 1, "stefan_skellen", "rainfarn")
    hand = len(s["hand"][1])
    s = act(s, 1, type="play", card=spy)
    assert len(s["hand"][1]) == hand - 1 and s["turn"] == {**s["turn"], "seat": 1, "played": 1, "need": 2}
    s = act(s, 1, type="play", card=other)
    assert len(s["hand"][1]) == hand - 2 + 2 and s["turn"]["seat"] == 0


def test_a_spy_may_be_played_on_the_own_side_without_drawing():
    s = table()
    spy = give(s, 0, "prince_stennis")
    hand = len(s["hand"][0])
    s = act(s, 0, type="play", card=spy, side="own")
    assert row_of(s, spy) == (0, "melee") and len(s["hand"][0]) == hand - 1
    assert score(s, 0) == 50


# ---------------------------------------------------------------------------------------------- medic
def test_medic_revives_a_chosen_unit_and_chains_through_medics():
    s = table()
    discard(s, 0, "dun_banner_medic")
    catapult = discard(s, 0, "catapult")
    discard(s, 0, "vernon_roche")  # a hero: never revived
    medic = give(s, 0, "dun_banner_medic")
    s = act(s, 0, type="play", card=medic)
    assert s["stack"][-1]["kind"] == "revive"
    from bot.games.gwent import GAME

    offered = {s["cards"][a["card"]]["id"] for a in GAME.legal_actions(s, 0) if a["type"] == "revive"}
    assert offered == {"dun_banner_medic", "catapult"}
    second = find(s, 0, "dun_banner_medic", ("discard",))
    s = act(s, 0, type="revive", card=second)
    assert s["stack"][-1]["kind"] == "revive"   # the revived medic revives again
    s = act(s, 0, type="revive", card=catapult)
    assert row_of(s, catapult) == (0, "siege") and not s["stack"]
    assert s["turn"]["seat"] == 1
    assert reject(s, 0, type="revive", card=catapult).code == Code.NOT_YOUR_TURN


def test_medic_cannot_revive_a_hero_or_a_special_card():
    s = table()
    roche = discard(s, 0, "vernon_roche")
    discard(s, 0, "kaedweni_siege_expert")
    discard(s, 0, "scorch")
    s = act(s, 0, type="play", card=give(s, 0, "dun_banner_medic"))
    r = reject(s, 0, type="revive", card=roche)
    assert r.key == "gwent.reject.bad_revive"


def test_revived_agile_unit_goes_to_the_row_its_owner_names():
    s = table("scoiatael", "nilfgaard")
    scout = discard(s, 0, "dol_blathanna_scout")
    s = act(s, 0, type="play", card=give(s, 0, "havekar_healer"))
    assert reject(s, 0, type="revive", card=scout).key == "gwent.reject.need_row"
    s = act(s, 0, type="revive", card=scout, row="ranged")
    assert row_of(s, scout) == (0, "ranged")


# ---------------------------------------------------------------------------------------------- muster
def test_muster_calls_the_group_from_the_deck_only():
    s = table("monsters", "nilfgaard")
    in_hand = give(s, 0, "ghoul", "ghoul")
    result = apply(s, 0, type="play", card=in_hand[0])
    s = result.state
    melee = [s["cards"][u]["id"] for u in s["rows"][0]["melee"]]
    assert melee.count("ghoul") == 8   # nine ghouls in the deck list, one stays in the hand
    assert in_hand[1] in s["hand"][0]
    assert len(event(result.events, "mustered")["data"]["cards"]) == 7


def test_cerys_calls_the_shield_maidens_but_they_do_not_call_her():
    s = table("skellige", "nilfgaard")
    maiden = give(s, 0, "clan_drummond_shield_maiden")
    s = act(s, 0, type="play", card=maiden)
    assert [s["cards"][u]["id"] for u in s["rows"][0]["melee"]] == ["clan_drummond_shield_maiden"]
    s = table("skellige", "nilfgaard")
    s = act(s, 0, type="play", card=give(s, 0, "cerys"))
    ids = [s["cards"][u]["id"] for u in s["rows"][0]["melee"]]
    assert ids.count("clan_drummond_shield_maiden") == 3 and "cerys" in ids
    assert score(s, 0) == (10 + 3 * 4 * 3) * 10


# ---------------------------------------------------------------------------------------------- agile
def test_agile_unit_needs_a_row_and_never_siege():
    s = table("scoiatael", "nilfgaard")
    scout = give(s, 0, "dol_blathanna_scout")
    assert reject(s, 0, type="play", card=scout).code == Code.MALFORMED
    assert reject(s, 0, type="play", card=scout, row="siege").key == "gwent.reject.wrong_row"
    s = act(s, 0, type="play", card=scout, row="ranged")
    assert row_of(s, scout) == (0, "ranged")


# ---------------------------------------------------------------------------------------------- scorch
def test_row_scorch_needs_ten_points_heroes_counted_but_spared():
    s = table("monsters", "northern_realms")
    place(s, 1, "esterad_thyssen")  # hero 10: counts, cannot die
    ves = place(s, 1, "ves")         # 5
    s1 = act(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    assert ves in s1["discard"][1] and find(s1, 1, "esterad_thyssen", ("row",))
    s = table("monsters", "northern_realms")
    place(s, 1, "ves")
    place(s, 1, "siegfried_of_denesle")
    place(s, 1, "yarpen_zigrin")  # 5 + 5 + 2 = 12: both fives die together
    result = apply(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    killed = [k["card"] for k in event(result.events, "scorched")["data"]["killed"]]
    assert sorted(killed) == ["siegfried_of_denesle", "ves"]


def test_row_scorch_fizzles_under_the_threshold():
    s = table("monsters", "northern_realms")
    place(s, 1, "ves")
    place(s, 1, "yarpen_zigrin")  # 7 points
    result = apply(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    assert "scorched" not in kinds(result.events)
    assert event(result.events, "row_scorch_short")["data"]["total"] == 70


def test_hardgwent_row_scorch_needs_twenty_and_kills_at_most_three():
    s = table("monsters", "northern_realms", variant="hardgwent")
    for _ in range(4):
        place(s, 1, "blue_stripes_commando")  # 4 x 4 bond = 16 each, 64 in all
    result = apply(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    killed = event(result.events, "scorched")["data"]["killed"]
    # tight bond: a group of four loses at most two of its cards to one scorch
    assert len(killed) == 2


def test_scorch_kills_every_strongest_unit_on_both_sides_but_no_hero():
    s = table()
    mine = place(s, 0, "siege_tower")            # 7
    theirs = place(s, 1, "zerrikanian_fire_scorpion")  # 5
    place(s, 1, "letho_of_gulet")                # hero 10: spared
    archer = place(s, 1, "black_infantry_archer")  # 10
    s = act(s, 0, type="play", card=give(s, 0, "scorch"))
    assert archer in s["discard"][1] and mine in s["rows"][0]["siege"] and theirs in s["rows"][1]["siege"]
    s = table()
    a = place(s, 0, "siege_tower")
    b = place(s, 1, "cahir")            # 6
    c = place(s, 1, "fringilla_vigo")   # 6
    assert strength(s, a) == 70
    s = act(s, 0, type="play", card=give(s, 0, "scorch"))
    assert a in s["discard"][0] and b in s["rows"][1]["melee"] and c in s["rows"][1]["ranged"]


def test_scorch_ties_all_die_including_the_players_own():
    s = table()
    a = place(s, 0, "siege_tower")   # 7
    b = place(s, 1, "shilard_fitz_oesterlen", owner=1)  # 7 spy standing on its owner's side
    s = act(s, 0, type="play", card=give(s, 0, "scorch"))
    assert a in s["discard"][0] and b in s["discard"][1]


def test_clan_dimun_pirate_scorches_after_arriving_and_may_kill_himself():
    s = table("skellige", "northern_realms")
    place(s, 1, "ves")  # 5 < pirate 6
    pirate = give(s, 0, "clan_dimun_pirate")
    s = act(s, 0, type="play", card=pirate)
    assert pirate in s["discard"][0]


# ---------------------------------------------------------------------------------------------- horn, decoy
def test_a_second_horn_on_the_same_row_is_refused():
    s = table()
    horns = give(s, 0, "commanders_horn", "commanders_horn")
    s = act(s, 0, type="play", card=horns[0], row="siege")
    s = act(s, 1, type="pass")
    r = reject(s, 0, type="play", card=horns[1], row="siege")
    assert r.key == "gwent.reject.row_taken"
    act(s, 0, type="play", card=horns[1], row="melee")


def test_decoy_takes_back_an_enemy_spy_which_then_spies_for_the_new_owner():
    s = table("northern_realms", "nilfgaard", first=1)
    spy = give(s, 1, "stefan_skellen")
    s = act(s, 1, type="play", card=spy)          # lands on seat 0's side
    decoy = find(s, 0, "decoy", ("hand",))
    s = act(s, 0, type="play", card=decoy, target=spy)
    assert spy in s["hand"][0] and decoy in s["discard"][0]
    s = act(s, 1, type="pass")
    hand = len(s["hand"][0])
    s = act(s, 0, type="play", card=spy)
    assert spy in s["rows"][1]["melee"] and len(s["hand"][0]) == hand


def test_decoy_refuses_heroes_and_needs_a_target_when_one_exists():
    s = table()
    roche = place(s, 0, "vernon_roche")
    decoy = find(s, 0, "decoy", ("hand",))
    assert reject(s, 0, type="play", card=decoy, target=roche).key == "gwent.reject.decoy_target"
    s1 = act(s, 0, type="play", card=decoy)  # only a hero on the side: nothing to take, a legal skip
    assert decoy in s1["discard"][0] and roche in s1["rows"][0]["melee"]
    place(s, 0, "ves")
    assert reject(s, 0, type="play", card=decoy).key == "gwent.reject.need_target"


def test_decoy_on_kambi_calls_hemdall_and_only_one_hemdall_at_a_time():
    s = table("skellige", "nilfgaard")
    kambi = place(s, 0, "kambi")
    second_decoy = give(s, 0, "decoy")
    give(s, 0, "udalryk")
    s = act(s, 0, type="play", card=find(s, 0, "decoy", ("hand",)), target=kambi)
    assert [s["cards"][u]["id"] for u in s["rows"][0]["melee"]] == ["hemdall"] and kambi in s["hand"][0]
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=kambi)
    s = act(s, 0, type="play", card=second_decoy, target=kambi)
    assert sorted(s["cards"][u]["id"] for u in s["rows"][0]["melee"]) == ["hemdall"]


def test_kambi_left_on_the_field_brings_hemdall_next_round():
    s = table("skellige", "nilfgaard")
    place(s, 0, "kambi")
    place(s, 0, "olaf", "melee")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["round"] == 2
    assert [s["cards"][u]["id"] for u in s["rows"][0]["melee"]] == ["hemdall"]


# ---------------------------------------------------------------------------------------------- mardroeme
def test_mardroeme_turns_berserkers_into_vildkaarls_for_good():
    s = table("skellige", "nilfgaard")
    berserker = place(s, 0, "berserker")
    s = act(s, 0, type="play", card=give(s, 0, "mardroeme"), row="melee")
    assert s["cards"][berserker]["id"] == "transformed_vildkaarl" and strength(s, berserker) == 140
    s = act(s, 1, type="play", card=give(s, 1, "scorch"))
    assert berserker in s["discard"][0]
    s = act(s, 0, type="play", card=give(s, 0, "birna_bran"))
    s = act(s, 0, type="revive", card=berserker) if s["stack"] else s
    assert s["cards"][berserker]["id"] == "transformed_vildkaarl"


def test_ermion_transforms_the_young_berserkers_on_his_row():
    s = table("skellige", "nilfgaard")
    young = place(s, 0, "young_berserker")
    s = act(s, 0, type="play", card=give(s, 0, "ermion"))
    assert s["cards"][young]["id"] == "transformed_young_vildkaarl"


# ---------------------------------------------------------------------------------------------- weather
def test_skellige_storm_hits_ranged_and_siege_and_clear_weather_lifts_it():
    s = table()
    archer = place(s, 0, "crinfrid_reavers_dragon_hunter")
    tower = place(s, 0, "siege_tower")
    ves = place(s, 0, "ves")
    s = act(s, 0, type="play", card=give(s, 0, "skellige_storm"))
    assert (strength(s, archer), strength(s, tower), strength(s, ves)) == (10, 10, 50)
    s = act(s, 1, type="play", card=give(s, 1, "clear_weather"))
    assert strength(s, tower) == 70 and not s["weather"]
    assert find(s, 0, "skellige_storm", ("discard",))


def test_faction_card_summons_any_card_of_the_deck_hero_included():
    s = table()
    s = act(s, 0, type="play", card=give(s, 0, "faction_card_northern_realms"))
    assert s["stack"][-1]["kind"] == "summon"
    roche = find(s, 0, "vernon_roche", ("deck", "aside"))
    s = act(s, 0, type="summon", card=roche)
    assert roche in s["rows"][0]["melee"] and find(s, 0, "faction_card_northern_realms", ("discard",))
