"""Leader cards in their forum form, both variants, and the HardGwent leader limits and White Flame."""
from bot.engine import Code
from bot.games.gwent import GAME
from bot.games.gwent.leaders import usable_leaders

from bot.games.gwent.state import relocate

from .helpers import NAMES, act, apply, discard, event, find, give, kinds, place, reject, score, strength, table


def test_weather_leaders_need_no_card_in_the_deck():
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_his_imperial_majesty", None))
    cat = place(s, 1, "catapult")
    s = act(s, 0, type="leader", leader="emhyr_his_imperial_majesty")
    assert strength(s, cat) == 10 and s["weather"] == [{"kind": "rain", "uid": None, "seat": 0}]
    assert usable_leaders(s, 0) == []  # once a game in standard


def test_eredin_commander_chooses_any_weather_and_foltest_clears_it():
    s = table("monsters", "northern_realms", leaders=("eredin_king_of_the_wild_hunt", "foltest_lord_commander_of_the_north"))
    ves = place(s, 1, "ves")
    assert reject(s, 0, type="leader", leader="eredin_king_of_the_wild_hunt", weather="storm").key == "gwent.reject.leader_spec"
    s = act(s, 0, type="leader", leader="eredin_king_of_the_wild_hunt", weather="frost")
    assert strength(s, ves) == 10
    s = act(s, 1, type="leader", leader="foltest_lord_commander_of_the_north")
    assert strength(s, ves) == 50 and s["weather"] == []


def test_standard_leader_horn_replaces_a_horn_card():
    s = table(leaders=("foltest_the_siegemaster", None))
    tower = place(s, 0, "siege_tower")
    horn = give(s, 0, "commanders_horn")
    s = act(s, 0, type="play", card=horn, row="siege")
    s = act(s, 1, type="pass")
    give(s, 0, "trebuchet")
    s = act(s, 0, type="leader", leader="foltest_the_siegemaster")
    assert horn in s["discard"][0] and s["slots"][0]["siege"]["leader_horn"] and strength(s, tower) == 140


def test_steel_forged_is_a_siege_row_scorch_in_standard_and_an_enemy_scorch_in_hardgwent():
    s = table(leaders=("foltest_the_steel_forged", None))
    scorpion = place(s, 1, "heavy_zerrikanian_fire_scorpion")  # 10 on the siege row
    mine = place(s, 0, "catapult")                              # 8, mine, never hit
    s = act(s, 0, type="leader", leader="foltest_the_steel_forged")
    assert scorpion in s["discard"][1] and mine in s["rows"][0]["siege"]
    s = table(variant="hardgwent")
    archer = place(s, 1, "black_infantry_archer")  # 10, ranged: any row of the enemy
    tower = place(s, 0, "siege_tower")             # mine
    place(s, 0, "vernon_roche")
    s = act(s, 0, type="leader", leader="foltest_the_steel_forged")
    assert archer in s["discard"][1] and tower in s["rows"][0]["siege"]


def test_hardgwent_leader_row_scorch_kills_at_most_six():
    s = table("skellige", "monsters", variant="hardgwent")
    for _ in range(9):
        place(s, 1, "ghoul", "siege")  # nine 1-point ghouls on the siege row: 9 < 20, nothing
    result = apply(s, 0, type="leader", leader="harald_the_cripple")
    assert "row_scorch_short" in kinds(result.events)
    s = table("skellige", "monsters", variant="hardgwent")
    for _ in range(9):
        place(s, 1, "ghoul", "siege")
    s["slots"][1]["siege"]["leader_horn"] = True
    s["slots"][1]["siege"]["horn_crach"] = True  # 1 x 3 = 3 each, 27 on the row
    result = apply(s, 0, type="leader", leader="harald_the_cripple")
    assert len(event(result.events, "scorched")["data"]["killed"]) == 6


def test_daisy_gives_an_eleventh_card_unless_the_white_flame_blocks_her():
    s = table("scoiatael", "northern_realms", leaders=("francesca_daisy_of_the_valley", None), empty_hands=False, filler=False)
    assert len(s["hand"][0]) == 11 and len(s["hand"][1]) == 10
    s = table("scoiatael", "nilfgaard", leaders=("francesca_daisy_of_the_valley", "emhyr_the_white_flame"),
              empty_hands=False, filler=False)
    assert len(s["hand"][0]) == 10 and usable_leaders(s, 0) == []


def test_hardgwent_daisy_draws_two_after_the_turn():
    s = table("scoiatael", "nilfgaard", variant="hardgwent")
    hand = len(s["hand"][0])
    s = act(s, 0, type="leader", leader="francesca_daisy_of_the_valley")
    assert len(s["hand"][0]) == hand + 2 and s["turn"]["seat"] == 1


def test_emperor_the_opponent_chooses_what_to_show_and_names_it_in_the_thread():
    # §7: «Карты указывает не в ЛС, а в сообщении в теме игры»
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_emperor_of_nilfgaard", None))
    shown = give(s, 1, "catapult", "ves", "vernon_roche", "thaler", "keira_metz")
    s = act(s, 0, type="leader", leader="emhyr_emperor_of_nilfgaard")
    assert GAME.to_act(s)[0].seat == 1 and GAME.to_act(s)[0].prompt == "gwent.prompt.reveal"
    for uid in shown[:3]:
        result = apply(s, 1, type="reveal", card=uid)
        assert event(result.events, "revealed")["to"] is None
        s = result.state
    assert s["turn"]["seat"] == 1
    for viewer in (0, 1, None):
        assert sorted(GAME.view(s, viewer)["players"][1]["shown"]) == ["catapult", "vernon_roche", "ves"]
        assert "Катапульта" in GAME.render_view(GAME.view(s, viewer), "ru", NAMES)
    assert GAME.view(s, None)["players"][0]["shown"] == []
    # a shown card that leaves the hand is no longer listed
    s = act(s, 1, type="play", card=shown[0])
    assert sorted(GAME.view(s, None)["players"][1]["shown"]) == ["vernon_roche", "ves"]


def test_emperor_shown_to_the_owner_only_with_the_option():
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_emperor_of_nilfgaard", None), emperor_shown_to="owner")
    shown = give(s, 1, "catapult", "ves", "vernon_roche", "thaler", "keira_metz")
    s = act(s, 0, type="leader", leader="emhyr_emperor_of_nilfgaard")
    for uid in shown[:3]:
        result = apply(s, 1, type="reveal", card=uid)
        assert event(result.events, "revealed")["to"] == [0, 1]
        s = result.state
    assert sorted(GAME.view(s, 0)["players"][1]["shown"]) == ["catapult", "vernon_roche", "ves"]
    assert GAME.view(s, None)["players"][1]["shown"] == []
    assert "Катапульта" in GAME.render_view(GAME.view(s, 0), "ru", NAMES)
    assert "Катапульта" not in GAME.render_view(GAME.view(s, None), "ru", NAMES)


def test_emperor_random_option_and_small_hands_are_shown_whole():
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_emperor_of_nilfgaard", None), emperor_reveal="random")
    give(s, 1, "catapult", "ves", "vernon_roche", "thaler")
    s = act(s, 0, type="leader", leader="emhyr_emperor_of_nilfgaard")
    assert len(GAME.view(s, 0)["players"][1]["shown"]) == 3 and s["turn"]["seat"] == 1
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_emperor_of_nilfgaard", None), filler=False)
    give(s, 1, "catapult", "ves")
    give(s, 0, "cahir")
    s = act(s, 0, type="leader", leader="emhyr_emperor_of_nilfgaard")
    assert sorted(GAME.view(s, None)["players"][1]["shown"]) == ["catapult", "ves"]


def test_take_from_discard_leaders():
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_the_relentless", None))
    mine = discard(s, 0, "cahir")
    discard(s, 0, "letho_of_gulet")
    s = act(s, 0, type="leader", leader="emhyr_the_relentless")
    assert {a.get("card") for a in GAME.legal_actions(s, 0)} == {mine, None}
    s = act(s, 0, type="take", card=mine)
    assert mine in s["hand"][0]
    s = table("nilfgaard", "northern_realms", leaders=("emhyr_invader_of_the_north", None))
    theirs = discard(s, 1, "prince_stennis")
    s = act(s, 0, type="leader", leader="emhyr_invader_of_the_north")
    s = act(s, 0, type="take", card=theirs)
    assert theirs in s["hand"][0] and s["cards"][theirs]["owner"] == 1


def test_tir_na_lia_returns_to_hand_in_standard_and_revives_from_either_pile_in_hardgwent():
    s = table("monsters", "northern_realms", leaders=("eredin_bringer_of_death", None))
    fiend = discard(s, 0, "fiend")
    s = act(s, 0, type="leader", leader="eredin_bringer_of_death")
    s = act(s, 0, type="take", card=fiend)
    assert fiend in s["hand"][0]
    s = table("monsters", "northern_realms", variant="hardgwent")
    theirs = discard(s, 1, "catapult")
    s = act(s, 0, type="leader", leader="eredin_bringer_of_death")
    s = act(s, 0, type="revive", card=theirs)
    assert theirs in s["rows"][0]["siege"] and score(s, 0) == 80


def test_oberons_killer_discards_two_and_takes_a_secret_card():
    s = table("monsters", "northern_realms", leaders=("eredin_destroyer_of_worlds", None))
    a, b = give(s, 0, "ghoul", "nekker")
    s = act(s, 0, type="leader", leader="eredin_destroyer_of_worlds")
    s = act(s, 0, type="discard", card=a)
    s = act(s, 0, type="discard", card=b)
    assert a in s["discard"][0] and s["stack"][-1]["kind"] == "take_deck"
    draug = find(s, 0, "draug", ("deck", "aside"))
    result = apply(s, 0, type="take", card=draug)
    assert draug in result.state["hand"][0]
    assert event(result.events, "chose")["to"] == [0]
    public = [e for e in result.events if e["to"] is None]
    assert "draug" not in str(public)


def test_the_treacherous_in_hardgwent_weakens_an_enemy_horn():
    s = table("monsters", "northern_realms", variant="hardgwent", first=1)
    tower = place(s, 1, "siege_tower")
    s = act(s, 1, type="play", card=give(s, 1, "commanders_horn"), row="siege")
    s = act(s, 0, type="leader", leader="eredin_the_treacherous", row="siege")
    assert strength(s, tower) == 105


def test_crach_sends_discards_back_to_their_owners_decks_but_not_the_faction_card():
    s = table("skellige", "nilfgaard", leaders=("crach_an_craite", None))
    theirs = discard(s, 1, "cahir")
    fc = discard(s, 0, "faction_card_skellige")
    mine = discard(s, 0, "olaf")
    s = act(s, 0, type="leader", leader="crach_an_craite", pile="both")
    assert theirs in s["deck"][1] and mine in s["deck"][0] and fc in s["discard"][0]


def test_helheim_returned_cards_cannot_be_summoned():
    s = table("skellige", "nilfgaard", variant="hardgwent")
    longships = [discard(s, 0, "light_longship") for _ in range(2)]
    s = act(s, 0, type="leader", leader="helheim")
    assert all(u in s["deck"][0] + s["aside"][0] for u in longships)
    s = act(s, 1, type="pass")
    fresh = next(u for u, c in sorted(s["cards"].items()) if c["id"] == "light_longship" and u not in longships)
    relocate(s, fresh, ["hand", 0])
    s = act(s, 0, type="play", card=fresh)
    ranged = [s["cards"][u]["id"] for u in s["rows"][0]["ranged"]]
    assert ranged.count("light_longship") == 2  # the two Helheim sent back stay in the deck


def test_hope_lets_agile_units_change_rows_once_a_turn():
    s = table("scoiatael", "nilfgaard", leaders=("francesca_hope_of_the_aen_seidhe", None))
    scout = place(s, 0, "dol_blathanna_scout", "melee")
    place(s, 0, "iorveth")
    s = act(s, 0, type="move", card=scout)
    assert scout in s["rows"][0]["ranged"] and s["turn"]["seat"] == 0  # a move is not the turn's card
    assert reject(s, 0, type="move", card=scout).key == "gwent.reject.cannot_move"


def test_hardgwent_leader_limits():
    s = table("northern_realms", "nilfgaard", variant="hardgwent")
    give(s, 0, "ves", "yarpen_zigrin", "trebuchet")
    s = act(s, 0, type="leader", leader="foltest_king_of_temeria")
    assert usable_leaders(s, 0) == []  # one leader a round
    s = act(s, 1, type="pass")
    s = act(s, 0, type="pass")
    assert s["round"] == 2
    assert len(usable_leaders(s, 0)) == 4 and "foltest_king_of_temeria" not in usable_leaders(s, 0)
    s["players"][0]["leaders_used"] += ["foltest_the_siegemaster", "foltest_son_of_medell"]
    assert usable_leaders(s, 0) == []  # three a game


def test_standard_white_flame_blocks_the_opponents_leader_and_his_passive_leaders():
    s = table("monsters", "nilfgaard", leaders=("eredin_the_treacherous", "emhyr_the_white_flame"))
    spy = place(s, 0, "vattier_de_rideaux", owner=1)
    assert strength(s, spy) == 40  # not doubled: the Treacherous is cancelled
    # «можно считать, что никаких Лидеров нет вообще»: not even idle; the White Flame itself may be used idle
    assert usable_leaders(s, 0) == [] and usable_leaders(s, 1) == ["emhyr_the_white_flame"]


def test_hardgwent_white_flame_cancels_the_previous_turns_leader_but_not_its_other_card():
    # rule book example 1: leader weather + a unit's row scorch -> the weather goes, the dead stay dead
    s = table("monsters", "nilfgaard", variant="hardgwent", first=1)
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    emissaries = [place(s, 1, "young_emissary") for _ in range(4)]  # 5 x 4 = 20 each
    s = act(s, 0, type="leader", leader="eredin_king_of_the_wild_hunt", weather="fog")
    s = act(s, 0, type="play", card=give(s, 0, "villentretenmerth"))
    dead = [u for u in emissaries if u in s["discard"][1]]
    assert len(dead) == 2 and s["weather"] and s["turn"]["seat"] == 1
    result = apply(s, 1, type="leader", leader="emhyr_the_white_flame")
    s = result.state
    assert not s["weather"] and "leader_cancelled" in kinds(result.events)
    assert all(u in s["discard"][1] for u in dead)
    # rule book example 2: a weather card + the leader's row scorch -> the dead come back, the weather stays
    s = table("nilfgaard", "scoiatael", variant="hardgwent", first=0)
    s = act(s, 0, type="play", card=give(s, 0, "cahir"))
    victims = [place(s, 0, "young_emissary") for _ in range(4)]  # 5 x 4 = 20 each
    frost = give(s, 1, "biting_frost")
    s = act(s, 1, type="leader", leader="francesca_queen_of_dol_blathanna")
    assert sum(v in s["discard"][0] for v in victims) == 2  # tight bond: at most half
    s = act(s, 1, type="play", card=frost)
    s = act(s, 0, type="leader", leader="emhyr_the_white_flame")
    assert all(v in s["rows"][0]["melee"] for v in victims) and s["weather"]


def test_hardgwent_white_flame_used_in_advance_blocks_leaders_for_the_round():
    s = table("nilfgaard", "northern_realms", variant="hardgwent")
    s = act(s, 0, type="leader", leader="emhyr_the_white_flame")
    assert usable_leaders(s, 1) == []
    assert reject(s, 1, type="leader", leader="foltest_king_of_temeria").key == "gwent.reject.leader_blocked_round"


def test_white_flame_takes_back_the_card_oberons_killer_chose():
    s = table("monsters", "nilfgaard", variant="hardgwent", first=1)
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    a, b = give(s, 0, "ghoul", "nekker")
    s = act(s, 0, type="leader", leader="eredin_destroyer_of_worlds")
    s = act(s, 0, type="discard", card=a)
    s = act(s, 0, type="discard", card=b)
    draug = find(s, 0, "draug", ("deck", "aside"))
    s = act(s, 0, type="take", card=draug)
    s = act(s, 0, type="play", card=draug)  # the chosen card played at once, as the rule book allows
    assert draug in s["rows"][0]["melee"]
    result = apply(s, 1, type="leader", leader="emhyr_the_white_flame")
    s = result.state
    assert draug in s["deck"][0] and a in s["hand"][0] and b in s["hand"][0]
    # every card that moves is named (§9): the Draug was seen on the field, the discards in the pile
    lines = [GAME.render_event(e, "ru", NAMES) for e in result.events if e["to"] is None]
    # card names quoted in a Russian sentence (issue 27)
    assert "Белое Пламя: в колоду игрока Аня уходит «Драуг»." in lines
    assert "Белое Пламя: в руку игрока Аня возвращаются «Гуль», «Накер»." in lines


def test_white_flame_names_a_secret_pick_taken_back_from_the_hand_to_its_owner_only():
    s = table("monsters", "nilfgaard", variant="hardgwent", first=1)
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    a, b = give(s, 0, "ghoul", "nekker")
    give(s, 0, "fiend")
    s = act(s, 0, type="leader", leader="eredin_destroyer_of_worlds")
    s = act(s, 0, type="discard", card=a)
    s = act(s, 0, type="discard", card=b)
    draug = find(s, 0, "draug", ("deck", "aside"))
    s = act(s, 0, type="take", card=draug)
    s = act(s, 0, type="play", card=find(s, 0, "fiend", ("hand",)))
    result = apply(s, 1, type="leader", leader="emhyr_the_white_flame")
    assert draug in result.state["deck"][0]
    private = event(result.events, "cancel_returned")
    assert private["to"] == [0] and private["data"]["cards"] == ["draug"]
    public = [GAME.render_event(e, "ru", NAMES) for e in result.events if e["to"] is None]
    assert "Белое Пламя: из руки игрока Аня в колоду уходит 1 карта." in public
    assert not any("Драуг" in line for line in public)


def test_a_leader_action_for_the_wrong_leader_is_malformed():
    s = table()
    assert reject(s, 0, type="leader", leader="emhyr_the_white_flame").code == Code.MALFORMED
