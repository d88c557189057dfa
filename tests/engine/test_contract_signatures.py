"""Every game's engine methods take exactly what the contract (bot/engine/contract.py) declares.

The front ends call the contract's signature — ``render_view(..., full=True)`` from the "Full board" button —,
so a game that overrides a method with fewer parameters breaks only when that call comes (Bridges lacked
``full=``: "internal error" on every Bridges table).  Positional parameters may be renamed with a trailing
underscore (``view_``: the games import a module named ``view``); everything else must match."""
from __future__ import annotations

import inspect

import pytest

from bot.engine import all_games
from bot.engine.contract import Game

GAMES = sorted(all_games())


def contract_methods() -> list[str]:
    return sorted(name for name, value in vars(Game).items()
                  if inspect.isfunction(value) and not name.startswith("__"))


def shape(fn) -> list[tuple]:
    """A signature as callers see it: each parameter's name, kind and default."""
    return [(p.name.rstrip("_"), p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", GAMES)
def test_every_overridden_method_has_the_contracts_signature(name):
    cls = type(all_games()[name])
    wrong = []
    for method in contract_methods():
        impl, declared = getattr(cls, method), vars(Game)[method]
        if impl is not declared and shape(impl) != shape(declared):
            wrong.append(f"{method}{inspect.signature(impl)} — the contract: {method}{inspect.signature(declared)}")
    assert not wrong, f"{name}: " + "; ".join(wrong)


def test_the_check_sees_a_missing_keyword():
    """The comparison itself: a render_view without ``full=`` (the Bridges slip) is told from the contract's."""
    def render_view(self, view_, locale, names):
        return ""

    assert shape(render_view) != shape(Game.render_view)
    assert "render_view" in contract_methods()
