"""The rule-book scenarios of every game (tests/games/<game>/scenarios/*.yaml, written from the rule book and the
guide only) run green through the scenario runner in every language, each names the rule it checks, and no view
of any step shows a seat something it may not see.  One runner for the five games: what differs between them is
data in POLICIES (how many scenarios at least, how a note cites a rule, what a view may never show)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import bot.games  # noqa: F401  (registers every game for the runner)
from bot.i18n import LOCALES
from bot.terminal.scenario import load, run
from tests.support.scenarios import failures

HERE = Path(__file__).resolve().parent

# What a view may never show, per game: each yields (step, viewer, what leaked) over an English report run
# with views and states.
Leaks = Callable[[dict], Iterator[tuple]]


def _entries(report: dict) -> list[dict]:
    return [report["initial"], *report["steps"]]


BLOODWOOD_LEADERS = {"dracula", "alpha"}


def _bloodwood_may_see(state: dict, viewer: int, seat: int) -> bool:
    if state.get("outcome") is not None or viewer == seat:
        return True
    if state.get("assigner") == viewer or (state.get("roles") and state["roles"][viewer] in BLOODWOOD_LEADERS):
        return True
    return [viewer, seat] in state.get("known", [])


def bloodwood_leaks(report: dict) -> Iterator[tuple]:
    """A role shown to a seat that may not know it, a hand shown to anyone but its seat, and (§1.6) a leader
    (or the winner who assigned the roles) not shown every role from the start."""
    for entry in _entries(report):
        state = entry.get("state") or {}
        if "views" not in entry or not state.get("roles"):
            continue
        for key, view in entry["views"].items():
            viewer = None if key == "None" else int(key)
            for seat, player in enumerate(view["players"]):
                hidden = viewer is None or not _bloodwood_may_see(state, viewer, seat)
                if player["role"] is not None and hidden and state.get("outcome") is None:
                    yield entry.get("step"), viewer, f"role of seat {seat}"
            if view.get("hand") != (None if viewer is None else state["hands"][viewer]):
                yield entry.get("step"), viewer, "hand"
        for seat, role in enumerate(state["roles"]):
            leads = role in BLOODWOOD_LEADERS or state.get("assigner") == seat
            if leads and [p["role"] for p in entry["views"][str(seat)]["players"]] != state["roles"]:
                yield entry.get("step"), seat, "a leader not shown every role"


def bridges_leaks(report: dict) -> Iterator[tuple]:
    """The game is open: no event is addressed to one seat only."""
    for entry in _entries(report):
        for event in entry.get("events", []):
            if event["to"] is not None:
                yield entry.get("step"), event["to"], f"event {event['kind']} addressed to one seat"


def gwent_leaks(report: dict) -> Iterator[tuple]:
    """The opponent's and the channel's views carry no hand, deck, exchange candidate or secret pick of a seat
    (what was shown to the Emperor is named in the thread, §7)."""
    for entry in _entries(report):
        if "views" not in entry:
            continue
        state = entry["state"]
        for seat in (0, 1):
            secret = set(state["hand"][seat] + state["deck"][seat] + state["aside"][seat] + state["cand"][seat])
            shown = set(state["revealed"][1 - seat])
            for viewer in ("None", str(1 - seat)):
                text = repr(entry["views"][viewer])
                leaked = [u for u in sorted(secret - shown) if f"'{u}'" in text]
                if leaked:
                    yield entry.get("step"), viewer, leaked


@dataclass(frozen=True)
class Policy:
    game: str
    at_least: int               # scenarios the folder must hold, so that a lost folder fails
    cites: str | None = None    # a rule-book reference every scenario's notes or description must contain
    leaks: Leaks | None = None  # None: the game's hidden information is checked in its own tests/games/<game>/


POLICIES = [
    Policy("bloodwood", 15, leaks=bloodwood_leaks),
    Policy("bridges", 15, leaks=bridges_leaks),
    Policy("claygod", 20, cites=r"§\d|\[\d\]|CG-\d|[А-Яа-яЁё]{4}"),
    Policy("gwent", 15, leaks=gwent_leaks),
    Policy("raiders", 5),
]


def _files(policy: Policy) -> list[Path]:
    return sorted((HERE / policy.game / "scenarios").glob("*.yaml"))


CASES = [(policy, path) for policy in POLICIES for path in _files(policy)]


@pytest.mark.parametrize(("policy", "path"), CASES, ids=[f"{p.game}/{path.stem}" for p, path in CASES])
def test_scenario(policy, path):
    doc = load(path)
    assert doc.get("title"), "every scenario has a title"
    said = " ".join([doc.get("description", "")] + [s["note"] for s in doc["steps"] if "note" in s])
    assert said.strip(), "every scenario names the rule it checks in a note or its description"
    if policy.cites:
        assert re.search(policy.cites, said), "name the rule-book rule checked"
    report = run(doc, locale="en", views=True)
    assert report["ok"], report.get("message") or failures(report)
    assert report["checks"], "a scenario without checks proves nothing"
    if policy.leaks:
        assert list(policy.leaks(report)) == []
    for locale in sorted(set(LOCALES) - {"en"}):
        other = run(load(path), locale=locale, with_states=False)
        assert other["ok"], (locale, other.get("message") or failures(other))


@pytest.mark.parametrize("policy", POLICIES, ids=[p.game for p in POLICIES])
def test_there_are_enough_scenarios(policy):
    assert len(_files(policy)) >= policy.at_least


def test_each_leak_check_finds_a_leak_planted_in_a_report():
    """The leak checks above can fail: a hidden fact copied into a view (or an event addressed to one seat of
    an open game) is found."""
    def report_of(game: str) -> dict:
        return run(load(_files(next(p for p in POLICIES if p.game == game))[0]), locale="en", views=True)

    bridges = report_of("bridges")
    entry = next(e for e in _entries(bridges) if e.get("events"))
    entry["events"][0]["to"] = 0
    assert list(bridges_leaks(bridges))

    gwent = report_of("gwent")
    entry = next(e for e in _entries(gwent) if "views" in e and e["state"]["hand"][0])
    entry["views"]["None"]["planted"] = list(entry["state"]["hand"][0])
    assert list(gwent_leaks(gwent))

    bloodwood = report_of("bloodwood")
    entry = next(e for e in _entries(bloodwood) if "views" in e and (e.get("state") or {}).get("roles"))
    entry["views"]["None"]["hand"] = entry["state"]["hands"][0]
    assert list(bloodwood_leaks(bloodwood))
