"""The type checker and the linter hold the whole code (pyproject.toml's [tool.mypy] and [tool.ruff]), as part of
the suite the README's test command runs: bot/engine and bot/games under --strict's checks, the rest of bot/ and
cogs/ in mypy's default mode, and ruff's chosen rules everywhere.

A game that slips from the contract (a ``render_view`` without ``full=`` once crashed "Full board" on every
Bridges table) must fail here, not at a table."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from mypy import api
except ImportError:  # pragma: no cover - a setup without the development requirements
    pytest.fail("mypy is not installed: the test command installs requirements-dev.txt", pytrace=False)

ROOT = Path(__file__).resolve().parents[2]


def _mypy(*args: str) -> tuple[str, int]:
    cwd = os.getcwd()
    os.chdir(ROOT)  # the configuration and the ``bot`` package are found from the repository's root
    try:
        out, err, code = api.run(list(args))
    finally:
        os.chdir(cwd)
    return out + err, code


def test_the_code_passes_the_type_checker() -> None:
    report, code = _mypy()  # pyproject.toml's packages: bot and cogs
    assert code == 0, report


def test_the_code_passes_the_linter() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


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
