"""Rule 6: who has won or lost.  Checked after every complete step (a whole card, a whole combination, the
start-of-turn spells), never in the middle of one (ruling CG-9)."""
from __future__ import annotations

from bot.engine import Ctx

from .cards import rules
from .state import lasting_freeze, opponent


def _fall(state: dict, seat: int) -> str | None:
    """Why ``seat`` has lost by its own numbers, or None."""
    p, r = state["players"][seat], rules()
    if p["health"] < r["lose_health_below"]:
        return "health_low"
    if p["sphere"] < r["lose_sphere_below"]:
        return "sphere_low"
    if all(lasting_freeze(d) for d in p["dice"].values()):
        return "frozen"  # ruling CG-13
    return None


def _win(state: dict, seat: int) -> str | None:
    p, r = state["players"][seat], rules()
    if state["options"]["win_needs"] == "both":  # ruling CG-34
        return "both_high" if p["health"] > r["win_above"] and p["sphere"] > r["win_above"] else None
    if p["health"] > r["win_above"]:
        return "health_high"
    if p["sphere"] > r["win_above"]:
        return "sphere_high"
    return None


def check(state: dict, ctx: Ctx) -> bool:
    """End the game if rule 6 says so; True when the game is over."""
    if state["outcome"] is not None:
        return True
    beaten = {}
    for seat in (0, 1):
        why = _fall(state, seat) or _win(state, opponent(seat))
        if why:
            beaten[seat] = why
    if not beaten:
        return False
    if len(beaten) == 2:  # a draw (ruling CG-9); both above 200 at once (Вечер) is no "fall"
        both_won = all(why.endswith("_high") for why in beaten.values())
        finish(state, ctx, winners=[], reason="both_won" if both_won else "both_fell")
    else:
        (loser, why), = beaten.items()
        finish(state, ctx, winners=[opponent(loser)], reason=why, loser=loser)
    return True


def finish(state: dict, ctx: Ctx, *, winners: list[int], reason: str, loser: int | None = None) -> None:
    params = {"loser": loser} if loser is not None else {}
    state["outcome"] = {
        "winners": winners, "reason": f"claygod.outcome.{reason}", "params": params,
        "scores": {"health": [p["health"] for p in state["players"]],
                   "sphere": [p["sphere"] for p in state["players"]]},
    }
    ruling = {"frozen": "CG-13", "both_fell": "CG-9", "both_won": "CG-9", "clock": "CG-25",
              "both_high": "CG-34"}.get(reason)
    ctx.emit("game_over", winners=winners, reason=reason, **params, **({"ruling": ruling} if ruling else {}))
