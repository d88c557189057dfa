"""Set-up: options, choosing faction, leader and deck, deck-building limits, stacked decks, the deal and the
two forms of the mulligan."""
import pytest

from bot.engine import Code, Reject
from bot.games.gwent import GAME
from bot.games.gwent.cards import catalogue

from .helpers import act, apply, event, reject


def fresh(**options):
    return GAME.initial_state(2, seed="setup", options=options, now=1000.0)


def test_hardgwent_forbids_deck_building():
    with pytest.raises(Reject) as info:
        fresh(variant="hardgwent", deck="build")
    assert info.value.rejection.code == Code.BAD_OPTIONS


def test_each_seat_chooses_faction_and_leader_in_secret_then_both_are_announced():
    s = fresh().state
    assert {p.seat for p in GAME.to_act(s)} == {0, 1}
    s = act(s, 0, type="faction", faction="monsters")
    assert GAME.view(s, 1)["players"][0]["faction"] is None and "setup" not in GAME.view(s, None)
    assert reject(s, 0, type="leader_pick", leader="foltest_the_siegemaster").key == "gwent.reject.bad_leader"
    s = act(s, 0, type="leader_pick", leader="eredin_the_treacherous")
    s = act(s, 1, type="faction", faction="skellige")
    assert reject(s, 1, type="leader_pick", leader="helheim").key == "gwent.reject.bad_leader"  # HardGwent only
    result = apply(s, 1, type="leader_pick", leader="king_bran")
    factions = event(result.events, "factions")
    assert factions["to"] is None and factions["data"]["factions"] == ["monsters", "skellige"]
    assert result.state["phase"] == "mulligan" and len(result.state["hand"][0]) == 10


def test_deck_building_limits():
    s = fresh(deck="build", faction_a="nilfgaard", faction_b="monsters").state
    s = act(s, 0, type="leader_pick", leader="emhyr_the_white_flame")
    assert reject(s, 0, type="deck_done").key == "gwent.reject.deck_units"
    assert reject(s, 0, type="deck_add", card="ghoul").key == "gwent.reject.not_in_pool"
    for _ in range(5):
        s = act(s, 0, type="deck_add", card="impera_brigade_guard")
    assert reject(s, 0, type="deck_add", card="impera_brigade_guard").key == "gwent.reject.too_many_copies"
    for cid in ("decoy", "decoy", "decoy", "scorch", "scorch", "scorch", "biting_frost", "biting_frost",
                "biting_frost", "faction_card_nilfgaard", "clear_weather"):
        s = act(s, 0, type="deck_add", card=cid)
    pool = catalogue().deck_pool("nilfgaard", {})
    units = [c for c in pool if catalogue().card(c).is_unit and c != "impera_brigade_guard"]
    for cid in units[:17]:
        s = act(s, 0, type="deck_add", card=cid)
    r = reject(s, 0, type="deck_done")
    assert r.key == "gwent.reject.deck_specials" and r.params == {"n": 11, "max": 10}  # the faction card counts
    s = act(s, 0, type="deck_remove", card="clear_weather")
    s = act(s, 0, type="deck_done")
    assert s["setup"][0]["step"] == "ready"


def test_stacked_decks_must_be_made_of_the_real_deck():
    pool = catalogue().deck_pool("skellige", {})
    order = sorted(c for c, n in pool.items() for _ in range(n))
    hard = {"variant": "hardgwent", "faction_a": "skellige", "faction_b": "monsters"}
    for wrong in (order + ["kambi"], ["ciri", "ciri"], ["catapult"]):
        with pytest.raises(Reject) as info:
            GAME.initial_state(2, seed="x", options=hard, stack={"decks": {"0": wrong}})
        assert info.value.rejection.code == Code.BAD_SETUP
        assert info.value.rejection.key == "gwent.reject.stack_not_in_deck"
    s = GAME.initial_state(2, seed="x", options={"variant": "hardgwent", "faction_a": "skellige",
                                                 "faction_b": "monsters"}, stack={"decks": {"0": order}}).state
    assert [s["cards"][u]["id"] for u in s["hand"][0]] == order[:20]
    with pytest.raises(Reject) as info:
        GAME.initial_state(2, seed="x", stack={"decks": {"0": order}})
    assert info.value.rejection.code == Code.BAD_SETUP


def test_forum_exchange_shows_candidates_and_sets_given_cards_aside():
    s = fresh(variant="hardgwent", faction_a="nilfgaard", faction_b="monsters").state
    assert len(s["cand"][0]) == 6
    hand_card, candidate = s["hand"][0][0], s["cand"][0][0]
    assert reject(s, 0, type="mulligan_take", card=candidate).key == "gwent.reject.give_first"
    s = act(s, 0, type="mulligan_give", card=hand_card)
    result = apply(s, 0, type="mulligan_take", card=candidate)
    s = result.state
    assert candidate in s["hand"][0] and hand_card in s["aside"][0]
    assert event(result.events, "mulligan_swap")["to"] == [0]
    s = act(s, 0, type="mulligan_done")
    assert len(s["aside"][0]) == 6 and not s["cand"][0]  # the five unchosen candidates left the sample too


def test_redraw_mulligan_replaces_a_card_blindly_at_most_twice():
    s = fresh(mulligan="redraw", faction_a="nilfgaard", faction_b="monsters").state
    s = act(s, 0, type="leader_pick", leader="emhyr_the_white_flame")
    s = act(s, 1, type="leader_pick", leader="eredin_the_treacherous")
    for _ in range(2):
        s = act(s, 0, type="mulligan_redraw", card=s["hand"][0][0])
        assert len(s["hand"][0]) == 10
    assert s["mull"][0]["done"]
    assert reject(s, 0, type="mulligan_done").code == Code.NOT_YOUR_TURN


def test_unknown_and_misplaced_actions_are_refused_with_a_reason():
    s = fresh().state
    assert reject(s, 0, type="pass").key == "gwent.reject.now_setup"
    assert reject(s, 0, type="leader_pick", leader="eredin_the_treacherous").key == "gwent.reject.setup_faction_first"
    assert reject(s, 0, type="fly").code == Code.MALFORMED
    assert reject(s, 0, type="faction", faction="elves").code == Code.MALFORMED


def test_a_stacked_top_of_the_deck_is_dealt_first_and_the_rest_is_shuffled():
    hard = {"variant": "hardgwent", "faction_a": "skellige", "faction_b": "monsters"}
    top = ["kambi", "cerys", "mardroeme"]
    s = GAME.initial_state(2, seed="x", options=hard, stack={"decks": {0: top}}).state  # YAML's numeric key
    dealt = [s["cards"][u]["id"] for u in s["hand"][0]]
    assert dealt[:3] == top and len(dealt) == 20
    assert sorted(s["cards"][u]["id"] for u in s["hand"][0] + s["cand"][0] + s["deck"][0]) == \
        sorted(c for c, n in catalogue().deck_pool("skellige", {}).items() for _ in range(n))


def test_a_fixed_faction_with_the_ready_deck_can_be_stacked_before_the_leader_is_picked():
    opts = {"faction_a": "northern_realms", "faction_b": "nilfgaard"}
    s = GAME.initial_state(2, seed="x", options=opts, stack={"decks": {"0": ["thaler", "ciri"]}}).state
    s = act(s, 0, type="leader_pick", leader="foltest_the_siegemaster")
    s = act(s, 1, type="leader_pick", leader="emhyr_the_white_flame")
    assert [s["cards"][u]["id"] for u in s["hand"][0][:2]] == ["thaler", "ciri"]
    with pytest.raises(Reject) as info:  # a deck still to be built is not known yet
        GAME.initial_state(2, seed="x", options={**opts, "deck": "build"}, stack={"decks": {"0": ["thaler"]}})
    assert info.value.rejection.key == "gwent.reject.stack_needs_fixed_deck"
