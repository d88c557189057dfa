"""The built-in player: captures what it can hold, with the fewest cards, and spends шняги only where they turn
a capture — its own (boost the attacker, weaken or kill the guard, recall a fighter that would die) or
another's against it (weaken the attacker, boost or recall its guard).  Everything it reads is in its view:
the board, the window's queue and its own hand."""
from __future__ import annotations

from typing import Any

from .actions import legal_actions
from .cards import fighter, prop
from .effects import changed
from .state import babki, guard_of, kind_value, krutizna, on_board, side_total, sides

#: a capture's worth: бабки gained, plus what the owner loses, weighed against the fighter spent; an unguarded
#: property is worth more than its бабки (nobody has to be beaten, and a new one is revealed only once it is taken)
GAIN, HURT, SPEND, FREE = 10, 2, 1, 25
#: a guard is recruited only when its property brings at least this much (a cheap one is not worth the card)
TAKE_AT_LEAST = 4


def choose(state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
    legal = legal_actions(state, seat)
    w = state["window"]
    if w is None:
        return _main(state, seat, legal)
    if w["owe"]:
        return _owed(state, seat, legal)
    if w["vote"]:
        return {"type": "vote", "uphold": False}
    return _react(state, seat, legal)


# ------------------------------------------------------------------------------------------ own turn
def _gain(state: dict[str, Any], seat: int, target: str) -> int:
    """How much the seat's бабки grow when it holds ``target`` too (bonuses included)."""
    mine = [p["card"] for p in state["props"] if p["owner"] == seat]
    kind = prop(state, target).kind
    same = [prop(state, c).babki for c in mine if prop(state, c).kind == kind]
    bonuses = dict(prop(state, target).bonuses)
    return kind_value(same + [prop(state, target).babki], bonuses) - kind_value(same, bonuses)


def _boosts(state: dict[str, Any], seat: int, attacker: str) -> int:
    """The крутизна the seat's own шняги could add to ``attacker`` in its capture (a rough count)."""
    hand = [c for c in state["players"][seat]["hand"] if c != attacker]
    total = 0
    for card in hand:
        sh = fighter(state, card).shnyaga
        effect = sh.targeted if sh else None
        if sh and effect and effect["do"] == "krutizna" and effect.get("by", 0) > 0 and sh.timing in ("capture", "any"):
            if effect.get("same_suit") and fighter(state, card).suit not in (fighter(state, attacker).suit,
                                                                              state["trump"]):
                continue
            if len(hand) - 1 >= sh.cost:
                total += effect["by"]
    return total


def _main(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    best, best_score = None, 0
    for action in legal:
        if action["type"] == "capture":
            card, target = action["card"], action["prop"]
            p = guard_of(state, target)
            need = prop(state, target).krutizna
            if p["guard"] is not None:
                need = max(need, krutizna(state, p["guard"]) + 1)
            have = krutizna(state, card)
            if have + _boosts(state, seat, card) < need:
                continue
            score = GAIN * _gain(state, seat, target) - SPEND * have - 3 * max(0, need - have)
            if p["owner"] is None:
                score += FREE
            else:
                score += HURT * (babki(state, p["owner"]) - _without(state, p["owner"], target))
            if score > best_score:
                best, best_score = action, score
        elif action["type"] == "shnyaga":
            sh = fighter(state, action["card"]).played_shnyaga
            effect = sh.targeted
            if effect and effect["do"] == "take":
                where = on_board(state, action["target"])  # a take's target guards a property (legal_actions)
                gain = _gain(state, seat, where[1]) if where and where[1] else 0
                score = GAIN * gain if gain >= TAKE_AT_LEAST else 0
            elif not effect and any(e["do"] == "draw" for e in sh.effects) and len(state["players"][seat]["hand"]) <= 4:
                score = 5
            else:
                continue
            if score > best_score:
                best, best_score = action, score
    return best or {"type": "end"}


def _without(state: dict[str, Any], seat: int, target: str) -> int:
    """The owner's бабки if ``target`` were lost."""
    kinds: dict[str, list[int]] = {}
    bonus: dict[str, dict[int, int]] = {}
    for p in state["props"]:
        if p["owner"] == seat and p["card"] != target:
            c = prop(state, p["card"])
            kinds.setdefault(c.kind, []).append(c.babki)
            bonus[c.kind] = dict(c.bonuses)
    return sum(kind_value(v, bonus[k]) for k, v in kinds.items())


# ------------------------------------------------------------------------------------------ the window
def _projected(state: dict[str, Any]) -> tuple[int | None, int | None, int]:
    """(attacker's, guard's крутизна once the queue resolves, or None for a fighter that will be gone; the
    property's), from the public queue."""
    cap = state["window"]["capture"]
    guard = guard_of(state, cap["prop"])["guard"]
    values = {c: krutizna(state, c) for c in (cap["fighter"], guard) if c is not None}
    gone = set()
    for entry in state["window"]["queue"]:
        for effect in entry["effects"]:
            if entry["target"] in values:
                if effect["do"] == "krutizna":
                    values[entry["target"]] = changed(effect, values[entry["target"]])
                elif effect["do"] in ("kill", "recall"):
                    gone.add(entry["target"])
    a = None if cap["fighter"] in gone or cap["fighter"] is None else values[cap["fighter"]]
    g = None if guard in gone or guard is None else values[guard]
    return a, g, prop(state, cap["prop"]).krutizna


def _side(state: dict[str, Any], seat: int) -> list[int]:
    return next(side for side in sides(state) if seat in side)


def _succeeds(a: int | None, g: int | None, p: int) -> bool:
    return a is not None and (g is None or a > g) and a >= p


def _react(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    cap = state["window"]["capture"]
    if cap is None:
        return {"type": "pass"}
    owner = guard_of(state, cap["prop"])["owner"]
    friends = _side(state, seat)
    attacking = cap["seat"] in friends
    # a third player steps in only to stop a capture that would win the game
    threat = side_total(state, _side(state, cap["seat"])) + _gain(state, cap["seat"], cap["prop"]) >= state["target"]
    against = (owner in friends) or (not attacking and threat)
    a, g, p = _projected(state)
    wins = _succeeds(a, g, p)
    if not ((attacking and not wins) or (against and wins)):
        return {"type": "pass"}
    options = []
    for action in legal:
        if action["type"] != "shnyaga":
            continue
        sh = fighter(state, action["card"]).played_shnyaga
        effect = sh.targeted
        if effect is None:
            continue
        target = action["target"]
        na, ng = a, g
        if effect["do"] == "krutizna":
            if target == cap["fighter"] and na is not None:
                na = changed(effect, na)
            elif target != cap["fighter"] and ng is not None:
                ng = changed(effect, ng)
        elif effect["do"] == "kill":
            na, ng = (None, ng) if target == cap["fighter"] else (na, None)
        elif effect["do"] == "recall" and attacking and target == cap["fighter"] and (a or 0) >= 5:
            options.append((50, action))  # saves a strong fighter from certain death
            continue
        elif effect["do"] == "recall" and not attacking and target != cap["fighter"] and ng is not None:
            options.append((40 - 2 * krutizna(state, target), action))
            continue
        else:
            continue
        if _succeeds(na, ng, p) != wins:
            options.append((100 - abs(effect.get("by", 6)) - 3 * sh.cost, action))
        elif attacking and ((na or -99) > (a or -99) or (ng is None) > (g is None) or (ng or 0) < (g or 0)):
            options.append((30 - 3 * sh.cost, action))  # a step towards it: the next card may finish it
    if options:
        return max(options, key=lambda o: o[0])[1]
    return {"type": "pass"}


def _owed(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    if state["window"]["owe"]["what"] == "discard":
        return min(legal, key=lambda a: (krutizna(state, a["card"]), a["card"]))
    cap = state["window"]["capture"]
    if cap and cap["seat"] == seat and cap["fighter"] is not None:
        boost = {"type": "state", "effect": {"do": "krutizna", "by": 2, "target": cap["fighter"]}}
        if boost in legal:
            return boost
    return {"type": "state", "effect": {"do": "nothing"}}
