"""The seven energy dice: rolling, freezing and thawing, maximised energies, and recognising combinations.

RNG: one tag, ``claygod.dice``; a roll draws one value per die that is actually thrown, in the colour order
red, orange, yellow, green, light_blue, blue, violet.  Frozen dice keep their value and maximised dice show 6,
so neither consumes a value (documented in docs/games/claygod.md).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine import Ctx

from .cards import COLOURS, catalogue
from .state import dice_sum, lasting_freeze, player

DICE_TAG = "claygod.dice"


def maximised(p: dict[str, Any]) -> set[str]:
    return {e["colour"] for e in p["effects"] if e["kind"] == "maximise"}


def roll(state: dict[str, Any], seat: int, ctx: Ctx) -> list[str]:
    """Throw the seat's dice; returns the colours that were held by a freeze (ruling CG-11/CG-12)."""
    p = player(state, seat)
    top = maximised(p)
    held = []
    for colour in COLOURS:
        die = p["dice"][colour]
        if die["frozen"]:
            held.append(colour)
            if die.get("frozen_rolls"):
                die["frozen_rolls"] -= 1  # this roll is the one it was held through; it thaws as the turn ends
        if colour in top:
            die["value"] = 6
        elif not die["frozen"]:
            die["value"] = ctx.rng.randint(1, 6, DICE_TAG)
    p["last_roll_sum"] = dice_sum(p)
    return held


def values(p: dict[str, Any]) -> list[int]:
    return [p["dice"][c]["value"] or 0 for c in COLOURS]


def freeze(die: dict[str, Any], cause: str, turns: int | None = None, rolls: int | None = None) -> None:
    """Freeze a die until thawed (no term), for ``turns`` of its owner's full turns or through its owner's
    next ``rolls`` rolls.  A longer hold is never shortened (ruling CG-11): a hold until thawed beats any
    term, and a hold through the next roll counts as one turn against a term in turns."""
    if lasting_freeze(die):
        return
    if die["frozen"] and (turns is not None or rolls is not None):
        # not lasting, so one of the two terms is set (and a die with no frozen_turns has its frozen_rolls)
        old = die["frozen_turns"] if die["frozen_turns"] is not None else die["frozen_rolls"]
        term = turns if turns is not None else rolls
        if term is not None and old >= term:
            return
    die.update(frozen=True, frozen_turns=turns, frozen_rolls=rolls, frozen_by=cause)


def thaw(die: dict[str, Any]) -> None:
    die.update(frozen=False, frozen_turns=None, frozen_rolls=None, frozen_by=None)


def freezable(p: dict[str, Any]) -> list[str]:
    """Colours three sixes may freeze: rolled and not frozen yet (rulings CG-18, CG-32)."""
    return [c for c in COLOURS if p["dice"][c]["value"] is not None and not p["dice"][c]["frozen"]]


def freezable_for_good(p: dict[str, Any]) -> list[str]:
    """Colours §3.8 may freeze: rolled and not already frozen until thawed.  A die held for a term may be
    frozen for good: the longer freeze wins (ruling CG-11)."""
    return [c for c in COLOURS if p["dice"][c]["value"] is not None and not lasting_freeze(p["dice"][c])]


def frozen_colours(p: dict[str, Any]) -> list[str]:
    return [c for c in COLOURS if p["dice"][c]["frozen"]]


def matching_combos(vals: Sequence[int | None], flush_order: str) -> list[str]:
    """Ids of every combination the seven values form, in catalogue order.  A value None is a die that was held,
    not thrown (option ``thrown_combos``, CG-14): the combinations are formed by the thrown dice alone."""
    found = []
    thrown = [v for v in vals if v is not None]
    for combo in catalogue().combos:
        pattern = combo.pattern
        if "value" in pattern:
            ok = thrown.count(pattern["value"]) >= pattern["at_least"]
        elif "only" in pattern:
            ok = all(v in pattern["only"] for v in thrown)
        elif "sum" in pattern:
            ok = sum(thrown) == pattern["sum"]
        elif flush_order == "colours":
            ok = vals[:6] == [6, 5, 4, 3, 2, 1]
        else:
            ok = set(range(1, 7)) <= set(thrown)
        if ok:
            found.append(combo.id)
    return found
