"""Turn order: the start of a turn (ongoing spells, the sphere drain, skipped turns), the end of a turn
(expired spells, thawing dice, extra turns), and the clocks (the Clock card and rule 8's turn clock).

Counting (rule 7, ruling CG-6): "каждый ход" and "на N ходов" count full turns, a full turn being the round
that comes back to the player.  An ongoing spell belongs to one player, its bearer, and acts at the start of
each of the bearer's full turns; ``turns_left`` drops by one as such a turn starts, and the spell ends when a
full turn it started with 0 left is over.  Extra turns (Труба, Скорходы) are played inside the full turn: no
spell acts and no term runs down in them (option ``count_turns: every`` counts each of them as a turn).  A
skipped turn is a full turn: the round came back to the player, who loses it.  A die held through its owner's
next roll (three sixes, §3.6/§3.7) is released only by a roll, never by a skipped turn (CG-11, CG-18).
"""
from __future__ import annotations

from typing import Any

from bot.engine import Ctx

from . import outcome
from .cards import COLOURS, rules
from .dice import thaw
from .effects import Resolution
from .state import opponent, player, timed_spells_active


def begin_turn(state: dict[str, Any], seat: int, ctx: Ctx, extra: bool = False) -> None:
    """Start ``seat``'s turn and every turn after it that is skipped, until someone must decide."""
    while True:
        p = player(state, seat)
        number = state["turn"]["number"] + 1 if state.get("turn") else 1
        full = not extra or state["options"]["count_turns"] == "every"
        state["turn"] = {"seat": seat, "number": number, "extra": extra, "stage": "roll", "since": ctx.now,
                         "free_cast": False, "combos": [], "steps": [], "give": None}
        ctx.emit("turn_started", seat=seat, number=number)
        if full:
            p["turns"] += 1
            _start_of_turn(state, seat, ctx)
            if outcome.check(state, ctx):
                return
        if not (full and p["skip_turns"]):
            return
        p["skip_turns"] -= 1
        ctx.emit("turn_skipped", seat=seat, left=p["skip_turns"])
        following = close_turn(state, seat, ctx)
        if following is None:
            return
        seat, extra = following


def _start_of_turn(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """Rule 2: the spells still running act before the roll; then rule 7's drain (ruling CG-10)."""
    p = player(state, seat)
    res = Resolution(state, seat, ctx, {"kind": "turn_start"})
    for effect in p["effects"]:
        if effect.get("turns_left") is not None:
            effect["turns_left"] -= 1
        if effect["kind"] == "each_turn":
            res.add(seat, effect["stat"], effect["by"], why=effect["card"])
    for die in p["dice"].values():
        if die["frozen"] and die["frozen_turns"] is not None:
            die["frozen_turns"] -= 1
    if p["sphere"] < 0:
        res.add(seat, "health", -rules()["drain"], why="drain")
        res.add(opponent(seat), "health", rules()["drain"], why="drained")
    res.finish()


def close_turn(state: dict[str, Any], seat: int, ctx: Ctx) -> tuple[int, bool] | None:
    """End ``seat``'s turn: release the dice held through this turn's roll and, when the full turn ends,
    expire spells and holds.  Returns who plays next and whether that is an extra turn (None: game over)."""
    p = player(state, seat)
    goes_again = p["extra_turns"] > 0
    dice = p["dice"]
    done = {c for c in COLOURS if dice[c]["frozen"] and dice[c].get("frozen_rolls") == 0}
    if not goes_again or state["options"]["count_turns"] == "every":
        expired = [e for e in p["effects"] if e.get("turns_left") == 0]
        p["effects"] = [e for e in p["effects"] if e.get("turns_left") != 0]
        for effect in expired:
            ctx.emit("effect_ended", seat=seat, effect=effect)
        done |= {c for c in COLOURS if dice[c]["frozen"] and dice[c]["frozen_turns"] == 0}
        if any(e["kind"] == "clock" for e in expired) and state["outcome"] is None:
            clock_ran_out(state, [seat], ctx)
    thawed = [c for c in COLOURS if c in done]
    for colour in thawed:
        thaw(dice[colour])
    if thawed:
        ctx.emit("thawed_by_time", seat=seat, colours=thawed)
    if outcome.check(state, ctx):
        return None
    if goes_again:
        p["extra_turns"] -= 1
        ctx.emit("extra_turn", seat=seat, left=p["extra_turns"])
        return seat, True
    return opponent(seat), False


def end_turn(state: dict[str, Any], ctx: Ctx) -> None:
    following = close_turn(state, state["turn"]["seat"], ctx)
    if following is not None:
        seat, extra = following
        begin_turn(state, seat, ctx, extra)


# ---------------------------------------------------------------------------------------------- clocks
def clock_ran_out(state: dict[str, Any], owners: list[int], ctx: Ctx) -> None:
    """The Clock's owner did not win in time: "иначе — гибель" (ruling CG-25)."""
    for seat in owners:
        ctx.emit("clock_expired", seat=seat, ruling="CG-25")
    winners = [] if len(owners) == 2 else [opponent(owners[0])]
    outcome.finish(state, ctx, winners=winners, reason="clock" if winners else "both_fell",
                   loser=owners[0] if winners else None)


def expired_live_clocks(state: dict[str, Any], now: float) -> list[int]:
    return [s for s, p in enumerate(state["players"])
            if any(e["kind"] == "clock" and e.get("deadline") is not None and now >= e["deadline"]
                   for e in p["effects"])]


def deadline(state: dict[str, Any]) -> float | None:
    """The deadline of the decision awaited now: rule 8's turn clock while timed spells run, and a live
    Clock's five minutes, whichever comes first (ruling CG-25, CG-26)."""
    found = []
    mode = state["options"]["turn_clock"]
    if mode != "off" and timed_spells_active(state):
        seconds = rules()["live_turn_seconds"] if mode == "live" else state["options"]["async_turn_hours"] * 3600
        found.append(state["turn"]["since"] + seconds)
    for p in state["players"]:
        found += [e["deadline"] for e in p["effects"] if e["kind"] == "clock" and e.get("deadline") is not None]
    return min(found) if found else None
