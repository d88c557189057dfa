"""The scenario files next to this test run green through the scenario runner, in English and in Russian:
each one plays a rule of the forum rule book on stacked decks and checks the table (`note:` names the rule).
They were written from the rule book and docs/games/gwent.md alone, as an outside checker would."""
from pathlib import Path

import pytest

import bot.games.gwent  # noqa: F401  (registers the game for the runner)
from bot.terminal.scenario import load, run
from tests.support.scenarios import failures

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    doc = load(path)
    assert any("note" in step for step in doc["steps"]), "every scenario names the rule it checks"
    for locale in ("en", "ru"):
        report = run(doc, locale=locale, with_states=False)
        failed = failures(report)
        assert report["ok"], failed
        assert report["checks"], "a scenario without checks proves nothing"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hands_and_decks_never_reach_the_other_seat(path):
    """Every view of every step (--views): the opponent's and the channel's views carry no hand, deck,
    exchange candidate or secret pick of a seat."""
    report = run(load(path), views=True, with_states=True)
    for entry in [report["initial"], *report["steps"]]:
        if "views" not in entry:
            continue
        state = entry["state"]
        for seat in (0, 1):
            secret = set(state["hand"][seat] + state["deck"][seat] + state["aside"][seat] + state["cand"][seat])
            for viewer in ("None", str(1 - seat)):
                shown = set(state["revealed"][1 - seat])  # shown to the Emperor: named in the thread (§7)
                text = repr(entry["views"][viewer])
                leaked = [u for u in secret - shown if f"'{u}'" in text]
                assert not leaked, (path.stem, entry.get("step"), viewer, leaked)


def test_there_are_scenarios():
    assert len(FILES) >= 15
