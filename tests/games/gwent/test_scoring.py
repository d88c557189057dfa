"""Scoring: weather -> tight bond -> morale boost -> horn (-> the Treacherous), heroes immune, in tenths."""
from .helpers import act, find, give, place, score, strength, table


def test_weather_drops_units_to_one_but_not_heroes_or_zeros():
    s = table()
    cat = place(s, 0, "catapult")
    roche = place(s, 0, "vernon_roche")
    thaler = place(s, 0, "thaler")  # strength 1 spy played on own side: stays 1
    s = act(s, 0, type="play", card=give(s, 0, "torrential_rain"))
    assert strength(s, cat) == 10 and strength(s, thaler) == 10
    assert strength(s, roche) == 100


def test_all_four_modifiers_in_the_rule_book_order():
    # Rain (1) -> tight bond x3 (3) -> morale boost +1 from one siege expert (4) -> horn x2 (8).
    s = table()
    cats = [place(s, 0, "catapult") for _ in range(3)]
    expert = place(s, 0, "kaedweni_siege_expert")
    s = act(s, 0, type="play", card=give(s, 0, "torrential_rain"))
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="siege")
    for uid in cats:
        assert strength(s, uid) == 80
    assert strength(s, expert) == 20  # rain 1, its own boost does not count, horn x2
    assert score(s, 0) == 3 * 80 + 20


def test_morale_boosters_boost_each_other_but_not_themselves():
    s = table()
    experts = [place(s, 0, "kaedweni_siege_expert") for _ in range(3)]
    tower = place(s, 0, "siege_tower")
    assert strength(s, tower) == (7 + 3) * 10
    assert all(strength(s, e) == (1 + 2) * 10 for e in experts)


def test_bard_doubles_everyone_but_himself_and_a_horn_card_does_not_stack():
    s = table("monsters", "nilfgaard")
    bard = place(s, 0, "dandelion")
    fiend = place(s, 0, "fiend")
    draug = place(s, 0, "draug")
    assert strength(s, bard) == 20 and strength(s, fiend) == 140 and strength(s, draug) == 100
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="melee")
    assert strength(s, bard) == 40 and strength(s, fiend) == 140  # x2 only once


def test_king_bran_halves_the_weather_loss_on_his_side_only():
    s = table("skellige", "nilfgaard", leaders=("king_bran", None))
    madman = place(s, 0, "madman_lugos")                                     # 6 -> 3
    warriors = [place(s, 0, "clan_an_craite_warrior") for _ in range(3)]     # 6 -> 3, bond x3 -> 9
    enemy = place(s, 1, "cahir")                                             # 6 -> 1
    s = act(s, 0, type="play", card=give(s, 0, "biting_frost"))
    assert strength(s, madman) == 30 and strength(s, enemy) == 10
    assert all(strength(s, u) == 90 for u in warriors)


def test_king_bran_keeps_halves_as_tenths_and_never_does_worse_than_plain_weather():
    s = table("skellige", "nilfgaard", leaders=("king_bran", None))
    regis = place(s, 0, "emiel_regis")          # 5 -> 2.5
    young = place(s, 0, "young_berserker")       # ranged 2 -> 1 (half of 2 equals plain weather)
    birna = place(s, 0, "birna_bran")            # 2 -> 1
    frost, fog = give(s, 0, "biting_frost", "impenetrable_fog")
    s = act(s, 0, type="play", card=frost)
    s = act(s, 1, type="pass")
    s = act(s, 0, type="play", card=fog)
    assert strength(s, regis) == 25 and strength(s, young) == 10 and strength(s, birna) == 10
    assert score(s, 0) == 45


def test_the_treacherous_doubles_every_spy_after_the_horn():
    s = table("monsters", "northern_realms", leaders=("eredin_the_treacherous", None))
    stennis = place(s, 0, "prince_stennis", owner=1)   # an enemy spy on the Monsters' side
    dandelion = place(s, 0, "dandelion")
    assert strength(s, stennis) == 5 * 2 * 2 * 10
    assert strength(s, dandelion) == 20


def test_hardgwent_leader_horn_adds_to_a_horn_card_and_the_treacherous_weakens_it():
    s = table("northern_realms", "monsters", variant="hardgwent")
    tower = place(s, 0, "siege_tower")
    give(s, 0, "trebuchet")  # a card left, so the round goes on after the leader
    s = act(s, 0, type="play", card=give(s, 0, "commanders_horn"), row="siege")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="leader", leader="foltest_the_siegemaster")
    assert strength(s, tower) == 7 * 3 * 10
    # The Treacherous on that row: the card horn gives +50 % instead of +100 %: 7 x (1 + 0.5 + 1) = 17.5
    s["weak_horn"][0] = ["siege"]
    assert strength(s, tower) == 175


def test_hardgwent_hope_gives_agile_units_a_morale_boost():
    s = table("scoiatael", "nilfgaard", variant="hardgwent")
    scouts = [place(s, 0, "dol_blathanna_scout", "melee") for _ in range(2)]
    dwarf = place(s, 0, "mahakaman_defender")
    s = act(s, 0, type="leader", leader="francesca_hope_of_the_aen_seidhe")
    assert strength(s, dwarf) == (5 + 2) * 10
    assert all(strength(s, u) == (6 + 1) * 10 for u in scouts)
    assert find(s, 0, "mahakaman_defender", zones=("row",)) == dwarf
