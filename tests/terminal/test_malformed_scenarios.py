"""Malformed scenario files end in one ScenarioError line (exit code 2 from the CLI), never in a traceback, a hang
or a runaway allocation: an explicit table of bad files, a seeded mutation fuzzer over the real scenario files,
and the command line itself."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.terminal import cli, scenario
from bot.terminal.scenario import ScenarioError

# libyaml when present, for the real files read here: the same documents (every file compared), about a seventh of
# the CPU, which every process collecting this file paid at import (144 files, 2.7 s) and again in the fuzz cases
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ROOT = Path(__file__).resolve().parents[2]
REAL_FILES = sorted(ROOT.glob("tests/games/*/scenarios*/*.yaml")) + sorted(ROOT.glob("tests/games/*/*.yaml"))
SECONDS_PER_CASE = 5.0

GOOD = {"game": "claygod", "seats": ["Alice", "Bob"], "stack": {"rolls": {"claygod.first": [0]}},
        "steps": [{"rolls": {"claygod.dice": [1, 2, 3, 4, 5, 6, 6]}}, {"seat": 0, "action": {"type": "roll"}},
                  {"check": {"turn.seat": 0}}]}


def outcome(source: Path | dict, **kwargs: Any) -> tuple[str, Any]:
    """A file (or a document) run: ("report", report) or ("error", message); anything else raised fails the
    test, and so does a run longer than SECONDS_PER_CASE."""
    start = time.monotonic()
    try:
        doc = scenario.load(source) if isinstance(source, Path) else source
        result: tuple[str, Any] = ("report", scenario.run(doc, **kwargs))
    except ScenarioError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) <= scenario.MAX_MESSAGE, message
        result = ("error", message)
    elapsed = time.monotonic() - start
    assert elapsed < SECONDS_PER_CASE, f"{elapsed:.1f} s"
    if result[0] == "report":
        json.dumps(result[1])   # the report is printable JSON
    return result


def with_changes(**changes: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(GOOD))
    doc.update(changes)
    return doc


def with_step(step: Any) -> dict[str, Any]:
    return with_changes(steps=[*GOOD["steps"], step])


def _write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "case.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def _nest(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_the_base_case_runs_green(tmp_path):
    kind, report = outcome(_write(tmp_path, GOOD))
    assert kind == "report" and report["ok"], report


# ------------------------------------------------------------------------------ the table of malformed files
LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9))

MALFORMED: dict[str, tuple[Any, str]] = {
    # ----- the file itself: (content, a word the message must contain)
    "empty file": ("", "mapping"),
    "only a comment": ("# nothing\n", "mapping"),
    "a YAML list": ("- game: claygod\n", "mapping"),
    "a YAML scalar": ("claygod\n", "mapping"),
    "a number": ("42\n", "mapping"),
    "not UTF-8": (b"game: claygod\nseats: [\xff\xfe\xfa]\n", "UTF-8"),
    "latin-1 text": ("title: caf\xe9\ngame: claygod\n".encode("latin-1"), "UTF-8"),
    "UTF-16": ("game: claygod\n".encode("utf-16"), "UTF-8"),
    "binary": (bytes(range(256)) * 4, "UTF-8"),
    "NUL inside UTF-8": (b"game: claygod\x00\n", "YAML"),
    "broken YAML": ("game: [claygod\nsteps: {\n", "YAML"),
    "broken JSON": ('{"game": "claygod", "steps": [}', "YAML"),
    "tab indentation": ("game: claygod\nsteps:\n\t- note: x\n", "YAML"),
    "two documents": ("game: claygod\n---\ngame: gwent\n", "one YAML document"),
    "deep flow nesting 10^5": ("[" * 100_000, "nested deeper"),
    "deep closed nesting 10^5": ("x: " + "[" * 100_000 + "]" * 100_000, "nested deeper"),
    "deep mappings": ("game: claygod\nsteps: " + "{a: " * 5000 + "1" + "}" * 5000, "nested deeper"),
    "deep block nesting": ("game: claygod\nsteps:\n" + "".join("  " * i + "- \n" for i in range(1, 200)),
                           "nested deeper"),
    "alias bomb": (LAUGHS + "game: claygod\nsteps: *j\n", "aliases"),
    "one alias": ("game: &g claygod\nnote: *g\n", "aliases"),
    "merge key": ("base: &b {seat: 0}\ngame: claygod\nsteps: [{<<: *b, action: {type: roll}}]\n", "aliases"),
    "too many values": ("game: claygod\nsteps: [" + "0," * 150_000 + "0]\n", "values"),
    "too large": ("# " + "x" * scenario.MAX_FILE_BYTES + "\ngame: claygod\n", "bytes"),
    "a very long string": ("game: claygod\nnote: " + "x" * 20_000 + "\n", "characters"),
    "an integer of 5000 digits": ("game: claygod\nseats: " + "9" * 5000 + "\n", "cannot hold"),
    "a long sexagesimal number": ("game: claygod\nseats: 1" + ":59" * 3000 + "\n", "too large"),
    "a tagged bool that is not": ("game: claygod\nseed: !!bool maybe\n", "cannot hold"),
    "a tagged empty int": ('game: claygod\nseed: !!int ""\n', "cannot hold"),
    "a tagged int that is a sign": ('game: claygod\nseed: !!int "-"\n', "cannot hold"),
    "a tagged float that is an underscore": ('game: claygod\nseed: !!float "_"\n', "cannot hold"),
    "a tagged int that is text": ("game: claygod\nseed: !!int abc\n", "cannot hold"),
    "a python tag": ("game: !!python/object/apply:os.system [echo hi]\n", "YAML"),
    "an unknown tag": ("game: !mine claygod\n", "YAML"),
    "binary value": ("game: claygod\nseed: !!binary aGVsbG8=\n", "plain data"),
    "a set": ("game: claygod\nseats: !!set {Alice, Bob}\n", "plain data"),
    "an ordered map": ("game: claygod\noptions: !!omap [{clock_turns: 3}]\n", "plain data"),
    "a list as a key": ("game: claygod\n? [a, b]\n: 1\n", "YAML"),
    "a null key": ("game: claygod\n~: 1\n", "key"),
    "a float key": ("game: claygod\n1.5: 1\n", "key"),
    # ----- the top-level keys
    "no game": ({"seats": 2, "steps": []}, "'game' is missing"),
    "game is a list": (with_changes(game=["claygod"]), "'game' must be"),
    "game is a mapping": (with_changes(game={"claygod": 1}), "'game' must be"),
    "game is a number": (with_changes(game=7), "'game' must be"),
    "unknown game": (with_changes(game="chess"), "unknown game"),
    "unknown top key": (with_changes(sets=2), "unknown scenario keys"),
    "seats 10**12": (with_changes(seats=10**12), "seats"),
    "seats 2**70": (with_changes(seats=2**70), "too large"),
    "seats -1": (with_changes(seats=-1), "seats"),
    "seats 0": (with_changes(seats=0), "seats"),
    "seats 3 at a two-seat game": (with_changes(seats=3), "2 to 2"),
    "seats true": (with_changes(seats=True), "'seats' must be"),
    "seats a string": (with_changes(seats="two"), "'seats' must be"),
    "seats a float": (with_changes(seats=2.0), "'seats' must be"),
    "seats a mapping": (with_changes(seats={"a": 1}), "'seats' must be"),
    "seat names too many": (with_changes(seats=["A"] * 10_000), "seats"),
    "a seat name that is a list": (with_changes(seats=[["A"], "B"]), "seats.0"),
    "a seat name that is null": (with_changes(seats=[None, "B"]), "seats.0"),
    "a seat name 1000 long": (with_changes(seats=["A" * 1000, "B"]), "seats.0"),
    "seed a list": (with_changes(seed=[1]), "'seed'"),
    "seed a mapping": (with_changes(seed={"a": 1}), "'seed'"),
    "seed huge": (with_changes(seed="s" * 5000), "'seed'"),
    "now a string": (with_changes(now="noon"), "'now'"),
    "now negative": (with_changes(now=-1), "'now'"),
    "now 1e300": ("game: claygod\nnow: 1.0e+300\n", "2**53"),
    "now infinite": ("game: claygod\nnow: .inf\n", "finite"),
    "now NaN": ("game: claygod\nnow: .nan\n", "finite"),
    "options a list": (with_changes(options=["clock_turns"]), "'options'"),
    "options a string": (with_changes(options="house"), "'options'"),
    "an unknown option": (with_changes(options={"no_such": 1}), "options"),
    "an option value of the wrong kind": (with_changes(options={"clock_turns": "many"}), "whole number"),
    "an option value out of range": (with_changes(options={"clock_turns": 10**9}), "From 1 to 100"),
    "an option value 2**70": (with_changes(options={"clock_turns": 2**70}), "too large"),
    "an option value that is a list": (with_changes(options={"clock_turns": [1]}), "options.clock_turns"),
    "an option choice that is a mapping": (with_changes(options={"maximum": {"a": 1}}), "options.maximum"),
    "stack a list": (with_changes(stack=[1, 2]), "'stack'"),
    "stack a string": (with_changes(stack="deck"), "'stack'"),
    "stack rolls a list": (with_changes(stack={"rolls": [6, 6]}), "stack.rolls"),
    "stack rolls a number": (with_changes(stack={"rolls": {"claygod.dice": 6}}), "stack.rolls.claygod.dice"),
    "stack rolls keyed by a number": ("game: claygod\nstack: {rolls: {7: [6]}}\n", "RNG tag"),
    "stack rolls 2**70": (with_changes(stack={"rolls": {"claygod.dice": [2**70]}}), "too large"),
    "stack deck 2**70": (with_changes(stack={"deck": [2**70]}), "too large"),
    "expect (the set-up's) a list": (with_changes(expect=["bad_setup"]), "'expect'"),
    "expect unknown keys": (with_changes(expect={"reason": "x"}), "unknown keys"),
    "expect code a list": (with_changes(expect={"code": ["x"]}), "expect.code"),
    "steps a string": (with_changes(steps="roll"), "'steps'"),
    "steps a mapping": (with_changes(steps={"0": {"bot": True}}), "'steps'"),
    "too many steps": (with_changes(steps=[{"note": "x"}] * (scenario.MAX_STEPS + 1)), "at most"),
    "too many checks": (with_changes(steps=[{"check": {f"p{i}": 1 for i in range(600)}}] * 10), "check paths"),
    "too many forced values": (with_changes(steps=[{"rolls": {"claygod.dice": [6] * 6000}}] * 2), "forced values"),
    "title a list": (with_changes(title=["a"]), "'title'"),
    "description a mapping": (with_changes(description={"a": 1}), "'description'"),
    # ----- the steps (numbered from 0 like the report; GOOD has 3 steps, so a new one is step 3)
    "a step that is a string": (with_step("roll"), "step 3"),
    "a step that is a list": (with_step([{"seat": 0}]), "step 3"),
    "a step that is null": (with_step(None), "step 3"),
    "a step with an unknown key": (with_step({"sit": 0}), "step 3: unknown keys"),
    "action a list": (with_step({"seat": 0, "action": ["roll"]}),
                      "step 3: 'action' must be a mapping or a string, not a list"),
    "action a number": (with_step({"seat": 0, "action": 5}), "step 3: 'action'"),
    "action null": (with_step({"seat": 0, "action": None}), "step 3: 'action'"),
    "seat a string": (with_step({"seat": "0", "action": {"type": "roll"}}), "step 3: 'seat'"),
    "seat a float": (with_step({"seat": 0.5, "action": {"type": "roll"}}), "step 3: 'seat'"),
    "seat true": (with_step({"seat": True, "action": {"type": "roll"}}), "step 3: 'seat'"),
    "seat 2**70": (with_step({"seat": 2**70, "action": {"type": "roll"}}), "too large"),
    "timeout a string": (with_step({"seat": 0, "timeout": "yes"}), "step 3: 'timeout'"),
    "bot a number": (with_step({"bot": 1}), "step 3: 'bot'"),
    "action and bot": (with_step({"seat": 0, "action": {"type": "roll"}, "bot": True}), "step 3: one of"),
    "bot for a seat that owes nothing": (with_step({"seat": 1, "bot": True}), "step 3: the bot"),
    "bot for a seat outside the table": (with_step({"seat": 7, "bot": True}), "step 3: the bot"),
    "rolls a list": (with_step({"rolls": [6]}), "step 3: 'rolls'"),
    "rolls a number per tag": (with_step({"rolls": {"claygod.dice": 6}}), "step 3: 'rolls.claygod.dice'"),
    "rolls a string per tag": (with_step({"rolls": {"claygod.dice": "666"}}), "step 3: 'rolls.claygod.dice'"),
    "rolls 2**70": (with_step({"rolls": {"claygod.dice": [2**70]}}), "too large"),
    "rolls with a null": (with_step({"rolls": {"claygod.dice": [6, None]}}), "null"),
    "rolls outside the die": ({**GOOD, "steps": [{"rolls": {"claygod.dice": [9] * 7}},
                                                 {"seat": 0, "action": {"type": "roll"}}]}, "claygod.dice"),
    "wait a string": (with_step({"wait": "15s"}), "step 3: 'wait'"),
    "wait negative": (with_step({"wait": -5}), "step 3: 'wait'"),
    "wait 1e12": (with_step({"wait": 1e12}), "step 3: 'wait'"),
    "wait infinite": ("game: claygod\nsteps: [{wait: .inf}]\n", "finite"),
    "check a list": (with_step({"check": ["turn.seat"]}), "step 3: 'check'"),
    "check a string": (with_step({"check": "turn.seat == 0"}), "step 3: 'check'"),
    "check an unknown operator": (with_step({"check": {"turn": {"$near": 1}}}), "step 3: unknown check operator"),
    "check $len a string": (with_step({"check": {"players": {"$len": "two"}}}),
                            "step 3: 'check.players.$len' must be a whole number"),
    "check $len negative": (with_step({"check": {"players": {"$len": -1}}}), "$len"),
    "check $min a string": (with_step({"check": {"players.0.health": {"$min": "a"}}}), "$min"),
    "check $max a list": (with_step({"check": {"players.0.health": {"$max": [1]}}}), "$max"),
    "check $absent a string": (with_step({"check": {"x": {"$absent": "yes"}}}), "$absent"),
    "check @view of no seat": (with_step({"check": {"@view.9.hand": []}}), "@view"),
    "check @view of a unicode digit": (with_step({"check": {"@view.\u00b2": {}}}), "@view"),
    "check @view of 5000 digits": (with_step({"check": {"@view." + "1" * 1000: {}}}), "@view"),
    "check key of 20000 characters": (with_step({"check": {"x" * 20_000: 1}}), "characters"),
    "expect a number": (with_step({"seat": 0, "action": {"type": "roll"}, "expect": 5}), "step 3: 'expect'"),
    "expect a list": (with_step({"seat": 0, "action": {"type": "roll"}, "expect": ["illegal"]}), "step 3: 'expect'"),
    "note a list": (with_step({"note": ["a", "b"]}), "step 3: 'note'"),
    "a huge number in an action": (with_step({"seat": 0, "action": {"type": "play", "card": 2**70}}), "too large"),
    "a deeply nested action": (with_step({"seat": 0, "action": {"type": "roll", "x": _nest(40)}}), "nested deeper"),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_a_malformed_file_is_one_clear_error(case, tmp_path, capsys):
    content, says = MALFORMED[case]
    path = _write(tmp_path, content)
    kind, message = outcome(path)
    assert kind == "error", f"{case}: expected a scenario error, got a report"
    assert says in message, message
    assert cli.main(["scenario", str(path)]) == 2
    assert capsys.readouterr().err == f"scenario error: {message}\n"   # the command says just that


def test_a_missing_file_a_directory_a_fifo_a_loop(tmp_path):
    assert outcome(tmp_path / "nope.yaml") == ("error", f"{tmp_path / 'nope.yaml'}: no such file")
    kind, message = outcome(tmp_path)
    assert kind == "error" and "directory" in message
    assert outcome(tmp_path / ("x" * 5000))[0] == "error"             # a name too long for the system
    if hasattr(os, "mkfifo"):                   # nobody writes to it: opening it would block for ever
        os.mkfifo(tmp_path / "pipe.yaml")
        kind, message = outcome(tmp_path / "pipe.yaml")
        assert kind == "error" and "regular file" in message
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    assert outcome(tmp_path / "loop.yaml")[0] == "error"
    if os.path.exists("/dev/zero"):
        assert outcome(Path("/dev/zero")) == ("error", "/dev/zero: not a regular file")


def test_a_byte_order_mark_and_crlf_lines_are_fine(tmp_path):
    text = yaml.safe_dump(GOOD).replace("\n", "\r\n")
    kind, report = outcome(_write(tmp_path, b"\xef\xbb\xbf" + text.encode("utf-8")))
    assert kind == "report" and report["ok"]


def test_a_lone_surrogate_never_reaches_the_report():
    kind, message = outcome(with_changes(note="\ud800"))
    assert kind == "error" and "surrogate" in message


def test_garbage_inside_actions_is_refused_or_reported_never_a_crash(tmp_path):
    """Values the shape check lets through (an action is any mapping) reach the engine, which must refuse
    them; if it crashes, the runner still answers with one line naming the step."""
    junk = [None, True, -1, 0, 2**53, 1.5, "", "x" * 500, [], [1, [2]], {}, {"a": [None]}, "roll", "¯\\_(ツ)_/¯"]
    for game, seats in (("claygod", 2), ("gwent", 2), ("bloodwood", 5), ("toy", 2)):
        for value in junk:
            for action in ({"type": value}, {"type": "play", "card": value}, {"type": "roll", "dice": value},
                           {"type": "target", "seat": value}, {"type": "leader_pick", "leader": value},
                           {"type": "first", "seat": value}, {"type": "assign", "role": value}):
                doc = {"game": game, "seats": seats, "steps": [{"seat": 0, "action": action, "expect": "rejected"}]}
                kind, result = outcome(_write(tmp_path, doc))
                if kind == "error":
                    assert "step 0" in result, result


def test_a_stack_of_the_wrong_shape_is_refused_or_reported_never_a_crash():
    """Game stack keys are for the game to judge (as actions are): a refusal (bad_setup) or, where the game
    crashes on them, one error naming the set-up."""
    for doc in ({"game": "toy", "stack": {"deck": 5}}, {"game": "claygod", "stack": {"hands": [[["x"]], []]}},
                {"game": "claygod", "stack": {"used": [{"a": 1}]}}, {"game": "claygod", "stack": {"deck_size": -1}},
                {"game": "claygod", "stack": {"rolls": {"claygod.deck": [5]}}},
                {"game": "gwent", "stack": {"decks": [[1]]}}, {"game": "gwent", "stack": {"decks": {"0": 5}}},
                {"game": "bloodwood", "seats": 5, "stack": {"roles": {"a": 1}}},
                {"game": "bloodwood", "seats": 5, "stack": {"day_deck": "x", "night_deck": [[]]}}):
        kind, result = outcome(doc)
        if kind == "report":
            assert result["error"]["code"] == "bad_setup", doc
        else:
            assert result.startswith("set-up: "), result


def test_a_set_up_the_file_expects_to_fail_is_still_a_report(tmp_path):
    """Options: an error in the file, unless the file expects the refusal (then the game's refusal is the
    report, as for a stack that does not fit)."""
    kind, report = outcome(_write(tmp_path, with_changes(options={"clock_turns": 0}, expect="bad_options")))
    assert kind == "report" and report["ok"] and report["error"]["code"] == "bad_options"
    kind, report = outcome(_write(tmp_path, with_changes(stack={"deck": 5})))
    assert kind == "report" and not report["ok"] and report["error"]["code"] == "bad_setup"


def test_dates_stay_strings(tmp_path):
    kind, report = outcome(_write(tmp_path, "game: claygod\nseed: 2024-01-01\ntitle: 2024-01-01 10:00:00\n"))
    assert kind == "report" and report["seed"] == "2024-01-01"


# ------------------------------------------------------------------------------ the mutation fuzzer
HUGE = [2**70, -(2**70), 10**12, -1, 2**53 + 1, 0]
ENGINE_CRASHES: list[str] = []


def _nodes(doc: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _nodes(value, (*path, key))
    elif isinstance(doc, list):
        for j, value in enumerate(doc):
            found += _nodes(value, (*path, j))
    return found


def _replacement(rng: random.Random, old: Any) -> Any:
    choices = [
        lambda: rng.choice(HUGE), lambda: None, lambda: rng.choice([True, False]), lambda: "x" * rng.choice([1, 200]),
        lambda: [old], lambda: {"k": old}, lambda: [], lambda: {}, lambda: str(old)[:50], lambda: -0.5,
        lambda: rng.choice(["roll", "play", "claygod.dice", "@view.0", "$len", "players.0", "seat"]),
        lambda: _nest(rng.randint(20, 40)), lambda: rng.randint(-3, 12), lambda: {"$len": old},
        lambda: list(old.values()) if isinstance(old, dict) else dict(enumerate(old)) if isinstance(old, list) else old,
    ]
    return rng.choice(choices)()


def _mutate_doc(rng: random.Random, doc: Any) -> Any:
    for _ in range(rng.randint(1, 3)):
        paths = _nodes(doc)
        path = rng.choice(paths)
        if not path:
            if rng.random() < 0.3:
                return _replacement(rng, doc)
            continue
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        key = path[-1]
        what = rng.random()
        if what < 0.25 and isinstance(parent, dict):
            del parent[key]                                     # drop a key
        elif what < 0.35 and isinstance(doc, dict) and isinstance(doc.get("steps"), list) and doc["steps"]:
            steps = doc["steps"]                                # duplicate steps
            k = rng.randrange(len(steps))
            doc["steps"] = steps[:k + 1] + steps[k:k + 1] * rng.choice([1, 5, 50]) + steps[k + 1:]
        else:
            parent[key] = _replacement(rng, parent[key])        # swap a value's type or size
    return doc


def _mutate_text(rng: random.Random, text: bytes) -> bytes:
    what = rng.random()
    if what < 0.5:
        return text[:rng.randrange(len(text) + 1)]              # truncated at a random byte
    data = bytearray(text)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data) + 1)
        junk = rng.choice([b"\xff", b"\x00", b"[", b"{", b": ", b"\n- ", b"*a", b"&a ", b"!!binary ", b"'", b'"',
                           b"\t", b"99999999999999999999999", b"\xd0", b"!!bool ", b"!!int ", b"!!float ", b"!!set ",
                           b"!!omap ", b"!!timestamp ", b"!!str ", b"!!null ", b"? ", b"<<: ", b"\n--- ", b"\n...\n",
                           b"%YAML 1.1\n", b"!local ", b"-", b"_", b"~", b"\\u", b"\r"])
        data[at:at] = junk
    return bytes(data)


def _fuzz_cases(seed: int, count: int) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    cases = []
    for n in range(count):
        source = rng.choice(REAL_FILES)
        text = source.read_bytes()
        if rng.random() < 0.3:
            cases.append((f"{source.stem}#{n}:text", _mutate_text(rng, text)))
            continue
        doc = _mutate_doc(rng, yaml.load(text, Loader=_LOADER))
        dumped = json.dumps(doc, ensure_ascii=False) if rng.random() < 0.5 else \
            yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
        cases.append((f"{source.stem}#{n}:doc", dumped.encode("utf-8")))
    return cases


FUZZ_SEED = 20240611
FUZZ_CASES = 600
ENGINE_FUZZ_CASES = 1000


def test_the_real_scenario_files_are_there():
    assert len(REAL_FILES) >= 60


REAL_DOCS = [yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) for path in REAL_FILES]
JUNK = [None, True, False, -1, 0, 1, 7, 99, 2**53, -(2**53), 1.5, "", "x", "x" * 300, [], [0], [[0]], {}, {"a": 1},
        ["x", "y"], "\u202e\x1b[31m"]


def _garbage_for_the_engine(rng: random.Random) -> dict[str, Any]:
    """A real scenario whose shape stays valid, with junk where only the engine can judge it: inside actions
    and game stack keys, bot / timeout / wait steps at random places, another seat count."""
    doc = json.loads(json.dumps(rng.choice(REAL_DOCS)))
    actions = [step["action"] for step in doc["steps"] if isinstance(step.get("action"), dict)]
    types = sorted({a["type"] for d in REAL_DOCS for s in d["steps"] if isinstance(s.get("action"), dict)
                    for a in [s["action"]]})
    fields = sorted({k for a in actions for k in a} | {"card", "seat", "type", "row", "target", "leader"})
    for _ in range(rng.randint(1, 3)):
        what = rng.random()
        if what < 0.55 and actions:
            action = rng.choice(actions)
            if rng.random() < 0.3:
                action["type"] = rng.choice(types)
            action[rng.choice(fields)] = rng.choice([*JUNK, rng.choice(types)])
            if rng.random() < 0.2:
                action.pop(rng.choice(list(action)))
        elif what < 0.75 and doc.get("stack"):
            stack = doc["stack"]
            key = rng.choice(sorted(stack, key=str))
            value = stack[key]
            if isinstance(value, list) and value and rng.random() < 0.7:
                value[rng.randrange(len(value))] = rng.choice(JUNK)
            elif isinstance(value, dict) and value and rng.random() < 0.7:
                value[rng.choice(list(value))] = rng.choice(JUNK)
            else:
                stack[key] = rng.choice(JUNK)
        elif what < 0.95:
            doc["steps"].insert(rng.randrange(len(doc["steps"]) + 1), rng.choice([
                {"bot": True}, {"wait": rng.choice([0, 61, 10**8])}, {"seat": rng.randint(0, 1), "timeout": True},
                {"seat": rng.randint(-1, 12), "bot": True}, {"seat": rng.randint(0, 1), "action": "roll"}]))
        else:
            doc["seats"] = rng.randint(-1, 14)
    for step in doc["steps"]:
        if "action" in step and rng.random() < 0.5:
            step["expect"] = "rejected"    # keep the run going past refused steps
    return doc


def test_junk_inside_actions_and_stacks_of_real_scenarios(capsys):
    start = time.monotonic()
    rng = random.Random(FUZZ_SEED + 1)
    counts = {"report": 0, "error": 0}
    crashes = []
    for n in range(ENGINE_FUZZ_CASES):
        doc = _garbage_for_the_engine(rng)
        try:
            kind, result = outcome(doc, views=rng.random() < 0.2, locale=rng.choice([None, "en"]), with_states=False)
        except AssertionError:
            raise
        except BaseException as exc:
            raise AssertionError(f"case {n}: {type(exc).__name__}: {exc}\n{json.dumps(doc)[:2000]}") from exc
        counts[kind] += 1
        if kind == "error" and "engine failed" in result:
            crashes.append(f"case {n}: {result}")
    with capsys.disabled():
        print(f"\n{ENGINE_FUZZ_CASES} junk-in-the-engine cases in {time.monotonic() - start:.1f} s: {counts}; "
              f"engine crashes reported as errors: {len(crashes)}")
        for line in crashes:
            print("  ", line)
    assert counts["report"] > counts["error"]     # most junk reaches the engine, which refuses it


def test_mutated_real_scenarios_report_or_fail_cleanly(tmp_path, capsys):
    start = time.monotonic()
    counts = {"report": 0, "error": 0}
    rng = random.Random(FUZZ_SEED)
    for name, data in _fuzz_cases(FUZZ_SEED, FUZZ_CASES):
        path = tmp_path / "fuzz.yaml"
        path.write_bytes(data)
        try:
            kind, result = outcome(path, views=rng.random() < 0.2, locale=rng.choice([None, "en", "ru"]),
                                   with_states=rng.random() < 0.5)
        except AssertionError:
            raise
        except BaseException as exc:       # the point of the test: name the case that escaped
            raise AssertionError(f"{name}: {type(exc).__name__}: {exc}") from exc
        counts[kind] += 1
        if kind == "error" and "engine failed" in result:
            ENGINE_CRASHES.append(f"{name}: {result}")
    with capsys.disabled():
        print(f"\n{FUZZ_CASES} fuzz cases in {time.monotonic() - start:.1f} s: {counts}; "
              f"engine crashes reported as errors: {len(ENGINE_CRASHES)}")
        for line in ENGINE_CRASHES:
            print("  ", line)
    assert counts["report"] and counts["error"]   # the mutations reach both sides


# ------------------------------------------------------------------------------ the command line
def _cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", "scenario", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("content", [
    "[" * 100_000,
    b"game: claygod\nseats: [\xff]\n",
    json.dumps({"game": "claygod", "seats": 10**12, "steps": []}),
], ids=["deep nesting", "not UTF-8", "huge seats"])
def test_the_command_says_one_line_and_exits_2(content, tmp_path):
    start = time.monotonic()
    done = _cli(_write(tmp_path, content))
    assert time.monotonic() - start < 30
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scenario error:"), done.stderr
    assert done.stdout == ""
