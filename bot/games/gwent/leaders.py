"""Leader cards: which a seat may activate now, how, and what each does (forum versions, both variants),
including the HardGwent White Flame that undoes the opponent's leader of the previous turn."""
from __future__ import annotations

from typing import Any, cast

from bot.engine import Ctx

from .cards import ROWS
from .leaders_passive import blocked_by_white_flame, leader_rule
from .rules import (
    horn_free, leader_weather, push, revive_candidates, row_scorch, rules, scorch,
)
from .state import card, move, open_cause, opp, owner, relocate, set_flag, undo_ops, zone_of

LEADER_WEATHER = ("rain", "fog", "frost", "clear")


def usable_leaders(state: dict[str, Any], seat: int) -> list[str]:
    """Standard: the one leader, once a game, unless cancelled by the White Flame (a passive one only idle).
    HardGwent: one per round, three per game, never the same twice, none in a round blocked by the White
    Flame."""
    player = state["players"][seat]
    used = player["leaders_used"]
    if state["variant"] == "standard":
        lid = player["leaders"][0]
        return [] if blocked_by_white_flame(state, seat) or lid in used else [lid]
    if state["round_fx"]["blocked"][seat] or player["leader_round"] or len(used) >= rules(state)["leaders_per_game"]:
        return []
    return [lid for lid in player["leaders"] if lid not in used]


def why_unusable(state: dict[str, Any], seat: int, lid: str) -> tuple[str, str]:
    """The i18n key and rule of the reason a leader of ``seat`` cannot be activated now."""
    player = state["players"][seat]
    if state["variant"] == "standard":
        if blocked_by_white_flame(state, seat):
            return "gwent.reject.leader_blocked", "§7"
        return "gwent.reject.leader_used", "§7"
    if lid in player["leaders_used"]:
        return "gwent.reject.leader_used", "§8"
    if state["round_fx"]["blocked"][seat]:
        return "gwent.reject.leader_blocked_round", "§7"
    if player["leader_round"]:
        return "gwent.reject.leader_this_round", "§8"
    return "gwent.reject.leader_three", "§8"


def leader_specs(state: dict[str, Any], seat: int, lid: str) -> list[dict[str, Any]]:
    """The ways to activate a leader; every leader may also be used idle (rule book, leader principle 4), a
    passive one only idle: it works by itself, and its one use is a legal skip of the turn."""
    rule = leader_rule(state, lid)
    ability = rule["ability"]
    if rule.get("passive"):
        specs = []
    elif ability == "weather" and rule["kind"] == "choice":
        specs = [{"weather": k} for k in LEADER_WEATHER]
    elif ability == "weaken_horn":
        specs = [{"row": r} for r in ROWS]
    elif ability == "horn_any_row":
        specs = [{"row": r} for r in ROWS if horn_free(state, seat, r)]
    elif ability == "discards_to_decks" and rule.get("pile_choice"):
        specs = [{"pile": p} for p in ("both", "own", "enemy")]
    else:
        specs = [{}]
    return specs + [{"idle": True}]


def activate(state: dict[str, Any], seat: int, lid: str, spec: dict[str, Any], ctx: Ctx) -> None:
    player = state["players"][seat]
    player["leaders_used"].append(lid)
    player["leader_round"] = True
    open_cause(state, "leader", leader=lid, seat=seat)
    rule = leader_rule(state, lid)
    ability, enemy = rule["ability"], opp(seat)
    on_enemy_row = ability == "weaken_horn" and not spec.get("idle")  # the Treacherous lies on his row
    side: dict[str, Any] = {"side": enemy} if on_enemy_row else {}
    ctx.emit("leader", seat=seat, leader=lid, **spec, **side)
    if spec.get("idle"):
        return
    if ability == "weather":
        leader_weather(state, seat, spec.get("weather") or rule["kind"], ctx)
    elif ability == "reveal_hand":
        reveal_hand(state, seat, rule["count"], ctx)
    elif ability == "white_flame":
        white_flame(state, seat, ctx)
    elif ability == "take_from_discard":
        pile = rule["pile"]
        if revive_candidates(state, seat, [pile], heroes=False):
            push(state, "take", seat, pile=pile)
            mode = empty_hand_take(state, seat) if pile == "enemy" else None
            if mode == "autopass":
                state["turn"]["taken_waits"] = True
            elif mode == "play_pass":
                state["turn"]["taken_then_pass"] = True
    elif ability == "leader_horn":
        slot = state["slots"][seat][rule["row"]]
        if state["variant"] == "standard" and slot["horn"] is not None:
            ctx.emit("horn_replaced", seat=seat, row=rule["row"], rule="§7")
            move(state, slot["horn"], ["discard", seat])
        set_flag(state, ["slots", seat, rule["row"], "leader_horn"], True)
    elif ability == "row_scorch":
        row_scorch(state, enemy, rule["row"], ctx, cap=rules(state).get("row_scorch_cap_leader"))
    elif ability == "enemy_scorch":
        scorch(state, [enemy], ROWS, ctx, cap=None)
    elif ability == "draw":
        state["draws_due"].append({"seat": seat, "n": rule["count"], "cause": state["journal"]["at"]})
    elif ability == "agile_moves":
        set_flag(state, ["round_fx", "hope", seat], True)
    elif ability == "exchange_for_deck_card":
        if len(state["hand"][seat]) >= rule["discard"] and state["deck"][seat] + state["aside"][seat]:
            push(state, "discard", seat, left=rule["discard"])
        else:
            ctx.emit("leader_no_effect", seat=seat, leader=lid, rule="GW-20")
    elif ability == "revive":
        if revive_candidates(state, seat, rule["piles"], heroes=rule.get("heroes", False)):
            push(state, "revive", seat, piles=rule["piles"], heroes=rule.get("heroes", False), to="field",
                 source="leader")
    elif ability == "weaken_horn":
        set_flag(state, ["weak_horn", enemy], state["weak_horn"][enemy] + [spec["row"]])
    elif ability == "discards_to_decks":
        pile = spec.get("pile", "both")
        sides = {"both": [0, 1], "own": [seat], "enemy": [enemy]}[pile]
        discards_to_decks(state, sides, rule.get("no_summon", False), ctx)
    elif ability == "horn_any_row":
        set_flag(state, ["slots", seat, spec["row"], "horn_crach"], True)
    elif ability == "half_weather":
        set_flag(state, ["round_fx", "bran", seat], True)


def empty_hand_take(state: dict[str, Any], seat: int) -> str | None:
    """§8 note 3 a): the Invader of the North opening a double move with an empty hand.  The table's reading
    (option ``empty_hand_take``, GW-27): ``autopass`` — a lone card, the card it takes waits for the next round;
    ``play_pass`` — the card taken is played as the turn's second, then the automatic pass (a spy's cards arrive
    after the turn and wait for the next round); ``play`` — the general rule, no pass.  None: not that case."""
    turn = state["turn"]
    if state["hand"][seat] or turn is None or turn["need"] != 2 or turn["played"] != 0:
        return None
    return cast("str | None", state["options"]["empty_hand_take"])


def reveal_hand(state: dict[str, Any], seat: int, count: int, ctx: Ctx) -> None:
    """Emperor of Nilfgaard: the opponent shows ``count`` cards of his choice (forum) or at random (option);
    with that many cards or fewer the judge shows them all.  They are named in the game thread (§7), or,
    with the option ``emperor_shown_to: owner``, to the two players only (GW-24)."""
    enemy = opp(seat)
    hand = list(state["hand"][enemy])
    if len(hand) <= count or state["options"]["emperor_reveal"] == "random":
        if len(hand) > count:
            ctx.rng.shuffle(hand, "gwent.reveal")
            ctx.emit("shuffled", to=(), seat=enemy, order=[state["cards"][u]["id"] for u in hand])
        for uid in hand[:count]:
            reveal(state, seat, uid, ctx)
    else:
        push(state, "reveal", enemy, viewer=seat, left=count)


def reveal(state: dict[str, Any], viewer: int, uid: str, ctx: Ctx) -> None:
    state["revealed"][viewer].append(uid)
    to = None if state["options"]["emperor_shown_to"] == "thread" else (viewer, opp(viewer))
    ctx.emit("revealed", to=to, seat=opp(viewer), card=state["cards"][uid]["id"], rule="§7")


def discards_to_decks(state: dict[str, Any], sides: list[int], no_summon: bool, ctx: Ctx) -> None:
    """Crach an Craite / Helheim: discard piles go back into their owners' decks, which are reshuffled.  The
    faction card stays in the discard pile (rule book: it never comes back, ruling GW-15)."""
    touched = set()
    for side in sides:
        for uid in list(state["discard"][side]):
            if card(state, uid).effect == "faction_card":
                continue
            move(state, uid, ["deck", owner(state, uid)])
            touched.add(owner(state, uid))
            if no_summon:
                set_flag(state, ["no_summon"], state["no_summon"] + [uid])
    ctx.emit("discards_returned", sides=sides, rule="§7")
    for s in sorted(touched):
        reshuffle(state, s, ctx)


def reshuffle(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    order = list(state["deck"][seat])
    ctx.rng.shuffle(order, f"gwent.reshuffle.{seat}")
    state["deck"][seat] = order
    ctx.emit("shuffled", to=(), seat=seat, order=[state["cards"][u]["id"] for u in order])


def white_flame(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """HardGwent: right after an opponent's turn with a leader, that leader's effect is undone (other cards of
    that turn keep their effects; Eredin's chosen card is taken away with all it did).  Otherwise the opponent
    may use no leader for the rest of the round (§7 White Flame, §8 double-move notes 1-2)."""
    enemy = opp(seat)
    last = state["journal"]["last"]
    causes = last["causes"] if last and last["seat"] == enemy else []
    leader_causes = [c for c in causes if c["kind"] == "leader"]
    if not leader_causes:
        set_flag(state, ["round_fx", "blocked", enemy], True)
        ctx.emit("leaders_blocked", seat=enemy, rule="§7")
        return
    cause = leader_causes[0]
    chosen = cause.get("chosen")
    changes = []
    if chosen:
        for other in causes:
            if other["kind"] == "card" and other.get("card") == chosen:
                changes += undo_ops(state, other["ops"])
        zone = zone_of(state, chosen)
        if zone != ["deck", enemy]:
            relocate(state, chosen, ["deck", enemy])
            changes.append({"uid": chosen, "card": state["cards"][chosen]["id"], "left": zone[0], "to": "deck"})
    changes += undo_ops(state, cause["ops"])
    ctx.emit("leader_cancelled", seat=enemy, leader=cause["leader"], rule="§8")
    announce_undone(state, enemy, changes, ctx)


#: where a card undone by the White Flame goes, as the announcement groups it
_PLACE = {"row": "field", "horn": "field", "mardroeme": "field", "weather": "field", "discard": "discard",
          "hand": "hand", "deck": "deck", "aside": "deck", "cand": "deck"}


def announce_undone(state: dict[str, Any], enemy: int, changes: list[dict[str, Any]], ctx: Ctx) -> None:
    """Name every card the White Flame brought back or took away (§9: the judge notes every change of the
    field before the next turn).  A card going from the hand back to the deck (a draw undone, Eredin's secret
    pick) is named to its owner only; the others were seen where they were."""
    first: dict[str, dict[str, Any]] = {}
    for ch in changes:  # a card moved twice (the chosen card played, then taken back) counts once
        if "uid" in ch:
            first.setdefault(ch["uid"], {**ch}).update(to=ch["to"])
    groups: dict[str, list[str]] = {}
    for ch in [*first.values(), *(c for c in changes if "uid" not in c)]:
        if "token" in ch:
            groups.setdefault("gone" if ch["gone"] else "field", []).append(ch["token"])
        elif "weather" in ch:
            groups.setdefault("weather_gone" if ch["gone"] else "weather_back", []).append(ch["weather"])
        elif ch["left"] != ch["to"]:
            place = _PLACE[ch["to"]]
            secret = place == "deck" and ch["left"] == "hand"
            groups.setdefault("deck_hidden" if secret else place, []).append(ch["card"])
    for where, items in groups.items():
        items.reverse()  # undone newest first: named in the order they had moved
        if where == "deck_hidden":
            ctx.emit("cancel_returned", to=(enemy,), seat=enemy, cards=items)
            ctx.emit("cancel_moved", seat=enemy, where=where, n=len(items))
        elif where.startswith("weather"):
            ctx.emit("cancel_moved", seat=enemy, where=where, weathers=items, n=len(items))
        else:
            ctx.emit("cancel_moved", seat=enemy, where=where, cards=items, n=len(items))
    if "deck" in groups or "deck_hidden" in groups:
        reshuffle(state, enemy, ctx)
