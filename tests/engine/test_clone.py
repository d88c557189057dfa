"""clone (bot/engine/contract.py) copies a state by an orjson round trip: the same as pickle's copy for every
state a game makes, independent of the original; what orjson refuses is copied by pickle, types and all."""
from __future__ import annotations

import dataclasses
import datetime
import pickle

import pytest

from bot.engine import all_games, clone
from bot.engine.playout import play


def pickled(state):
    return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("name", [n for n in all_games() if n != "toy"])
def test_a_clone_of_every_playout_state_equals_pickles_copy_key_order_and_all(name):
    game = all_games()[name]
    po = play(game, game.min_seats, seed=f"clone-{name}", bot_seed=3, max_actions=200)
    for state in [po.initial, *po.states]:
        copy = clone(state)
        assert copy == pickled(state) == state and copy is not state
        assert repr(copy) == repr(state)  # the same key order, ints stay ints, -0.0 stays -0.0
    copy = clone(po.states[-1])
    for value in copy.values():  # nothing shared with the original
        if isinstance(value, list):
            value.append("marker")
        elif isinstance(value, dict):
            value["marker"] = 1
    assert clone(po.states[-1]) == po.states[-1] != copy


class Tag(str):
    pass


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize("state", [
    {"by_seat": {0: "a", 1: "b"}}, {"big": 2**64}, {"tag": Tag("t")}, {"at": datetime.date(2024, 1, 1)},
    {"point": Point(1)}, {"text": "\ud800"},
], ids=["int keys", "big int", "str subclass", "date", "dataclass", "lone surrogate"])
def test_what_orjson_refuses_is_copied_by_pickle_with_its_types(state):
    copy = clone(state)
    assert copy == state and copy is not state
    assert repr(copy) == repr(state) and [type(v) for v in copy.values()] == [type(v) for v in state.values()]


def test_a_clone_is_what_storing_and_reloading_gives():
    shared = [1, 2]
    copy = clone({"pair": (1, 2), "a": shared, "b": shared, "x": -0.0, "e": 1e-7})
    assert copy == {"pair": [1, 2], "a": [1, 2], "b": [1, 2], "x": -0.0, "e": 1e-7}
    copy["a"].append(3)
    assert copy["b"] == [1, 2]
