"""Before the first turn: each seat's faction, leader and deck (set-up phase), the deal from the shuffled
deck (the judge's pre-drawn random sample), and the mulligan in its two forms:

- exchange (the forum's procedure): the judge puts the next 2 (HardGwent: 6) cards of the sample in the
  player's exchange list; the player swaps hand cards for them one pair at a time; given cards and unchosen
  candidates leave the sample (they stay in the deck, set aside);
- redraw (the video game's): a returned card is shuffled back and a random card replaces it.
"""
from __future__ import annotations

from typing import Any, Mapping, cast

from bot.engine import Code, Ctx, Reject

from .cards import FACTIONS, catalogue, deck_problem
from .flow import start_round
from .leaders_passive import passive
from .rules import distinct, draw, rules
from .state import move


def faction_option(state: dict[str, Any], seat: int) -> str:
    return cast("str", state["options"]["faction_a" if seat == 0 else "faction_b"])


def begin(state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
    stacked = stack.get("decks")
    for seat in (0, 1):
        choice = faction_option(state, seat)
        faction = None
        if choice == "random":
            faction = ctx.rng.choice(list(FACTIONS), f"gwent.faction.{seat}")
            ctx.emit("faction_lot", to=(), seat=seat, faction=faction)
        elif choice != "choose":
            faction = choice
        state["setup"].append({"step": None, "faction": faction, "leader": None, "deck": {}})
        advance_setup(state, seat)
    if stacked is not None:
        if isinstance(stacked, dict):  # YAML writes the seats as numbers: {0: [...]} means {"0": [...]}
            stacked = {str(k): v for k, v in stacked.items()}
        _check_stacked(state, stacked)
        state["stacked"] = stacked
    if all(s["step"] == "ready" for s in state["setup"]):
        deal(state, ctx)


def _check_stacked(state: dict[str, Any], stacked: Any) -> None:
    """A stacked deck must be a permutation of the seat's real deck, known at set-up time (ruling GW-17)."""
    if not isinstance(stacked, dict) or set(stacked) - {"0", "1"}:
        raise Reject("gwent.reject.bad_stack", code=Code.BAD_SETUP)
    for key, order in stacked.items():
        st = state["setup"][int(key)]
        # The leader is still to be picked in standard, but a fixed faction's ready deck is already known.
        preset = state["variant"] == "standard" and state["options"]["deck"] == "preset" and st["faction"]
        if st["step"] != "ready" and not preset:
            raise Reject("gwent.reject.stack_needs_fixed_deck", code=Code.BAD_SETUP)
        deck = dict(catalogue().presets[st["faction"]]["cards"]) if preset else deck_list(state, int(key))
        # The top of the deck, or all of it: the listed cards must all be in the deck (GW-17).
        if not isinstance(order, list) or not order:
            raise Reject("gwent.reject.bad_stack", code=Code.BAD_SETUP)
        extra = next((str(c)[:40] for c in order if order.count(c) > deck.get(str(c), 0)), None)
        if extra is not None:
            raise Reject("gwent.reject.stack_not_in_deck", code=Code.BAD_SETUP, seat=int(key) + 1, card=extra,
                         n=deck.get(extra, 0))


def advance_setup(state: dict[str, Any], seat: int) -> None:
    st = state["setup"][seat]
    if st["faction"] is None:
        st["step"] = "faction"
    elif state["variant"] == "hardgwent":
        st["step"] = "ready"
    elif st["leader"] is None:
        st["step"] = "leader"
    elif state["options"]["deck"] == "preset":
        st["deck"] = dict(catalogue().presets[st["faction"]]["cards"])
        st["step"] = "ready"
    elif st["step"] != "ready":
        st["step"] = "deck"


def deck_list(state: dict[str, Any], seat: int) -> dict[str, int]:
    st = state["setup"][seat]
    if state["variant"] == "hardgwent":
        return catalogue().deck_pool(st["faction"], state["options"])
    return cast("dict[str, int]", st["deck"])


# ------------------------------------------------------------------------------------------ set-up actions
def setup_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    st = state["setup"][seat]
    cat = catalogue()
    if st["step"] == "faction":
        return [{"type": "faction", "faction": f} for f in FACTIONS]
    if st["step"] == "leader":
        return [{"type": "leader_pick", "leader": lid} for lid in cat.leaders_of(st["faction"], "standard")]
    if st["step"] == "deck":
        pool = cat.deck_pool(st["faction"], state["options"])
        actions = [{"type": "deck_done"}] if not deck_problem(cat, st["faction"], st["deck"], "standard",
                                                              state["options"]) else []
        actions.append({"type": "deck_preset"})
        actions += [{"type": "deck_add", "card": cid} for cid, n in pool.items() if st["deck"].get(cid, 0) < n]
        actions += [{"type": "deck_remove", "card": cid} for cid in st["deck"]]
        return actions
    return []


def apply_setup(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    st = state["setup"][seat]
    kind = action["type"]
    cat = catalogue()
    wanted = {"faction": "faction", "leader_pick": "leader"}.get(kind, "deck")
    if st["step"] != wanted:
        # Name the step this seat is at (faction, leader, deck, or ready and waiting for the opponent).
        raise Reject(f"gwent.reject.setup_{st['step']}_first", rule="§9")
    if kind == "faction":
        if action.get("faction") not in FACTIONS:
            raise Reject("gwent.reject.bad_faction", code=Code.MALFORMED)
        st["faction"] = action["faction"]
    elif kind == "leader_pick":
        if action.get("leader") not in cat.leaders_of(st["faction"], "standard"):
            raise Reject("gwent.reject.bad_leader", rule="§7")
        st["leader"] = action["leader"]
    elif kind == "deck_preset":
        st["deck"] = dict(cat.presets[st["faction"]]["cards"])
    elif kind in ("deck_add", "deck_remove"):
        cid = action.get("card")
        pool = cat.deck_pool(st["faction"], state["options"])
        if not isinstance(cid, str) or cid not in pool:
            raise Reject("gwent.reject.not_in_pool", rule="GW-1", card=str(cid)[:40])
        have = st["deck"].get(cid, 0)
        if kind == "deck_add":
            if have >= pool[cid]:
                raise Reject("gwent.reject.too_many_copies", rule="GW-1", card=cid, n=pool[cid])
            st["deck"][cid] = have + 1
        else:
            if not have:
                raise Reject("gwent.reject.not_in_deck", card=cid)
            st["deck"][cid] = have - 1
            if not st["deck"][cid]:
                del st["deck"][cid]
    elif kind == "deck_done":
        problem = deck_problem(cat, st["faction"], st["deck"], "standard", state["options"])
        if problem:
            raise Reject(problem[0], rule="§9", **problem[1])
        st["step"] = "ready"
    else:
        raise Reject("gwent.reject.unknown_action", code=Code.MALFORMED, type=kind[:30])
    # Only the validated fields go into the record: anything else a client sends is not the table's business.
    field = {"faction": "faction", "leader_pick": "leader", "deck_add": "card", "deck_remove": "card"}.get(kind)
    ctx.emit("setup_step", to=(seat,), seat=seat, step=kind, **({field: action[field]} if field else {}))
    advance_setup(state, seat)
    if st["step"] == "ready":
        ctx.emit("setup_ready", seat=seat)
    if all(s["step"] == "ready" for s in state["setup"]):
        deal(state, ctx)


# ------------------------------------------------------------------------------------------ the deal
def deal(state: dict[str, Any], ctx: Ctx) -> None:
    cat = catalogue()
    for seat, st in enumerate(state["setup"]):
        player = state["players"][seat]
        player["faction"] = st["faction"]
        player["leaders"] = [st["leader"]] if state["variant"] == "standard" else cat.leaders_of(st["faction"], "hardgwent")
    ctx.emit("factions", factions=[p["faction"] for p in state["players"]],
             leaders=[p["leaders"] for p in state["players"]])
    n = 0
    order_of = {cid: i for i, cid in enumerate(cat.cards)}
    for seat in (0, 1):
        uids = []
        for cid, copies in sorted(deck_list(state, seat).items(), key=lambda kv: order_of[kv[0]]):
            for _ in range(copies):
                uid = f"c{n}"
                n += 1
                state["cards"][uid] = {"id": cid, "owner": seat}
                uids.append(uid)
        stacked = (state.get("stacked") or {}).get(str(seat))
        if stacked:
            free = list(uids)
            order = []
            for cid in stacked:
                uid = next(u for u in free if state["cards"][u]["id"] == cid)
                free.remove(uid)
                order.append(uid)
            if free:  # only the top was stacked: the rest follows in a seeded shuffle
                ctx.rng.shuffle(free, f"gwent.deck.{seat}")
                order += free
        else:
            order = list(uids)
            ctx.rng.shuffle(order, f"gwent.deck.{seat}")
        state["deck"][seat] = order
        ctx.emit("shuffled", to=(), seat=seat, order=[state["cards"][u]["id"] for u in order])
    state.pop("stacked", None)
    for seat in (0, 1):
        size = rules(state)["hand"] + (1 if passive(state, seat, "extra_card") else 0)
        hand = state["deck"][seat][:size]
        for uid in hand:
            move(state, uid, ["hand", seat])
        ctx.emit("dealt", to=(seat,), seat=seat, cards=[state["cards"][u]["id"] for u in hand])
        ctx.emit("dealt_count", seat=seat, n=len(hand))
        left = rules(state)["mulligans"]
        state["mull"][seat] = {"left": left, "give": None, "done": False}
        if state["options"]["mulligan"] == "exchange":
            for uid in state["deck"][seat][:left]:
                move(state, uid, ["cand", seat])
            ctx.emit("candidates", to=(seat,), seat=seat, cards=[state["cards"][u]["id"] for u in state["cand"][seat]])
    state["phase"] = "mulligan"


# ------------------------------------------------------------------------------------------ mulligan
def mulligan_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    m = state["mull"][seat]
    if m["done"]:
        return []
    if m["give"] is not None:
        return [{"type": "mulligan_take", "card": u} for u in distinct(state, state["cand"][seat])]
    actions = [{"type": "mulligan_done"}]
    kind = "mulligan_give" if state["options"]["mulligan"] == "exchange" else "mulligan_redraw"
    actions += [{"type": kind, "card": u} for u in distinct(state, state["hand"][seat])]
    return actions


def apply_mulligan(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    m = state["mull"][seat]
    kind = action["type"]
    exchange = state["options"]["mulligan"] == "exchange"
    uid: Any = action.get("card")  # checked against the hand or the candidates before it is moved
    if m["done"]:
        raise Reject("gwent.reject.mulligan_over", rule="§9")
    if kind == "mulligan_done":
        finish_mulligan(state, seat, ctx)
        return
    if kind == ("mulligan_give" if exchange else "mulligan_redraw"):
        if m["give"] is not None:
            raise Reject("gwent.reject.take_first", rule="§9")
        if uid not in state["hand"][seat]:
            raise Reject("gwent.reject.not_in_hand", rule="§9")
        if exchange:
            m["give"] = uid
            return
        move(state, uid, ["deck", seat])
        order = list(state["deck"][seat])
        ctx.rng.shuffle(order, f"gwent.mulligan.{seat}")
        state["deck"][seat] = order
        ctx.emit("shuffled", to=(), seat=seat, order=[state["cards"][u]["id"] for u in order])
        got = draw(state, seat, 1, ctx)
        ctx.emit("mulligan_swap", to=(seat,), seat=seat, gave=state["cards"][uid]["id"],
                 took=state["cards"][got[0]]["id"])
    elif kind == "mulligan_take" and exchange:
        if m["give"] is None:
            raise Reject("gwent.reject.give_first", rule="§9")
        if uid not in state["cand"][seat]:
            raise Reject("gwent.reject.not_a_candidate", rule="§9")
        given, m["give"] = m["give"], None
        move(state, given, ["aside", seat])
        move(state, uid, ["hand", seat])
        ctx.emit("mulligan_swap", to=(seat,), seat=seat, gave=state["cards"][given]["id"],
                 took=state["cards"][uid]["id"])
    else:
        raise Reject("gwent.reject.wrong_mulligan", rule="GW-5")
    m["left"] -= 1
    if m["left"] <= 0 or (exchange and not state["cand"][seat]):
        finish_mulligan(state, seat, ctx)


def finish_mulligan(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    m = state["mull"][seat]
    for uid in list(state["cand"][seat]):
        move(state, uid, ["aside", seat])
    m["done"], m["give"] = True, None
    ctx.emit("mulligan_done", seat=seat)
    if all(x["done"] for x in state["mull"]):
        state["round"] = 1
        start_round(state, ctx, [])
