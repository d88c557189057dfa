"""Building Bridges tables in a chosen position: stacked characters, bosses and bank, then characters placed and
equipped by hand, so each test states exactly what it checks."""
from __future__ import annotations

from bot.games.bridges import GAME
from bot.games.bridges.state import max_hp
from tests.support.engine import acting

NAMES = ["Аня", "Боб", "Вера", "Гена", "Дина", "Женя", "Зоя", "Иван", "Катя", "Лёва", "Маша", "Ника"]
NOW = 1000.0
#: the bosses of islands [1]-[4] in most tests: the Archer on [1], the Bum on [2], the Casserole on [3], Golemko on [4]
PLACEMENT = ["archer", "karate", "casserole", "golemko"]
CLASSES = ["burilla", "master", "scout", "mage"]


def table(classes=("burilla",), *, placement=PLACEMENT, coins=0, items=None, options=None, rolls=None):
    """A table at the start of round 1 with the given characters (seat order), bosses and bank.  Unless a test
    says otherwise it plays with ``phase_end: explicit`` (BR-1), so that a test may end a phase with AP left
    to reach the bosses' turn, and with ``zero_ap: referee``, so that a test presses End at 0 AP itself as the
    referee's forced move would; tests/games/bridges/test_round.py pins the book's default and ``zero_ap: end``."""
    options = {"phase_end": "explicit", "zero_ap": "referee", **(options or {})}
    stack = {"classes": list(classes), "placement": list(placement),
             "bank": {"coins": coins, "items": dict(items or {})}}
    if rolls:
        stack["rolls"] = rolls
    state = GAME.initial_state(len(classes), seed="test", options=options, now=NOW, stack=stack).state
    state["fresh"] = [[] for _ in classes]
    GAME.check_invariants(state)
    return state


def place(state, seat, island, *, hp=None, hands=None, armour=None):
    """Put a character somewhere with the given gear and health (full health by default)."""
    c = state["chars"][seat]
    c["at"] = island
    if hands is not None:
        c["hands"] = sorted(hands)
    if armour is not None:
        c["armour"] = armour or None
    c["hp"] = max_hp(state, seat) if hp is None else hp
    return state


def boss_hp(state, bid, hp):
    state["bosses"][bid]["hp"] = hp
    return state


apply, act, reject = acting(GAME, now=NOW + 1)


def end_all(state):
    """Every seat still in the phase ends it: the neutral phase is played; returns (state, events)."""
    events = []
    for seat in range(state["seats"]):
        if state["outcome"] is None and state["phase"] == "actions" and not state["chars"][seat]["done"]:
            result = apply(state, seat, type="end")
            state = result.state
            events += result.events
    return state, events


def kinds(events):
    return [e["kind"] for e in events]


def find(events, kind, **match):
    return [e for e in events if e["kind"] == kind and all(e["data"].get(k) == v for k, v in match.items())]


def hp(state, seat):
    return state["chars"][seat]["hp"]
