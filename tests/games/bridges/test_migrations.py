"""Bridges' rules versions 3 and 4 (bot/games/bridges/migrations.py): a table of an older version keeps playing as
it was."""
import pytest

from bot.engine.versions import RULES, CannotMigrate, migrate_options, migrate_state
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
    assert new[RULES] == GAME.rules_version
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


def _v3(state, zero_ap):
    old = {k: v for k, v in state.items()}
    old[RULES] = 3
    old["options"] = {**state["options"], "zero_ap": zero_ap}
    return old


def test_a_version_3_table_keeps_the_referees_forced_end():
    """Rules version 4 ends a phase in the action that spends the last AP (``zero_ap: end``); a table of version 3
    played ``end`` as the referee's forced End, and gets that reading by name (``referee``); ``wait`` stays."""
    state = table(["scout", "mage"], options={"zero_ap": "end"})
    new = migrate_state(GAME, _v3(state, "end"))
    assert new[RULES] == GAME.rules_version and new["options"]["zero_ap"] == "referee"
    assert {k: v for k, v in new.items() if k not in ("options", RULES)} == \
        {k: v for k, v in state.items() if k not in ("options", RULES)}
    assert migrate_options(GAME, _v3(state, "wait")["options"], 3)["zero_ap"] == "wait"
    assert migrate_options(GAME, {**state["options"], "zero_ap": "end"}, 3)["zero_ap"] == "referee"
    with pytest.raises(CannotMigrate):
        migrate_options(GAME, {**state["options"], "zero_ap": "end", "no_such_option": 1}, 3)


def test_a_seat_an_upgrade_finds_at_0_ap_with_its_phase_open_is_ended_by_the_referee():
    """A version 3 state caught between the last AP and the referee's End: the End is still taken for it, under
    either reading (a new ``end`` table never leaves a seat there)."""
    state = table(["scout", "mage"], options={"zero_ap": "referee"})
    state = act(act(state, 0, type="move", to="chs"), 0, type="move", to="BSE")
    assert state["chars"][0]["ap"] == 0 and not state["chars"][0]["done"]
    migrated = migrate_state(GAME, _v3(state, "end"))
    assert GAME.forced_action(migrated, 0, GAME.legal_actions(migrated, 0)) == {"type": "end"}
    migrated["options"]["zero_ap"] = "end"
    assert GAME.forced_action(migrated, 0, GAME.legal_actions(migrated, 0)) == {"type": "end"}
