"""Issue 29: a scenario's own deck file, шняга-only cards, effects that set крутизна, the judge-assisted range,
the pairs' target with short_target (RD-21), and refusals that name the rule broken (RD-4, RD-14, RD-20)."""
from pathlib import Path

import pytest

from bot.engine import Code
from bot.engine.catalog import CatalogError
from bot.engine.versions import migrate_state
from bot.games.raiders import cards
from bot.games.raiders.cards import problems, use_file
from bot.games.raiders.effects import manual_outcomes
from bot.terminal.scenario import ScenarioError, load, run
from tests.games.raiders.helpers import GAME, act, all_pass, arrange, card, new_table, refused

MINI = Path(__file__).parent / "scenarios" / "decks" / "mini.yaml"


def _deck(tmp_path: Path, name: str, old: str = "", new: str = "") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(MINI.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ the deck format
def test_a_shnyaga_only_card_needs_its_shnyaga_and_cannot_capture():
    s = cards.load_set(MINI)
    oblom = next(f for f in s.fighters if f.id == "oblom")
    assert oblom.krutizna is None and not oblom.is_fighter and oblom.shnyaga.effects[0] == {
        "do": "krutizna", "to": 1, "target": "capture_fighter"}


def test_the_validator_refuses_a_card_with_neither_krutizna_nor_shnyaga_and_both_by_and_to(tmp_path):
    bare = _deck(tmp_path, "bare", '{id: c6, suit: clubs, rank: "6", krutizna: 1}', '{id: c6, suit: clubs, rank: "6"}')
    assert problems(bare) == [f"{bare}: fighters[0] (id 'c6').krutizna: missing: a card without крутизна is a "
                              "шняга only, so it needs a shnyaga"]
    both = _deck(tmp_path, "both", "{do: krutizna, to: 1,", "{do: krutizna, to: 1, by: 2,")
    assert problems(both) == [f"{both}: fighters[12] (id 'oblom').shnyaga.effects[0]: krutizna needs exactly one "
                              "of 'by', 'to', not 'by' and 'to'"]
    neither = _deck(tmp_path, "neither", "{do: krutizna, to: 1,", "{do: krutizna,")
    assert "krutizna needs exactly one of 'by', 'to'" in problems(neither)[0]


def test_a_deck_file_may_not_take_a_shipped_name_or_a_name_unfit_for_card_ids(tmp_path):
    with pytest.raises(CatalogError, match="shipped deck set"):
        use_file(_deck(tmp_path, "house"))
    with pytest.raises(CatalogError, match="letters, digits"):
        use_file(_deck(tmp_path, "my:deck"))


def test_a_deck_file_becomes_a_choice_of_the_deck_option_and_a_table_plays_it(tmp_path):
    name = use_file(_deck(tmp_path, "tmpdeck29"))
    assert name == "tmpdeck29" and "tmpdeck29" in dict((o.name, o) for o in GAME.options)["deck"].choices
    state = GAME.initial_state(2, seed="s", options={"deck": name}).state
    assert state["deck_set"] == name and all(c.startswith("tmpdeck29:") for c in state["deck"])
    # the same name loaded again with other cards: the table's cards follow the file
    use_file(_deck(tmp_path, "tmpdeck29", "krutizna: 6}", "krutizna: 7}"))
    assert cards.table_cards(name, 1).fighters["tmpdeck29:cj"].krutizna == 7


# ------------------------------------------------------------------------------------------ effects that set
def test_judge_assisted_outcomes_reach_ten_either_way_and_may_set_krutizna():
    state = arrange(new_table(2), hands={0: ["c10", "c6"], 1: ["d6"]}, free=["kiosk1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    found = manual_outcomes(state, 1)
    bys = sorted(e["by"] for e in found if e.get("by") is not None)
    tos = sorted(e["to"] for e in found if e.get("to") is not None)
    assert bys == [b for b in range(-10, 11) if b] and tos == list(range(0, 11))


# ------------------------------------------------------------------------------------------ the readings
def test_a_pair_plays_for_36_also_with_short_target():
    assert new_table(4, options={"pairs": True, "short_target": True})["target"] == 36
    assert new_table(4, options={"short_target": True})["target"] == 24
    assert new_table(4, options={"pairs": True})["target"] == 36


def test_a_player_who_passed_is_told_so_when_trying_a_shnyaga_in_the_open_window():
    state = arrange(new_table(3), hands={0: ["c10", "c8"], 1: ["d7", "d6"], 2: ["h6"]}, free=["kiosk1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    state, _ = act(state, 1, {"type": "pass"})
    r = refused(state, 1, {"type": "shnyaga", "card": card("d7"), "target": card("c10")})
    assert (r.code, r.key, r.rule) == (Code.NOT_YOUR_TURN, "raiders.reject.passed", "RD-20")
    assert "пас" in r.message("ru") and "passed" in r.message("en")
    # another player's шняга asks everyone again: the one who passed may answer it
    state, _ = act(state, 0, {"type": "shnyaga", "card": card("c8"), "target": card("c10")})
    state, _ = act(state, 1, {"type": "shnyaga", "card": card("d7"), "target": card("c10")})


def test_capturing_ones_own_property_cites_rd4_and_a_missing_one_zakhvat():
    state = arrange(new_table(2), hands={0: ["c10", "c6"], 1: ["d6"]}, guarded={"kiosk1": ("c7", 0)},
                    free=["club1"])
    r = refused(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    assert (r.key, r.rule) == ("raiders.reject.own_property", "RD-4") and "ваша" in r.message("ru")
    r = refused(state, 0, {"type": "capture", "card": card("c10"), "prop": card("bank1")})
    assert (r.key, r.rule) == ("raiders.reject.no_such_property", "Захват") and "ваша" not in r.message("ru")


# ------------------------------------------------------------------------------------------ the scenario's file
def test_deck_file_errors_are_one_scenario_error_line(tmp_path):
    bad = _deck(tmp_path, "broken", "suit: clubs", "suit: clover")
    doc = {"game": "raiders", "deck_file": str(bad), "steps": []}
    with pytest.raises(ScenarioError, match=r"'deck_file': .*clover"):
        run(doc)
    with pytest.raises(ScenarioError, match="claygod has no deck files"):
        run({"game": "claygod", "deck_file": str(MINI), "steps": []})
    with pytest.raises(ScenarioError, match="two different decks"):
        run({"game": "raiders", "deck_file": str(MINI), "options": {"deck": "house"}, "steps": []})


def test_a_deck_file_is_named_from_the_scenarios_folder(tmp_path):
    (tmp_path / "decks").mkdir()
    _deck(tmp_path / "decks", "mini")
    path = tmp_path / "s.yaml"
    path.write_text("game: raiders\ndeck_file: decks/mini.yaml\nsteps:\n  - check: {deck_set: mini}\n",
                    encoding="utf-8")
    assert run(load(path))["ok"]


def test_an_older_table_keeps_its_target_through_the_migration():
    old = new_table(4, options={"pairs": True, "short_target": True})
    old["target"], old["rules"] = 24, 1
    assert migrate_state(GAME, old)["target"] == 24 and migrate_state(GAME, old)["rules"] == 2


def test_a_judge_assisted_step_may_state_the_value_krutizna_becomes_and_the_log_says_so(tmp_path):
    manual = _deck(tmp_path, "manual29", """      timing: any
      effects:
        - {do: krutizna, by: 3, target: own_fighter}""", """      timing: any
      manual: true""")
    name = use_file(manual)
    state = GAME.initial_state(2, seed="m", options={"deck": name}, stack={
        "deck": [f"{name}:{c}" for c in ("c10", "pump", "c6", "c7", "c8", "c9", "d6", "d7", "d8", "d9", "d10", "dj",
                                         "cj")],
        "properties": [f"{name}:kiosk1"], "first": 0}).state
    state, _ = act(state, 0, {"type": "capture", "card": f"{name}:c10", "prop": f"{name}:kiosk1"})
    state, _ = act(state, 0, {"type": "shnyaga", "card": f"{name}:pump", "target": None})
    becomes = {"type": "state", "effect": {"do": "krutizna", "to": 9, "target": f"{name}:c10"}}
    assert becomes in GAME.legal_actions(state, 0)
    state, events = act(state, 0, becomes)
    assert "krutizna becomes 9" in GAME.render_event(next(e for e in events if e["kind"] == "stated"), "en", "AB")
    state, events = all_pass(state)
    changed = next(e for e in events if e["kind"] == "krutizna")
    assert changed["data"]["now"] == 9 and changed["data"]["by"] == 4 and changed["data"]["set_to"] == 9
    assert GAME.render_event(changed, "ru", ["Аня", "Боб"]).endswith("крутизна становится 9.")
