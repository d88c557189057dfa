"""What a seat may do now (legal actions, in a deterministic order) and applying one action, for every phase.
Each apply path validates its fields first and rejects with a specific, localised reason."""
from __future__ import annotations

from typing import Any

from bot.engine import Code, Ctx, Reject

from .cards import ROWS
from .choices import apply_choice, choice_actions, settle
from .flow import begin_play, card_done, choose_first, clear_round, deliver_draws, do_pass, keep_candidates
from .leaders import activate, leader_specs, usable_leaders, why_unusable
from .leaders_passive import leader_rule, passive
from .rules import card_specs, check_spec, distinct, play_card
from .setup import apply_mulligan, apply_setup, mulligan_actions, setup_actions
from .state import board_units, card, move, open_cause, opp

SETUP_TYPES = ("faction", "leader_pick", "deck_add", "deck_remove", "deck_preset", "deck_done")
MULLIGAN_TYPES = ("mulligan_give", "mulligan_take", "mulligan_redraw", "mulligan_done")
TURN_TYPES = ("play", "leader", "pass", "move")
CHOICE_TYPES = ("revive", "summon", "take", "discard", "reveal", "skip")


def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    phase = state["phase"]
    if state["outcome"] is not None:
        return []
    if phase == "setup":
        return setup_actions(state, seat)
    if phase == "mulligan":
        return mulligan_actions(state, seat)
    if phase == "first":
        return [{"type": "first", "seat": s} for s in (seat, opp(seat))] if seat == state["chooser"] else []
    if phase == "keep":
        return ([{"type": "keep", "card": u} for u in keep_candidates(state, seat)]
                if seat == state["keeper"] else [])
    if state["stack"]:
        top = state["stack"][-1]
        return choice_actions(state, top) if top["seat"] == seat else []
    turn = state["turn"]
    if phase != "play" or not turn or turn["seat"] != seat:
        return []
    actions = []
    for uid in distinct(state, state["hand"][seat]):
        actions += [{"type": "play", "card": uid, **spec} for spec in card_specs(state, seat, uid)]
    for lid in usable_leaders(state, seat):
        actions += [{"type": "leader", "leader": lid, **spec} for spec in leader_specs(state, seat, lid)]
    actions += [{"type": "move", "card": uid} for uid in movable(state, seat)]
    actions.append({"type": "pass"})
    return actions


def movable(state: dict[str, Any], seat: int) -> list[str]:
    """Hope of the Aen Seidhe: the owner's non-hero agile units, each at most once a turn."""
    hope = passive(state, seat, "agile_moves") or state["round_fx"]["hope"][seat]
    if not hope:
        return []
    return [u for u, _ in board_units(state, seat)
            if card(state, u).agile and not card(state, u).is_hero and u not in state["turn"]["moved"]]


def by_name(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """A card may be named by its card id (``"catapult"``) instead of an instance id: it stands for the copy
    the legal actions offer (copies are offered once), so scripts and scenarios need not know instance ids.
    Only the acting seat's own legal actions are consulted: nothing hidden is looked up."""
    fields = [f for f in ("card", "target") if isinstance(action.get(f), str) and action[f] not in state["cards"]]
    if not fields:
        return action
    given = [f for f in ("card", "target") if f in action and f not in fields]
    resolved = dict(action)
    for option in legal_actions(state, seat):
        if option["type"] != action["type"] or any(option.get(f) != action[f] for f in given):
            continue
        picked = {}
        for f in fields:
            uid = option.get(f)
            if isinstance(uid, str) and uid in state["cards"] and state["cards"][uid]["id"] == action[f]:
                picked[f] = uid
        if len(picked) == len(fields):
            resolved.update(picked)
            return resolved
    # No legal action matches the whole: name the played card alone, so the refusal says what is wrong
    # with the rest (a target that cannot be taken, a row that does not fit) rather than "not in your hand".
    if "card" in fields and "target" in action:
        return by_name(state, seat, {k: v for k, v in action.items() if k != "target"}) | {"target": action["target"]}
    return action


def apply_action(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    action = by_name(state, seat, action)
    kind = action["type"]
    phase = state["phase"]
    if phase == "setup":
        _expect(state, kind, SETUP_TYPES)
        apply_setup(state, seat, action, ctx)
    elif phase == "mulligan":
        _expect(state, kind, MULLIGAN_TYPES)
        apply_mulligan(state, seat, action, ctx)
    elif phase == "first":
        _expect(state, kind, ("first",))
        if type(action.get("seat")) is not int or action["seat"] not in (0, 1):  # True == 1, but not a seat
            raise Reject("gwent.reject.bad_seat", code=Code.MALFORMED)
        ctx.emit("chose_first", seat=seat)
        begin_play(state, action["seat"], "scoiatael", ctx)
    elif phase == "keep":
        _expect(state, kind, ("keep",))
        if action.get("card") not in keep_candidates(state, seat):
            raise Reject("gwent.reject.bad_keep", rule="§6")
        ctx.emit("kept", seat=seat, card=card(state, action["card"]).id, rule="§6")
        clear_round(state, ctx, kept=action["card"])
    elif state["stack"]:
        _expect(state, kind, CHOICE_TYPES)
        apply_choice(state, seat, action, ctx)
        after_choice(state, ctx)
    else:
        _expect(state, kind, TURN_TYPES)
        apply_turn(state, seat, action, ctx)


def _expect(state: dict[str, Any], kind: str, allowed: tuple[str, ...]) -> None:
    if kind not in allowed:
        known = SETUP_TYPES + MULLIGAN_TYPES + TURN_TYPES + CHOICE_TYPES + ("first", "keep")
        if kind in known:
            # Say what the table is waiting for, not just "not now".
            phase = state["phase"]
            if state["stack"] and phase not in ("setup", "mulligan", "first", "keep"):
                phase = "choice"
            if phase not in ("setup", "mulligan", "first", "keep", "choice", "play"):
                raise Reject("gwent.reject.not_now", type=kind)
            raise Reject(f"gwent.reject.now_{phase}", type=kind)
        raise Reject("gwent.reject.unknown_action", code=Code.MALFORMED, type=kind[:30])


def after_choice(state: dict[str, Any], ctx: Ctx) -> None:
    """Continue once the sub-decisions are done: the turn goes on, or the third round begins."""
    settle(state)
    if state["stack"]:
        return
    if state["phase"] == "revive3":
        deliver_draws(state, ctx)  # a revived spy's cards arrive before the round's first turn
        choose_first(state, ctx)
    else:
        card_done(state, ctx)


def apply_turn(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    kind = action["type"]
    if kind == "pass":
        do_pass(state, seat, ctx)
        return
    if kind == "move":
        uid = action.get("card")
        if uid not in movable(state, seat):
            # §7 names the agile units and once a turn; that heroes stay put is ruling GW-18
            hero = uid in [u for u, _ in board_units(state, seat)] and card(state, uid).is_hero
            raise Reject("gwent.reject.cannot_move", rule="GW-18" if hero else "§7")
        row = locate_row(state, seat, uid)
        move(state, uid, ["row", seat, "ranged" if row == "melee" else "melee"])
        state["turn"]["moved"].append(uid)
        ctx.emit("moved", seat=seat, card=card(state, uid).id, row="ranged" if row == "melee" else "melee")
        return
    if kind == "play":
        uid = action.get("card")
        if not isinstance(uid, str) or uid not in state["hand"][seat]:
            raise Reject("gwent.reject.not_in_hand", rule="§1")
        spec = check_spec(state, seat, uid, action)
        open_cause(state, "card", card=uid)
        play_card(state, seat, uid, spec, ctx, source="hand")
    else:
        lid: Any = action.get("leader")  # one of the seat's leaders, checked next
        if lid not in state["players"][seat]["leaders"]:
            raise Reject("gwent.reject.not_your_leader", code=Code.MALFORMED)
        if lid not in usable_leaders(state, seat):
            key, rule = why_unusable(state, seat, lid)
            raise Reject(key, rule=rule)
        spec = {k: action[k] for k in ("weather", "row", "pile", "idle") if action.get(k) not in (None, False)}
        if spec not in leader_specs(state, seat, lid) or spec.get("idle", True) is not True:  # 1 == True
            passive = leader_rule(state, lid).get("passive") and "idle" not in spec
            raise Reject("gwent.reject.leader_passive" if passive else "gwent.reject.leader_spec", rule="§7")
        activate(state, seat, lid, spec, ctx)
    after_choice(state, ctx)


def locate_row(state: dict[str, Any], seat: int, uid: str) -> str:
    return next(r for r in ROWS if uid in state["rows"][seat][r])
