"""The rule-book scenarios in scenarios/ run green in every language and each names its rule."""
from pathlib import Path

import pytest

import bot.games.raiders  # noqa: F401  (registers the game for the runner)
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
    assert doc.get("description") or any("note" in step for step in doc["steps"])
    for locale in ("ru", "uk"):
        assert run(load(path), locale=locale, with_states=False)["ok"]
