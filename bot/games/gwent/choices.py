"""Sub-decisions inside a turn, kept on ``state["stack"]`` (top = last): which card a medic or a leader
revives, what the faction card summons, what a leader takes from a discard pile, Eredin's two discards and
his secret pick from the deck, and the cards the opponent shows to the Emperor of Nilfgaard."""
from __future__ import annotations

from typing import Any, cast

from bot.engine import Code, Ctx, Reject

from .leaders import reveal
from .rules import card_specs, check_spec, distinct, place_unit, play_card, revive_candidates, summon_candidates
from .state import card, move, opp, resume_cause, zone_of

def candidates(state: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    seat, kind = entry["seat"], entry["kind"]
    if kind == "revive":
        return revive_candidates(state, seat, entry["piles"], entry["heroes"])
    if kind == "summon":
        return summon_candidates(state, seat)
    if kind == "take":
        return revive_candidates(state, seat, [entry["pile"]], heroes=False)
    if kind == "discard":
        return list(state["hand"][seat])
    if kind == "take_deck":
        return cast("list[str]", state["deck"][seat] + state["aside"][seat])
    if kind == "reveal":
        return [u for u in state["hand"][seat] if u not in state["revealed"][entry["viewer"]]]
    raise AssertionError(kind)


def choice_actions(state: dict[str, Any], entry: dict[str, Any]) -> list[dict[str, Any]]:
    kind, seat = entry["kind"], entry["seat"]
    actions = []
    for uid in distinct(state, candidates(state, entry)):
        if kind == "revive":
            actions += [{"type": "revive", "card": uid, **s} for s in card_specs(state, seat, uid)]
        elif kind == "summon":
            actions += [{"type": "summon", "card": uid, **s} for s in card_specs(state, seat, uid)]
        else:
            actions.append({"type": {"take_deck": "take"}.get(kind, kind), "card": uid})
    if kind in ("revive", "summon", "take"):
        actions.append({"type": "skip"})
    return actions


def settle(state: dict[str, Any]) -> None:
    """Drop sub-decisions that have nothing left to choose from."""
    while state["stack"] and not candidates(state, state["stack"][-1]):
        state["stack"].pop()


def apply_choice(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    entry = state["stack"][-1]
    kind = entry["kind"]
    expected = {"take_deck": "take"}.get(kind, kind)
    if action["type"] == "skip":
        if kind not in ("revive", "summon", "take"):
            raise Reject("gwent.reject.must_choose", rule="§7")
        state["stack"].pop()
        ctx.emit("skipped", seat=seat, what=kind)
        return
    if action["type"] != expected:
        raise Reject(f"gwent.reject.expected_{kind}", code=Code.ILLEGAL)
    uid = action.get("card")
    if not isinstance(uid, str) or uid not in candidates(state, entry):
        if kind == "revive" and entry.get("heroes"):
            raise Reject("gwent.reject.bad_revive_hero_too", rule="GW-29")  # Valhalla: a hero may come back too
        # the refusal cites what granted the choice: a leader's revival (GW-29), Skellige's round-3 bonus (§6),
        # else the mechanic's own part (a medic's revival: §3)
        rule = _SOURCE_RULE.get(entry.get("source"), _RULE[kind])
        raise Reject(f"gwent.reject.bad_{kind}", rule=rule)
    state["stack"].pop()
    resume_cause(state, entry["cause"])
    if kind == "revive":
        spec = check_spec(state, seat, uid, action)
        if entry.get("left", 1) > 1:
            # Skellige's second revival waits under anything the first one triggers (a medic's revival).
            state["stack"].append(dict(entry, left=entry["left"] - 1))
        side_from = zone_of(state, uid)[1]
        ctx.emit("revived", seat=seat, card=card(state, uid).id, pile="own" if side_from == seat else "enemy",
                 source=entry.get("source", "medic"))
        place_unit(state, seat, uid, opp(seat) if spec.get("side") == "enemy" else seat,
                   spec.get("row") or card(state, uid).rows[0], ctx)
    elif kind == "summon":
        spec = check_spec(state, seat, uid, action)
        play_card(state, seat, uid, spec, ctx, source="faction_card")
    elif kind == "take":
        move(state, uid, ["hand", seat])
        ctx.emit("took", seat=seat, card=card(state, uid).id, pile=entry["pile"])
    elif kind == "discard":
        move(state, uid, ["discard", seat])
        ctx.emit("discarded", seat=seat, card=card(state, uid).id)
        if entry["left"] > 1:
            state["stack"].append(dict(entry, left=entry["left"] - 1))
        else:
            state["stack"].append(dict(entry, kind="take_deck", left=1))
    elif kind == "take_deck":
        move(state, uid, ["hand", seat])
        if state.get("journal") and entry["cause"] is not None:
            state["journal"]["cur"][entry["cause"]]["chosen"] = uid
        # The choice is secret (rule book: told to the judge by DM): the card's name goes to its owner only.
        ctx.emit("chose", to=(seat,), seat=seat, card=card(state, uid).id)
        ctx.emit("chose_hidden", seat=seat)
    elif kind == "reveal":
        reveal(state, entry["viewer"], uid, ctx)
        if entry["left"] > 1:
            state["stack"].append(dict(entry, left=entry["left"] - 1))
    resume_cause(state, None)


_RULE = {"revive": "§3", "summon": "§4", "take": "§7", "discard": "§7", "take_deck": "§7", "reveal": "§7"}
_SOURCE_RULE = {"leader": "GW-29", "skellige": "§6"}
