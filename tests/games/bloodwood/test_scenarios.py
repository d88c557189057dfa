"""The rule-book scenarios in scenarios/ (written from the rule book and the guide only) run green, and no
seat's view at any step shows a role or a hand it may not see."""
from pathlib import Path

import pytest

import bot.games.bloodwood  # noqa: F401  (registers the game for the runner)
from bot.terminal.scenario import load, run
from tests.support.scenarios import failures

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))
LEADERS = {"dracula", "alpha"}


def _may_see(state, viewer, seat):
    if state.get("outcome") is not None or viewer == seat:
        return True
    if state.get("assigner") == viewer or (state.get("roles") and state["roles"][viewer] in LEADERS):
        return True
    return [viewer, seat] in state.get("known", [])


def _leaks(report):
    for entry in [report["initial"], *report["steps"]]:
        if "views" not in entry:
            continue
        state, views = entry["state"], entry["views"]
        if not state.get("roles"):
            continue
        for key, view in views.items():
            viewer = None if key == "None" else int(key)
            for seat, player in enumerate(view["players"]):
                if player["role"] is not None and (viewer is None or not _may_see(state, viewer, seat)):
                    if state.get("outcome") is None:
                        yield entry.get("step"), viewer, f"role of seat {seat}"
            expected_hand = None if viewer is None else state["hands"][viewer]
            if view.get("hand") != expected_hand:
                yield entry.get("step"), viewer, "hand"


def _leaders_missing_a_role(report):
    """§1.6: from the start each leader (and the winner who assigned the roles) sees every role."""
    for entry in [report["initial"], *report["steps"]]:
        state = entry.get("state") or {}
        if "views" not in entry or not state.get("roles"):
            continue
        for seat, role in enumerate(state["roles"]):
            if role in LEADERS or state.get("assigner") == seat:
                seen = [p["role"] for p in entry["views"][str(seat)]["players"]]
                if seen != state["roles"]:
                    yield entry.get("step"), seat


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    doc = load(path)
    report = run(doc, locale="en", views=True)
    assert report["ok"], report.get("message") or failures(report)
    assert report["checks"], "a scenario without checks proves nothing"
    assert any("note" in step for step in doc["steps"]), "every scenario names the rule it checks in a note"
    assert list(_leaks(report)) == []
    assert list(_leaders_missing_a_role(report)) == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_runs_in_every_language(path):
    for locale in ("ru", "uk"):
        assert run(load(path), locale=locale, with_states=False)["ok"]


def test_there_are_enough_scenarios():
    assert len(FILES) >= 15
