"""The scenario runner and the terminal commands, with the toy game."""
from __future__ import annotations

import io
import json

import pytest

from bot.referee.service import Referee
from bot.storage.store import Store
from bot.terminal import cli, scenario
from bot.terminal.session import play_loop


def toy_scenario(**extra):
    doc = {
        "game": "toy", "seats": ["Ann", "Ben"], "seed": "s",
        "stack": {"deck": list(range(1, 13)), "rolls": {"toy.first": [1]}},
        "steps": [
            {"seat": 0, "action": {"type": "play", "card": 1}, "expect": "not_your_turn"},
            {"seat": 1, "action": {"type": "play", "card": 4}},
            {"seat": 0, "action": {"type": "play", "card": 9}, "expect": "rejected"},
            {"seat": 0, "action": {"type": "play", "card": 3}},
            {"check": {"tricks": [0, 1], "turn": 1, "hands.1": [5, 6]}},
        ],
    }
    doc.update(extra)
    return doc


def test_stacked_scenario_reproduces_exact_states():
    report = scenario.run(toy_scenario(), locale="en")
    assert report["ok"], json.dumps(report["checks"])
    assert report["initial"]["state"]["hands"] == [[1, 2, 3], [4, 5, 6]]
    steps = report["steps"]
    assert steps[0]["result"] == "rejected" and steps[0]["rejection"]["code"] == "not_your_turn"
    assert steps[2]["rejection"]["rule"] == "toy §1"
    assert [e["kind"] for e in steps[3]["events"]] == ["played", "trick"]


def test_failed_expectations_make_the_report_not_ok():
    doc = toy_scenario()
    doc["steps"].append({"check": {"tricks": [1, 0]}})
    doc["steps"].append({"seat": 0, "action": {"type": "play", "card": 2}})  # not seat 0's turn
    report = scenario.run(doc)
    assert not report["ok"]
    assert report["steps"][-1]["expectation_failed"] == "applied"


def test_pushed_rolls_and_bad_stacks():
    doc = toy_scenario(stack={"deck": [1] * 12})
    report = scenario.run(doc)
    assert not report["ok"] and report["error"]["code"] == "bad_setup"
    assert scenario.run(toy_scenario(stack={"deck": [1] * 12}, expect="bad_setup"))["ok"]  # a refusal on purpose
    assert not scenario.run(toy_scenario(expect="bad_setup"))["ok"]                        # ... that did not come
    with pytest.raises(scenario.ScenarioError):
        scenario.run({"game": "toy", "steps": [{"sit": 0}]})
    with pytest.raises(scenario.ScenarioError):
        scenario.run({"game": "nope"})


def test_checks_with_operators_views_events_and_cited_rules():
    doc = toy_scenario(note="what a checker writes: sizes, membership, views, events and the rule cited")
    doc["steps"][2]["expect"] = {"code": "illegal", "rule": "toy §1"}
    doc["steps"].append({"check": {
        "hands.0": {"$len": 2}, "deck": {"$contains": 7}, "hands.1": {"$lacks": 1},
        "turn": {"$ne": 0}, "tricks.1": {"$min": 1}, "tricks.0": {"$max": 0},
        "no_such_key": {"$absent": True},
        "@view.1.hand": [5, 6], "@view.0": {"$lacks": 5}, "@view.public.hand": None,
        "@events": {"$len": 0},
    }})
    doc["steps"].append({"seat": 1, "action": {"type": "play", "card": 5},
                         "check": {"@events.0.kind": "played", "@events": {"$contains": 5}}})
    report = scenario.run(doc)
    assert report["ok"], json.dumps([c for c in report["checks"] if not c["ok"]])
    wrong = toy_scenario()
    wrong["steps"][2]["expect"] = {"rule": "toy §2"}               # refused, but citing another rule
    wrong["steps"].append({"check": {"hands.0": {"$len": 3}, "@view.0": {"$contains": 5}, "turn": {"$absent": True}}})
    report = scenario.run(wrong)
    assert report["steps"][2]["expectation_failed"] == {"rule": "toy §2"}
    assert [c["ok"] for c in report["steps"][-1]["check"]] == [False, False, False]
    with pytest.raises(scenario.ScenarioError, match="operator"):
        scenario.run(toy_scenario(steps=[{"check": {"turn": {"$near": 1}}}]))
    with pytest.raises(scenario.ScenarioError, match="@view"):
        scenario.run(toy_scenario(steps=[{"check": {"@view.9.hand": []}}]))


def test_a_stacked_value_the_draw_refuses_is_an_error_in_the_file(tmp_path, capsys):
    """Exit code 2 and one line naming the tag, not a traceback."""
    doc = toy_scenario(stack={"rolls": {"toy.first": [5]}})     # two seats: the first player is 0 or 1
    with pytest.raises(scenario.ScenarioError, match="toy.first"):
        scenario.run(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(json.dumps({"game": "claygod", "seats": 2, "steps": [
        {"rolls": {"claygod.dice": [9]}}, {"bot": True}]}), encoding="utf-8")
    assert cli.main(["scenario", str(path)]) == 2
    assert "claygod.dice" in capsys.readouterr().err


def test_scenario_command_prints_json_and_sets_exit_code(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(toy_scenario()), encoding="utf-8")
    assert cli.main(["scenario", str(path), "--final-only"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["final"]["tricks"] == [0, 1]
    bad = toy_scenario()
    bad["steps"].append({"check": {"turn": 0}})
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert cli.main(["scenario", str(path)]) == 1
    bad["steps"].append({"seat": 0, "action": {"type": "play", "card": 2}})  # not seat 0's turn
    path.write_text(json.dumps(bad), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["scenario", str(path), "--final-only"]) == 1
    out = json.loads(capsys.readouterr().out)   # the short report still says what went wrong
    assert [c["ok"] for c in out["checks"]][-1] is False
    assert out["failed_steps"][0]["rejection"]["code"] == "not_your_turn" and "state" not in out["failed_steps"][0]


def test_table_commands_mirror_the_discord_lobby(tmp_path, capsys):
    db = str(tmp_path / "j.db")
    run = lambda *a: cli.main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "toy", "--user", "ann") == 0
    assert "table #1" in capsys.readouterr().out
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ben") == 1          # only the creator starts
    assert "Only the table's creator" in capsys.readouterr().err
    assert run("table", "start", "1", "--user", "ann", "--seed", "x") == 0
    capsys.readouterr()
    assert run("table", "status", "1", "--user", "ann") == 0
    status = capsys.readouterr().out
    assert "hand=[" in status
    for _ in range(6):
        for user in ("ann", "ben"):
            if run("table", "act", "1", "1", "--user", user) == 0:
                break
    assert run("table", "act", "1", "1", "--user", "ann") == 1       # the game is over
    capsys.readouterr()
    assert run("verify", "1") == 0
    assert "OK: table 1" in capsys.readouterr().out
    out_file = tmp_path / "t1.json"
    assert run("export", "1", "--out", str(out_file)) == 0
    assert run("verify", "--file", str(out_file)) == 0
    assert run("replay", "1") == 0


async def test_terminal_play_loop_survives_eof_and_resumes(tmp_path):
    path = tmp_path / "j.db"
    store = await Store.open(path)
    referee = Referee(store)
    table = await referee.create_table("toy", creator="cli:ann", creator_name="ann", origin="terminal")
    await referee.add_bot(table.id)
    await referee.start(table.id, "cli:ann", seed="q")
    answers = iter(["garbage", "1"])

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    assert await play_loop(referee, table.id, "cli:ann", "en", read=read, out=out) == "eof"
    text = out.getvalue()
    assert "I do not understand" in text and "Continue with" in text
    await store.close()

    store = await Store.open(path)                        # a new process continues the same table
    referee = Referee(store)
    out = io.StringIO()
    result = await play_loop(referee, table.id, "cli:ann", "en", read=lambda p: "1", out=out)
    assert result == "finished"
    assert (await store.get_table(table.id)).status == "finished"
    await store.close()


async def test_terminal_play_shows_the_board_once_per_decision(tmp_path):
    """A Clay God game at the terminal: before each decision the board (with the player's own hand) is
    printed exactly once, then the menu; the game reaches its end against the bot."""
    store = await Store.open(tmp_path / "j.db")
    referee = Referee(store)
    table = await referee.create_table("claygod", creator="cli:ann", creator_name="ann", origin="terminal")
    await referee.add_bot(table.id)
    await referee.start(table.id, "cli:ann", seed="board-once")
    out = io.StringIO()
    assert await play_loop(referee, table.id, "cli:ann", "en", read=lambda p: "1", out=out) == "finished"
    text = out.getvalue()
    prompts = text.count("ann, your move")
    assert prompts > 5
    assert text.count("Your hand") == prompts
    await store.close()
