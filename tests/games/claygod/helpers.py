"""Building Clay God tables in a chosen position: stacked hands, table cards, deck top, starting numbers,
the first player and the dice; then acting and checking exact effects."""
from __future__ import annotations

from bot.engine.rng import Rng
from bot.games.claygod import GAME
from bot.games.claygod.cards import COLOURS
from tests.support.engine import acting

NAMES = ["Аня", "Боб"]
START = 1000.0
#: a roll that forms no combination (1, 2 and 3 only: not all odd, not all even, no flush, sum 16)
NEUTRAL = [2, 3, 2, 3, 2, 3, 1]


def table(hands=([], []), first=0, stats=None, table_cards=None, deck_top=None, seed="t", now=START, **options):
    stack = {"rolls": {"claygod.first": [first]}, "hands": [list(h) for h in hands]}
    if stats is not None:
        stack["stats"] = stats
    if table_cards is not None:
        stack["table_cards"] = table_cards
    if deck_top is not None:
        stack["deck_top"] = deck_top
    return GAME.initial_state(2, seed=seed, options=options, now=now, stack=stack).state


def push(state, tag, values):
    Rng(state["rng"]).push(tag, list(values))


apply, act, reject = acting(GAME, now=START)


def roll(state, seat, values, now=START):
    """Roll with stacked values (one per die actually thrown, in colour order)."""
    push(state, "claygod.dice", values)
    return apply(state, seat, now=now, type="roll")


def ready(state, seat, dice=(6, 6, 6, 6, 6, 6, 6), now=START):
    """The seat's main action is awaited with the given dice showing (rolled neutrally, then set)."""
    state = roll(state, seat, NEUTRAL, now=now).state
    assert state["turn"]["stage"] == "action"
    set_dice(state, seat, dice)
    return state


def set_dice(state, seat, values):
    for colour, value in zip(COLOURS, values):
        state["players"][seat]["dice"][colour]["value"] = value


def dice(state, seat):
    return [state["players"][seat]["dice"][c]["value"] for c in COLOURS]


def frozen(state, seat):
    """Each frozen die's term: full turns left, else rolls left to be held through, else None (until thawed)."""
    return {c: d["frozen_turns"] if d["frozen_turns"] is not None else d["frozen_rolls"]
            for c, d in state["players"][seat]["dice"].items() if d["frozen"]}


def numbers(state):
    return [(p["health"], p["sphere"]) for p in state["players"]]


def kinds(events):
    return [e["kind"] for e in events]


def event(events, kind):
    return next(e for e in events if e["kind"] == kind)


def pass_turn(state, seat, now=START):
    """Finish ``seat``'s turn without touching any number: a neutral roll (a combination that a held or
    maximised die still makes is answered with its first choices), then discard and draw."""
    if state["turn"]["stage"] == "roll":
        state = roll(state, seat, NEUTRAL, now=now).state
    while state["turn"]["stage"] != "action":
        choice = {"type": "flush_done"} if state["turn"]["stage"] == "flush" else GAME.legal_actions(state, seat)[0]
        state = act(state, seat, now=now, **choice)
    return act(state, seat, now=now, type="discard", card=state["players"][seat]["hand"][0])


def cast(card, stats=None, seat=0, **options):
    """Seat ``seat`` plays ``card`` from the hand with every die at 6; returns (before, after, events)."""
    state = table(hands=([card], []) if seat == 0 else ([], [card]), first=seat, stats=stats, **options)
    state = ready(state, seat)
    applied = apply(state, seat, type="play", card=card)
    return state, applied.state, applied.events
