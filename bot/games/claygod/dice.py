"""The seven energy dice: rolling, freezing and thawing, maximised energies, and recognising combinations.

RNG: one tag, ``claygod.dice``; a roll draws one value per die that is actually thrown, in the colour order
red, orange, yellow, green, light_blue, blue, violet.  Frozen dice keep their value and maximised dice show 6,
so neither consumes a value (documented in docs/games/claygod.md).
"""
from __future__ import annotations

from typing import Any

from bot.engine import Ctx

from .cards import COLOURS, catalogue
from .state import dice_sum, player

DICE_TAG = "claygod.dice"


def maximised(p: dict[str, Any]) -> set[str]:
    return {e["colour"] for e in p["effects"] if e["kind"] == "maximise"}


def roll(state: dict, seat: int, ctx: Ctx) -> list[str]:
    """Throw the seat's dice; returns the colours that were held by a freeze (ruling CG-11/CG-12)."""
    p = player(state, seat)
    top = maximised(p)
    held = []
    for colour in COLOURS:
        die = p["dice"][colour]
        if die["frozen"]:
            held.append(colour)
        if colour in top:
            die["value"] = 6
        elif not die["frozen"]:
            die["value"] = ctx.rng.randint(1, 6, DICE_TAG)
    p["last_roll_sum"] = dice_sum(p)
    return held


def values(p: dict[str, Any]) -> list[int]:
    return [p["dice"][c]["value"] or 0 for c in COLOURS]


def freeze(die: dict[str, Any], turns: int | None) -> None:
    """Freeze a die for ``turns`` of its owner's turns, or until thawed (None).  A longer hold wins."""
    if die["frozen"] and (die["frozen_turns"] is None or (turns is not None and die["frozen_turns"] >= turns)):
        return
    die["frozen"], die["frozen_turns"] = True, turns


def thaw(die: dict[str, Any]) -> None:
    die["frozen"], die["frozen_turns"] = False, None


def freezable(p: dict[str, Any]) -> list[str]:
    """Colours that action 8 (or three sixes) may freeze: rolled and not frozen yet (ruling CG-32)."""
    return [c for c in COLOURS if p["dice"][c]["value"] is not None and not p["dice"][c]["frozen"]]


def frozen_colours(p: dict[str, Any]) -> list[str]:
    return [c for c in COLOURS if p["dice"][c]["frozen"]]


def matching_combos(vals: list[int], flush_order: str) -> list[str]:
    """Ids of every combination the seven values form, in catalogue order."""
    found = []
    for combo in catalogue().combos:
        pattern = combo.pattern
        if "value" in pattern:
            ok = vals.count(pattern["value"]) >= pattern["at_least"]
        elif "only" in pattern:
            ok = all(v in pattern["only"] for v in vals)
        elif "sum" in pattern:
            ok = sum(vals) == pattern["sum"]
        elif flush_order == "colours":
            ok = vals[:6] == [6, 5, 4, 3, 2, 1]
        else:
            ok = set(range(1, 7)) <= set(vals)
        if ok:
            found.append(combo.id)
    return found
