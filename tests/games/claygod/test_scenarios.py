"""The scenario files next to this test (the examples of docs/games/claygod.md) run green through the
scenario runner: stacked dice and hands reproduce the rule book's effects."""
import re
from pathlib import Path

import pytest

import bot.games.claygod  # noqa: F401  (registers the game for the runner)
from bot.terminal.scenario import load, run
from tests.support.scenarios import failures

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    report = run(load(path), locale="en", with_states=False)
    failed = failures(report)
    assert report["ok"], failed
    assert report["checks"], "a scenario without checks proves nothing"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_scenario_says_which_rule_it_checks(path):
    doc = load(path)
    said = " ".join([doc.get("description", "")] + [s["note"] for s in doc["steps"] if "note" in s])
    assert doc.get("title") and re.search(r"§\d|\[\d\]|CG-\d|[А-Яа-яЁё]{4}", said), "name the rule-book rule checked"


def test_there_are_scenarios():
    assert len(FILES) >= 20
