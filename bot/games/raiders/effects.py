"""Шняги: who may apply which card to what, and how the applied effects and the capture resolve once every
player has passed.

«Шняги и эффекты исполняются в том порядке, в котором они были применены, однако шняги, отзывающие бойцов
обратно в руку ... спасают бойца даже от неминуемой смерти»: applied effects wait in the window's queue; when
it closes the recalls resolve first (RD-7), then the rest in the order applied, then the capture itself.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bot.engine import Ctx

from .cards import Shnyaga, fighter, prop
from .setup import draw
from .state import board_fighters, guard_of, krutizna, on_board

#: the primitives that point at a fighter (the entry's ``target``)
TARGETED = ("krutizna", "recall", "take", "kill")
#: what a judge-assisted (manual) step may state of крутизна (RD-15): a change of −10…+10, or «становится» 0…10.
#: Printed крутизна is one digit in the card's corner, so a change of 10 already turns any fight the way a
#: larger one would; the effect language itself (a deck file) goes to ±20 and sets −20…50
MANUAL_BY = tuple(by for by in range(-10, 11) if by)
MANUAL_TO = tuple(range(0, 11))


def changed(effect: Mapping[str, Any], value: int) -> int:
    """A fighter's крутизна after a ``krutizna`` effect: changed ``by`` a number, or set ``to`` one."""
    return cast("int", effect["to"] if "to" in effect else value + effect["by"])


def timing_allows(state: dict[str, Any], seat: int, timing: str) -> bool:
    """«только в ваш ход», «только во время захвата», or any time a window or the player's turn is open."""
    w = state["window"]
    if timing == "own_turn":
        return bool(seat == state["turn"]["seat"])
    if timing == "capture":
        return bool(w and w["capture"])
    return True


def targets(state: dict[str, Any], seat: int, card: str, effect: Mapping[str, Any], any_suit: bool = False) -> list[str]:
    """The fighters on the board this effect of ``card`` may point at, in board order.  A trump's шняга works
    on any suit («Шняги козырных карт действуют на карты любой масти»); ``any_suit``: as if every card were a
    trump (to tell a wrong suit from a wrong kind of fighter in a refusal)."""
    kind = effect["target"]
    capture = (state["window"] or {}).get("capture")
    in_capture = set()
    if capture:
        in_capture = {capture["fighter"], guard_of(state, capture["prop"])["guard"]} - {None}
    suit = fighter(state, card).suit
    found = []
    for target, owner, guarded in board_fighters(state):
        fits = {
            "fighter": True, "own_fighter": owner == seat, "enemy_fighter": owner != seat,
            "guard": guarded is not None, "enemy_guard": guarded is not None and owner != seat,
            "capture_fighter": target in in_capture,
        }[kind]
        if fits and effect.get("same_suit") and not any_suit and suit != state["trump"] \
                and fighter(state, target).suit != suit:
            fits = False
        if fits:
            found.append(target)
    return found


def playable(state: dict[str, Any], seat: int, card: str) -> list[str | None] | None:
    """How ``card`` may be applied by ``seat`` now: the list of targets (``[None]`` for a шняга that points at
    nobody), or None when it may not be applied (no шняга, wrong time, its cost unpaid, nothing to point at:
    «Нельзя применять шняги ... исключительно для сброса карт»)."""
    sh: Shnyaga | None = fighter(state, card).shnyaga
    if sh is None or not timing_allows(state, seat, sh.timing):
        return None
    if len(state["players"][seat]["hand"]) - 1 < sh.cost:
        return None
    effect = sh.targeted
    if sh.manual or effect is None:
        return [None]
    found = targets(state, seat, card, effect)
    return list(found) or None


def manual_outcomes(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """What a judge-assisted step may state, built from the primitives: a change of крутизна or a value it
    becomes, a kill, a recall of one's own fighter, taking a guard, drawing, or nothing at all."""
    found: list[dict[str, Any]] = []
    for target, owner, guarded in board_fighters(state):
        found += [{"do": "krutizna", "by": by, "target": target} for by in MANUAL_BY]
        found += [{"do": "krutizna", "to": to, "target": target} for to in MANUAL_TO]
        found.append({"do": "kill", "target": target})
        if owner == seat:
            found.append({"do": "recall", "target": target})
        elif guarded is not None:
            found.append({"do": "take", "target": target})
    return found + [{"do": "draw", "count": 1}, {"do": "draw", "count": 2}, {"do": "nothing"}]


# ------------------------------------------------------------------------------------------ resolution
def _leave_board(state: dict[str, Any], card: str) -> None:
    """Take a fighter off the board: a property left without a guard goes back to the centre unguarded."""
    w = state["window"]
    state["mods"].pop(card, None)
    if w and w["capture"] and w["capture"]["fighter"] == card:
        w["capture"]["fighter"] = None
        return
    for p in state["props"]:
        if p["guard"] == card:
            p["guard"], p["owner"] = None, None


def kill(state: dict[str, Any], card: str, ctx: Ctx, **why: Any) -> None:
    _leave_board(state, card)
    state["discard"].append(card)
    ctx.emit("died", card=card, **why)


def resolve_effect(state: dict[str, Any], entry: dict[str, Any], effect: dict[str, Any], ctx: Ctx) -> None:
    """One effect of an applied шняга; a target that has left the board (or changed hands) makes it fizzle."""
    seat, do = entry["seat"], effect["do"]
    if do in TARGETED:
        target: str = entry["target"]
        where = on_board(state, target) if target else None
        if where is None or (do == "recall" and where[0] != seat) or (do == "take" and (where[1] is None
                                                                                          or where[0] == seat)):
            ctx.emit("fizzled", seat=seat, card=entry["card"], target=target, ruling="RD-8")
            return
        _on_target(state, seat, entry, effect, target, where, ctx)
    elif do == "draw":
        draw(state, seat, effect["count"], ctx)
    else:  # "nothing": a judge-assisted step that stated no effect
        ctx.emit("no_effect", seat=seat, card=entry["card"])


def _on_target(state: dict[str, Any], seat: int, entry: dict[str, Any], effect: dict[str, Any], target: str,
               where: tuple[int, str | None], ctx: Ctx) -> None:
    """A targeted effect whose target is still where the шняга found it."""
    do = effect["do"]
    if do == "krutizna":
        before = krutizna(state, target)
        # «становится 1» sets the value for the rest of the capture; later changes count from it (RD-6)
        state["mods"][target] = state["mods"].get(target, 0) + changed(effect, before) - before
        ctx.emit("krutizna", seat=seat, card=entry["card"], target=target, by=krutizna(state, target) - before,
                 now=krutizna(state, target), **({"set_to": effect["to"]} if "to" in effect else {}))
    elif do == "recall":
        _leave_board(state, target)
        state["players"][seat]["hand"].append(target)
        ctx.emit("recalled", seat=seat, card=entry["card"], target=target, rule="Шняга")
    elif do == "take":
        guard_prop = where[1]
        assert guard_prop is not None  # a take on an unguarding fighter fizzled
        p = guard_of(state, guard_prop)
        ctx.emit("taken", seat=seat, card=entry["card"], target=target, prop=guard_prop, before=p["owner"],
                 ruling="RD-9")
        p["owner"] = seat
    else:  # kill
        kill(state, target, ctx, seat=seat, by_card=entry["card"])


def resolve_queue(state: dict[str, Any], ctx: Ctx) -> None:
    queue = state["window"]["queue"]
    recalls = [(e, f) for e in queue for f in e["effects"] if f["do"] == "recall"]
    rest = [(e, f) for e in queue for f in e["effects"] if f["do"] != "recall"]
    if recalls and rest:
        ctx.emit("recalls_first", ruling="RD-7")
    for entry, effect in recalls + rest:
        resolve_effect(state, entry, effect, ctx)


def resolve_capture(state: dict[str, Any], ctx: Ctx) -> None:
    """«Захват»: fighter against guard first (higher kills, equal both die, lower dies), then against the
    property (at least its крутизна, or the fighter dies).  The winner stays on it as its guard."""
    cap = state["window"]["capture"]
    seat, attacker, target = cap["seat"], cap["fighter"], cap["prop"]
    p = guard_of(state, target)
    if attacker is None:
        ctx.emit("capture_void", seat=seat, prop=target, rule="Захват")
        return
    if p["guard"] is not None and p["owner"] == seat:
        # the guard became the capturer's during the window: nothing left to take (RD-10)
        cap["fighter"] = None
        state["players"][seat]["hand"].append(attacker)
        ctx.emit("capture_own", seat=seat, card=attacker, prop=target, ruling="RD-10")
        return
    if p["guard"] is not None:
        guard, ka = p["guard"], krutizna(state, attacker)
        kg = krutizna(state, guard)
        ctx.emit("fight", seat=seat, card=attacker, guard=guard, owner=p["owner"], a=ka, g=kg, rule="Захват")
        if ka >= kg:
            kill(state, guard, ctx, fight=True)
        if ka <= kg:
            kill(state, attacker, ctx, fight=True)
            return
    ka, kp = krutizna(state, attacker), prop(state, target).krutizna
    if ka >= kp:
        cap["fighter"] = None
        p["guard"], p["owner"] = attacker, seat
        ctx.emit("captured", seat=seat, card=attacker, prop=target, a=ka, p=kp, rule="Захват")
    else:
        ctx.emit("repelled", seat=seat, card=attacker, prop=target, a=ka, p=kp, rule="Захват")
        kill(state, attacker, ctx, fight=True)

