"""The round (§1.2): the start of the players' action phase, its end once every seat has ended it, and the
neutral phase between rounds."""
from __future__ import annotations

from bot.engine import Ctx

from .combat import check_over
from .data import catalogue
from .state import State, bank_count, chars_on, max_hp, team_owns


def begin_round(state: State, ctx: Ctx) -> None:
    """A new round: bombs laid in an earlier round blow (BR-13), Shield balls run out (§4.5), action points
    refill (§1.2), the camp heals whoever starts on the Base (§5.1, BR-20)."""
    from .bosses import blow_bombs

    state["round"] += 1
    state["phase"] = "actions"
    state["opened"] = ctx.now
    ctx.emit("round", round=state["round"], rule="§1.2")
    if state["options"]["bomb_timing"] == "next_round":
        blow_bombs(state, ctx, lambda bomb: bomb["round"] < state["round"])
        if check_over(state, ctx):
            return
    ap = catalogue().chars["base_stats"]["ap"]
    for seat, c in enumerate(state["chars"]):
        if c["shield"]:
            ctx.emit("shield_gone", seat=seat, left=c["shield"], rule="§4.5")
        c.update(ap=ap, done=False, risky=False, moves=0, shield=0)
    for b in state["bosses"].values():
        b["attacked"] = False
    if state["camp"]:
        for seat in chars_on(state, catalogue().base):
            c = state["chars"][seat]
            gained = max_hp(state, seat) - c["hp"]
            if gained > 0:
                c["hp"] += gained
                ctx.emit("camp_heal", seat=seat, amount=gained, hp=c["hp"], rule="§5.1")
    check_arm_trade(state, ctx)


def check_arm_trade(state: State, ctx: Ctx) -> None:
    """«Показать Руку»: a character at the craftsman «когда в Банке есть Рука» opens the trade for good (§5.1);
    with ``arm_trade: owned`` an Arm worn by a character will do too (BR-21)."""
    trade = catalogue().craftsman["arm_trade"]["item"]
    if state["arm_trade"] or state["phase"] != "actions":
        return
    shown = bank_count(state, trade) > 0 if state["options"]["arm_trade"] == "bank" else team_owns(state, trade)
    if shown and chars_on(state, catalogue().craftsman["island"]):
        state["arm_trade"] = True
        ctx.emit("arm_trade", in_bank=bank_count(state, trade), rule="§5.1")


def after_action(state: State, ctx: Ctx, seat: int, *, receiving: bool = False) -> None:
    """What follows any action in the action phase: the end of a seat's phase in the very action that spends its
    last AP, under ``zero_ap: end`` or ``phase_end: auto`` (BR-1: no End of its own to press or to record;
    under ``zero_ap: referee``, rules version 3, the referee takes the End as a forced move instead:
    Bridges.forced_action), the trade unlock, and the neutral phase once every seat has ended.  ``receiving``:
    the seat may still put on an item it has just received (actions.receiving), so its phase waits for that."""
    from .bosses import neutral_phase

    if state["outcome"] is not None or state["phase"] != "actions":
        return
    c = state["chars"][seat]
    options = state["options"]
    ends_at_zero = options["phase_end"] == "auto" or options["zero_ap"] == "end" and not receiving
    if ends_at_zero and c["ap"] == 0 and not c["done"]:
        c["done"] = True
        # every AP spent is the book's own end of the phase (§1.2.1); ``auto`` ends it by the ruling alone
        ctx.emit("phase_ended", seat=seat, ap=0, how="auto", rule="BR-1" if options["phase_end"] == "auto" else "§1.2")
    check_arm_trade(state, ctx)
    if all(ch["done"] for ch in state["chars"]):
        start = len(ctx.events)
        neutral_phase(state, ctx)
        ctx.mark("neutral")  # the state between the neutral phase and the next round (a scenario's @after.neutral)
        if state["outcome"] is None:
            begin_round(state, ctx)
        if state["outcome"] is None:  # an ending is told by its own last lines
            summarise_neutral_phase(ctx, start)


def summarise_neutral_phase(ctx: Ctx, start: int) -> None:
    """One short line with what every boss did (the detailed lines, with the priority used and why, come
    before it): the line a table's live message keeps under the board."""
    done = []
    for event in ctx.events[start:]:
        d = event["data"]
        if event["kind"] == "boss_turn":
            done.append({"boss": d["boss"], "ability": d["ability"], "targets": list(d["targets"]),
                         "healed": d.get("healed"), "why": d["why"]})
        elif event["kind"] == "base_lasers":
            done.append({"boss": d["boss"], "ability": "base_lasers", "targets": [], "healed": None,
                         "why": "base", "amount": d["amount"]})
    if done:
        ctx.emit("neutral_summary", bosses=done)
