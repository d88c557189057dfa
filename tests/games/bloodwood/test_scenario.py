"""The scenario example of docs/games/bloodwood.md runs through the scenario runner, with stacked roles and
first player, a refused action, a timeout and a bot move."""
from pathlib import Path

from bot.terminal import scenario

HERE = Path(__file__).resolve().parent


def test_the_documented_scenario_runs():
    report = scenario.run(scenario.load(HERE / "slow_turn.yaml"), locale="ru")
    assert report["ok"], report["checks"]
    results = [step.get("result") for step in report["steps"] if "result" in step]
    assert results == ["rejected", "applied", "applied"]
    assert report["steps"][1]["rejection"]["code"] == "not_your_turn"
    skipped = [e for e in report["steps"][3]["events"] if e["kind"] == "turn_skipped"]
    assert skipped and skipped[0]["data"]["seat"] == 3


def test_the_example_in_the_guide_is_this_file():
    guide = (HERE.parents[2] / "docs" / "games" / "bloodwood.md").read_text(encoding="utf-8")
    steps = (HERE / "slow_turn.yaml").read_text(encoding="utf-8").split("steps:\n", 1)[1]
    assert steps in guide
