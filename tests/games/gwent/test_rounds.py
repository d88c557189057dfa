"""Passing, round ends, faction bonuses, first player, the double-move rule, the end of the game."""
from bot.engine import Code
from bot.games.gwent import GAME

from .helpers import act, apply, event, find, give, kinds, place, reject, table


def test_a_pass_gives_the_opponent_the_round_and_the_round_ends_when_both_passed():
    s = table()
    place(s, 0, "ves")
    place(s, 1, "cahir")
    s = act(s, 0, type="pass")
    assert s["turn"]["seat"] == 1
    s = act(s, 1, type="play", card=give(s, 1, "rainfarn"))
    assert s["turn"]["seat"] == 1  # the opponent passed: unlimited right of move
    result = apply(s, 1, type="pass")
    end = event(result.events, "round_end")["data"]
    assert end["winner"] == 1 and end["scores"] == [50, 100]
    assert [p["gems"] for p in result.state["players"]] == [1, 2]
    assert result.state["round"] == 2 and not any(result.state["rows"][0].values())
    assert end["board"][1]["melee"]["total"] == 100  # the table copy kept in the record


def test_round_ends_as_soon_as_the_remaining_player_overtakes():
    s = table(end_when_ahead=True)
    place(s, 0, "ves")       # 5
    place(s, 1, "rainfarn")  # 4
    s = act(s, 0, type="pass")
    assert s["round"] == 1 and s["turn"]["seat"] == 1
    result = apply(s, 1, type="play", card=give(s, 1, "cahir"))
    assert "ahead" in kinds(result.events) and result.state["round"] == 2
    assert result.state["results"][0]["winner"] == 1


def test_passing_while_behind_a_leading_opponent_ends_the_round_at_once():
    s = table(end_when_ahead=True)
    place(s, 1, "rainfarn")
    result = apply(s, 0, type="pass")
    assert "ahead" in kinds(result.events) and result.state["round"] == 2


def test_without_that_house_rule_the_remaining_player_may_keep_playing():
    s = table(end_when_ahead=False)
    place(s, 1, "rainfarn")
    s = act(s, 0, type="pass")
    give(s, 1, "vreemde")
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    assert s["round"] == 1 and s["turn"]["seat"] == 1


def test_an_empty_hand_passes_automatically():
    s = table(filler=False)
    tower = give(s, 0, "siege_tower")
    give(s, 1, "cahir", "rainfarn")
    s = act(s, 0, type="play", card=tower)
    s = act(s, 1, type="play", card=find(s, 1, "cahir", ("hand",)))
    assert not s["players"][0]["passed"]  # no cards, but the leader can still be used
    s = act(s, 0, type="leader", leader="foltest_the_siegemaster")
    s = act(s, 1, type="play", card=find(s, 1, "rainfarn", ("hand",)))
    assert s["players"][0]["passed"] and s["turn"]["seat"] == 1


def test_nilfgaard_wins_a_drawn_round_and_a_plain_draw_costs_both_a_life():
    s = table("nilfgaard", "northern_realms")
    place(s, 0, "cahir")
    place(s, 1, "catapult")
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="pass")
    end = event(result.events, "round_end")["data"]
    assert end["scores"] == [60, 80] and end["winner"] == 1
    s = table("nilfgaard", "northern_realms")
    place(s, 0, "cahir")
    place(s, 1, "trebuchet")
    s = act(s, 0, type="pass")
    end = event(apply(s, 1, type="pass").events, "round_end")["data"]
    assert end["scores"] == [60, 60] and end["winner"] == 0 and end["by_nilfgaard"]
    s = table("northern_realms", "monsters")
    place(s, 0, "trebuchet")
    place(s, 1, "earth_elemental")
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="pass")
    assert event(result.events, "round_end")["data"]["winner"] is None
    assert [p["gems"] for p in result.state["players"]] == [1, 1]


def test_nilfgaard_bonus_does_not_work_in_a_mirror_match():
    s = table("nilfgaard", "nilfgaard")
    place(s, 0, "cahir")
    place(s, 1, "cahir")
    s = act(s, 0, type="pass")
    assert event(apply(s, 1, type="pass").events, "round_end")["data"]["winner"] is None


def test_northern_realms_draw_a_card_after_winning_a_round():
    s = table("northern_realms", "nilfgaard")
    place(s, 0, "catapult")
    hand = len(s["hand"][0])
    s = act(s, 0, type="pass")
    result = apply(s, 1, type="pass")
    assert "bonus_card" in kinds(result.events) and len(result.state["hand"][0]) == hand + 1


def test_monsters_keep_one_unit_of_their_choice_but_no_hero():
    s = table("monsters", "nilfgaard")
    place(s, 0, "draug")
    fiend = place(s, 0, "fiend")
    griffin = place(s, 0, "griffin")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["phase"] == "keep"
    assert {a["card"] for a in GAME.legal_actions(s, 0)} == {fiend, griffin}
    assert reject(s, 0, type="keep", card=find(s, 0, "draug", ("row",))).key == "gwent.reject.bad_keep"
    s = act(s, 0, type="keep", card=griffin)
    assert s["round"] == 2 and s["rows"][0]["melee"] == [griffin] and fiend in s["discard"][0]


def test_a_kambi_the_monsters_keep_calls_hemdall_for_the_next_round():
    """Ruling GW-33: Kambi stayed on the field to the end of the round, so Hemdall comes, next to it."""
    s = table("monsters", "skellige", variant="hardgwent")
    kambi = place(s, 0, "kambi", owner=1)  # brought over by the HardGwent Bringer of Death
    place(s, 0, "fiend")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="keep", card=kambi)
    assert s["round"] == 2
    assert [s["cards"][u]["id"] for u in s["rows"][0]["melee"]] == ["kambi", "hemdall"]


def test_scoiatael_choose_who_starts_every_round_and_others_alternate():
    s = GAME.initial_state(2, seed="x", options={"faction_a": "scoiatael", "faction_b": "monsters",
                                                   "variant": "hardgwent"}).state
    for seat in (0, 1):
        s = act(s, seat, type="mulligan_done")
    assert s["phase"] == "first" and GAME.to_act(s)[0].seat == 0
    s = act(s, 0, type="first", seat=1)
    assert s["turn"]["seat"] == 1
    s = table("northern_realms", "nilfgaard", first=1)
    place(s, 0, "catapult")
    s = act(s, 1, type="pass")
    s = act(s, 0, type="pass")
    assert s["turn"]["seat"] == 0  # round 2: the other player starts, no new lot


def test_skellige_revive_two_units_of_their_choice_before_the_third_round():
    s = table("skellige", "nilfgaard")
    olaf = place(s, 0, "olaf", "melee")
    place(s, 0, "madman_lugos")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")                                  # Skellige win round 1
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))        # round 2 starts with the other player
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")                                  # Nilfgaard win round 2
    assert s["round"] == 3 and s["phase"] == "revive3"
    s = act(s, 0, type="revive", card=olaf, row="ranged")
    assert s["phase"] == "revive3"                              # a second one may follow
    s = act(s, 0, type="skip")
    assert s["phase"] == "play" and olaf in s["rows"][0]["ranged"]


def test_game_over_after_two_lost_rounds():
    s = table()
    place(s, 1, "cahir")
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    s = act(s, 1, type="pass") if s["turn"]["seat"] == 1 else act(s, 0, type="pass")
    while s["outcome"] is None:
        seat = GAME.to_act(s)[0].seat
        s = act(s, seat, type="pass")
    assert s["outcome"]["winners"] == [1] and GAME.to_act(s) == []
    assert reject(s, 0, type="pass").code == Code.GAME_OVER


# ---------------------------------------------------------------------------------------------- double move
def test_hardgwent_turns_take_two_cards_except_the_first_of_a_round():
    s = table(variant="hardgwent")
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    assert s["turn"] == {**s["turn"], "seat": 1, "need": 2}
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    assert s["turn"]["seat"] == 1 and GAME.to_act(s)[0].prompt == "gwent.prompt.second_card"
    s = act(s, 1, type="play", card=give(s, 1, "rainfarn"))
    assert s["turn"]["seat"] == 0


def test_one_card_then_pass_is_a_pass_and_a_missing_second_card_passes_by_itself():
    s = table(variant="hardgwent")
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    s = act(s, 1, type="play", card=give(s, 1, "cahir"))
    s = act(s, 1, type="pass")
    assert s["players"][1]["passed"]
    s = table(variant="hardgwent", filler=False)
    give(s, 0, "ves", "yarpen_zigrin")
    s = act(s, 0, type="play", card=find(s, 0, "ves", ("hand",)))
    only = give(s, 1, "cahir")
    s["round_fx"]["blocked"][1] = True  # no leader either (as after a White Flame)
    result = apply(s, 1, type="play", card=only)
    assert event(result.events, "passed")["data"]["auto"] == "no_second_card"


def test_double_move_resolves_left_then_right():
    s = table("northern_realms", "nilfgaard", variant="hardgwent")
    s = act(s, 0, type="play", card=give(s, 0, "ves"))
    place(s, 0, "siege_tower")  # 7, the strongest after seat 1's scorch is played first
    scorch, archer = give(s, 1, "scorch", "black_infantry_archer")
    s = act(s, 1, type="play", card=scorch)
    s = act(s, 1, type="play", card=archer)
    assert archer in s["rows"][1]["ranged"]          # not hit by its own turn's scorch
    assert find(s, 0, "siege_tower", ("discard",))


def test_a_pass_that_gives_the_round_up_is_confirmed_in_every_variant_and_a_card_is_not():
    """Issue 27: the pass ends the player's round for good, so the front ends ask twice (a red button) when it
    gives the round up, in standard Gwent as in HardGwent (which asks always); only the interface changes."""
    from bot.games.gwent import GAME
    from bot.games.gwent.state import card
    from .helpers import table as gwent_table

    for variant in ("standard", "hardgwent"):
        s = gwent_table("monsters", "nilfgaard", variant=variant)
        seat = GAME.to_act(s)[0].seat
        assert GAME.confirm(s, seat, {"type": "pass"})      # level with cards in hand: the round is given up
        assert not any(GAME.confirm(s, seat, a) for a in GAME.legal_actions(s, seat) if a["type"] != "pass")
        unit = next(card(s, u).id for u in s["deck"][seat] if card(s, u).rows and card(s, u).strength > 0)
        place(s, seat, unit)                                 # leading: a pass keeps cards for later rounds
        assert GAME.confirm(s, seat, {"type": "pass"}) == (variant == "hardgwent")
