"""Deterministic scenarios: a set-up (seed or stacked deck/dice) plus a list of steps, run straight on the
engine (no database), reporting every state and event as JSON.  The format is documented in
docs/scenarios.md; keep the two in step."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from bot.engine import Applied, Reject, Rejection, get_game
from bot.engine.rng import Rng, StackError

DEFAULT_START = 1_700_000_000.0
STEP_KEYS = {"seat", "action", "timeout", "expect", "rolls", "wait", "check", "note", "bot"}


class ScenarioError(ValueError):
    """The scenario file itself is wrong (not the game): unknown keys, bad values."""


def load(path: str | Path) -> dict[str, Any]:
    text = Path(path).read_text(encoding="utf-8")
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML/JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping with at least 'game' and 'steps'")
    return doc


def _get_path(obj: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj[part]
        else:
            raise KeyError(path)
    return obj


def _occurs(needle: Any, hay: Any) -> bool:
    """``needle`` is ``hay`` or occurs anywhere inside it (a list item, a dict key or value, at any depth)."""
    if hay == needle:
        return True
    if isinstance(hay, dict):
        return needle in hay or any(_occurs(needle, v) for v in hay.values())
    if isinstance(hay, list):
        return any(_occurs(needle, v) for v in hay)
    return False


#: check operators: ``{"hands.1": {"$len": 5}}``; a plain value means equality
_OPERATORS = {
    "$len": lambda actual, arg: isinstance(actual, (list, dict, str)) and len(actual) == arg,
    "$contains": lambda actual, arg: _occurs(arg, actual),
    "$lacks": lambda actual, arg: not _occurs(arg, actual),
    "$ne": lambda actual, arg: actual != arg,
    "$min": lambda actual, arg: isinstance(actual, (int, float)) and actual >= arg,
    "$max": lambda actual, arg: isinstance(actual, (int, float)) and actual <= arg,
}


def _operator(expected: Any) -> tuple[str, Any] | None:
    if isinstance(expected, dict) and len(expected) == 1:
        (name, arg), = expected.items()
        if isinstance(name, str) and name.startswith("$"):
            if name not in _OPERATORS and name != "$absent":
                raise ScenarioError(f"unknown check operator {name!r}; known: {sorted([*_OPERATORS, '$absent'])}")
            return name, arg
    return None


def _root(path: str, state: dict[str, Any], game: Any, events: list[dict[str, Any]]) -> tuple[Any, str]:
    """Where a check path points: ``@view.<seat|public>.…`` a seat's (or the public) view, ``@events.…`` the
    step's events, ``@table.…`` the game's judge table (derived numbers such as scores), anything else the
    state."""
    head, _, rest = path.partition(".")
    if head == "@events":
        return events, rest
    if head == "@table":
        return game.judge_table(state), rest
    if head == "@view":
        who, _, rest = rest.partition(".")
        if who != "public" and not (who.isdigit() and int(who) < state["seats"]):
            raise ScenarioError(f"check path {path!r}: @view.<seat number or public>")
        return game.view(state, None if who == "public" else int(who)), rest
    return state, path


def _checks(state: dict[str, Any], spec: dict[str, Any], game: Any,
            events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(spec, dict):
        raise ScenarioError(f"check: expected a mapping of paths to values, got {spec!r}")
    results = []
    for path, expected in spec.items():
        op = _operator(expected)
        root, rest = _root(str(path), state, game, events)
        try:
            actual = _get_path(root, rest) if rest else root
        except (KeyError, IndexError, ValueError):
            ok = op is not None and op[0] == "$absent" and bool(op[1])
            results.append({"path": path, "expected": expected, "actual": None, "ok": ok, "missing": True})
            continue
        if op is None:
            ok = actual == expected
        elif op[0] == "$absent":
            ok = not op[1]
        else:
            ok = _OPERATORS[op[0]](actual, op[1])
        results.append({"path": path, "expected": expected, "actual": actual, "ok": ok})
    return results


def _expected(expect: Any, result: Applied | Rejection) -> bool:
    """``expect``: "applied", "rejected", a reason code, or a mapping of the refusal's code / key / rule."""
    if isinstance(expect, dict):
        unknown = set(expect) - {"code", "key", "rule"}
        if unknown:
            raise ScenarioError(f"expect: unknown keys {sorted(unknown)} (code, key, rule)")
        return isinstance(result, Rejection) and all(getattr(result, k) == v for k, v in expect.items())
    if isinstance(result, Rejection):
        return expect == "rejected" or expect == result.code
    return expect == "applied"


def run(doc: dict[str, Any], *, views: bool = False, locale: str | None = None,
        with_states: bool = True) -> dict[str, Any]:
    """Run a scenario document; returns the JSON-ready report (``ok`` is False when an expectation failed)."""
    import random

    unknown = set(doc) - {"game", "seats", "seed", "options", "stack", "now", "steps", "title", "description",
                          "note", "expect"}
    if unknown:
        raise ScenarioError(f"unknown scenario keys: {sorted(unknown)}")
    try:
        game = get_game(doc["game"])
    except KeyError:
        raise ScenarioError(f"unknown game {doc.get('game')!r}") from None
    seats = doc.get("seats", game.min_seats)
    names = [str(s) for s in seats] if isinstance(seats, list) else [f"P{i}" for i in range(int(seats))]
    now = float(doc.get("now", DEFAULT_START))
    seed = str(doc.get("seed", "scenario"))
    try:
        init = game.initial_state(len(names), seed=seed, options=doc.get("options"), now=now, stack=doc.get("stack"))
    except Reject as r:  # a refused set-up ends the run; it passes only when the file expects exactly that
        refused = {"game": game.name, "seats": names, "error": r.rejection.to_json(),
                   "message": r.rejection.message(locale or "en")}
        return {**refused, "ok": "expect" in doc and _expected(doc["expect"], r.rejection)}
    except StackError as exc:
        raise ScenarioError(f"stack: {exc}") from None
    if "expect" in doc:
        return {"game": game.name, "seats": names, "ok": False, "expectation_failed": doc["expect"],
                "final": init.state}
    state = init.state

    def snapshot(events: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {"events": events}
        if locale:
            out["text"] = [line for e in events if (line := game.render_event(e, locale, names))]
        if with_states:
            out["state"] = state
        if views:
            out["views"] = {str(s): game.view(state, s) for s in [None, *range(len(names))]}
        return out

    report: dict[str, Any] = {
        "game": game.name, "seats": names, "seed": seed, "options": state["options"],
        "initial": snapshot(init.events), "steps": [], "checks": [],
    }
    ok = True
    for i, step in enumerate(doc.get("steps") or []):
        if not isinstance(step, dict) or set(step) - STEP_KEYS:
            raise ScenarioError(f"step {i}: expected a mapping with keys among {sorted(STEP_KEYS)}, got {step!r}")
        entry: dict[str, Any] = {"step": i}
        events: list[dict[str, Any]] = []
        if "note" in step:
            entry["note"] = step["note"]
        if "wait" in step:
            now += float(step["wait"])
            entry["wait"] = step["wait"]
        if "rolls" in step:
            rng = Rng(state["rng"])
            for tag, values in step["rolls"].items():
                rng.push(tag, list(values))
            entry["rolls"] = step["rolls"]
        if "action" in step or "timeout" in step or "bot" in step:
            if "seat" not in step:
                pending = game.to_act(state)
                if len(pending) != 1:
                    raise ScenarioError(f"step {i}: say which seat acts ({len(pending)} seats may act)")
                seat = pending[0].seat
            else:
                seat = int(step["seat"])
            if "timeout" in step:
                action = {"type": "timeout"}
            elif "bot" in step:
                action = game.bot_action(state, seat, random.Random(i))
            else:
                action = step["action"]
            try:
                result = game.apply(state, seat, action, now=now)
            except StackError as exc:  # a stacked value this draw cannot use: the file is wrong, not the game
                raise ScenarioError(f"step {i}: {exc}") from None
            entry.update({"seat": seat, "action": action})
            expect = step.get("expect", "applied")
            passed = _expected(expect, result)
            if isinstance(result, Rejection):
                entry["result"] = "rejected"
                entry["rejection"] = {**result.to_json(), "message": result.message(locale or "ru")}
            else:
                state, events = result.state, result.events
                entry["result"] = "applied"
                entry.update(snapshot(result.events))
            if not passed:
                entry["expectation_failed"] = expect
                ok = False
        if "check" in step:
            results = _checks(state, step["check"], game, events)
            entry["check"] = results
            report["checks"] += [{"step": i, **r} for r in results]
            ok = ok and all(r["ok"] for r in results)
        report["steps"].append(entry)
    report["final"] = state
    report["to_act"] = [p.seat for p in game.to_act(state)]
    report["outcome"] = state.get("outcome")
    report["ok"] = ok
    return report


def dump(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)


__all__ = ["ScenarioError", "load", "run", "dump"]
