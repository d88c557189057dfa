"""The shape of a Clay God table state and small helpers over it.

    players[i]   health, sphere, max_health, max_sphere, hand_size, hand (card ids), table_card (the face-down
                 card, or None), table_place (False once a card played from the table took it for good),
                 dice {colour: {value, frozen, frozen_turns, frozen_rolls, frozen_by}}, effects (ongoing
                 spells), extra_turns, skip_turns, last_roll_sum, turns (own full turns begun, rule 7: skipped
                 ones included, extra ones not)
    deck         card ids, top first;  discard  the used pile, oldest first (public)
    turn         seat, number (turns since the start), extra (an extra turn inside the player's full turn),
                 stage (what is awaited), since (when it started), free_cast (seven ones), combos (to choose
                 from), steps (combo choices still owed),
                 give (the two-card play's hand-over: from, to, left)

A die's ``value`` is None until its first roll.  A frozen die's term (ruling CG-11) is ``frozen_turns``, how
many more of the owner's full turns it holds (Снежинка), or ``frozen_rolls``, how many more of the owner's rolls
it is held through (three sixes, §3.6/§3.7; 0 once used: it thaws as that turn ends); both None: until thawed.
``frozen_by`` says what froze it: ``action`` (§3.8), ``pyramid``, ``three_sixes``, ``freeze_all``,
``snowflake``.  An effect's ``turns_left`` is None for one that lasts until lifted, else how many more of the
bearer's full turns it acts in (rule 7, ruling CG-6).
"""
from __future__ import annotations

from typing import Any, cast

from .cards import COLOURS, rules

STAGES = ("roll", "choose_combo", "freeze_own", "freeze_enemy", "flush", "swap", "action", "give")


def new_player(stats: dict[str, Any] | None = None) -> dict[str, Any]:
    r = rules()
    stats = stats or {}
    return {
        "health": stats.get("health", r["start_health"]),
        "sphere": stats.get("sphere", r["start_sphere"]),
        "max_health": r["start_health"],
        "max_sphere": r["start_sphere"],
        "hand_size": r["hand_size"],
        "hand": [],
        "table_card": None,
        "table_place": True,
        "dice": {c: {"value": None, "frozen": False, "frozen_turns": None, "frozen_rolls": None, "frozen_by": None}
                 for c in COLOURS},
        "effects": [],
        "extra_turns": 0,
        "skip_turns": 0,
        "last_roll_sum": 0,
        "turns": 0,
    }


def opponent(seat: int) -> int:
    return 1 - seat


def player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return cast("dict[str, Any]", state["players"][seat])


def dice_sum(p: dict[str, Any]) -> int:
    return sum(d["value"] or 0 for d in p["dice"].values())


def energy(p: dict[str, Any], colour: str) -> int:
    return p["dice"][colour]["value"] or 0


def lasting_freeze(die: dict[str, Any]) -> bool:
    """Frozen until thawed: no term in turns and none in rolls (ruling CG-11)."""
    return die["frozen"] and die["frozen_turns"] is None and die.get("frozen_rolls") is None


def timed_spells_active(state: dict[str, Any]) -> bool:
    """Rule 8's "timed spells": anything with a term still running (ruling CG-26)."""
    for p in state["players"]:
        if p["skip_turns"] or any(e["kind"] == "clock" or e.get("turns_left") is not None for e in p["effects"]):
            return True
        if any(d["frozen"] and not lasting_freeze(d) for d in p["dice"].values()):
            return True
    return False


def awaited_seat(state: dict[str, Any]) -> int:
    """Who owes the decision the current stage waits for."""
    turn = state["turn"]
    return cast("int", turn["give"]["from"] if turn["stage"] == "give" else turn["seat"])
