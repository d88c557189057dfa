"""§1.1: the table's preparation: characters, the team's start, the bosses' placement by the book's dice."""
import pytest

from bot.engine import Code, Reject
from bot.games.bridges import GAME
from bot.games.bridges.data import catalogue

from .helpers import act, kinds, reject, table

KIT = {1: ({}, 3), 2: ({"recurve_bow": 1, "potion": 1}, 2), 3: ({"spiked_shell": 1}, 1), 4: ({"spring": 2}, 1),
       5: ({"shield_ball": 1}, 1), 6: ({"bomb": 1}, 0)}


def start(classes, **rolls):
    return GAME.initial_state(len(classes), seed="setup", now=0,
                              stack={"classes": list(classes), "rolls": rolls}).state


@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("n", [1, 2, 4])
def test_the_starting_bank_is_the_d6_table_times_the_players(roll, n):
    """§1.1.5: every item and coin of the rolled line, multiplied by the number of players."""
    classes = ["mage", "master", "scout", "mage"][:n] if n < 4 else ["mage", "master", "scout", "mage"]
    if n == 4:
        classes = ["mage", "master", "scout", "burilla"]
    state = start(classes, **{"bridges.start": [roll]})
    items, coins = KIT[roll]
    burilla = 4 * classes.count("burilla")
    assert state["bank"] == {"coins": coins * n + burilla, "items": {i: k * n for i, k in items.items()}}
    assert state["setup"]["kit"] == roll


def test_burilla_brings_four_coins_and_the_master_the_blueprints():
    """§1.3: Burilla adds 4 coins at the start; the Master starts with the blueprints (tier 2 open)."""
    state = start(["burilla", "master"], **{"bridges.start": [6]})
    assert state["bank"]["coins"] == 4 and state["blueprints"] is True
    plain = start(["burilla", "mage"], **{"bridges.start": [6]})
    assert plain["blueprints"] is False


def test_the_bosses_are_placed_by_d4_then_d3_and_d2_read_from_a_d6():
    """§1.1.6: list 1 Archer, 2 Bum, 3 Casserole, 4 Golemko; d4=2 puts the Bum on [1]; d6=5 is the third of
    (Archer, Casserole, Golemko) on [2]; d6=4 the second of (Archer, Casserole) on [3]; the Archer goes to [4]."""
    result = GAME.initial_state(1, seed="p", stack={"classes": ["mage"], "rolls": {
        "bridges.place1": [2], "bridges.place2": [5], "bridges.place3": [4]}})
    state = result.state
    where = {b: v["at"] for b, v in state["bosses"].items()}
    assert where == {"karate": "1", "golemko": "2", "casserole": "3", "archer": "4", "krabulon": "CRB"}
    placed = [e for e in result.events if e["kind"] == "boss_placed"]
    assert [(e["data"]["die"], e["data"]["roll"]) for e in placed] == [("d4", 2), ("d3", 5), ("d2", 4), (None, None)]
    assert all(e["to"] is None for e in result.events), "every set-up roll is visible to all"


@pytest.mark.parametrize("roll2,second", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_the_d3_read_from_a_d6(roll2, second):
    state = GAME.initial_state(1, seed="p", stack={"classes": ["mage"], "rolls": {
        "bridges.place1": [1], "bridges.place2": [roll2], "bridges.place3": [1]}}).state
    assert state["bosses"]["archer"]["at"] == "1"
    assert state["bosses"][["karate", "casserole", "golemko"][second]]["at"] == "2"


@pytest.mark.parametrize("n", [1, 2, 4])
def test_health_scales_with_the_players(n):
    """§3: k*N for every boss (Krabulon 18, Golemko 12, Casserole 10, Bum 6, Archer 5)."""
    state = table(["mage", "master", "scout", "burilla"][:n])
    assert {b: v["mhp"] for b, v in state["bosses"].items()} == {
        "krabulon": 18 * n, "golemko": 12 * n, "casserole": 10 * n, "karate": 6 * n, "archer": 5 * n}
    assert all(v["hp"] == v["mhp"] for v in state["bosses"].values())


def test_everyone_starts_on_the_base_with_full_health_and_two_ap():
    """§1.1.3, §1.3: base stats MHP 3, DMG 1, AP 2 with each class's changes."""
    state = table(["mage", "master", "scout", "burilla"])
    assert [c["at"] for c in state["chars"]] == ["BSE"] * 4
    assert [c["hp"] for c in state["chars"]] == [2, 3, 2, 4]
    assert [c["ap"] for c in state["chars"]] == [2, 2, 2, 2]
    assert state["chests"] == ["chs", "chn"] and state["base_hp"] == 10 and state["round"] == 1
    assert state["chars"][3]["guard"] is True and state["chars"][0]["guard"] is False


def test_characters_are_chosen_unique_up_to_four_players():
    """§1.1.4: unique characters; every seat is asked at once."""
    state = GAME.initial_state(3, seed="c").state
    assert state["phase"] == "choose" and {p.seat for p in GAME.to_act(state)} == {0, 1, 2}
    state = act(state, 1, type="choose", cls="mage")
    refusal = reject(state, 0, type="choose", cls="mage")
    assert (refusal.key, refusal.rule) == ("bridges.reject.class_taken", "§1.1")
    assert {a["cls"] for a in GAME.legal_actions(state, 0)} == {"master", "scout", "burilla"}
    state = act(state, 0, type="choose", cls="burilla")
    assert reject(state, 0, type="choose", cls="scout").code == Code.NOT_YOUR_TURN
    state = act(state, 2, type="choose", cls="scout")
    assert state["phase"] == "actions" and state["bank"]["coins"] >= 4


def test_duplicates_are_free_beyond_four_players_or_come_evenly_by_option():
    """§1.1.4: «Дубликаты разрешаются, если число игроков превышает количество доступных классов» — any class
    with five players (the book); ``duplicates: even`` lets a class repeat only once all four are taken (BR-2)."""
    free = GAME.initial_state(5, seed="c").state
    free = act(free, 0, type="choose", cls="mage")
    free = act(free, 1, type="choose", cls="mage")
    assert [c["cls"] for c in free["chars"][:2]] == ["mage", "mage"]
    even = GAME.initial_state(5, seed="c", options={"duplicates": "even"}).state
    even = act(even, 0, type="choose", cls="mage")
    refusal = reject(even, 1, type="choose", cls="mage")
    assert (refusal.key, refusal.rule) == ("bridges.reject.class_taken", "BR-2")


def test_random_characters_are_dealt_four_at_a_time():
    state = GAME.initial_state(6, seed="deal", options={"classes": "random"}).state
    classes = [c["cls"] for c in state["chars"]]
    assert sorted(classes[:4]) == ["burilla", "mage", "master", "scout"] and state["phase"] == "actions"


def test_a_stack_that_does_not_fit_is_refused():
    for stack in ({"classes": ["mage", "mage"]}, {"classes": ["wizard"]}, {"placement": ["archer"]},
                  {"bank": {"coins": -1}}, {"bank": {"items": {"sword": 1}}}):
        seats = len(stack.get("classes", [0]))
        with pytest.raises(Reject) as info:
            GAME.initial_state(seats, seed="s", stack=stack)
        assert info.value.rejection.code == Code.BAD_SETUP


def test_the_map_is_the_book_scheme():
    """Chapter 2: BSE - chs - [1]/[2] - chn - [3]/[4] - trl - CRB."""
    cat = catalogue()
    assert cat.links == {"BSE": ("chs",), "chs": ("BSE", "1", "2"), "1": ("chs", "chn"), "2": ("chs", "chn"),
                         "chn": ("1", "2", "3", "4"), "3": ("chn", "trl"), "4": ("chn", "trl"),
                         "trl": ("3", "4", "CRB"), "CRB": ("trl",)}


def test_setup_events_are_public_and_in_order():
    result = GAME.initial_state(1, seed="e", stack={"classes": ["mage"]})
    assert kinds(result.events)[:2] == ["classes_dealt", "kit"]
    assert kinds(result.events)[-1] == "round"
