"""A position set up directly in a scenario (``position``, ``state``, a step's ``position``; docs/scenarios.md):
for each game a position only long play reaches is accepted and played on, and each broken invariant — card
conservation, a legal value, a consistent turn — is refused naming the key (issue 29)."""
import random
import re

import pytest

from bot.engine import get_game
from bot.engine.canonical import dumps
from bot.games.raiders.cards import fighter
from bot.terminal.scenario import ScenarioError, run
from tests.support.scenarios import failures


def scenario(game, seats, position=None, steps=(), **extra):
    doc = {"game": game, "seats": seats, "steps": list(steps), **extra}
    if position is not None:
        doc["position"] = position
    return doc


def start(game, seats, **kw):
    return get_game(game).initial_state(seats, seed="scenario", **kw).state


def refused(doc, key, words):
    with pytest.raises(ScenarioError) as err:
        run(doc)
    message = str(err.value)
    where = f"(the state's {key[1:]})" if key.startswith("~") else f"'{key}'"   # ~key: a key the file did not set
    assert where in message and words in message, message
    return message


# ------------------------------------------------------------------------------------------------ Clay God
def test_claygod_a_late_position_is_set_and_played_on():
    seeded = start("claygod", 2)
    moved = seeded["deck"][:3]
    doc = scenario("claygod", 2, {
        "players.0.health": 195, "players.0.sphere": -45, "players.1.max_health": 80, "players.1.skip_turns": 1,
        "players.0.dice.blue": {"value": 4, "frozen": True, "frozen_turns": 3, "frozen_rolls": None,
                                "frozen_by": "snowflake"},
        "deck": seeded["deck"][3:], "discard": moved, "turn.number": 31,
    }, steps=[{"check": {"players.0.health": 195, "discard": moved, "@view.1.players.0.dice.blue.value": 4,
                         "@view.1.players.0.hand": None}},
              {"seat": 0, "action": {"type": "roll"}, "rolls": {"claygod.dice": [1, 2, 3, 5, 6, 2, 1]}},
              {"check": {"players.0.dice.blue.value": 4, "players.0.dice.blue.frozen": True}}])
    report = run(doc)
    assert report["ok"], failures(report)
    assert report["initial"]["state"]["turn"]["number"] == 31


@pytest.mark.parametrize("position, key, words", [
    ({"players.0.hand.0": "not_a_card"}, "position.players.0.hand.0", "not a known card id"),
    ({"players.0.dice.red.value": 7}, "position.players.0.dice.red.value", "outside 1..6"),
    ({"turn.stage": "dance"}, "position.turn.stage", "not a known stage"),
    ({"turn.seat": 2}, "position.turn.seat", "outside 0..1"),
    ({"players.0.health": 250}, "position.players.0.health", "would be over already"),
    ({"deck": []}, "position.deck", "is missing"),
    ({"turn.stage": "give"}, "~turn.give", "must be a mapping"),
])
def test_claygod_refuses_a_broken_position(position, key, words):
    refused(scenario("claygod", 2, position), key, words)


def test_claygod_a_card_in_two_places_is_refused():
    card = start("claygod", 2)["players"][1]["hand"][0]
    refused(scenario("claygod", 2, {"players.0.hand.0": card}), "~players.1.hand", "exactly once")


# ------------------------------------------------------------------------------------------------ Gwent
def _gwent_to_play():
    """Bot steps (as the runner plays them) from the seeded start to the first turn, and the state there."""
    game = get_game("gwent")
    state, steps = start("gwent", 2), []
    while state["phase"] != "play":
        seat = game.to_act(state)[0].seat
        action = game.bot_action(state, seat, random.Random(len(steps)))
        state = game.apply(state, seat, action).state
        steps.append({"seat": seat, "bot": True})
    return state, steps


def test_gwent_a_third_round_is_set_once_the_decks_are_dealt():
    state, steps = _gwent_to_play()
    mover = state["turn"]["seat"]
    other = 1 - mover
    unit = state["hand"][other][0]
    position = {"round": 3, "players.0.gems": 1, "players.1.gems": 1,
                f"hand.{other}": [u for u in state["hand"][other] if u != unit],
                f"discard.{other}": [unit]}
    doc = scenario("gwent", 2, steps=[*steps, {"position": position,
                                               "check": {"round": 3, f"discard.{other}": [unit]}},
                                      {"seat": mover, "bot": True}])
    report = run(doc)
    assert report["ok"], failures(report)
    assert report["final"]["players"][0]["gems"] + report["final"]["players"][1]["gems"] <= 2


def test_gwent_refuses_a_lost_card_and_an_impossible_turn():
    state, steps = _gwent_to_play()
    uid = state["hand"][0][0]
    with pytest.raises(ScenarioError, match=r"'position' \(the state's cards\.%s\): is in no zone" % uid):
        run(scenario("gwent", 2, steps=[*steps, {"position": {"hand.0": state["hand"][0][1:]}}]))
    with pytest.raises(ScenarioError, match="also in hand.0"):
        run(scenario("gwent", 2, steps=[*steps, {"position": {"discard.1": [uid]}}]))
    with pytest.raises(ScenarioError, match="'position.players.0.gems': 3 is outside 0..2"):
        run(scenario("gwent", 2, steps=[*steps, {"position": {"players.0.gems": 3}}]))
    seat = state["turn"]["seat"]
    with pytest.raises(ScenarioError, match=r"\(the state's turn.seat\): the seat to move has passed"):
        run(scenario("gwent", 2, steps=[*steps, {"position": {f"players.{seat}.passed": True}}]))
    with pytest.raises(ScenarioError, match="'position.phase': 'over' while 'outcome' is null"):
        run(scenario("gwent", 2, steps=[*steps, {"position": {"phase": "over"}}]))


# ------------------------------------------------------------------------------------------------ Bloodwood
def test_bloodwood_marks_and_mutations_are_set_and_played_on():
    seeded = start("bloodwood", 5)
    night = seeded["decks"]["night"]
    curse_at = night.index("curse_mark")
    chains_at = night.index("chains")
    rest = [c for j, c in enumerate(night) if j not in (curse_at, chains_at)]
    doc = scenario("bloodwood", 5, {
        "decks.night": rest, "curse.2": {"left": 1, "since": 3}, "chains.3": True, "dna.1": "mutated",
        "dna.4": "forever", "phase": "night", "turn_no": 12,
    }, steps=[{"check": {"curse.2.left": 1, "dna.4": "forever", "@view.public.roles": {"$absent": True}}},
              {"bot": True}, {"bot": True}])
    report = run(doc)
    assert report["ok"], failures(report)


@pytest.mark.parametrize("position, key, words", [
    ({"dna.0": "green"}, "position.dna.0", "not a known DNA"),
    ({"curse.0": {"left": 9, "since": 1}}, "position.curse.0.left", "outside"),
    ({"chains.0": True}, "~decks", "card 'chains' is 9 times"),                       # a mark out of nowhere: one too many
    ({"decks.day": []}, "position.decks.day", "is missing"),
    ({"step.seat": 9}, "position.step.seat", "outside 0..4"),
    ({"step.kind": "counter"}, "~in_flight", "exactly while a counter window is open"),
    ({"hands.0": ["voodoo", "amulet"]}, "position.hands.0", "sorted"),
    ({"roles.0": "dracula"}, "position.roles.0", "composition"),
])
def test_bloodwood_refuses_a_broken_position(position, key, words):
    refused(scenario("bloodwood", 5, position), key, words)


# ------------------------------------------------------------------------------------------------ Bridges
BRIDGES = {"options": {"phase_end": "explicit"},
           "stack": {"classes": ["burilla", "scout"], "placement": ["archer", "karate", "casserole", "golemko"]}}


@pytest.mark.parametrize("position, key, words", [
    ({"buildings": {"chn": {"kind": "fort", "hits": 3}}}, "position.buildings.chn.hits", "outside 0..2"),
    ({"buildings": {"nowhere": {"kind": "fort", "hits": 0}}}, "position.buildings.nowhere", "not a known island"),
    ({"chars.0.hp": 9}, "position.chars.0.hp", "outside 0..4"),
    ({"chars.0.hp": 0}, "position.chars.0.hp", "the team has lost (set 'outcome' too) (§1.6)"),
    ({"chars.1.at": "atlantis"}, "position.chars.1.at", "not a known island"),
    ({"bosses.karate.hp": 99}, "position.bosses.karate.hp", "outside 0..12"),
    ({"bosses.karate.at": "3"}, "position.bosses.karate.at", "one boss on each boss island"),
    ({"provoked": "yes"}, "position.provoked", "must be true/false"),
    ({"chars.0.done": True, "chars.1.done": True}, "position.chars.0.done", "neutral phase would have been played"),
    ({"bank.items": {"excalibur": 1}}, "position.bank.items.excalibur", "not a known item"),
])
def test_bridges_refuses_a_broken_position(position, key, words):
    refused(scenario("bridges", 2, position, **BRIDGES), key, words)


def test_a_refused_position_is_a_refused_set_up_when_the_file_expects_one():
    doc = scenario("bridges", 2, {"chars.0.hp": 9}, expect={"code": "bad_setup", "key": "core.reject.bad_position"},
                   **BRIDGES)
    report = run(doc)
    assert report["ok"] and report["error"]["params"]["key"] == "'position.chars.0.hp'"
    assert "outside 0..4" in report["message"]


def test_a_fallen_bridges_character_is_refused_citing_the_paragraph_of_a_fall_to_0():
    """Bridges §1.6 «Нокдаун и Поражение»: a character at 0 health loses the game (§1.3 gives the stats only)."""
    doc = scenario("bridges", 2, {"chars.1.hp": 0}, expect={"code": "bad_setup", "rule": "§1.6"}, **BRIDGES)
    report = run(doc, locale="en")
    assert report["ok"], report
    assert report["error"]["rule"] == "§1.6" and report["message"].endswith("(see §1.6)")


# ------------------------------------------------------------------------------------------------ Raiders
def test_raiders_a_held_property_and_a_changed_krutizna_are_set_and_played_on():
    seeded = start("raiders", 2)
    guard = seeded["players"][1]["hand"][0]
    prop = seeded["props"][0]["card"]
    doc = scenario("raiders", 2, {
        "players.1.hand": seeded["players"][1]["hand"][1:],
        "props.0": {"card": prop, "guard": guard, "owner": 1},
        "mods": {guard: 2}, "turn.number": 14,
    }, steps=[{"check": {f"@table.krutizna.{guard}": fighter(seeded, guard).krutizna + 2, "props.0.owner": 1,
                         "@table.babki.1": {"$min": 1}}},
              {"bot": True}])
    report = run(doc)
    assert report["ok"], failures(report)
    assert report["initial"]["state"]["props"][0]["guard"] == guard


@pytest.mark.parametrize("position, key, words", [
    ({"turn.seat": 5}, "position.turn.seat", "outside 0..1"),
    ({"trump": "stars"}, "position.trump", "not a known suit"),
    ({"players.0.hand": []}, "~deck", "is missing"),
    ({"props.0.owner": 1}, "position.props.0.owner", "a guard without an owner"),
    ({"mods": {"house:ha": 1}}, "position.mods.house:ha", "off the board"),
    ({"deck": ["house:zz"]}, "position.deck.0", "not a known fighter card"),
])
def test_raiders_refuses_a_broken_position(position, key, words):
    refused(scenario("raiders", 2, position), key, words)


# ------------------------------------------------------------------------------------------------ every game
def test_a_whole_state_is_taken_as_it_is_and_must_be_complete():
    seeded = start("claygod", 2)
    report = run({"game": "claygod", "seats": 2, "state": seeded, "steps": []})
    assert dumps(report["initial"]["state"]) == dumps(seeded)
    lacking = {k: v for k, v in seeded.items() if k != "discard"}
    refused({"game": "claygod", "seats": 2, "state": lacking, "steps": []}, "state.discard", "is missing")
    refused({"game": "claygod", "seats": 2, "state": {**seeded, "rules": 1}, "steps": []}, "state.rules", "migrate")
    refused({"game": "claygod", "seats": 2, "state": {**seeded, "seats": 3}, "steps": []}, "state.seats", "must be 2")


def test_a_path_that_does_not_exist_is_refused():
    refused(scenario("claygod", 2, {"players.5.health": 1}), "position.players.5.health", "no item")
    refused(scenario("claygod", 2, {"nonsense": 1}), "position.nonsense", "not a key of a claygod state")


JUNK = [None, 0, -1, 7, 10**6, "x", "", [], [1], {}, {"a": 1}, True, 1.5, [None]]
SEATS = {"claygod": 2, "gwent": 2, "bloodwood": 5, "bridges": 2, "raiders": 3}


def _paths(value, prefix=""):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = list(enumerate(value))[:3]
    else:
        return
    for key, item in items:
        yield f"{prefix}{key}"
        yield from _paths(item, f"{prefix}{key}.")


@pytest.mark.parametrize("name", sorted(SEATS))
def test_junk_in_a_position_is_refused_or_played_never_a_crash(name):
    """Any value at any path of the seeded start: refused as a position, or a position the engine plays on."""
    from bot.engine.position import PositionError, place, validate

    game = get_game(name)
    seeded = game.initial_state(SEATS[name], seed="junk", options={"classes": "random"} if name == "bridges"
                                else None).state
    paths, rng = list(_paths(seeded)), random.Random(name)
    for k in range(80):
        position = {rng.choice(paths): rng.choice(JUNK) for _ in range(rng.randint(1, 2))}
        try:
            state = place(seeded, position)
            validate(game, state, seeded)
        except PositionError:
            continue
        bots = random.Random(k)
        for _ in range(5):
            pending = game.to_act(state)
            if not pending:
                break
            state = game.apply(state, pending[0].seat, game.bot_action(state, pending[0].seat, bots)).state


@pytest.mark.parametrize("step, words", [
    ({"at": -1}, "'at' must be from 0"),
    ({"at": 10, "wait": 1}, "one of 'wait' and 'at'"),
    ({"position": [1]}, "'position' must be a mapping"),
    ({"check": {"@after": 1}}, "@after.<mark>"),
    ({"moderator": "rollback"}, "'moderator' must be a moderator's step"),
    ({"moderator": {"type": "rollback", "to": 99}}, "which this scenario has not been at"),
    ({"moderator": {"type": "upgrade"}, "bot": True}, "one of 'action', 'timeout', 'bot', 'moderator'"),
])
def test_the_new_step_keys_are_checked_before_anything_runs(step, words):
    with pytest.raises(ScenarioError, match=re.escape(words)):
        run(scenario("claygod", 2, steps=[step]))


def test_at_sets_the_clock_a_timeout_reads():
    """A stored action's own time (``at``): a Bloodwood turn times out on the clock it sets (§9.2)."""
    doc = scenario("bloodwood", 5, options={"turn_seconds": 60}, now=1000,
                   steps=[{"timeout": True, "at": 1059, "expect": "too_early"},
                          {"timeout": True, "at": 1060}])
    report = run(doc)
    assert report["ok"], failures(report)
