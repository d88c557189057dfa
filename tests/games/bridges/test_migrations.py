"""Bridges' rules version 3 (bot/games/bridges/migrations.py): a table of version 2 keeps playing as it was."""
from bot.engine.versions import RULES, migrate_options, migrate_state
from bot.games.bridges import GAME

from .helpers import act, place, table


def _v2(state):
    old = {k: v for k, v in state.items()}
    old[RULES] = 2
    old["options"] = {k: v for k, v in state["options"].items() if k != "zero_ap"}
    return old


def test_a_version_2_table_gets_the_former_reading_and_nothing_else_changes():
    state = table(["scout", "mage"], options={"zero_ap": "end"})
    new = migrate_state(GAME, _v2(state))
    assert new[RULES] == 3 == GAME.rules_version
    assert new["options"]["zero_ap"] == "wait"
    assert {k: v for k, v in new.items() if k != "options"} == {k: v for k, v in state.items() if k != "options"}
    assert migrate_options(GAME, _v2(state)["options"], 2)["zero_ap"] == "wait"


def test_a_migrated_table_plays_on_as_before():
    """Under the former reading nobody ends a phase for the seat at 0 AP while it may still do something free
    (a potion in the Bank), and a trap recorded without its island (rules version 2) is still the Scout's own.
    (End as a seat's only choice is taken for it in every version: that changes nothing but a click.)"""
    state = migrate_state(GAME, _v2(place(table(["scout", "mage"], items={"potion": 1}), 0, "4", hp=1)))
    state = act(state, 0, type="trap")
    state = act(state, 0, type="move", to="chn")
    assert state["traps"] == ["4"] and state["chars"][0]["ap"] == 0
    assert GAME.forced_action(state, 0, GAME.legal_actions(state, 0)) is None
    state["bank"] = {"coins": 0, "items": {}}
    assert GAME.forced_action(state, 0, GAME.legal_actions(state, 0)) == {"type": "end"}
