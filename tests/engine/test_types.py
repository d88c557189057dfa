"""The type checker's hold on the engine and the games (pyproject.toml's [tool.mypy]: strict there).

A game that slips from the contract (a ``render_view`` without ``full=`` once crashed "Full board" on every
Bridges table) must fail here, not at a table."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is a development requirement (requirements-dev.txt)")

ROOT = Path(__file__).resolve().parents[2]


def _mypy(*args: str) -> tuple[str, int]:
    cwd = os.getcwd()
    os.chdir(ROOT)  # the configuration and the ``bot`` package are found from the repository's root
    try:
        out, err, code = api.run(list(args))
    finally:
        os.chdir(cwd)
    return out + err, code


def test_engine_and_games_pass_strict_checking() -> None:
    report, code = _mypy()
    assert code == 0, report


def test_a_game_slipping_from_the_contract_is_caught(tmp_path: Path) -> None:
    game = tmp_path / "slipped.py"
    game.write_text(
        "from collections.abc import Mapping, Sequence\n"
        "from typing import Any\n\n"
        "from bot.engine import Game\n\n\n"
        "class Slipped(Game):\n"
        "    def render_view(self, view: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:\n"
        "        return ''\n")
    report, code = _mypy("--strict", "--follow-imports=silent", str(game))
    assert code == 1
    assert 'Signature of "render_view" incompatible with supertype' in report, report


_UNTYPED = "def untyped(x):\n    return x\n\n\ndef generic() -> list:\n    return []\n"


@pytest.mark.parametrize("module, strict", [("bot/engine/hands.py", True), ("bot/web/links.py", False)])
def test_strict_mode_holds_the_engine_and_stops_there(tmp_path: Path, module: str, strict: bool) -> None:
    """The override's flags reach bot/engine and go no further: ``strict = true`` in an override once put
    every module the checked ones import under strict mode too (mypy 2.4 reads it as global)."""
    source = tmp_path / "untyped.py"
    source.write_text(_UNTYPED)
    report, code = _mypy("--follow-imports=silent", "--shadow-file", module, str(source), module)
    assert (code == 1) == strict, report
    assert ("[no-untyped-def]" in report and "[type-arg]" in report) == strict, report


#: the layers held to mypy's default mode so far; bot/referee/service.py and bot/referee/delivery.py join once
#: their rewrite (one read per click) lands, and then every package goes into pyproject.toml's ``packages``
DEFAULT_MODE = ["bot/storage", "bot/terminal", "bot/ratings", "bot/process", "bot/rules", "bot/i18n",
                "bot/__init__.py", "bot/__main__.py"]
PENDING = {"bot/referee/service.py", "bot/referee/delivery.py"}


def test_the_layers_above_the_games_pass_the_default_mode() -> None:
    referee = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "bot" / "referee").glob("*.py"))
    report, code = _mypy("--follow-imports=silent", *DEFAULT_MODE, *(p for p in referee if p not in PENDING))
    assert code == 0, report
