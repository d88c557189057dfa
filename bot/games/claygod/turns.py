"""Turn order: the start of a turn (ongoing spells, the sphere drain, skipped turns), the end of a turn
(expired spells, thawing dice, extra turns), and the clocks (the Clock card and rule 8's turn clock).

Counting (ruling CG-6): an ongoing spell belongs to one player, its bearer, and acts at the start of each of
the bearer's turns; a term of N turns means the bearer's next N turns.  ``turns_left`` drops by one as each
such turn starts, and the spell ends when a turn it started with 0 left is over.  A skipped turn is still a
turn: spells act and terms run down in it.
"""
from __future__ import annotations

from bot.engine import Ctx

from . import outcome
from .cards import COLOURS, rules
from .effects import Resolution
from .state import opponent, player, timed_spells_active


def begin_turn(state: dict, seat: int, ctx: Ctx) -> None:
    """Start ``seat``'s turn and every turn after it that is skipped, until someone must decide."""
    while True:
        p = player(state, seat)
        number = state["turn"]["number"] + 1 if state.get("turn") else 1
        state["turn"] = {"seat": seat, "number": number, "stage": "roll", "since": ctx.now, "free_cast": False,
                         "combos": [], "steps": [], "give": None}
        p["turns"] += 1
        ctx.emit("turn_started", seat=seat, number=number)
        _start_of_turn(state, seat, ctx)
        if outcome.check(state, ctx):
            return
        if not p["skip_turns"]:
            return
        p["skip_turns"] -= 1
        ctx.emit("turn_skipped", seat=seat, left=p["skip_turns"])
        following = close_turn(state, seat, ctx)
        if following is None:
            return
        seat = following


def _start_of_turn(state: dict, seat: int, ctx: Ctx) -> None:
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
        res.add(opponent(seat), "health", rules()["drain"], why="drain")
    res.finish()


def close_turn(state: dict, seat: int, ctx: Ctx) -> int | None:
    """End ``seat``'s turn: expire spells and holds, then say who plays next (None if the game ended)."""
    p = player(state, seat)
    expired = [e for e in p["effects"] if e.get("turns_left") == 0]
    p["effects"] = [e for e in p["effects"] if e.get("turns_left") != 0]
    for effect in expired:
        ctx.emit("effect_ended", seat=seat, effect=effect)
    thawed = [c for c in COLOURS if p["dice"][c]["frozen"] and p["dice"][c]["frozen_turns"] == 0]
    for colour in thawed:
        p["dice"][colour].update(frozen=False, frozen_turns=None)
    if thawed:
        ctx.emit("thawed_by_time", seat=seat, colours=thawed)
    if any(e["kind"] == "clock" for e in expired) and state["outcome"] is None:
        clock_ran_out(state, [seat], ctx)
    if outcome.check(state, ctx):
        return None
    if p["extra_turns"]:
        p["extra_turns"] -= 1
        ctx.emit("extra_turn", seat=seat, left=p["extra_turns"])
        return seat
    return opponent(seat)


def end_turn(state: dict, ctx: Ctx) -> None:
    following = close_turn(state, state["turn"]["seat"], ctx)
    if following is not None:
        begin_turn(state, following, ctx)


# ---------------------------------------------------------------------------------------------- clocks
def clock_ran_out(state: dict, owners: list[int], ctx: Ctx) -> None:
    """The Clock's owner did not win in time: "иначе — гибель" (ruling CG-25)."""
    for seat in owners:
        ctx.emit("clock_expired", seat=seat, ruling="CG-25")
    winners = [] if len(owners) == 2 else [opponent(owners[0])]
    outcome.finish(state, ctx, winners=winners, reason="clock" if winners else "both_fell",
                   loser=owners[0] if winners else None)


def expired_live_clocks(state: dict, now: float) -> list[int]:
    return [s for s, p in enumerate(state["players"])
            if any(e["kind"] == "clock" and e.get("deadline") is not None and now >= e["deadline"]
                   for e in p["effects"])]


def deadline(state: dict) -> float | None:
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
