"""The turn, the interrupt window and the disputes: who owes what, the legal actions, applying one.

The window (state["window"]) opens when a capture is declared or a шняга is applied, and asks every player at
once, so that nobody learns who holds what from who is asked:

    capture   {seat, fighter, prop} of the declared capture, or None (a window opened by a шняга)
    queue     applied шняги waiting to resolve: {seat, card, target, effects, manual, discarded, disputed}
    passed    the seats that passed since the last шняга; when every seat has, the window resolves
    owe       a step one player owes before anyone goes on: {seat, what: discard | state, entry, left}
    vote      a dispute about a judge-assisted step: {entry, by, uphold: [seats], reject: [seats]}
    since     when the players were last asked (the optional answer clock)

Actions: capture {card, prop} · shnyaga {card, target} · end · pass · discard {card} · state {effect} ·
dispute {entry} · vote {uphold}.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import Code, Ctx, Reject, Rejection

from .cards import SUIT_MARK, fighter
from .effects import manual_outcomes, playable, resolve_capture, resolve_queue, targets
from .setup import start_turn
from .state import active, babki, guard_of, on_board, side_total, sides, turn_order_from

# the rule-book paragraphs a refusal cites
R_CAPTURE, R_SHNYAGA, R_DISPUTE, R_TRUMPS = "Захват", "Шняга", "Разрешение споров", "Козыри"


# ------------------------------------------------------------------------------------------ who acts
def owing(state: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, kind) of everyone who owes a decision now: kind turn, reaction (the window) or choice."""
    if state["outcome"] is not None:
        return []
    w = state["window"]
    if w is None:
        return [(active(state), "turn")]
    if w["owe"]:
        return [(w["owe"]["seat"], "choice")]
    if w["vote"]:
        v = w["vote"]
        voted = set(v["uphold"]) | set(v["reject"])
        return [(s, "choice") for s in voters(state, v) if s not in voted]
    return [(s, "reaction") for s in range(state["seats"]) if s not in w["passed"]]


def window_about(state: dict[str, Any]) -> tuple[int, ...]:
    """The seats the open window is about, all public: the owner of the property a capture attacks, and the
    owner of the fighter the latest шняга points at; never the seat whose own move it answers."""
    w = state["window"]
    found, author = set(), None
    if w["capture"]:
        author = w["capture"]["seat"]
        found.add(guard_of(state, w["capture"]["prop"])["owner"])
    if w["queue"]:
        last = w["queue"][-1]
        author = last["seat"]
        placed = on_board(state, last["target"]) if last["target"] else None
        if placed is not None:
            found.add(placed[0])
    return tuple(sorted(s for s in found if s is not None and s != author))


def voters(state: dict[str, Any], vote: dict[str, Any]) -> list[int]:
    """Everyone but the author of the disputed step (ruling RD-16)."""
    author = state["window"]["queue"][vote["entry"]]["seat"]
    return [s for s in range(state["seats"]) if s != author]


# ------------------------------------------------------------------------------------------ legal actions
def _shnyaga_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    found = []
    for card in state["players"][seat]["hand"]:
        for target in playable(state, seat, card) or ():
            found.append({"type": "shnyaga", "card": card, "target": target})
    return found


def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    kinds = dict(owing(state))
    if seat not in kinds:
        return []
    w = state["window"]
    if w is None:
        found = []
        if not state["turn"]["captured"]:
            # «Боец – это карта ... у которой есть крутизна»: a шняга-only card captures nothing; one's own
            # property is no target (RD-4)
            found += [{"type": "capture", "card": card, "prop": p["card"]}
                      for card in state["players"][seat]["hand"] if fighter(state, card).is_fighter
                      for p in state["props"] if p["owner"] != seat]
        return found + _shnyaga_actions(state, seat) + [{"type": "end"}]
    if w["owe"]:
        if w["owe"]["what"] == "discard":
            return [{"type": "discard", "card": c} for c in state["players"][seat]["hand"]]
        return [{"type": "state", "effect": e} for e in manual_outcomes(state, seat)]
    if w["vote"]:
        return [{"type": "vote", "uphold": True}, {"type": "vote", "uphold": False}]
    disputes = [{"type": "dispute", "entry": i} for i, e in enumerate(w["queue"])
                if e["manual"] and not e["disputed"] and e["seat"] != seat and e["effects"]]
    return [{"type": "pass"}, *_shnyaga_actions(state, seat), *disputes]


# ------------------------------------------------------------------------------------------ applying
def apply_action(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise Reject("raiders.reject.unknown_action", type=str(kind)[:40])
    handler(state, seat, action, ctx)


def _refuse_unless_offered(state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    if action not in legal_actions(state, seat):
        key, rule, *params = _why_not(state, seat, action)
        raise Reject(key, rule=rule, **(params[0] if params else {}))


def _why_not(state: dict[str, Any], seat: int, action: dict[str, Any]) -> tuple[Any, ...]:
    """The refusal's message key, the rule it rests on, and the message's parameters if it has any."""
    kind = action.get("type")
    hand = state["players"][seat]["hand"]
    w = state["window"]
    if kind == "capture":
        if w is not None:
            return "raiders.reject.only_shnyagi", R_CAPTURE
        if state["turn"]["captured"]:
            return "raiders.reject.one_attempt", R_CAPTURE
        if action.get("card") not in hand:
            return "raiders.reject.not_in_hand", R_CAPTURE
        if not fighter(state, action["card"]).is_fighter:
            return "raiders.reject.not_a_fighter", R_CAPTURE
        if any(p["card"] == action.get("prop") and p["owner"] == seat for p in state["props"]):
            return "raiders.reject.own_property", "RD-4"
        return "raiders.reject.no_such_property", R_CAPTURE
    if kind == "shnyaga":
        card = action.get("card")
        if not isinstance(card, str) or card not in hand:
            return "raiders.reject.not_in_hand", R_SHNYAGA
        sh = fighter(state, card).shnyaga
        if sh is None:
            return "raiders.reject.no_shnyaga", R_SHNYAGA
        if sh.timing == "own_turn" and seat != active(state):
            return "raiders.reject.own_turn_only", R_SHNYAGA
        if sh.timing == "capture" and not (w and w["capture"]):
            return "raiders.reject.capture_only", R_SHNYAGA
        if len(hand) - 1 < sh.cost:
            return "raiders.reject.cannot_pay", R_SHNYAGA
        effect = sh.targeted
        target = action.get("target")
        if effect is not None and not sh.manual and effect.get("same_suit"):
            fitting = targets(state, seat, card, effect, any_suit=True)
            if target in fitting or (target is None and fitting and playable(state, seat, card) is None):
                # the right kind of fighter, of another suit: the card's «такой же масти», which only a trump lifts
                return "raiders.reject.wrong_suit", R_TRUMPS, {"suit": SUIT_MARK[fighter(state, card).suit]}
        if playable(state, seat, card) is None:
            return "raiders.reject.only_discard", "RD-14"
        return "raiders.reject.bad_target", R_SHNYAGA
    if kind == "dispute":
        return "raiders.reject.no_dispute", "RD-16"
    return "raiders.reject.not_now", None


def out_of_turn(state: dict[str, Any], seat: int, action: dict[str, Any]) -> Rejection:
    """A seat that owes nothing now: one that passed in the open window waits for the next шняга, which asks
    everyone again (RD-20); anyone else, the usual refusal."""
    w = state["window"]
    if w is not None and not w["owe"] and not w["vote"] and seat in w["passed"] \
            and action.get("type") in ("shnyaga", "pass", "dispute"):
        return Rejection(Code.NOT_YOUR_TURN, "raiders.reject.passed", rule="RD-20")
    return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")


def _capture(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    card, target = action["card"], action["prop"]
    state["players"][seat]["hand"].remove(card)
    state["turn"]["captured"] = True
    p = guard_of(state, target)
    state["window"] = _window(state, {"seat": seat, "fighter": card, "prop": target}, ctx)
    ctx.emit("capture", seat=seat, card=card, prop=target, guard=p["guard"], owner=p["owner"], rule=R_CAPTURE)


def _window(state: dict[str, Any], capture: dict[str, Any] | None, ctx: Ctx) -> dict[str, Any]:
    return {"capture": capture, "queue": [], "passed": [], "owe": None, "vote": None, "since": ctx.now}


def _shnyaga(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    card, target = action["card"], action["target"]
    sh = fighter(state, card).played_shnyaga
    state["players"][seat]["hand"].remove(card)
    state["discard"].append(card)
    if state["window"] is None:
        state["window"] = _window(state, None, ctx)
    w = state["window"]
    entry = {"seat": seat, "card": card, "target": target, "manual": sh.manual, "discarded": [], "disputed": False,
             "effects": [] if sh.manual else [dict(e) for e in sh.effects if e["do"] != "discard"]}
    w["queue"].append(entry)
    _asked_again(w, ctx)
    ctx.emit("shnyaga", seat=seat, card=card, target=target, manual=sh.manual, rule=R_SHNYAGA)
    if sh.cost:
        w["owe"] = {"seat": seat, "what": "discard", "entry": len(w["queue"]) - 1, "left": sh.cost}
    elif sh.manual:
        w["owe"] = {"seat": seat, "what": "state", "entry": len(w["queue"]) - 1, "left": 1}


def _asked_again(w: dict[str, Any], ctx: Ctx) -> None:
    """«Захват считается состоявшимся, когда все игроки сказали «пас»»: a new шняга gives everyone another say."""
    w["passed"] = []
    w["since"] = ctx.now


def _discard(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    w = state["window"]
    state["players"][seat]["hand"].remove(action["card"])
    state["discard"].append(action["card"])
    w["queue"][w["owe"]["entry"]]["discarded"].append(action["card"])
    ctx.emit("discarded", seat=seat, card=action["card"], rule=R_SHNYAGA)
    w["owe"]["left"] -= 1
    if w["owe"]["left"] == 0:
        w["owe"] = None


def _state(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """The player states the outcome of a judge-assisted card from the primitives (RD-15)."""
    _refuse_unless_offered(state, seat, action)
    w = state["window"]
    entry = w["queue"][w["owe"]["entry"]]
    effect = dict(action["effect"])
    entry["target"] = effect.pop("target", None)
    entry["effects"] = [effect]
    w["owe"] = None
    ctx.emit("stated", seat=seat, card=entry["card"], effect=effect, target=entry["target"], ruling="RD-15")


def _pass(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    w = state["window"]
    w["passed"].append(seat)
    ctx.emit("passed", seat=seat)
    if len(w["passed"]) == state["seats"]:
        close_window(state, ctx)


def close_window(state: dict[str, Any], ctx: Ctx) -> None:
    """Everyone passed in a row: the queue resolves, then the capture; крутизна changes end with the capture."""
    w = state["window"]
    ctx.emit("window_closed", capture=w["capture"] is not None)
    resolve_queue(state, ctx)
    if w["capture"]:
        resolve_capture(state, ctx)
        state["mods"] = {}
    state["window"] = None
    check_win(state, ctx)


def _end(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    ctx.emit("turn_ended", seat=seat)
    start_turn(state, (seat + 1) % state["seats"], ctx)


# ------------------------------------------------------------------------------------------ disputes
def _dispute(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """A player disputes a judge-assisted step while the window is open («непосредственно в процессе»)."""
    _refuse_unless_offered(state, seat, action)
    w = state["window"]
    w["vote"] = {"entry": action["entry"], "by": seat, "uphold": [seat], "reject": []}
    w["queue"][action["entry"]]["disputed"] = True
    ctx.emit("disputed", seat=seat, card=w["queue"][action["entry"]]["card"],
             author=w["queue"][action["entry"]]["seat"], rule=R_DISPUTE)
    _count_votes(state, ctx)


def _vote(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    _refuse_unless_offered(state, seat, action)
    v = state["window"]["vote"]
    v["uphold" if action["uphold"] else "reject"].append(seat)
    ctx.emit("voted", seat=seat, uphold=action["uphold"])
    _count_votes(state, ctx)


def _count_votes(state: dict[str, Any], ctx: Ctx) -> None:
    """Upheld by a majority of the voters; a tie leaves the step standing (RD-16).  Settled once the outcome is
    certain, so nobody is asked a vote that cannot change it."""
    w = state["window"]
    v = w["vote"]
    total = len(voters(state, v))
    need = total // 2 + 1
    if len(v["uphold"]) < need and total - len(v["reject"]) >= need:
        return
    upheld = len(v["uphold"]) >= need
    entry = w["queue"][v["entry"]]
    ctx.emit("dispute_settled", upheld=upheld, mode=state["options"]["disputes"], card=entry["card"],
             author=entry["seat"], rule=R_DISPUTE)
    _settle(state, v["entry"], upheld, ctx)


def _settle(state: dict[str, Any], index: int, upheld: bool, ctx: Ctx) -> None:
    """The step at ``index`` of the queue, disputed, is settled; an upheld one is undone in the table's mode."""
    w = state["window"]
    entry = w["queue"][index]
    if w["vote"] is not None and w["vote"]["entry"] == index:
        w["vote"] = None
    _asked_again(w, ctx)
    if not upheld:
        return
    entry["effects"] = []
    if state["options"]["disputes"] == "rollback":  # «Ход откатывается назад, карты возвращаются игрокам в руку»
        for card in [entry["card"], *entry["discarded"]]:
            state["discard"].remove(card)
            state["players"][entry["seat"]]["hand"].append(card)
        w["queue"].pop(index)
        if w["vote"] is not None and w["vote"]["entry"] > index:
            w["vote"]["entry"] -= 1


# ------------------------------------------------------------------------------------------ a moderator
def upholding(state: dict[str, Any], disputed: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """A moderator upholds a dispute about a judge-assisted step still waiting in the window (RD-16, issue 13):
    the step is settled in the table's dispute mode, as an upheld vote would settle it.  ``disputed``: the public
    events of the disputed move (the card's play or its stated outcome)."""
    w = state["window"]
    if w is None or w["owe"]:
        return None
    cards = {e["data"].get("card") for e in disputed if e["kind"] in ("shnyaga", "stated") and e.get("to") is None}
    for i, entry in enumerate(w["queue"]):
        if entry["card"] in cards and upholding_entry(w, i):
            return upholding_entry(w, i)
    return None


def upholding_entry(w: dict[str, Any], index: object) -> dict[str, Any] | None:
    """The moderator's step upholding a dispute about the queue's entry ``index``: only a judge-assisted step
    whose outcome was stated and still stands."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(w["queue"]):
        return None
    entry = w["queue"][index]
    return {"type": "uphold", "entry": index} if entry["manual"] and entry["effects"] else None


def moderate(state: dict[str, Any], action: dict[str, Any], ctx: Ctx) -> None:
    """Apply what ``upholding`` offered, checked again (a record read from a file may hold anything)."""
    w = state["window"]
    index = action.get("entry")
    # an entry upholding_entry offers is a whole number, which lets the type checker see it
    if not isinstance(index, int) or action != {"type": "uphold", "entry": index} or w is None or w["owe"] \
            or {"type": "uphold", "entry": index} != upholding_entry(w, index):
        raise Reject("raiders.reject.no_dispute", rule="RD-16")
    entry = w["queue"][index]
    entry["disputed"] = True
    ctx.emit("moderator_upheld", mode=state["options"]["disputes"], card=entry["card"], author=entry["seat"],
             ruling="RD-16")
    _settle(state, index, True, ctx)


# ------------------------------------------------------------------------------------------ the end
def check_win(state: dict[str, Any], ctx: Ctx) -> None:
    """«Как только вы захватили собственность на 36 и более бабок, вы выиграли»: checked whenever the
    window closes.  Several at once: the most бабки, then the nearest in turn order from the active player
    (RD-13)."""
    over = [side for side in sides(state) if side_total(state, side) >= state["target"]]
    if not over:
        return
    order = turn_order_from(state, active(state))
    over.sort(key=lambda side: (-side_total(state, side), min(order.index(s) for s in side)))
    winners = over[0]
    scores = {str(s): babki(state, s) for s in range(state["seats"])}
    state["outcome"] = {"winners": list(winners), "reason": "raiders.outcome.target",
                        "params": {"babki": side_total(state, winners), "target": state["target"]},
                        "scores": scores}
    state["window"] = None
    ctx.emit("won", winners=list(winners), babki=side_total(state, winners), target=state["target"], rule="Собственность")


def timeout(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """The answer clock ran out: a silent player passes, a silent voter leaves the step standing (RD-17)."""
    w = state["window"]
    if w["vote"]:
        _vote(state, seat, {"type": "vote", "uphold": False}, ctx)
    else:
        _pass(state, seat, {"type": "pass"}, ctx)


_HANDLERS = {"capture": _capture, "shnyaga": _shnyaga, "end": _end, "pass": _pass, "discard": _discard,
             "state": _state, "dispute": _dispute, "vote": _vote}
