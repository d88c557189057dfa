"""The rule book read paragraph by paragraph: one scenario per rule that the other test files do not already pin
down, in the rule book's order (§1 basics ... §9 the forum mechanics)."""
import pytest

from bot.games.gwent import GAME
from bot.games.gwent.cards import catalogue
from bot.games.gwent.state import relocate

from .helpers import act, apply, discard, event, find, give, kinds, place, reject, score, strength, table


def ids(s, uids):
    return [s["cards"][u]["id"] for u in uids]


def offered(s, seat, kind):
    return [a for a in GAME.legal_actions(s, seat) if a["type"] == kind]


# ---------------------------------------------------------------------------------------------- §2 special cards
def test_scorch_counts_buffs_and_debuffs_when_choosing_the_strongest():
    # A horned Ves (5 -> 10) outranks a Catapult under rain (8 -> 1) and a plain Siege Tower (7).
    s = table()
    ves = place(s, 0, "ves")
    tower = place(s, 0, "siege_tower")
    cat = place(s, 1, "heavy_zerrikanian_fire_scorpion")
    relocate(s, give(s, 0, "commanders_horn"), ["horn", 0, "melee"])
    s = act(s, 0, type="play", card=give(s, 0, "torrential_rain"))   # the scorpion (10) drops to 1
    s = act(s, 1, type="play", card=give(s, 1, "scorch"))
    assert ves in s["discard"][0] and tower in s["rows"][0]["siege"] and cat in s["rows"][1]["siege"]


def test_horn_with_dandelion_on_the_row_only_doubles_dandelion_himself():
    s = table("monsters", "nilfgaard")
    bard = place(s, 0, "dandelion")
    fiend = place(s, 0, "fiend")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="melee")
    assert strength(s, fiend) == 140 and strength(s, bard) == 40


def test_horn_under_weather_doubles_what_the_weather_left():
    s = table()
    tower = place(s, 0, "siege_tower")
    s = act(s, 0, type="play", card=give(s, 0, "torrential_rain"))
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="siege")
    assert strength(s, tower) == 20


def test_a_horn_goes_only_into_the_players_own_rows():
    s = table()
    horn = give(s, 0, "commanders_horn")
    assert reject(s, 0, type="play", card=horn, row="siege", side="enemy").key == "gwent.reject.unexpected_field"
    assert {a["row"] for a in offered(s, 0, "play") if a["card"] == horn} == {"melee", "ranged", "siege"}


def test_decoy_returns_a_unit_but_never_a_hero_and_without_a_target_just_skips_the_turn():
    s = table()
    ves = place(s, 0, "ves")
    roche = place(s, 0, "vernon_roche")
    decoy = find(s, 0, "decoy", ("hand",))
    assert {a.get("target") for a in offered(s, 0, "play") if a["card"] == decoy} == {ves}
    s = act(s, 0, type="play", card=decoy, target=ves)
    assert ves in s["hand"][0] and roche in s["rows"][0]["melee"] and decoy in s["discard"][0]
    s = table()
    place(s, 0, "vernon_roche")
    decoy = find(s, 0, "decoy", ("hand",))
    s = act(s, 0, type="play", card=decoy)   # nothing to take: a legal skip
    assert decoy in s["discard"][0] and s["turn"]["seat"] == 1


def test_a_second_weather_card_of_the_same_kind_is_a_legal_skip():
    s = table()
    tower = place(s, 0, "siege_tower")
    s = act(s, 0, type="play", card=give(s, 0, "torrential_rain"))
    s = act(s, 1, type="play", card=give(s, 1, "torrential_rain"))
    assert strength(s, tower) == 10 and s["turn"]["seat"] == 0 and len(s["weather"]) == 2


def test_clear_weather_lifts_every_weather_and_may_be_played_idle():
    s = table()
    ves, archer, tower = place(s, 0, "ves"), place(s, 0, "sheldon_skaggs"), place(s, 0, "siege_tower")
    for card in ("biting_frost", "impenetrable_fog", "torrential_rain"):
        uid = give(s, 0, card)
        s["hand"][0].remove(uid)
        s["weather"].append({"kind": catalogue().card(card).effect, "uid": uid, "seat": 0})
    assert score(s, 0) == 30
    clear = give(s, 1, "clear_weather")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="play", card=clear)
    assert s["weather"] == [] and strength(s, ves) == 50 and strength(s, archer) == 40 and strength(s, tower) == 70
    assert clear in s["discard"][1] and len(s["discard"][0]) == 3
    s = table()
    s = act(s, 0, type="play", card=give(s, 0, "clear_weather"))  # nothing to clear: a legal skip
    assert s["turn"]["seat"] == 1


# ---------------------------------------------------------------------------------------------- §3 unit abilities
def test_tight_bond_rule_book_example_five_impera_make_75():
    s = table("nilfgaard", "northern_realms")
    guards = [place(s, 0, "impera_brigade_guard") for _ in range(5)]
    assert all(strength(s, g) == 150 for g in guards) and score(s, 0) == 750


def test_tight_bond_counts_only_the_same_card_on_the_same_row():
    s = table("nilfgaard", "northern_realms")
    a = place(s, 0, "impera_brigade_guard")
    place(s, 0, "nausicaa_cavalry_rider")      # another bond card: no partner of the guard
    place(s, 1, "impera_brigade_guard", owner=0)  # a guard on the other side of the table
    assert strength(s, a) == 30


def test_heroes_ignore_morale_boost_and_horn_and_a_hero_booster_still_boosts():
    s = table("scoiatael", "nilfgaard")
    isengrim = place(s, 0, "isengrim_faoiltiarna")   # hero with morale boost
    scout = place(s, 0, "dol_blathanna_scout", "melee")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="melee")
    assert strength(s, isengrim) == 100 and strength(s, scout) == (6 + 1) * 2 * 10


def test_a_revived_card_triggers_its_ability_a_revived_spy_draws():
    s = table()
    spy = discard(s, 0, "prince_stennis")
    s = act(s, 0, type="play", card=give(s, 0, "dun_banner_medic"))
    hand = len(s["hand"][0])
    result = apply(s, 0, type="revive", card=spy)
    s = result.state
    assert spy in s["rows"][1]["melee"] and len(s["hand"][0]) == hand + 1


def test_a_medic_revives_a_unit_lost_in_an_earlier_round():
    s = table()
    ves = place(s, 0, "ves")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["round"] == 2 and ves in s["discard"][0]
    give(s, 0, "dun_banner_medic")
    assert s["turn"]["seat"] == 1     # round 2 starts with the other player
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=find(s, 0, "dun_banner_medic", ("hand",)))
    s = act(s, 0, type="revive", card=ves)
    assert ves in s["rows"][0]["melee"]


def test_muster_of_the_gaunter_odimm_group_calls_all_four_cards():
    s = table()
    s = act(s, 0, type="play", card=give(s, 0, "gaunter_odimm_darkness"))
    on_field = ids(s, s["rows"][0]["ranged"] + s["rows"][0]["siege"])
    assert sorted(on_field) == ["gaunter_odimm"] + ["gaunter_odimm_darkness"] * 3


def test_muster_never_calls_from_the_discard_pile():
    s = table("monsters", "nilfgaard")
    dead = discard(s, 0, "crone_brewess")
    s = act(s, 0, type="play", card=give(s, 0, "crone_weavess"))
    assert sorted(ids(s, s["rows"][0]["melee"])) == ["crone_weavess", "crone_whispess"]
    assert dead in s["discard"][0]


def test_arachas_behemoth_calls_the_arachas_and_an_arachas_calls_the_behemoth():
    s = table("monsters", "nilfgaard")
    s = act(s, 0, type="play", card=give(s, 0, "arachas"))
    assert sorted(ids(s, s["rows"][0]["melee"] + s["rows"][0]["siege"])) == ["arachas"] * 3 + ["arachas_behemoth"]


def test_an_agile_unit_stays_on_its_row_without_hope():
    s = table("scoiatael", "nilfgaard", leaders=("francesca_the_beautiful", None))
    scout = place(s, 0, "dol_blathanna_scout", "melee")
    assert offered(s, 0, "move") == []
    assert reject(s, 0, type="move", card=scout).key == "gwent.reject.cannot_move"


def test_row_scorch_hits_only_the_enemy_row_matching_the_cards_row():
    s = table("monsters", "northern_realms")
    mine = place(s, 0, "fiend")                  # my own 7 on melee: never hit by my dragon
    theirs = place(s, 1, "ves")
    place(s, 1, "siegfried_of_denesle")          # enemy melee 10
    archer = place(s, 1, "keira_metz")
    s = act(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    assert mine in s["rows"][0]["melee"] and theirs in s["discard"][1] and archer in s["rows"][1]["ranged"]


def test_toad_and_schirru_scorch_the_enemy_ranged_and_siege_rows():
    s = table("monsters", "northern_realms")
    place(s, 1, "keira_metz")
    place(s, 1, "sile_de_tansarville")  # ranged 10
    s = act(s, 0, type="play", card=give(s, 0, "toad"))
    assert len(s["discard"][1]) == 2
    s = table("scoiatael", "northern_realms")
    place(s, 1, "siege_tower")
    place(s, 1, "ballista")             # siege 13
    s = act(s, 0, type="play", card=give(s, 0, "schirru"))
    assert ids(s, s["discard"][1]) == ["siege_tower"]


# ---------------------------------------------------------------------------------------------- §4 the faction card
def test_the_faction_card_cannot_be_revived_and_its_summon_may_be_a_special_card():
    s = table()
    discard(s, 0, "faction_card_northern_realms")
    place(s, 1, "cahir")
    s = act(s, 0, type="play", card=give(s, 0, "dun_banner_medic"))
    assert s["stack"] == []  # nothing a medic may bring back
    s = table()
    cahir = place(s, 1, "cahir")
    s = act(s, 0, type="play", card=give(s, 0, "faction_card_northern_realms"))
    frost = find(s, 0, "biting_frost", ("deck", "aside"))
    s = act(s, 0, type="summon", card=frost)
    assert strength(s, cahir) == 10 and s["turn"]["seat"] == 1


# ---------------------------------------------------------------------------------------------- §5 Skellige
def test_mardroeme_and_a_horn_may_share_a_row():
    s = table("skellige", "nilfgaard")
    s = act(s, 0, type="play", card=give(s, 0, "mardroeme"), row="melee")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="melee")
    assert s["slots"][0]["melee"]["horn"] and s["slots"][0]["melee"]["mardroeme"]


def test_a_transformed_berserker_revived_by_a_medic_stays_a_vildkaarl():
    s = table("skellige", "nilfgaard")
    berserker = place(s, 0, "berserker")
    s = act(s, 0, type="play", card=give(s, 0, "mardroeme"), row="melee")
    assert s["cards"][berserker]["id"] == "transformed_vildkaarl"
    s = act(s, 1, type="play", card=give(s, 1, "scorch"))   # the 14-point vildkaarl is the strongest
    assert berserker in s["discard"][0]
    s = act(s, 0, type="play", card=give(s, 0, "birna_bran"))
    s = act(s, 0, type="revive", card=berserker)
    assert s["cards"][berserker]["id"] == "transformed_vildkaarl" and berserker in s["rows"][0]["melee"]


def test_kambi_scorched_calls_hemdall_in_its_place():
    s = table("skellige", "monsters")
    kambi = place(s, 0, "kambi")
    place(s, 0, "kayran", "melee", owner=1)  # a hero booster: Kambi 1, the strongest non-hero unit
    assert strength(s, kambi) == 10
    s = act(s, 0, type="pass")
    s = act(s, 1, type="play", card=give(s, 1, "scorch"))
    assert kambi in s["discard"][0] and ids(s, s["rows"][0]["melee"]) == ["kayran", "hemdall"]


def test_scorch_kills_a_lone_kambi_of_strength_zero_and_hemdall_takes_her_place():
    # §2: Scorch kills «самый сильный (наибольший показатель силы) отряд»; a lone Kambi (0) is the strongest
    s = table("skellige", "monsters")
    kambi = place(s, 0, "kambi")
    place(s, 0, "cerys")  # a hero: never a victim
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="play", card=give(s, 1, "scorch"))
    s = result.state
    assert kambi in s["discard"][0] and "hemdall" in ids(s, s["rows"][0]["melee"])
    lines = [GAME.render_event(e, "ru", ["Аня", "Боб"]) for e in result.events]
    scorched = lines.index("Казнь: в отбой уходит «Камби» (Аня). (см. §2)")
    assert lines[scorched + 1].startswith("«Хеймдалль» выходит на поле (Аня).")  # after the Scorch, not before


def test_gw10_option_scorch_spares_strength_zero():
    s = table("skellige", "monsters", scorch_spares_zero=True)
    kambi = place(s, 0, "kambi")
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="play", card=give(s, 1, "scorch"))
    assert kambi in result.state["rows"][0]["melee"]
    assert event(result.events, "scorch_none")["data"]["rule"] == "GW-10"


def test_king_bran_halves_even_a_one_under_weather_and_the_option_keeps_one():
    # §7 King Bran: «теряют от любой погоды только 50% от своих очков силы» - a 1 keeps 0.5 (GW-12 option: 1)
    for floor, expected in ((False, 5), (True, 10)):
        s = table("skellige", "monsters", leaders=("king_bran", None), bran_weather_floor=floor)
        ghoul = place(s, 0, "ghoul", owner=1)          # strength 1, on Bran's side
        lugos = place(s, 0, "madman_lugos")            # strength 6
        s = act(s, 0, type="play", card=give(s, 0, "biting_frost"))
        assert (strength(s, ghoul), strength(s, lugos)) == (expected, 30)
        assert ("Гуль 0.5" in GAME.render_view(GAME.view(s, None), "ru", ["Аня", "Боб"])) is not floor


def test_a_faction_card_cannot_summon_hemdall_or_an_untransformed_vildkaarl():
    s = table("skellige", "nilfgaard")
    s = act(s, 0, type="play", card=give(s, 0, "faction_card_skellige"))
    summonable = set(ids(s, [a["card"] for a in offered(s, 0, "summon")]))
    assert "hemdall" not in summonable and "transformed_vildkaarl" not in summonable and "berserker" in summonable


# ---------------------------------------------------------------------------------------------- §6 faction bonuses
def test_no_faction_bonus_in_a_mirror_match():
    s = table("northern_realms", "northern_realms")
    place(s, 0, "ves")
    s = act(s, 0, type="pass")
    hand = len(s["hand"][0])
    result = apply(s, 1, type="pass")
    assert "bonus_card" not in kinds(result.events) and len(result.state["hand"][0]) == hand
    s = table("monsters", "monsters")
    place(s, 0, "fiend")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["phase"] != "keep" and s["rows"][0]["melee"] == []


def test_a_northern_realms_loss_gives_no_card():
    s = table()
    place(s, 1, "cahir")
    s = act(s, 0, type="pass")
    hand = len(s["hand"][0])
    result = apply(s, 1, type="pass")
    assert "bonus_card" not in kinds(result.events) and len(result.state["hand"][0]) == hand


def test_monsters_keep_a_unit_even_after_losing_the_round():
    s = table("monsters", "nilfgaard")
    fiend = place(s, 0, "fiend")
    place(s, 1, "letho_of_gulet")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["phase"] == "keep"
    s = act(s, 0, type="keep", card=fiend)
    assert s["rows"][0]["melee"] == [fiend] and score(s, 0) == 70


# ---------------------------------------------------------------------------------------------- §7 leaders
@pytest.mark.parametrize("variant", ["standard", "hardgwent"])
def test_every_active_leader_may_be_used_idle(variant):
    cat = catalogue()
    for faction in ("nilfgaard", "northern_realms", "scoiatael", "monsters", "skellige"):
        for lid in cat.leaders_of(faction, variant):
            if cat.leaders[lid].rule(variant).get("passive"):
                continue
            s = table(faction, "nilfgaard" if faction != "nilfgaard" else "monsters", variant=variant,
                      leaders=(lid, None) if variant == "standard" else (None, None))
            s = act(s, 0, type="leader", leader=lid, idle=True)
            assert lid in s["players"][0]["leaders_used"] and s["turn"]["seat"] == 1, lid
            assert s["weather"] == [] and not any(s["slots"][0][r]["leader_horn"] for r in s["slots"][0])


def test_passive_standard_leaders_are_offered_only_idle_and_keep_working_after():
    # §7 principle 4: «любую Лидерскую карту можно использовать "вхолостую"»; principle 2: passive cards act
    # all three rounds, so the idle use spends the leader's one use, not its effect
    s = table("monsters", "nilfgaard", leaders=("eredin_the_treacherous", None))
    assert offered(s, 0, "leader") == [{"type": "leader", "leader": "eredin_the_treacherous", "idle": True}]
    s = table("skellige", "nilfgaard", leaders=("king_bran", None))
    assert offered(s, 0, "leader") == [{"type": "leader", "leader": "king_bran", "idle": True}]
    lugos = place(s, 0, "madman_lugos")
    s = act(s, 0, type="play", card=give(s, 0, "biting_frost"))
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    result = apply(s, 0, type="leader", leader="king_bran", idle=True)
    s = result.state
    assert s["turn"]["seat"] == 1 and s["players"][0]["leaders_used"] == ["king_bran"]
    assert strength(s, lugos) == 30 and offered(s, 0, "leader") == []   # still halves the frost: 6 -> 3
    assert "Король Бран ∞ ✗" in GAME.render_view(GAME.view(s, None), "ru", ["Аня", "Боб"])


def test_hardgwent_leader_horns_stack_with_a_horn_card_to_three_times():
    for faction, lid, row, unit in (("northern_realms", "foltest_the_siegemaster", "siege", "siege_tower"),
                                    ("scoiatael", "francesca_the_beautiful", "ranged", "ida_emean"),
                                    ("monsters", "eredin_commander_of_the_red_riders", "melee", "fiend")):
        s = table(faction, "nilfgaard", variant="hardgwent")
        uid = place(s, 0, unit)
        s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row=row)
        s = act(s, 1, type="pass")
        s = act(s, 0, type="leader", leader=lid)
        base = catalogue().card(unit).strength
        assert strength(s, uid) == base * 3 * 10, lid


def test_son_of_medell_and_queen_of_dol_blathanna_scorch_their_enemy_rows():
    s = table("northern_realms", "scoiatael", leaders=("foltest_son_of_medell", None))
    place(s, 1, "milva")  # ranged 10
    s = act(s, 0, type="leader", leader="foltest_son_of_medell")
    assert ids(s, s["discard"][1]) == ["milva"]
    s = table("scoiatael", "northern_realms", leaders=("francesca_queen_of_dol_blathanna", None))
    place(s, 1, "ves")
    place(s, 1, "yarpen_zigrin")  # melee 7: under 10, nothing
    s = act(s, 0, type="leader", leader="francesca_queen_of_dol_blathanna")
    assert s["discard"][1] == [] and s["players"][0]["leaders_used"]


def test_standard_hope_works_in_every_round():
    s = table("scoiatael", "nilfgaard", leaders=("francesca_hope_of_the_aen_seidhe", None))
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="first", seat=0)  # the Scoia'tael choose the starter of every round
    scout = place(s, 0, "dol_blathanna_scout", "melee")
    s = act(s, 0, type="move", card=scout)
    assert scout in s["rows"][0]["ranged"]


def test_hardgwent_hope_lasts_one_round_only():
    s = table("scoiatael", "nilfgaard", variant="hardgwent")
    scout = place(s, 0, "dol_blathanna_scout", "melee")
    s = act(s, 0, type="leader", leader="francesca_hope_of_the_aen_seidhe")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="move", card=scout)
    assert scout in s["rows"][0]["ranged"]
    s = act(s, 0, type="pass")
    assert s["round"] == 2
    s = act(s, 0, type="first", seat=0)
    scout2 = place(s, 0, "dol_blathanna_scout", "melee")
    assert reject(s, 0, type="move", card=scout2).key == "gwent.reject.cannot_move"


def test_crach_may_send_back_only_the_opponents_discard_pile():
    s = table("skellige", "nilfgaard", leaders=("crach_an_craite", None))
    theirs = discard(s, 1, "cahir")
    mine = discard(s, 0, "olaf")
    s = act(s, 0, type="leader", leader="crach_an_craite", pile="enemy")
    assert theirs in s["deck"][1] and mine in s["discard"][0]


def test_a_spy_left_on_the_enemy_side_goes_back_to_its_owners_deck_with_crach():
    s = table("skellige", "nilfgaard", leaders=("crach_an_craite", None))
    spy = place(s, 0, "vattier_de_rideaux", owner=1)
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert spy in s["discard"][0] and s["turn"]["seat"] == 1
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    s = act(s, 0, type="leader", leader="crach_an_craite", pile="own")
    assert spy in s["deck"][1]


def test_hardgwent_crach_puts_a_standard_horn_on_a_chosen_row():
    s = table("skellige", "nilfgaard", variant="hardgwent")
    olaf = place(s, 0, "olaf", "ranged")
    s = act(s, 0, type="leader", leader="crach_an_craite", row="ranged")
    assert strength(s, olaf) == 240
    give(s, 0, "commanders_horn")
    assert all(a.get("row") != "ranged" for a in offered(s, 0, "play")
               if s["cards"][a["card"]]["id"] == "commanders_horn")


def test_hardgwent_king_bran_lasts_until_the_end_of_the_round():
    s = table("skellige", "nilfgaard", variant="hardgwent")
    lugos = place(s, 0, "madman_lugos")
    s = act(s, 0, type="leader", leader="king_bran")
    s = act(s, 1, type="play", card=give(s, 1, "biting_frost"))
    s = act(s, 1, type="pass")
    assert strength(s, lugos) == 30
    s = act(s, 0, type="pass")
    assert s["round"] == 2 and not s["round_fx"]["bran"][0]


def test_valhalla_revives_a_hero_with_his_ability():
    s = table("skellige", "nilfgaard", variant="hardgwent")
    cerys = discard(s, 0, "cerys")
    s = act(s, 0, type="leader", leader="valhalla")
    s = act(s, 0, type="revive", card=cerys)
    assert sorted(ids(s, s["rows"][0]["melee"])) == ["cerys"] + ["clan_drummond_shield_maiden"] * 3


def test_the_relentless_takes_from_the_own_pile_and_the_invader_from_the_enemys():
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_the_relentless", None))
    mine = discard(s, 0, "cahir")
    discard(s, 1, "ves")
    s = act(s, 0, type="leader", leader="emhyr_the_relentless")
    assert {a["card"] for a in offered(s, 0, "take")} == {mine}
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_invader_of_the_north", None))
    discard(s, 0, "cahir")
    theirs = discard(s, 1, "ves")
    discard(s, 1, "vernon_roche")
    s = act(s, 0, type="leader", leader="emhyr_invader_of_the_north")
    assert {a["card"] for a in offered(s, 0, "take")} == {theirs}
    s = act(s, 0, type="take", card=theirs)
    assert theirs in s["hand"][0]


# ---------------------------------------------------------------------------------------------- §8 HardGwent
def test_hardgwent_deals_twenty_cards_and_offers_six_for_exchange_from_a_95_card_deck():
    s = GAME.initial_state(2, seed="h", options={"variant": "hardgwent", "faction_a": "nilfgaard",
                                                 "faction_b": "monsters"}).state
    for seat in (0, 1):
        assert len(s["hand"][seat]) == 20 and len(s["cand"][seat]) == 6
        assert len([u for u, c in s["cards"].items() if c["owner"] == seat]) == 95


def test_hardgwent_decoy_on_a_spy_and_the_same_spy_make_one_double_move():
    s = table(variant="hardgwent", first=1)
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    spy = place(s, 0, "vattier_de_rideaux", owner=1)
    s = act(s, 0, type="play", card=find(s, 0, "decoy", ("hand",)), target=spy)
    hand = len(s["hand"][0])
    s = act(s, 0, type="play", card=spy)
    assert spy in s["rows"][1]["melee"] and len(s["hand"][0]) == hand - 1 + 2 and s["turn"]["seat"] == 1


def test_white_flame_two_turns_later_no_longer_cancels_but_blocks():
    s = table("monsters", "nilfgaard", variant="hardgwent", first=0)
    s = act(s, 0, type="leader", leader="eredin_king_of_the_wild_hunt", weather="frost")
    give(s, 1, "cahir", "rainfarn", "vreemde")
    s = act(s, 1, type="play", card=find(s, 1, "cahir", ("hand",)))
    s = act(s, 1, type="play", card=find(s, 1, "rainfarn", ("hand",)))
    give(s, 0, "fiend", "griffin")
    s = act(s, 0, type="play", card=find(s, 0, "fiend", ("hand",)))
    s = act(s, 0, type="play", card=find(s, 0, "griffin", ("hand",)))
    result = apply(s, 1, type="leader", leader="emhyr_the_white_flame")
    assert "leader_cancelled" not in kinds(result.events) and result.state["weather"]
    assert result.state["round_fx"]["blocked"][0]


def test_hardgwent_tight_bond_group_loses_at_most_half_to_the_scorch_card():
    s = table("northern_realms", "nilfgaard", variant="hardgwent", first=1)
    s = act(s, 1, type="play", card=give(s, 1, "vreemde"))
    riders = [place(s, 1, "nausicaa_cavalry_rider") for _ in range(5)]  # 2 x 5 = 10 each
    s = act(s, 0, type="play", card=give(s, 0, "scorch"))
    assert sum(r in s["discard"][1] for r in riders) == 2


# ---------------------------------------------------------------------------------------------- §9 the forum mechanics
def test_round_three_starts_with_the_player_who_started_round_one():
    s = table(first=1)
    place(s, 0, "ves")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="pass")       # round 1 to seat 0
    assert s["turn"]["seat"] == 0    # round 2: the other player
    s = act(s, 0, type="pass")
    place(s, 1, "cahir")
    s = act(s, 1, type="pass")       # round 2 to seat 1
    assert s["round"] == 3 and s["turn"]["seat"] == 1


# ---------------------------------------------------------------------------------------------- bad input
def _building_table():
    s = GAME.initial_state(2, seed="b", options={"faction_a": "nilfgaard", "faction_b": "monsters",
                                                 "deck": "build"}).state
    s = act(s, 0, type="leader_pick", leader="emhyr_the_relentless")
    return s


def test_a_card_that_is_not_a_name_is_refused_while_building_a_deck():
    s = _building_table()
    for bad in ({}, ["cahir"], 7):
        assert reject(s, 0, type="deck_add", card=bad).key == "gwent.reject.not_in_pool"
        assert reject(s, 0, type="deck_remove", card=bad).key == "gwent.reject.not_in_pool"


def test_stray_fields_of_a_set_up_action_stay_out_of_the_record():
    s = _building_table()
    result = apply(s, 0, type="deck_preset", seat=1, to=None, card="cahir")
    assert event(result.events, "setup_step")["data"] == {"seat": 0, "step": "deck_preset"}
    result = apply(s, 0, type="deck_add", card="cahir", junk="x" * 5000)
    assert event(result.events, "setup_step")["data"] == {"seat": 0, "step": "deck_add", "card": "cahir"}


def test_true_is_not_a_seat_and_one_is_not_idle():
    s = GAME.initial_state(2, seed="x", options={"faction_a": "scoiatael", "faction_b": "monsters",
                                                 "variant": "hardgwent"}).state
    for seat in (0, 1):
        s = act(s, seat, type="mulligan_done")
    assert reject(s, 0, type="first", seat=True).key == "gwent.reject.bad_seat"
    s = act(s, 0, type="first", seat=0)
    assert reject(s, 0, type="leader", leader="francesca_pureblood_elf", idle=1).key == "gwent.reject.leader_spec"
    s = act(s, 0, type="leader", leader="francesca_pureblood_elf", idle=False)  # false: a real activation
    assert s["weather"] and s["weather"][0]["kind"] == "frost"


# ---------------------------------------------------------------------------------------------- rulings GW-27..29
def _invader_with_an_empty_hand(**options):
    s = table("nilfgaard", "northern_realms", variant="hardgwent", first=1, filler=False, **options)
    give(s, 1, "ves", "yarpen_zigrin")
    s = act(s, 1, type="play", card=find(s, 1, "ves", ("hand",)))
    spy = discard(s, 0, "vattier_de_rideaux")
    s["discard"][0].remove(spy)
    s["discard"][1].append(spy)          # my spy died on the opponent's side: it lies in his pile
    assert s["hand"][0] == [] and s["turn"]["need"] == 2
    s = act(s, 0, type="leader", leader="emhyr_invader_of_the_north")
    return s, spy


def test_invader_of_the_north_into_an_empty_hand_is_an_automatic_pass():
    # §8 note 3 a): «В руке 0 карт, а игрок активирует Лидерскую карту "Завоеватель Севера" для воскрешения
    # из отбоя Шпиона ... произойдет автопас»
    s, spy = _invader_with_an_empty_hand()
    result = apply(s, 0, type="take", card=spy)
    s = result.state
    passed = event(result.events, "passed")
    assert s["players"][0]["passed"] and s["hand"][0] == [spy] and s["turn"]["seat"] == 1
    assert (passed["data"]["auto"], passed["data"]["rule"]) == ("taken_card_waits", "§8")
    assert "(см. §8)" in GAME.render_event(passed, "ru", ["Аня", "Боб"])


def test_gw27_option_a_card_the_invader_takes_into_an_empty_hand_may_be_the_second_card():
    s, spy = _invader_with_an_empty_hand(empty_hand_take="play")
    s = act(s, 0, type="take", card=spy)
    assert not s["players"][0]["passed"] and s["turn"]["seat"] == 0
    s = act(s, 0, type="play", card=spy)
    assert spy in s["rows"][1]["melee"] and len(s["hand"][0]) == 2 and not s["players"][0]["passed"]


def test_gw27_option_play_pass_the_spy_is_played_then_the_automatic_pass_keeps_its_two_cards():
    # §8 note 3: «произойдет автопас и дополнительные карты можно будет использовать только в следующем раунде»
    # read as: the Invader's spy is played as the second card, the empty hand passes, the spy's cards wait
    s, spy = _invader_with_an_empty_hand(empty_hand_take="play_pass")
    s = act(s, 0, type="take", card=spy)
    assert not s["players"][0]["passed"] and s["turn"]["seat"] == 0 and s["hand"][0] == [spy]
    result = apply(s, 0, type="play", card=spy)
    s = result.state
    passed = event(result.events, "passed")
    assert spy in s["rows"][1]["melee"], "the spy went to the opponent's side"
    assert s["players"][0]["passed"] and len(s["hand"][0]) == 2, "passed, with the spy's two cards kept"
    assert (passed["data"]["auto"], passed["data"]["rule"]) == ("taken_card_played", "GW-27")
    kinds = [e["kind"] for e in result.events]
    assert kinds.index("passed") < max(i for i, k in enumerate(kinds) if k.startswith("dr")), \
        "the spy's cards arrive after the turn"
    assert "GW-27" in GAME.render_event(passed, "en", ["Ann", "Bob"])


def test_the_relentless_is_not_the_listed_case_its_card_may_be_the_second():
    # §8: «игрок может забрать карту с поля или отбоя в Руку и тут же выложить ее»; note 3 a) names the Invader
    s = table("nilfgaard", "northern_realms", variant="hardgwent", first=1, filler=False)
    s = act(s, 1, type="play", card=give(s, 1, "ves"))
    cahir = discard(s, 0, "cahir")
    s = act(s, 0, type="leader", leader="emhyr_the_relentless")
    s = act(s, 0, type="take", card=cahir)
    assert not s["players"][0]["passed"] and s["turn"]["seat"] == 0


def test_gw27_without_a_second_card_the_leader_alone_is_a_pass_and_its_cards_come_after():
    # the rule book's case b: an empty hand, Daisy of the Valley -> automatic pass, two cards for later
    s = table("scoiatael", "northern_realms", variant="hardgwent", first=1, filler=False)
    give(s, 1, "ves", "yarpen_zigrin")
    s = act(s, 1, type="play", card=find(s, 1, "ves", ("hand",)))
    result = apply(s, 0, type="leader", leader="francesca_daisy_of_the_valley")
    s = result.state
    assert s["players"][0]["passed"] and len(s["hand"][0]) == 2
    assert event(result.events, "passed")["data"]["auto"] == "no_second_card"


def test_the_hardgwent_treacherous_spares_crachs_leader_horn_but_halves_a_horn_card():
    # §7 the Treacherous: «ослабляет в нем нелидерский эффект командирского рога»; Crach an Craite is a leader
    s = table("skellige", "monsters", variant="hardgwent", first=0)
    lugos = place(s, 0, "madman_lugos")
    s = act(s, 0, type="leader", leader="crach_an_craite", row="melee")
    assert strength(s, lugos) == 120
    result = apply(s, 1, type="leader", leader="eredin_the_treacherous", row="melee")
    s = result.state
    assert strength(s, lugos) == 120
    line = GAME.render_event(event(result.events, "leader"), "ru", ["Аня", "Боб"])
    assert "ряд «ближний» соперника (Аня)" in line
    s = table("skellige", "monsters", variant="hardgwent", first=0)
    lugos = place(s, 0, "madman_lugos")
    relocate(s, give(s, 0, "commanders_horn"), ["horn", 0, "melee"])
    s = act(s, 0, type="pass")
    s = act(s, 1, type="leader", leader="eredin_the_treacherous", row="melee")
    assert strength(s, lugos) == 90


def test_gw28_option_the_treacherous_weakens_crachs_horn_too():
    s = table("skellige", "monsters", variant="hardgwent", first=0, treacherous_crach=True)
    lugos = place(s, 0, "madman_lugos")
    result = apply(s, 0, type="leader", leader="crach_an_craite", row="melee")
    assert "ряд «ближний»" in GAME.render_event(event(result.events, "leader"), "ru", ["Аня", "Боб"])
    s = act(result.state, 1, type="leader", leader="eredin_the_treacherous", row="melee")
    assert strength(s, lugos) == 90


def test_gw29_bringer_of_death_revives_no_hero_and_valhalla_only_from_its_own_pile():
    s = table("monsters", "northern_realms", variant="hardgwent")
    discard(s, 1, "vernon_roche")
    ves = discard(s, 1, "ves")
    discard(s, 0, "draug")
    s = act(s, 0, type="leader", leader="eredin_bringer_of_death")
    assert {a["card"] for a in offered(s, 0, "revive")} == {ves}
    r = reject(s, 0, type="revive", card=find(s, 1, "vernon_roche", ("discard",)))
    assert (r.key, r.rule) == ("gwent.reject.bad_revive", "GW-29")
    s = table("skellige", "northern_realms", variant="hardgwent")
    discard(s, 1, "vernon_roche")
    discard(s, 1, "ves")
    s = act(s, 0, type="leader", leader="valhalla")
    assert offered(s, 0, "revive") == [] and s["turn"]["seat"] == 1


def test_the_prompt_of_a_double_move_asks_for_two_cards():
    s = table(variant="hardgwent")
    assert GAME.to_act(s)[0].prompt == "gwent.prompt.turn"   # the round's first turn: one card
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    assert GAME.to_act(s)[0].prompt == "gwent.prompt.two_cards"
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    assert GAME.to_act(s)[0].prompt == "gwent.prompt.second_card"
    s = act(s, 1, type="pass")
    assert GAME.to_act(s)[0].prompt == "gwent.prompt.turn"   # after a pass: one card at a time (GW-8)


def test_the_round_end_message_carries_a_copy_of_the_final_table():
    s = table()
    place(s, 0, "ves")
    place(s, 1, "cahir")
    place(s, 1, "heavy_zerrikanian_fire_scorpion")
    s = act(s, 0, type="play", card=give(s, 0, "biting_frost"))
    s = act(s, 1, type="pass")
    result = apply(s, 0, type="pass")
    end = event(result.events, "round_end")
    text = GAME.render_event(end, "ru", ["Аня", "Боб"])
    assert text.endswith("Погода: Мороз")
    assert "\n  Аня:\n    ближний 1: Бьянка 1\n" in text
    assert "\n  Боб:\n    ближний 1: Кагыр Маур аэп Кеаллах 1\n    осадный 10:\n      Бол. огненный скорпион 10\n" in text
    assert result.state["rows"][1]["melee"] == []   # the field itself is cleared for round 2


@pytest.mark.parametrize("variant", ["standard", "hardgwent"])
@pytest.mark.parametrize("faction,lid,kind", [("nilfgaard", "emhyr_his_imperial_majesty", "rain"),
                                              ("northern_realms", "foltest_king_of_temeria", "fog"),
                                              ("scoiatael", "francesca_pureblood_elf", "frost")])
def test_weather_leaders_bring_their_weather_without_a_card(variant, faction, lid, kind):
    s = table(faction, "monsters", variant=variant, leaders=(lid, None) if variant == "standard" else (None, None))
    deck_before = len(s["deck"][0]) + len(s["aside"][0])
    s = act(s, 0, type="leader", leader=lid)
    assert s["weather"] == [{"kind": kind, "uid": None, "seat": 0}]
    assert len(s["deck"][0]) + len(s["aside"][0]) == deck_before


@pytest.mark.parametrize("faction,lid,row,unit", [("scoiatael", "francesca_the_beautiful", "ranged", "ida_emean"),
                                                  ("monsters", "eredin_commander_of_the_red_riders", "melee", "fiend")])
def test_standard_leader_horns_replace_a_horn_card_and_double(faction, lid, row, unit):
    s = table(faction, "nilfgaard", leaders=(lid, None))
    uid = place(s, 0, unit)
    horn = give(s, 0, "commanders_horn")
    s = act(s, 0, type="play", card=horn, row=row)
    s = act(s, 1, type="pass")
    s = act(s, 0, type="leader", leader=lid)
    assert horn in s["discard"][0] and strength(s, uid) == catalogue().card(unit).strength * 20


def test_turns_are_counted_from_one_again_in_every_round():
    s = table()
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    assert s["turn_no"] == 3
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="pass")
    turn = event(result.events, "turn")
    assert turn["data"]["n"] == 1 and GAME.view(result.state, None)["turn_no"] == 1
    assert "ход 1" in GAME.render_view(GAME.view(result.state, None), "ru", ["Аня", "Боб"])


def test_a_refused_leader_says_why():
    s = table("monsters", "nilfgaard", leaders=("eredin_the_treacherous", None))
    r = reject(s, 0, type="leader", leader="eredin_the_treacherous")
    assert (r.key, r.rule) == ("gwent.reject.leader_passive", "§7")
    s = table("monsters", "nilfgaard", leaders=("eredin_bringer_of_death", "emhyr_the_white_flame"))
    assert reject(s, 0, type="leader", leader="eredin_bringer_of_death").key == "gwent.reject.leader_blocked"
    s = table("monsters", "nilfgaard", leaders=("eredin_bringer_of_death", None))
    s = act(s, 0, type="leader", leader="eredin_bringer_of_death", idle=True)
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    assert reject(s, 0, type="leader", leader="eredin_bringer_of_death").key == "gwent.reject.leader_used"
    s = table("monsters", "nilfgaard", variant="hardgwent")
    s = act(s, 0, type="leader", leader="eredin_bringer_of_death", idle=True)
    s = act(s, 1, type="pass")
    r = reject(s, 0, type="leader", leader="eredin_the_treacherous", row="melee")
    assert (r.key, r.rule) == ("gwent.reject.leader_this_round", "§8")
    s["players"][0]["leaders_used"] += ["eredin_the_treacherous", "eredin_destroyer_of_worlds"]
    s["players"][0]["leader_round"] = False
    r = reject(s, 0, type="leader", leader="eredin_king_of_the_wild_hunt", weather="rain")
    assert (r.key, r.rule) == ("gwent.reject.leader_three", "§8")
    assert reject(s, 0, type="leader", leader="eredin_bringer_of_death").key == "gwent.reject.leader_used"


def test_valhalla_refuses_a_special_card_with_its_own_reason():
    s = table("skellige", "nilfgaard", variant="hardgwent")
    discard(s, 0, "cerys")
    horn = discard(s, 0, "commanders_horn")
    s = act(s, 0, type="leader", leader="valhalla")
    r = reject(s, 0, type="revive", card=horn)
    assert (r.key, r.rule) == ("gwent.reject.bad_revive_hero_too", "GW-29")


def test_the_wrong_kind_of_choice_is_refused_in_words_not_action_names():
    s = table()
    ves = discard(s, 0, "ves")
    s = act(s, 0, type="play", card=give(s, 0, "dun_banner_medic"))
    r = reject(s, 0, type="take", card=ves)
    assert r.key == "gwent.reject.expected_revive"
    assert r.message("ru").startswith("Сейчас нужно решить другое: кого воскресить")
    assert "revive" not in r.message("uk")


def test_gw31_a_horn_with_every_row_taken_stays_in_the_hand():
    s = table()
    for row in ("melee", "ranged"):
        relocate(s, give(s, 0, "commanders_horn"), ["horn", 0, row])
    s["slots"][0]["siege"]["leader_horn"] = True   # the Siegemaster's horn holds the siege place (GW-23)
    horn = give(s, 0, "commanders_horn")
    assert all(a.get("card") != horn for a in GAME.legal_actions(s, 0))
    r = reject(s, 0, type="play", card=horn, row="siege")
    assert (r.key, r.rule) == ("gwent.reject.no_free_row", "§2")


def test_every_modifier_at_once_bran_bond_boost_weakened_horn_in_tenths():
    # Frost with King Bran halves (6 -> 3), tight bond x2 (6), Olaf's boost +1 (7), horn weakened by the
    # Treacherous x1.5 (10.5).  Olaf: 12 -> 6, no boost from himself, x1.5 = 9.
    s = table("skellige", "monsters", variant="hardgwent", first=0)
    warriors = [place(s, 0, "clan_an_craite_warrior") for _ in range(2)]
    olaf = place(s, 0, "olaf", "melee")
    s = act(s, 0, type="leader", leader="king_bran")
    s = act(s, 1, type="play", card=give(s, 1, "biting_frost"))
    s = act(s, 1, type="leader", leader="eredin_the_treacherous", row="melee")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="melee")
    assert [strength(s, w) for w in warriors] == [105, 105] and strength(s, olaf) == 90
    assert score(s, 0) == 300
    view = GAME.render_view(GAME.view(s, 1), "en", ["A", "B"])
    assert "Clan an Craite Warrior 10.5×2" in view and "── A · ♦♦ · score 30\n" in view and "Skellige · leaders:" in view


def test_mirror_scoiatael_draw_lots_and_mirror_skellige_revive_nobody():
    s = GAME.initial_state(2, seed="m", options={"faction_a": "scoiatael", "faction_b": "scoiatael",
                                                 "variant": "hardgwent"},
                           stack={"rolls": {"gwent.first": [1]}}).state
    for seat in (0, 1):
        s = act(s, seat, type="mulligan_done")
    assert s["phase"] == "play" and s["turn"]["seat"] == 1
    s = table("skellige", "skellige")
    discard(s, 0, "olaf")
    place(s, 1, "madman_lugos")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")              # seat 1 wins round 1
    place(s, 0, "madman_lugos")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="pass")              # seat 0 wins round 2
    assert s["round"] == 3 and s["phase"] == "play" and s["stack"] == []


def test_gw32_white_flame_undoes_valhalla_but_not_the_transformation_it_caused():
    s = table("skellige", "nilfgaard", variant="hardgwent", first=0)
    young = [place(s, 0, "young_berserker") for _ in range(2)]
    ermion = discard(s, 0, "ermion")
    s = act(s, 0, type="leader", leader="valhalla")
    s = act(s, 0, type="revive", card=ermion)
    assert ids(s, young) == ["transformed_young_vildkaarl"] * 2
    s = act(s, 1, type="leader", leader="emhyr_the_white_flame")
    assert ermion in s["discard"][0] and ids(s, young) == ["transformed_young_vildkaarl"] * 2
    assert all(u in s["rows"][0]["ranged"] for u in young)


def test_hardgwent_emperor_sees_six_cards_chosen_by_the_opponent():
    s = table("nilfgaard", "monsters", variant="hardgwent", first=0)
    hand = give(s, 1, "fiend", "griffin", "werewolf", "botchling", "foglet", "harpy", "wyvern")
    s = act(s, 0, type="leader", leader="emhyr_emperor_of_nilfgaard")
    assert GAME.to_act(s)[0].seat == 1 and GAME.to_act(s)[0].prompt == "gwent.prompt.reveal"
    for uid in hand[:6]:
        s = act(s, 1, type="reveal", card=uid)
    assert len(s["revealed"][0]) == 6 and s["turn"]["seat"] == 1
    assert len(GAME.view(s, None)["players"][1]["shown"]) == 6  # named in the thread (§7)


def test_hardgwent_leader_row_scorches_need_twenty_points():
    for lid, faction, row_cards in (("foltest_son_of_medell", "northern_realms", ["black_infantry_archer", "cynthia"]),
                                    ("francesca_queen_of_dol_blathanna", "scoiatael", ["cahir", "rainfarn", "morteisen"])):
        s = table(faction, "nilfgaard", variant="hardgwent")
        for cid in row_cards:
            place(s, 1, cid)                         # 14 and 13 points: under 20, nobody dies
        s = act(s, 0, type="leader", leader=lid)
        assert s["discard"][1] == [], lid
        s = table(faction, "nilfgaard", variant="hardgwent")
        for cid in row_cards + ["letho_of_gulet" if "cahir" in row_cards else "tibor_eggebracht"]:
            place(s, 1, cid)                         # a hero tips it over 20 and survives
        s = act(s, 0, type="leader", leader=lid)
        assert ids(s, s["discard"][1]) == [row_cards[0]], lid


def test_both_discard_piles_are_on_everyones_board():
    s = table()
    discard(s, 0, "ves")
    discard(s, 1, "cahir")
    discard(s, 1, "impera_brigade_guard")
    discard(s, 1, "impera_brigade_guard")
    for seat in (0, 1, None):
        # the compact board counts the piles; the full board lists them (wrapped to a phone's width)
        compact = GAME.render_view(GAME.view(s, seat), "ru", ["Аня", "Боб"])
        assert "отбой 1" in compact and "отбой 3" in compact and "Бригада «Импера»" not in compact
        board = " ".join(GAME.render_view(GAME.view(s, seat), "ru", ["Аня", "Боб"], full=True).split())
        assert "Отбой: Бьянка" in board and "Отбой: Кагыр Маур аэп Кеаллах, Бригада «Импера»×2" in board


# ---------------------------------------------------------------------------------------------- the judge's lines
def test_the_faction_announcement_names_the_leaders():
    s = GAME.initial_state(2, seed="f", options={"faction_a": "skellige", "faction_b": "nilfgaard"}, now=0).state
    events = []
    for seat in (0, 1):
        while s["setup"][seat]["step"] != "ready":
            legal = GAME.legal_actions(s, seat)
            result = apply(s, seat, **next((a for a in legal if a["type"] == "deck_preset"), legal[0]))
            s, events = result.state, events + result.events
    line = GAME.render_event(event(events, "factions"), "ru", ["Аня", "Боб"])
    assert line == "Аня: Скеллиге, лидер: Крах ан Крайт. Боб: Нильфгаард, лидер: Йож из Эрленвальда."
    s = table("skellige", "nilfgaard", variant="hardgwent")
    data = {"factions": ["skellige", "nilfgaard"], "leaders": [p["leaders"] for p in s["players"]]}
    line = GAME.render_event({"kind": "factions", "to": None, "data": data}, "en", ["Ann", "Bob"])
    assert line.startswith("Ann: Skellige, leaders Crach an Craite, King Bran, Harald the Cripple, Valhalla, Helheim.")


def test_a_draw_is_announced_with_its_number():
    s = table("northern_realms", "nilfgaard", variant="hardgwent")
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    s = act(s, 1, type="play", card=give(s, 1, "vattier_de_rideaux"))   # a spy: two cards in HardGwent
    result = apply(s, 1, type="play", card=s["hand"][1][0])             # the turn's second card: a Decoy
    line = GAME.render_event(event(result.events, "drew_count"), "en", ["Ann", "Bob"])
    assert line == "Bob draws 2 cards."
    assert GAME.render_event(event(result.events, "drew_count"), "ru", ["Аня", "Боб"]) == "Боб берёт из колоды 2 карты."


def test_the_decoy_is_announced_before_the_hemdall_it_calls():
    s = table("skellige", "monsters")
    kambi = place(s, 0, "kambi")
    result = apply(s, 0, type="play", card=s["hand"][0][0], target=kambi)
    lines = [GAME.render_event(e, "en", ["Ann", "Bob"]) for e in result.events]
    decoyed = next(i for i, line in enumerate(lines) if line and line.startswith("Decoy: Kambi"))
    assert lines[decoyed + 1].startswith("Hemdall takes the field (Ann).")
