"""Actions: the legal list for each step, validation with a specific refusal, application, timeouts.

Every action is a small JSON dict; the fields of each type are listed in docs/games/bloodwood.md."""
from __future__ import annotations

from typing import Any, Callable, cast

from bot.engine import Code, Ctx, Reject, Rejection

from . import effects
from .cards import COUNTERS, card, catalogue, name, rule
from .declaration import declare, judge
from .flow import end_turn, pending, proceed
from .rules import (
    confession_recipients, counter_refusal, counters_held, legal_targets, play_problem, playable, target_problem,
)
from .setup import assign_role, begin, unassigned
from .state import (
    State, available, back, decks_to_draw, draw, give, hand_backs, is_pure, others, take, to_discard, turn_seat,
)

ACTION_TYPES = frozenset({
    "assign", "first", "play", "target", "cancel", "discard", "pass", "declare", "name", "unname", "confirm",
    "steal", "allow", "counter", "keep", "unkeep", "done", "give", "show", "draw", "draw_all",
})


def owes(state: State, seat: int) -> bool:
    return any(s == seat for s, _, _ in pending(state))


# ------------------------------------------------------------------------------------------ legal lists
def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not owes(state, seat):
        return []
    step = state["step"]
    return _LEGAL[step["kind"]](state, seat, step)


def _distinct(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _legal_turn(state: State, seat: int, step: dict[str, Any]) -> list[dict[str, Any]]:
    if step["card"]:
        targets = [{"type": "target", "seat": t} for t in legal_targets(state, seat, step["card"])]
        return [*targets, {"type": "cancel"}]
    can_play = playable(state, seat)
    actions = [{"type": "play", "card": c} for c in can_play]
    actions += [{"type": "discard", "card": c} for c in _distinct(state["hands"][seat])]
    if not can_play:
        actions.append({"type": "pass"})
    if is_pure(state, seat):
        actions.append({"type": "declare"})
    return actions


def _legal_keep(state: State, seat: int, step: dict[str, Any]) -> list[dict[str, Any]]:
    kept = step["kept"]
    actions = []
    if len(kept) < rule("keep_limit"):
        actions += [{"type": "keep", "card": c} for c in _distinct(state["hands"][seat])
                    if state["hands"][seat].count(c) > kept.count(c)]
    actions += [{"type": "unkeep", "card": c} for c in _distinct(sorted(kept))]
    return [*actions, {"type": "done"}]


def _legal_declare(state: State, seat: int, step: dict[str, Any]) -> list[dict[str, Any]]:
    named = step["named"]
    actions = [{"type": "unname" if s in named else "name", "seat": s} for s in others(state, seat)]
    return [*actions, {"type": "confirm"}] if named else actions


def anytime_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """A pure player who is awake may declare the end during another player's turn, at a quiet moment:
    while that player chooses his card or draws, never inside a card's resolution (BW-25).  Everything
    checked here is public, so being offered the choice tells nobody anything."""
    step = state["step"]
    quiet = step is not None and step["kind"] in ("turn", "draw") and step["seat"] == turn_seat(state)
    if state["outcome"] is None and quiet and seat != step["seat"] and is_pure(state, seat) \
            and not _asleep_and_barred(state, seat):
        return [{"type": "declare"}]
    return []


def _asleep_and_barred(state: State, seat: int) -> bool:
    """Tranquilizer takes the turn and the defence (§6.4), not the right of every pure player to declare
    (§4); only the table option ``asleep_may_declare: false`` keeps a sleeping player from it (BW-25)."""
    return state["sleep"][seat] and not state["options"]["asleep_may_declare"]


def out_of_turn(state: State, seat: int, action: Any) -> Rejection:
    """Why a seat that owes nothing may not do this now (public facts only, like anytime_actions)."""
    if isinstance(action, dict) and state["outcome"] is None:
        if action.get("type") == "declare":
            if not is_pure(state, seat):
                return Rejection(Code.NOT_YOUR_TURN, "bloodwood.reject.mutated_cannot_declare", rule="§4")
            if _asleep_and_barred(state, seat):
                return Rejection(Code.NOT_YOUR_TURN, "bloodwood.reject.asleep_cannot_declare", rule="BW-25")
            return Rejection(Code.NOT_YOUR_TURN, "bloodwood.reject.declare_not_now", rule="BW-25")
        misplaced = _misplaced_counter(state, seat, action)
        if misplaced:
            return misplaced.rejection
    return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")


def _misplaced_counter(state: State, seat: int, action: dict[str, Any]) -> Reject | None:
    """Mirror / Amulet offered when no counter window is this seat's: refused with the book's reason."""
    if action.get("type") != "counter" or action.get("card") not in COUNTERS:
        return None
    step = state["step"]
    if step is not None and step["kind"] == "counter" and step["seat"] == seat:
        return None
    return counter_refusal(state, seat, action["card"])


def _may_declare_while_drawing(state: State, seat: int) -> bool:
    """A pure player may also declare after his own card has resolved, when he is to draw (BW-25)."""
    return seat == turn_seat(state) and is_pure(state, seat)


def _splits(state: State, left: int) -> list[dict[str, Any]]:
    """All remaining draws at once, as every feasible day/night split (only when more than one is left)."""
    if left < 2:
        return []
    day, night = available(state, "day"), available(state, "night")
    return [{"type": "draw_all", "day": k, "night": left - k} for k in range(left, -1, -1)
            if k <= day and left - k <= night]


_LEGAL: dict[str, Callable[[State, int, dict[str, Any]], list[dict[str, Any]]]] = {
    "assign": lambda state, seat, step: [{"type": "assign", "role": r} for r in _distinct(unassigned(state))],
    "first": lambda state, seat, step: [{"type": "first", "seat": s} for s in range(state["seats"])],
    "turn": _legal_turn,
    "thief_back": lambda state, seat, step: [
        {"type": "steal", "deck": d} for d, n in hand_backs(state, step["target"]).items() if n],
    "counter": lambda state, seat, step: [
        {"type": "allow"}, *({"type": "counter", "card": c} for c in counters_held(state, seat))],
    "keep": _legal_keep,
    "give": lambda state, seat, step: [{"type": "give", "card": c} for c in _distinct(state["hands"][seat])],
    "leshy": lambda state, seat, step: [{"type": "discard", "card": c} for c in _distinct(state["hands"][seat])],
    "confess": lambda state, seat, step: [{"type": "show", "seat": s} for s in confession_recipients(state, seat)],
    "draw": lambda state, seat, step: [
        *({"type": "draw", "deck": d} for d in decks_to_draw(state)), *_splits(state, step["left"]),
        *([{"type": "declare"}] if _may_declare_while_drawing(state, seat) else [])],
    "trim": lambda state, seat, step: [{"type": "discard", "card": c} for c in _distinct(state["hands"][seat])],
    "declare": _legal_declare,
}


# ------------------------------------------------------------------------------------------ fields
def _card_field(action: dict[str, Any]) -> str:
    cid = action.get("card")
    if not isinstance(cid, str) or cid not in catalogue().cards:
        raise Reject("bloodwood.reject.bad_card", code=Code.MALFORMED)
    return cid


def _held(state: State, seat: int, action: dict[str, Any]) -> str:
    cid = _card_field(action)
    if cid not in state["hands"][seat]:
        raise Reject("bloodwood.reject.not_in_hand", card=name(cid))
    return cid


def _seat_field(state: State, action: dict[str, Any], field: str = "seat") -> int:
    value = action.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state["seats"]:
        raise Reject("bloodwood.reject.bad_seat", code=Code.MALFORMED)
    return value


def _deck_field(action: dict[str, Any]) -> str:
    deck = action.get("deck")
    if deck not in ("day", "night"):
        raise Reject("bloodwood.reject.bad_deck", code=Code.MALFORMED)
    return cast("str", deck)


def _not_now() -> Reject:
    return Reject("bloodwood.reject.not_now")


# ------------------------------------------------------------------------------------------ applying
def apply_action(state: State, seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    if action["type"] not in ACTION_TYPES:
        raise Reject("bloodwood.reject.unknown_action", code=Code.MALFORMED)
    misplaced = _misplaced_counter(state, seat, action)
    if misplaced:
        raise misplaced
    step = state["step"]
    if not owes(state, seat):  # only an out-of-turn declaration gets here (the core checked it is offered)
        _declare(state, seat, ctx)
        return
    _APPLY[step["kind"]](state, seat, action, ctx, step)


def _apply_assign(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "assign":
        raise _not_now()
    role = action.get("role")
    if role not in unassigned(state):
        raise Reject("bloodwood.reject.bad_role", rule="§9.3")
    assign_role(state, ctx, role)


def _apply_first(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "first":
        raise _not_now()
    begin(state, ctx, _seat_field(state, action), how="host")


def _apply_turn(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    kind = action["type"]
    if step["card"]:
        if kind == "cancel":
            step["card"] = None
        elif kind == "target":
            _play_on(state, seat, step["card"], _seat_field(state, action), ctx)
        else:
            raise Reject("bloodwood.reject.pick_target")
        return
    if kind == "play":
        cid = _card_field(action)
        problem = play_problem(state, seat, cid)
        if problem:
            raise problem
        if card(cid).target == "none":
            if "target" in action:
                raise Reject("bloodwood.reject.takes_no_target", code=Code.MALFORMED, card=name(cid))
            effects.play(state, ctx, seat, cid, None)
        elif "target" in action:
            _play_on(state, seat, cid, _seat_field(state, action, "target"), ctx)
        else:
            step["card"] = cid  # the choice of target comes next, still secret
    elif kind == "discard":
        cid = _held(state, seat, action)
        take(state, seat, cid)
        to_discard(state, cid)
        ctx.emit("discarded", seat=seat, card=cid, why="turn")
        proceed(state, ctx, "refill")
    elif kind == "pass":
        if playable(state, seat):
            raise Reject("bloodwood.reject.must_play_or_discard", rule="§2")
        ctx.emit("passed", seat=seat)
        proceed(state, ctx, "refill")
    elif kind == "declare":
        _declare(state, seat, ctx)
    else:
        raise _not_now()


def _declare(state: State, seat: int, ctx: Ctx) -> None:
    if not is_pure(state, seat):
        raise Reject("bloodwood.reject.mutated_cannot_declare", rule="§4")
    declare(state, ctx, seat)


def _play_on(state: State, seat: int, cid: str, target: int, ctx: Ctx) -> None:
    problem = target_problem(state, seat, cid, target)
    if problem:
        raise problem
    effects.play(state, ctx, seat, cid, target)


def _apply_thief_back(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "steal":
        raise _not_now()
    deck = _deck_field(action)
    if not hand_backs(state, step["target"])[deck]:
        raise Reject("bloodwood.reject.no_such_back", rule="BW-23")
    effects.steal(state, ctx, seat, step["target"], deck)


def _apply_counter(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] == "allow":
        effects.answer_attack(state, ctx, seat, None)
    elif action["type"] == "counter":
        cid = _card_field(action)
        if cid not in ("mirror", "amulet"):
            raise Reject("bloodwood.reject.not_a_counter", rule="§6.8", card=name(cid))
        if cid not in state["hands"][seat]:
            raise Reject("bloodwood.reject.not_in_hand", card=name(cid))
        if cid not in counters_held(state, seat):
            raise Reject("bloodwood.reject.chained", rule="§6.3", card=name(cid))  # Mirror is a night card
        effects.answer_attack(state, ctx, seat, cid)
    else:
        raise _not_now()


def _apply_keep(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    kind, kept = action["type"], step["kept"]
    if kind == "done":
        effects.finish_keep(state, ctx)
        return
    if kind not in ("keep", "unkeep"):
        raise _not_now()
    cid = _held(state, seat, action)
    if kind == "keep":
        if len(kept) >= rule("keep_limit"):
            cite = "§6.5" if step["source"] == "voodoo" else "§6.7"
            raise Reject("bloodwood.reject.keep_limit", rule=cite, limit=rule("keep_limit"))
        if kept.count(cid) >= state["hands"][seat].count(cid):
            raise Reject("bloodwood.reject.already_kept", card=name(cid))
        kept.append(cid)
    else:
        if cid not in kept:
            raise Reject("bloodwood.reject.not_kept", card=name(cid))
        kept.remove(cid)


def _apply_give(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "give":
        raise _not_now()
    cid = _held(state, seat, action)
    hunter = step["seat"]
    take(state, seat, cid)
    give(state, hunter, cid)
    step["owed"][seat] = False
    ctx.emit("gave", seat=seat, hunter=hunter, deck=back(cid))
    ctx.emit("given_card", to=[seat, hunter], seat=seat, hunter=hunter, card=cid)
    if not any(step["owed"]):
        effects.hunter_received(state, ctx)


def _apply_leshy(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "discard":
        raise _not_now()
    cid = _held(state, seat, action)
    take(state, seat, cid)
    to_discard(state, cid)
    step["owed"][seat] -= 1
    ctx.emit("discarded", seat=seat, card=cid, why="leshy")
    if not any(step["owed"]):
        proceed(state, ctx, "refill")


def _apply_confess(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "show":
        raise _not_now()
    recipient = _seat_field(state, action)
    if recipient not in confession_recipients(state, seat):
        raise Reject("bloodwood.reject.bad_recipient", rule="§7.7")
    effects.confess(state, ctx, seat, recipient)


def _apply_draw(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] == "declare":
        if seat != turn_seat(state):
            raise Reject("bloodwood.reject.declare_own_turn", rule="BW-25")
        _declare(state, seat, ctx)
        return
    if action["type"] == "draw_all":
        given = [action.get("day"), action.get("night")]
        if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in given):
            raise Reject("bloodwood.reject.bad_split", code=Code.MALFORMED)
        counts = [n for n in given if isinstance(n, int)]  # both of them, now known whole numbers
        if sum(counts) != step["left"]:
            raise Reject("bloodwood.reject.split_total", left=step["left"])
        if counts[0] > available(state, "day") or counts[1] > available(state, "night"):
            raise Reject("bloodwood.reject.deck_empty", rule="BW-6")
        for deck, n in zip(("day", "night"), counts):
            for _ in range(n):
                draw(state, ctx, seat, deck)
        proceed(state, ctx, step["then"])
        return
    if action["type"] != "draw":
        raise _not_now()
    deck = _deck_field(action)
    if deck not in decks_to_draw(state):
        raise Reject("bloodwood.reject.deck_empty", rule="BW-6")
    draw(state, ctx, seat, deck)
    step["left"] -= 1
    if step["left"] == 0 or not decks_to_draw(state):
        proceed(state, ctx, step["then"])


def _apply_trim(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    if action["type"] != "discard":
        raise _not_now()
    cid = _held(state, seat, action)
    take(state, seat, cid)
    to_discard(state, cid)
    # §2 holds the turn's player to 4 at the end of the turn; another player (Voodoo's target) by BW-8.
    ctx.emit("discarded", seat=seat, card=cid, why="trim", rule="§2" if seat == turn_seat(state) else "BW-8")
    if len(state["hands"][seat]) <= rule("hand_size"):
        end_turn(state, ctx)  # another player may still hold more than 4


def _apply_declare(state: State, seat: int, action: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> None:
    kind, named = action["type"], step["named"]
    if kind == "confirm":
        if not named:
            raise Reject("bloodwood.reject.name_someone", rule="§4")
        judge(state, ctx)
        return
    if kind not in ("name", "unname"):
        raise _not_now()
    who = _seat_field(state, action)
    if who == seat:
        raise Reject("bloodwood.reject.name_self", rule="§4")
    if (kind == "name") == (who in named):
        raise Reject(f"bloodwood.reject.already_{'named' if kind == 'name' else 'unnamed'}")
    if kind == "name":
        named.append(who)
    else:
        named.remove(who)


_APPLY: dict[str, Callable[[State, int, dict[str, Any], Ctx, dict[str, Any]], None]] = {
    "assign": _apply_assign, "first": _apply_first, "turn": _apply_turn, "thief_back": _apply_thief_back,
    "counter": _apply_counter, "keep": _apply_keep, "give": _apply_give, "leshy": _apply_leshy,
    "confess": _apply_confess, "draw": _apply_draw, "trim": _apply_trim, "declare": _apply_declare,
}


# ------------------------------------------------------------------------------------------ timeouts
def timeout(state: State, seat: int, ctx: Ctx) -> None:
    """The seat's deadline passed (BW-28).  A turn not yet played is lost (the slowness rule, §9.2); a
    counter window lets the card resolve; a declaration is judged on the names given; a keep choice is
    topped up at random; any other decision is completed with random legal choices."""
    step = state["step"]
    ctx.emit("timed_out", seat=seat, step=step["kind"], rule="BW-28")
    if step["kind"] == "turn":
        ctx.emit("turn_skipped", seat=seat, rule="§9.2")
        end_turn(state, ctx)
    elif step["kind"] == "counter":
        effects.answer_attack(state, ctx, seat, None)
    elif step["kind"] == "declare":
        judge(state, ctx)
    elif step["kind"] == "keep":
        pool = list(state["hands"][seat])
        for cid in step["kept"]:
            pool.remove(cid)
        while pool and len(step["kept"]) < rule("keep_limit"):
            cid = ctx.rng.choice(pool, "bloodwood.timeout")
            pool.remove(cid)
            step["kept"].append(cid)
        effects.finish_keep(state, ctx)
    else:
        while state["step"] is step and owes(state, seat):
            # Never the irreversible declaration (offered while drawing, BW-25) on an absent player's behalf.
            choices = [a for a in legal_actions(state, seat) if a["type"] != "declare"]
            choice = ctx.rng.choice(choices, "bloodwood.timeout")
            _APPLY[step["kind"]](state, seat, choice, ctx, step)
