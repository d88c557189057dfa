"""Turns, phases and the decision owed now.

``state["step"]`` is the one decision the table waits for.  Its ``kind`` says who owes it:

    assign      the host gives out the role cards one seat at a time (winner's rule, §9.3)
    first       the host picks the first player
    turn        the turn's player: play (then pick the target) or discard a card, pass, or declare
    thief_back  the Thief's player picks the back (day / night) of the card to take blindly (BW-23)
    counter     the target of a night attack: let it resolve or answer with Mirror / Amulet (§6.8, §7.8)
    keep        after Voodoo / The Hunter: which cards (up to 4) to keep (§6.5, §6.7)
    give        The Hunter: every other player with cards hands over one (simultaneous)
    leshy       The Leshy: every other player discards two (simultaneous)
    confess     the target of Confession picks whom to show its role to (§7.7)
    draw        someone draws cards one at a time, choosing the deck for each (BW-9)
    trim        a player holding more than 4 discards down to 4 at the end of a turn (BW-8)
    declare     the declarer names the other team one player at a time, then confirms (§4)

Steps that finish the card's resolution continue with ``then``: "refill" (the turn's player draws up
to 4 and the turn ends), "end" (the turn ends without drawing) or "extra" (the extra turn of a special
card begins).
"""
from __future__ import annotations

from typing import Any

from bot.engine import Ctx

from .cards import rule
from .state import State, decks_to_draw, next_seat, running_turn_seat, to_discard, turn_seat


# ------------------------------------------------------------------------------------------ decisions
def open_step(state: State, ctx: Ctx, kind: str, **data: Any) -> None:
    state["step"] = {"kind": kind, "opened": ctx.now, **data}


def pending(state: State) -> list[tuple[int, str, str]]:
    """(seat, Pending kind, prompt) of every decision owed now."""
    step = state["step"]
    if state["outcome"] is not None or step is None:
        return []
    kind = step["kind"]
    if kind in ("leshy", "give"):
        return [(s, "choice", kind) for s in range(state["seats"]) if step["owed"][s]]
    seat = step["seat"]
    if kind == "counter":
        return [(seat, "reaction", "counter")]
    if kind == "keep":
        return [(seat, "choice", f"keep_{step['source']}")]
    own_turn = seat == turn_seat(state) and kind in ("turn", "thief_back", "draw", "trim", "declare")
    return [(seat, "turn" if own_turn else "choice", kind)]


def deadline(state: State) -> float | None:
    """When the current step times out: the counter window has its own clock (option
    ``counter_seconds``); every other decision has the slowness rule's (``turn_seconds``, §9.2)."""
    step = state["step"]
    option = "counter_seconds" if step["kind"] == "counter" else "turn_seconds"
    seconds = state["options"][option]
    return step["opened"] + seconds if seconds else None


# ------------------------------------------------------------------------------------------ turns
def start_turn(state: State, ctx: Ctx, seat: int) -> None:
    """Begin ``seat``'s turn.  A tranquilized player sleeps through it: the Tranquilizer is discarded,
    nothing is drawn, and the turn still counts for the phase and the Curse Mark (§6.4)."""
    state["turn_no"] += 1
    state["turn"] = {"seat": seat, "no": state["turn_no"], "extra": None}
    ctx.emit("turn", seat=seat, phase=state["phase"], count=state["phase_turns"] + 1, of=state["seats"])
    if state["sleep"][seat]:
        state["sleep"][seat] = False
        to_discard(state, "tranquilizer")
        ctx.emit("slept", seat=seat, rule="§6.4")
        finish_turn(state, ctx)
        return
    open_step(state, ctx, "turn", seat=seat, card=None)


def proceed(state: State, ctx: Ctx, then: str) -> None:
    seat = running_turn_seat(state)
    if then == "refill":
        start_draws(state, ctx, seat, rule("hand_size") - len(state["hands"][seat]), then="end")
    elif then == "end":
        end_turn(state, ctx)
    elif then == "extra":
        ctx.emit("extra_turn", seat=seat, special=state["turn"]["extra"])
        open_step(state, ctx, "turn", seat=seat, card=None)
    else:
        raise AssertionError(f"unknown continuation {then!r}")


def start_draws(state: State, ctx: Ctx, seat: int, count: int, then: str) -> None:
    """``seat`` draws ``count`` cards, one at a time, choosing the deck of each; then continue."""
    if count > 0 and decks_to_draw(state):
        open_step(state, ctx, "draw", seat=seat, left=count, then=then)
    else:
        proceed(state, ctx, then)


def end_turn(state: State, ctx: Ctx) -> None:
    """The turn's play is over: whoever holds more than 4 discards down to 4 (BW-8) — the turn's player
    first, then e.g. a Voodoo target who got back more — so that nobody starts a turn with more than 4
    (§1.7); then finish."""
    over = [s for s in _from_turn_seat(state) if len(state["hands"][s]) > rule("hand_size")]
    if over:
        open_step(state, ctx, "trim", seat=over[0])
    else:
        finish_turn(state, ctx)


def _from_turn_seat(state: State) -> list[int]:
    seat, n = running_turn_seat(state), state["seats"]
    return [(seat + i) % n for i in range(n)]


def finish_turn(state: State, ctx: Ctx) -> None:
    seat = running_turn_seat(state)
    curse = state["curse"][seat]
    if curse and curse["since"] < state["turn"]["no"]:
        # Only the carrier's turns after the one in which the mark arrived count (BW-12).
        curse["left"] -= 1
        if curse["left"] > 0:
            ctx.emit("curse_countdown", seat=seat, left=curse["left"])
        else:
            mutate_forever(state, ctx, seat)
            if state["outcome"] is not None:
                return
    state["phase_turns"] += 1
    if state["phase_turns"] >= state["seats"]:
        flip_phase(state, ctx)
    start_turn(state, ctx, next_seat(state, seat))


def flip_phase(state: State, ctx: Ctx) -> None:
    state["phase"] = "night" if state["phase"] == "day" else "day"
    state["phase_turns"] = 0
    ctx.emit("phase", phase=state["phase"])


def mutate_forever(state: State, ctx: Ctx, seat: int) -> None:
    """The Curse Mark's time is up: the carrier mutates for good and the mark is spent (§6.2, BW-12)."""
    state["curse"][seat] = None
    to_discard(state, "curse_mark")
    state["dna"][seat] = "forever"
    ctx.emit("mutated_forever", seat=seat, rule="§6.2")
    if all(d == "forever" for d in state["dna"]):
        # Nobody may declare the end any more (§4): the game cannot be won (BW-26).
        end_game(state, ctx, winners=[], reason="bloodwood.outcome.stalemate")


def end_game(state: State, ctx: Ctx, *, winners: list[int], reason: str, **params: Any) -> None:
    state["outcome"] = {"winners": sorted(winners), "reason": reason, "params": params,
                        "scores": {"roles": list(state["roles"])}}
    state["step"] = None
    ctx.emit("roles_revealed", roles=list(state["roles"]))
