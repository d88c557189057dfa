"""Rule 6: who has won or lost.  Checked after every complete step (a whole card, both cards of a two-card
play, a whole combination, the start-of-turn spells), never in the middle of one (ruling CG-9)."""
from __future__ import annotations

from typing import Any

from bot.engine import Ctx

from .cards import rules
from .state import lasting_freeze, opponent

#: holds that do not make "all dice frozen" a defeat (ruling CG-13): the player's own §3.6/§3.7, an action the
#: book offers, and Снежинка's five turns, which the book would otherwise cut short on the spot
SPARED_HOLDS = ("freeze_all", "snowflake")


def counts_as_frozen(state: dict[str, Any], die: dict[str, Any]) -> bool:
    """Whether the die counts towards rule 6's «все кубики заморожены» (ruling CG-13, option ``frozen_defeat``)."""
    if state["options"]["frozen_defeat"] == "lasting":
        return lasting_freeze(die)
    return die["frozen"] and die.get("frozen_by") not in SPARED_HOLDS


def _fall(state: dict[str, Any], seat: int) -> str | None:
    """Why ``seat`` has lost by its own numbers, or None."""
    p, r = state["players"][seat], rules()
    if p["health"] < r["lose_health_below"]:
        return "health_low"
    if p["sphere"] < r["lose_sphere_below"]:
        return "sphere_low"
    if all(counts_as_frozen(state, d) for d in p["dice"].values()):
        return "frozen"
    return None


def _win(state: dict[str, Any], seat: int) -> str | None:
    p, r = state["players"][seat], rules()
    if state["options"]["win_needs"] == "both":  # ruling CG-34
        return "both_high" if p["health"] > r["win_above"] and p["sphere"] > r["win_above"] else None
    if p["health"] > r["win_above"]:
        return "health_high"
    if p["sphere"] > r["win_above"]:
        return "sphere_high"
    return None


def check(state: dict[str, Any], ctx: Ctx) -> bool:
    """End the game if rule 6 says so; True when the game is over."""
    if state["outcome"] is not None:
        return True
    fell = {seat: _fall(state, seat) for seat in (0, 1)}
    won = {seat: _win(state, seat) for seat in (0, 1)}
    beaten = {seat: why for seat in (0, 1) if (why := fell[seat] or won[opponent(seat)])}
    if not beaten:
        return False
    if len(beaten) == 2:  # a draw (ruling CG-9)
        if not any(fell.values()):
            reason = "both_won"  # both above 200 at once (Вечер)
        elif not any(won.values()):
            reason = "both_fell"
        else:
            reason = "won_and_fell"  # one mage above 200 and below a losing line at once
        finish(state, ctx, winners=[], reason=reason)
    else:
        (loser, why), = beaten.items()
        finish(state, ctx, winners=[opponent(loser)], reason=why, loser=loser)
    return True


def finish(state: dict[str, Any], ctx: Ctx, *, winners: list[int], reason: str, loser: int | None = None) -> None:
    params: dict[str, Any] = {"loser": loser} if loser is not None else {}
    state["outcome"] = {
        "winners": winners, "reason": f"claygod.outcome.{reason}", "params": params,
        "scores": {"health": [p["health"] for p in state["players"]],
                   "sphere": [p["sphere"] for p in state["players"]]},
    }
    # the rule book's §6 where it decides, the ruling where it is silent
    ruling = {"both_fell": "CG-9", "both_won": "CG-9", "won_and_fell": "CG-9", "clock": "CG-25",
              "both_high": "CG-34"}.get(reason, "§6")
    if reason == "frozen" and state["options"]["frozen_defeat"] == "lasting":
        ruling = "CG-13"
    ctx.emit("game_over", winners=winners, reason=reason, **params, ruling=ruling)
