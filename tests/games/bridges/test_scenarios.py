"""The rule-book scenarios in scenarios/ (written from the rule book and the guide) run green in every
language, every one names its rule in a note, and no event is hidden from anyone (the game is open)."""
from pathlib import Path

import pytest

import bot.games.bridges  # noqa: F401  (registers the game for the runner)
from bot.terminal.scenario import load, run
from tests.support.scenarios import failures

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    doc = load(path)
    report = run(doc, locale="en", views=True)
    failed = failures(report)
    assert report["ok"], report.get("message") or failed
    assert report["checks"], "a scenario without checks proves nothing"
    assert any("note" in step for step in doc["steps"]), "every scenario names the rule it checks in a note"
    for entry in [report["initial"], *report["steps"]]:
        assert all(event["to"] is None for event in entry.get("events", []))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_runs_in_every_language(path):
    for locale in ("ru", "uk"):
        assert run(load(path), locale=locale, with_states=False)["ok"]


def test_there_are_enough_scenarios():
    assert len(FILES) >= 15
