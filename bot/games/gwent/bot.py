"""The built-in bot player: cheap heuristics, better than random.  It values cards statically, tries each
distinct move on a copy of the table to see the score swing and the cards it gains, keeps strong cards for
later rounds, and passes when it leads comfortably or when a round is not worth chasing."""
from __future__ import annotations

import random

from bot.engine import Ctx, Reject, clone

from .actions import apply_action, legal_actions
from .cards import catalogue
from .scoring import scores
from .state import opp

ABILITY_VALUE = {"spy": 7, "medic": 5, "muster": 4, "scorch_row": 3, "horn": 4, "morale_boost": 2, "tight_bond": 2,
                 "scorch": 3, "mardroeme": 2, "avenger": 5}
EFFECT_VALUE = {"scorch": 7, "horn": 7, "decoy": 5, "faction_card": 9, "clear": 3, "mardroeme": 2,
                "frost": 4, "fog": 4, "rain": 4, "storm": 5}


def card_value(card_id: str) -> float:
    c = catalogue().card(card_id)
    if not c.is_unit:
        return EFFECT_VALUE.get(c.effect, 3)
    return c.strength + (3 if c.is_hero else 0) + sum(ABILITY_VALUE.get(a, 0) for a in c.abilities)


def _value_of(state: dict, action: dict) -> float:
    uid = action.get("card")
    return card_value(state["cards"][uid]["id"]) if uid in state["cards"] else 0.0


def default_action(state: dict, seat: int) -> dict:
    """What happens when a seat's time runs out: pass a turn, skip optional choices, keep the dealt hand,
    take the preset deck (ruling GW-19)."""
    legal = legal_actions(state, seat)
    for wanted in ({"type": "pass"}, {"type": "skip"}, {"type": "mulligan_done"}, {"type": "deck_done"},
                   {"type": "deck_preset"}, {"type": "first", "seat": seat}):
        if wanted in legal:
            return wanted
    if state["phase"] == "setup" and state["setup"][seat]["step"] == "leader":
        preset = catalogue().presets[state["setup"][seat]["faction"]]["leader"]
        return {"type": "leader_pick", "leader": preset}
    return legal[0]


def choose(state: dict, seat: int, rng: random.Random) -> dict:
    legal = legal_actions(state, seat)
    phase = state["phase"]
    if phase == "setup":
        return _setup(state, seat, legal, rng)
    if phase == "mulligan":
        return _mulligan(state, seat, legal)
    if phase == "first":
        return {"type": "first", "seat": opp(seat)}  # going second is the stronger position
    if phase == "keep":
        return max(legal, key=lambda a: _value_of(state, a))
    if state["stack"]:
        return _choice(state, legal)
    return _turn(state, seat, legal, rng)


def _setup(state: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    step = state["setup"][seat]["step"]
    if step == "deck":
        if {"type": "deck_done"} in legal and (rng.random() < 0.7 or not state["setup"][seat]["deck"]):
            return {"type": "deck_done"}
        if rng.random() < 0.3:
            return {"type": "deck_preset"}
        adds = [a for a in legal if a["type"] == "deck_add"]
        units = [a for a in adds if catalogue().card(a["card"]).is_unit]
        return max(units or adds, key=lambda a: card_value(a["card"]) + rng.random())
    return rng.choice(legal)


def _mulligan(state: dict, seat: int, legal: list[dict]) -> dict:
    takes = [a for a in legal if a["type"] == "mulligan_take"]
    if takes:
        return max(takes, key=lambda a: _value_of(state, a))
    swaps = [a for a in legal if a["type"] in ("mulligan_give", "mulligan_redraw")]
    if not swaps:
        return {"type": "mulligan_done"}
    worst = min(swaps, key=lambda a: _value_of(state, a))
    best_candidate = max((card_value(state["cards"][u]["id"]) for u in state["cand"][seat]), default=6.0)
    return worst if _value_of(state, worst) + 1 < best_candidate else {"type": "mulligan_done"}


def _choice(state: dict, legal: list[dict]) -> dict:
    kind = state["stack"][-1]["kind"]
    real = [a for a in legal if a["type"] != "skip"] or legal
    if kind in ("discard", "reveal"):
        return min(real, key=lambda a: _value_of(state, a))
    return max(real, key=lambda a: _value_of(state, a))


def _turn(state: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    mine, theirs = scores(state)[seat], scores(state)[opp(seat)]
    lead = mine - theirs
    me, them = state["players"][seat], state["players"][opp(seat)]
    hand, their_hand = len(state["hand"][seat]), len(state["hand"][opp(seat)])
    last_round = me["gems"] == 1
    if them["passed"] and lead > 0:
        return {"type": "pass"}
    if not them["passed"] and lead > 0 and not last_round and (lead >= 150 or hand < their_hand):
        return {"type": "pass"}
    if not them["passed"] and lead < -250 and me["gems"] == 2 and hand <= their_hand + 2:
        return {"type": "pass"}  # not worth chasing the first round
    options = [a for a in legal if a["type"] in ("play", "leader") and not a.get("idle")]
    if not options:
        return {"type": "pass"}
    rng.shuffle(options)
    best, best_score = None, None
    for action in _distinct(state, options)[:12]:
        value = _simulate(state, seat, action)
        if value is None:
            continue
        spend = card_value(state["cards"][action["card"]]["id"]) if action["type"] == "play" else 6
        score = value - (0.4 if not last_round else 0.1) * spend * 10
        if best_score is None or score > best_score:
            best, best_score = action, score
    if best is None:
        return {"type": "pass"}
    if them["passed"] and lead + (best_score or 0) < -300 and not last_round:
        return {"type": "pass"}  # the round is lost anyway: keep the cards
    return best


def _distinct(state: dict, actions: list[dict]) -> list[dict]:
    seen, out = set(), []
    for a in actions:
        key = (a["type"], state["cards"][a["card"]]["id"] if a["type"] == "play" else a.get("leader"),
               tuple(sorted((k, str(v)) for k, v in a.items() if k not in ("type", "card", "leader", "target"))))
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _simulate(state: dict, seat: int, action: dict) -> float | None:
    """Score swing (tenths) plus ten points a gained card, from trying the action on a copy."""
    copy = clone(state)
    before = scores(copy)
    hand_before = len(copy["hand"][seat])
    try:
        apply_action(copy, seat, action, Ctx(copy, 0.0))
    except Reject:
        return None
    after = scores(copy)
    gained = len(copy["hand"][seat]) + sum(d["n"] for d in copy["draws_due"] if d["seat"] == seat) - (hand_before - 1)
    swing = (after[seat] - before[seat]) - (after[opp(seat)] - before[opp(seat)])
    return swing + 100 * gained + (50 if copy["stack"] else 0)


