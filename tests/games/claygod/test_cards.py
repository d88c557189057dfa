"""Every one of the 74 cards: the plain ones from a table of expected changes read off the rule book, the
timed, persistent and special ones one by one."""
import pytest

from bot.games.claygod import GAME
from bot.games.claygod.cards import COLOURS, catalogue

from .helpers import act, apply, cast, event, frozen, kinds, numbers, pass_turn, push, ready, roll, table

# card: (own health, own sphere, enemy health, enemy sphere) changes, as the card's text says
PLAIN = {
    "resting_monster": (4, 0, 0, 0), "dragonfly": (0, 0, -4, 0), "demon": (0, 0, -5, -2), "sunset": (2, 0, 0, 0),
    "glazon": (0, 0, 0, -5), "maiden": (3, 3, 0, 0), "monster": (0, 0, -6, -6), "cerberus": (0, 0, -5, -5),
    "mercenary": (0, -5, -7, -7), "ring_of_life": (3, 0, -3, 0), "wyvern": (0, 0, -5, -5),
    "centaur_battle": (-5, 0, -5, 0), "hairpin": (0, 0, -3, -3), "ghost": (0, -1, 0, 0),
    "runaway_wolf": (0, 1, 0, 0), "statue": (0, 1, 0, 0), "charmed_monster": (0, 0, -9, 0), "mask": (0, 3, 0, 0),
    "sky_temple": (6, -3, 0, 0), "no_lunch": (-1, 4, 0, 0), "sea_element": (1, 1, 0, 0), "sky_island": (3, 0, 0, 0),
    "fairy_morgana": (0, 0, -5, -5), "silver_wolf": (2, 0, 0, 0), "ruby_ring": (0, 0, 0, -3),
    "evening": (1, 1, 1, 1), "green_ifrit": (0, 1, -8, 0), "ghoul_refuge": (8, -8, 0, 0),
    "spell_book": (0, 3, -6, 0), "pearl": (0, 3, 0, 0), "runaway_bones": (0, 1, 0, -1), "flight": (0, 0, -4, -4),
    "perun_shrine": (5, 5, 0, 0), "eye": (0, -2, 0, 0), "stonehenge": (1, 2, 0, 0),
    "half_invisibility": (0, 0, -3, -3), "haze": (0, -3, 0, -3), "diamond_rings": (10, -10, 0, 0),
    "fairy_alice": (7, 0, 0, 0), "day_of_mars": (0, 3, 0, 0), "elven_forest": (3, 0, 0, 0),
    "court_jester": (0, 10, 0, 0), "living_skeleton": (4, 0, 0, 0), "dragon_eye": (0, 0, -5, -5),
    "dolphins": (0, 1, -1, 0), "mountain_road": (0, -5, 0, -5), "fire_imp": (0, 0, -6, 0),
    "full_moon": (-2, 0, -6, 0), "scarecrow": (0, 0, -4, 0), "skeleton": (0, -2, 0, 0), "sages_game": (6, 0, 0, 0),
    "hunting_trophy": (0, 3, 0, 0), "reckoning": (-2, 7, 0, 0),
}
SPECIAL = {"rescue", "clock", "banner", "lift_curse", "prince_of_darkness", "lord_of_hell", "ring_of_darkness",
           "ring_of_air", "vampire_helm", "trumpet", "swift_boots", "wyvern_gaze", "pyramid", "dolmen",
           "solomons_judgement", "library", "luck", "sacrifice", "snowflake", "ban_dagger", "pandoras_box"}


def test_every_card_has_a_test():
    assert set(PLAIN) | SPECIAL == set(catalogue().cards) and not set(PLAIN) & SPECIAL


@pytest.mark.parametrize("card", sorted(PLAIN))
def test_plain_card(card):
    before, after, events = cast(card)
    (h0, s0), (h1, s1) = numbers(before)
    assert numbers(after) == [(h0 + PLAIN[card][0], s0 + PLAIN[card][1]), (h1 + PLAIN[card][2], s1 + PLAIN[card][3])]
    assert after["discard"][-1] == card and card not in after["players"][0]["hand"]
    assert len(after["players"][0]["hand"]) == 5, "the hand is refilled (rule 5)"
    assert event(events, "played")["data"] == {"seat": 0, "card": card, "source": "hand"}
    assert after["turn"]["seat"] == 1 and after["turn"]["stage"] == "roll"


def test_rescue_below_five_and_otherwise():
    _, after, _ = cast("rescue", stats=[{"health": 4}, {}])
    assert after["players"][0]["health"] == 24
    _, after, _ = cast("rescue", stats=[{"health": 5}, {}])
    assert after["players"][0]["health"] == 10


def test_luck_raises_health_to_the_maximum_and_never_lowers_it():
    assert cast("luck", stats=[{"health": 12}, {}])[1]["players"][0]["health"] == 50
    assert cast("luck", stats=[{"health": 70}, {}])[1]["players"][0]["health"] == 70
    after = cast("luck", stats=[{"health": 12}, {}], maximum="win_line")[1]
    assert after["players"][0]["health"] == 200 and after["outcome"] is None, "200 is not above 200"


def test_library_raises_the_sphere_and_its_maximum():
    after = cast("library", stats=[{"sphere": 10}, {}])[1]
    p = after["players"][0]
    assert (p["sphere"], p["max_sphere"], p["max_health"]) == (15, 55, 50)


def test_clock_restores_to_the_maximum_then_counts_own_turns():
    before, after, events = cast("clock", stats=[{"health": 20, "sphere": 60}, {}], clock_mode="turns",
                                  clock_turns=2)
    p = after["players"][0]
    assert (p["health"], p["sphere"]) == (50, 60)
    assert p["effects"] == [{"kind": "clock", "card": "clock", "caster": 0, "turns_left": 2}]
    state = pass_turn(after, 1)
    assert state["players"][0]["effects"][0]["turns_left"] == 1
    state = pass_turn(pass_turn(state, 0), 1)
    assert state["players"][0]["effects"][0]["turns_left"] == 0 and state["outcome"] is None
    applied = apply(roll(state, 0, [2, 3, 2, 3, 2, 3, 1]).state, 0, type="restore_sphere")
    assert applied.state["outcome"]["winners"] == [1]
    assert applied.state["outcome"]["reason"] == "claygod.outcome.clock"
    assert "clock_expired" in kinds(applied.events)


def test_clock_live_five_minutes_reach_the_opponents_turn():
    _, after, _ = cast("clock", stats=[{"health": 20}, {}], clock_mode="live", turn_clock="off")
    clock = after["players"][0]["effects"][0]
    assert clock["deadline"] == 1000.0 + 300 and clock["turns_left"] is None
    (pending,) = GAME.to_act(after)
    assert pending.seat == 1 and pending.deadline == 1300.0
    assert GAME.apply(after, 1, {"type": "timeout"}, now=1299.0).code == "too_early"
    late = apply(after, 1, now=1300.0, type="timeout")
    assert late.state["outcome"]["winners"] == [1] and late.state["outcome"]["params"] == {"loser": 0}
    # an action that arrives after the deadline ends the game instead of being played
    assert apply(after, 1, now=1400.0, type="roll").state["outcome"]["reason"] == "claygod.outcome.clock"


def test_banner_one_card_fewer_and_sphere_every_own_turn():
    _, after, _ = cast("banner")
    p = after["players"][0]
    assert p["hand_size"] == 4 and len(p["hand"]) == 4
    assert p["effects"][0]["kind"] == "each_turn" and p["effects"][0]["turns_left"] is None
    state = pass_turn(after, 1)
    assert state["players"][0]["sphere"] == 51, "the banner acts at the start of its owner's turn"
    assert state["players"][1]["sphere"] == 50


def test_vampire_helm_and_lord_of_hell_drain_their_owner_every_turn():
    _, after, _ = cast("vampire_helm")
    assert numbers(after)[0] == (50, 80)
    assert pass_turn(after, 1)["players"][0]["health"] == 49
    _, after, _ = cast("lord_of_hell")
    assert numbers(after) == [(50, 50), (30, 30)]
    state = pass_turn(after, 1)
    assert state["players"][0]["health"] == 48 and state["players"][1]["health"] == 30


def test_ban_dagger_wounds_the_enemy_now_and_at_each_of_their_turns():
    _, after, events = cast("ban_dagger")
    stats = [e["data"] for e in events if e["kind"] == "stats"]
    assert stats[0]["changes"] == [{"seat": 1, "stat": "health", "from": 50, "to": 49}]
    assert stats[1]["cause"] == {"kind": "turn_start"} and after["turn"]["seat"] == 1
    assert stats[1]["changes"] == [{"seat": 1, "stat": "health", "from": 49, "to": 48, "why": "ban_dagger"}]
    assert after["players"][1]["effects"][0]["by"] == -1
    state = pass_turn(pass_turn(after, 1), 0)
    assert state["players"][1]["health"] == 47 and state["players"][0]["health"] == 50


def test_lift_curse_ends_health_drains_on_the_caster_only():
    state = table(hands=(["vampire_helm", "lift_curse"], ["ban_dagger"]))
    state = act(ready(state, 0), 0, type="play", card="vampire_helm")
    state = act(ready(state, 1), 1, type="play", card="ban_dagger")
    mine = state["players"][0]
    assert sorted(e["card"] for e in mine["effects"]) == ["ban_dagger", "vampire_helm"]
    health = mine["health"]
    state = ready(state, 0)
    applied = apply(state, 0, type="play", card="lift_curse")
    assert applied.state["players"][0]["effects"] == []
    assert applied.state["players"][0]["health"] == health + 5
    assert sorted(event(applied.events, "curses_lifted")["data"]["cards"]) == ["ban_dagger", "vampire_helm"]


def test_lift_curse_keeps_the_banner():
    state = table(hands=(["banner", "lift_curse"], []))
    state = act(ready(state, 0), 0, type="play", card="banner")
    state = act(ready(pass_turn(state, 1), 0), 0, type="play", card="lift_curse")
    assert [e["card"] for e in state["players"][0]["effects"]] == ["banner"]


def test_prince_of_darkness_the_caster_skips_five_turns():
    _, after, _ = cast("prince_of_darkness")
    me, enemy = after["players"]
    assert enemy["health"] == 42 and me["skip_turns"] == 5, "-7, then -1 as the enemy's turn starts"
    assert enemy["effects"][0]["by"] == -1
    state = after
    for expected_health in (42, 41, 40, 39, 38, 37):  # the enemy plays six turns in a row
        assert state["turn"]["seat"] == 1 and state["players"][1]["health"] == expected_health
        state = pass_turn(state, 1)
    assert state["turn"]["seat"] == 0 and state["players"][0]["skip_turns"] == 0


def test_prince_of_darkness_house_rule_the_enemy_skips():
    _, after, events = cast("prince_of_darkness", prince_skip="enemy")
    assert after["players"][0]["skip_turns"] == 0 and after["turn"]["seat"] == 0, "the enemy's turns are skipped"
    assert kinds(events).count("turn_skipped") == 1 and after["players"][1]["skip_turns"] == 4


def test_trumpet_two_more_turns_in_a_row():
    _, after, _ = cast("trumpet")
    assert after["players"][1]["sphere"] == 46
    assert (after["turn"]["seat"], after["turn"]["number"]) == (0, 2)
    state = pass_turn(after, 0)
    assert (state["turn"]["seat"], state["turn"]["number"]) == (0, 3)
    state = pass_turn(state, 0)
    assert (state["turn"]["seat"], state["turn"]["number"]) == (1, 4)


def test_swift_boots_one_more_turn():
    _, after, _ = cast("swift_boots")
    assert numbers(after) == [(50, 49), (47, 50)]
    assert after["turn"]["seat"] == 0
    assert pass_turn(after, 0)["turn"]["seat"] == 1


def test_wyvern_gaze_the_enemy_loses_a_turn():
    _, after, events = cast("wyvern_gaze")
    assert after["players"][1]["sphere"] == 47
    assert after["turn"]["seat"] == 0 and after["turn"]["number"] == 3
    assert event(events, "turn_skipped")["data"] == {"seat": 1, "left": 0}


@pytest.mark.parametrize("card,colour,health", [("ring_of_darkness", "violet", 47), ("ring_of_air", "light_blue", 51),
                                                ("dolmen", "green", 50)])
def test_rings_and_dolmen_keep_an_energy_at_maximum_for_ten_turns(card, colour, health):
    state = table(hands=([card], []))
    state = ready(state, 0, dice=(6, 6, 6, 6, 6, 6, 6))
    applied = apply(state, 0, type="play", card=card)
    me = applied.state["players"][0]
    assert me["health"] == health and me["dice"][colour]["value"] == 6
    assert me["effects"] == [{"kind": "maximise", "card": card, "caster": 0, "colour": colour, "turns_left": 10}]
    state = pass_turn(applied.state, 1)
    rolled = roll(state, 0, [1, 2, 1, 2, 1, 2])  # six values: the maximised die takes none
    assert rolled.state["players"][0]["dice"][colour]["value"] == 6
    assert rolled.state["players"][0]["effects"][0]["turns_left"] == 9
    state = rolled.state
    for _ in range(9):
        state = pass_turn(pass_turn(state, 0), 1)
    assert state["players"][0]["effects"][0]["turns_left"] == 0, "the tenth turn is the last"
    state = pass_turn(state, 0)
    assert state["players"][0]["effects"] == []


def test_pyramid_astral_energies_at_maximum_and_frozen():
    state = ready(table(hands=(["pyramid"], [])), 0, dice=(1, 5, 1, 1, 1, 1, 5))
    state = act(state, 0, type="play", card="pyramid")
    me = state["players"][0]
    assert me["dice"]["orange"]["value"] == 6 and me["dice"]["violet"]["value"] == 6
    assert frozen(state, 0) == {"orange": None, "violet": None}
    state = pass_turn(state, 1)
    rolled = roll(state, 0, [6, 6, 6, 6, 6])  # five dice thrown; held dice block combinations
    assert rolled.state["players"][0]["dice"]["orange"]["value"] == 6
    assert rolled.state["turn"]["stage"] == "action" and "combo" not in kinds(rolled.events)
    assert event(rolled.events, "rolled")["data"]["held"] == ["orange", "violet"]


def test_snowflake_freezes_all_magic_of_both_for_five_turns():
    state = table(hands=([], ["snowflake"]), first=0)
    state = pass_turn(state, 0)
    state = ready(state, 1, dice=(1, 2, 3, 4, 6, 6, 5))
    state = act(state, 1, type="play", card="snowflake")
    assert frozen(state, 1) == dict.fromkeys(frozen(state, 1), 5) and len(frozen(state, 1)) == 7
    # seat 0's turn has begun: the first of its five frozen turns, four more to come
    assert frozen(state, 0) == dict.fromkeys(frozen(state, 0), 4) and len(frozen(state, 0)) == 7
    assert state["outcome"] is None, "a timed freeze is no defeat (CG-13)"
    before = [d["value"] for d in state["players"][0]["dice"].values()]
    rolled = roll(state, 0, [])
    assert [d["value"] for d in rolled.state["players"][0]["dice"].values()] == before
    assert event(rolled.events, "rolled")["data"]["held"] == list(COLOURS)


def test_solomons_judgement_pools_and_halves_the_odd_point_to_the_caster():
    _, after, _ = cast("solomons_judgement", stats=[{"health": 31, "sphere": 11}, {"health": 50, "sphere": -10}])
    assert numbers(after) == [(41, 1), (40, 0)]
    _, _, events = cast("solomons_judgement", stats=[{"health": 10, "sphere": 1}, {"health": 1, "sphere": -12}])
    assert event(events, "stats")["data"]["changes"] == [
        {"seat": 0, "stat": "health", "from": 10, "to": 6}, {"seat": 1, "stat": "health", "from": 1, "to": 5},
        {"seat": 0, "stat": "sphere", "from": 1, "to": -5}, {"seat": 1, "stat": "sphere", "from": -12, "to": -6}]


def test_sacrifice_one_card_fewer_forever():
    _, after, _ = cast("sacrifice")
    assert numbers(after)[1] == (30, 30)
    assert after["players"][0]["hand_size"] == 4 and len(after["players"][0]["hand"]) == 4


def test_pandoras_box_releases_a_random_card():
    state = ready(table(hands=(["pandoras_box"], [])), 0)
    push(state, "claygod.pandora", ["dragonfly"])
    applied = apply(state, 0, type="play", card="pandoras_box")
    assert numbers(applied.state) == [(50, 50), (46, 50)]
    assert event(applied.events, "pandora")["data"] == {"seat": 0, "card": "dragonfly", "ruling": "CG-24"}
    assert "dragonfly" not in applied.state["discard"] and applied.state["discard"][-1] == "pandoras_box"
    assert event(applied.events, "stats")["data"]["cause"] == {"card": "dragonfly", "via": "pandoras_box",
                                                               "source": "hand"}


def test_pandoras_box_can_be_dangerous():
    state = ready(table(hands=(["pandoras_box"], [])), 0)
    push(state, "claygod.pandora", ["trumpet"])
    state = act(state, 0, type="play", card="pandoras_box")
    assert state["turn"]["seat"] == 0 and state["players"][0]["extra_turns"] == 1
    state = ready(table(hands=(["pandoras_box"], []), seed="p2"), 0)
    push(state, "claygod.pandora", ["prince_of_darkness"])
    state = act(state, 0, type="play", card="pandoras_box")
    assert state["players"][0]["skip_turns"] == 5 and state["players"][1]["health"] == 42


def test_the_monster_breaks_through_but_gives_no_extra_turn():
    """CG-35: «Прорыв ход» is flavour; only the signed numbers act."""
    _, after, _ = cast("monster")
    assert after["turn"]["seat"] == 1 and after["players"][0]["extra_turns"] == 0
    assert numbers(after)[1] == (44, 44)
