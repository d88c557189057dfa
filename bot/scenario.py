"""Deterministic scenarios: a set-up (seed or stacked deck/dice) plus a list of steps, run straight on the
engine (no database), reporting every state and event as JSON.  The format is documented in
docs/scenarios.md; keep the two in step."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from bot.engine import Applied, Reject, Rejection, get_game
from bot.engine.rng import Rng

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


def _checks(state: dict[str, Any], spec: dict[str, Any]) -> list[dict[str, Any]]:
    results = []
    for path, expected in spec.items():
        try:
            actual = _get_path(state, str(path))
        except (KeyError, IndexError, ValueError):
            results.append({"path": path, "expected": expected, "actual": None, "ok": False, "missing": True})
            continue
        results.append({"path": path, "expected": expected, "actual": actual, "ok": actual == expected})
    return results


def run(doc: dict[str, Any], *, views: bool = False, locale: str | None = None,
        with_states: bool = True) -> dict[str, Any]:
    """Run a scenario document; returns the JSON-ready report (``ok`` is False when an expectation failed)."""
    import random

    unknown = set(doc) - {"game", "seats", "seed", "options", "stack", "now", "steps", "title", "description"}
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
    except Reject as r:
        return {"ok": False, "error": r.rejection.to_json(), "message": r.rejection.message(locale or "en")}
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
            result = game.apply(state, seat, action, now=now)
            entry.update({"seat": seat, "action": action})
            expect = step.get("expect", "applied")
            if isinstance(result, Rejection):
                entry["result"] = "rejected"
                entry["rejection"] = {**result.to_json(), "message": result.message(locale or "ru")}
                passed = expect == "rejected" or expect == result.code
            else:
                assert isinstance(result, Applied)
                state = result.state
                entry["result"] = "applied"
                entry.update(snapshot(result.events))
                passed = expect == "applied"
            if not passed:
                entry["expectation_failed"] = expect
                ok = False
        if "check" in step:
            results = _checks(state, step["check"])
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
