"""What every card does once it is played (the checks of rules.py have passed)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import Ctx

from .cards import kind, rule
from .flow import flip_phase, open_step, proceed, start_draws
from .rules import attack_has_effect, counter_window_opens, is_attack
from .state import State, back, fresh_curse, give, hand_backs, take, to_discard


def play(state: State, ctx: Ctx, seat: int, cid: str, target: int | None) -> None:
    take(state, seat, cid)
    ctx.emit("play", seat=seat, card=cid, target=target)
    if is_attack(cid):
        assert target is not None  # every attack names its target (rules.py checked it)
        state["in_flight"] = {"card": cid, "player": seat, "target": target}
        if counter_window_opens(state, target):
            # Always asked, whatever the hand holds, so the window tells nobody anything (BW-17).
            open_step(state, ctx, "counter", seat=target)
            ctx.emit("counter_window", seat=target)
        else:
            resolve_attack(state, ctx, seat, target)
        return
    to_discard(state, cid)
    _PLAY[kind(cid)](state, ctx, seat, target)


# ------------------------------------------------------------------------------------------ night attacks
def answer_attack(state: State, ctx: Ctx, seat: int, counter: str | None) -> None:
    """The target's answer in the counter window: None (let it resolve), "mirror" or "amulet"."""
    flight = state["in_flight"]
    attacker = flight["player"]
    if counter is None:
        ctx.emit("no_counter", seat=seat)
        resolve_attack(state, ctx, attacker, seat)
        return
    take(state, seat, counter)
    to_discard(state, counter)
    ctx.emit("countered", seat=seat, card=counter, attacker=attacker, attack=flight["card"])
    if counter == "amulet":
        # Both cards go to the discard and the attacker's turn is over; nobody draws (§7.8).
        to_discard(state, flight["card"])
        state["in_flight"] = None
        proceed(state, ctx, "end")
        return
    # Mirror: the card turns on the attacker, who cannot answer it; nobody draws (§6.8, BW-18).
    if state["options"]["mirror"] == "reverse":
        resolve_attack(state, ctx, seat, attacker, then="end")
    else:
        resolve_attack(state, ctx, attacker, attacker, then="end")


def resolve_attack(state: State, ctx: Ctx, player: int, target: int, then: str = "refill") -> None:
    """The card in flight takes effect, ``player`` acting on ``target`` (the same seat when a Mirror
    turned it on its own player)."""
    cid = state["in_flight"]["card"]
    state["in_flight"] = None
    what = kind(cid)
    if not attack_has_effect(state, what, target) or (what == "voodoo" and player == target):
        to_discard(state, cid)
        ctx.emit("no_effect", card=cid, seat=target, rule="BW-18")
        proceed(state, ctx, then)
        return
    if what == "bite":
        to_discard(state, cid)
        bite(state, ctx, player, target)
    elif what == "curse_mark":
        state["curse"][target] = fresh_curse(state)
        ctx.emit("cursed", seat=target, left=state["curse"][target]["left"])
    elif what == "chains":
        state["chains"][target] = True
        ctx.emit("chained", seat=target)
    elif what == "tranquilizer":
        state["sleep"][target] = True
        ctx.emit("tranquilized", seat=target)
    elif what == "voodoo":
        to_discard(state, cid)
        voodoo(state, ctx, player, target)
        return  # Nobody draws after Voodoo (§6.5): the keep step ends the turn.
    proceed(state, ctx, then)


def bite(state: State, ctx: Ctx, biter: int, bitten: int) -> None:
    """Toggle the bitten player's DNA; a Curse Mark on either passes to the other, who gets a fresh two
    turns (§6.1, §6.2).  Two carriers swap marks (BW-13); a mark never passes to a player mutated forever."""
    state["dna"][bitten] = "pure" if state["dna"][bitten] == "mutated" else "mutated"
    ctx.emit("bitten", seat=bitten, dna=state["dna"][bitten])
    if biter == bitten:
        return
    carried = {s: state["curse"][s] is not None for s in (biter, bitten)}
    moves = [(s, o) for s, o in ((biter, bitten), (bitten, biter))
             if carried[s] and state["dna"][o] != "forever"]
    for giver, _ in moves:
        state["curse"][giver] = None
    for giver, receiver in moves:
        state["curse"][receiver] = fresh_curse(state)
        ctx.emit("curse_passed", seat=giver, receiver=receiver, left=state["curse"][receiver]["left"],
                 rule="BW-13" if len(moves) == 2 else "§6.2")


def voodoo(state: State, ctx: Ctx, player: int, target: int) -> None:
    """The target hands over its whole hand; the player keeps up to 4 of all the cards and gives the rest
    back (§6.5)."""
    received = state["hands"][target]
    state["hands"][target] = []
    for cid in received:
        give(state, player, cid)
    ctx.emit("voodoo_taken", seat=player, target=target, count=len(received))
    ctx.emit("cards_seen", to=[player], seat=player, target=target, cards=sorted(received))
    open_step(state, ctx, "keep", seat=player, source="voodoo", target=target, kept=[])


# ------------------------------------------------------------------------------------------ other cards
def _vaccine(state: State, ctx: Ctx, seat: int, target: int) -> None:
    state["dna"][target] = "pure"
    ctx.emit("vaccinated", seat=target)
    proceed(state, ctx, "refill")


def _candle(state: State, ctx: Ctx, seat: int, target: int) -> None:
    state["curse"][target] = None
    to_discard(state, "curse_mark")
    ctx.emit("curse_lifted", seat=target)
    proceed(state, ctx, "refill")


def _keys(state: State, ctx: Ctx, seat: int, target: int) -> None:
    state["chains"][target] = False
    to_discard(state, "chains")
    ctx.emit("unchained", seat=target)
    proceed(state, ctx, "refill")


def _pandora(state: State, ctx: Ctx, seat: int, target: int) -> None:
    """The target discards its hand (face up) and draws 4 new cards; on oneself that is the refill (§7.4)."""
    hand = state["hands"][target]
    state["hands"][target] = []
    for cid in hand:
        to_discard(state, cid)
    ctx.emit("hand_discarded", seat=target, cards=hand)
    if target == seat:
        proceed(state, ctx, "refill")
    else:
        start_draws(state, ctx, target, rule("pandora_draws"), then="refill")


def _thief(state: State, ctx: Ctx, seat: int, target: int) -> None:
    backs = [d for d, n in hand_backs(state, target).items() if n]
    if len(backs) > 1:
        open_step(state, ctx, "thief_back", seat=seat, target=target)
    else:
        steal(state, ctx, seat, target, backs[0])


def steal(state: State, ctx: Ctx, seat: int, target: int, deck: str) -> None:
    """A blind draw among the target's cards of the chosen back (§7.5, BW-23); then refill."""
    cards = [c for c in state["hands"][target] if back(c) == deck]
    cid = ctx.rng.choice(cards, "bloodwood.thief")
    take(state, target, cid)
    give(state, seat, cid)
    ctx.emit("stole", seat=seat, target=target, deck=deck)
    ctx.emit("stolen_card", to=[seat, target], seat=seat, target=target, card=cid)
    proceed(state, ctx, "refill")


def _blood_test(state: State, ctx: Ctx, seat: int, target: int) -> None:
    if [seat, target] not in state["known"]:
        state["known"].append([seat, target])
    ctx.emit("blood_tested", seat=seat, target=target)
    ctx.emit("role_seen", to=[seat], seat=seat, subject=target, role=state["roles"][target])
    proceed(state, ctx, "refill")


def _confession(state: State, ctx: Ctx, seat: int, target: int) -> None:
    open_step(state, ctx, "confess", seat=target, player=seat)


def confess(state: State, ctx: Ctx, seat: int, recipient: int) -> None:
    state["confessed"][seat].append(recipient)
    if [recipient, seat] not in state["known"]:
        state["known"].append([recipient, seat])
    ctx.emit("confessed", seat=seat, recipient=recipient)
    ctx.emit("role_seen", to=[recipient], seat=recipient, subject=seat, role=state["roles"][seat])
    proceed(state, ctx, "refill")


def _leshy(state: State, ctx: Ctx, seat: int, target: None) -> None:
    """Every other player discards two cards of its choice (all it has if fewer) (§6.6, BW-22)."""
    owed = [0 if s == seat else min(rule("leshy_discards"), len(state["hands"][s])) for s in range(state["seats"])]
    ctx.emit("leshy_discards", seat=seat, count=rule("leshy_discards"), rule="§6.6")
    if any(owed):
        open_step(state, ctx, "leshy", seat=seat, owed=owed)
    else:
        proceed(state, ctx, "refill")


def _hunter(state: State, ctx: Ctx, seat: int, target: None) -> None:
    """The Hunter's player discards its hand; every other player with cards gives it one (§6.7, BW-21)."""
    hand = state["hands"][seat]
    state["hands"][seat] = []
    for cid in hand:
        to_discard(state, cid)
    ctx.emit("hand_discarded", seat=seat, cards=hand)
    owed = [s != seat and bool(state["hands"][s]) for s in range(state["seats"])]
    ctx.emit("hunter_gives", seat=seat, rule="§6.7")
    if any(owed):
        open_step(state, ctx, "give", seat=seat, owed=owed)
    else:
        proceed(state, ctx, "end")


def hunter_received(state: State, ctx: Ctx) -> None:
    """Every card is in: keep up to 4 (all of them without asking when there are no more than 4)."""
    seat = state["step"]["seat"]
    if len(state["hands"][seat]) <= rule("keep_limit"):
        proceed(state, ctx, "end")
    else:
        open_step(state, ctx, "keep", seat=seat, source="hunter", target=None, kept=[])


def finish_keep(state: State, ctx: Ctx) -> None:
    """Keep the chosen cards; the rest go back to Voodoo's target, or to the discard after The Hunter."""
    step = state["step"]
    seat = step["seat"]
    rest = list(state["hands"][seat])
    for cid in step["kept"]:
        rest.remove(cid)
    state["hands"][seat] = sorted(step["kept"])
    if step["source"] == "voodoo":
        for cid in rest:
            give(state, step["target"], cid)
        backs: dict[str, Any] = {d: sum(back(c) == d for c in rest) for d in ("day", "night")}
        ctx.emit("voodoo_returned", seat=seat, target=step["target"], count=len(rest), **backs)
        ctx.emit("cards_returned", to=[seat, step["target"]], seat=seat, target=step["target"], cards=rest)
    else:
        for cid in rest:
            to_discard(state, cid)
        ctx.emit("hunter_kept", seat=seat, count=len(step["kept"]), discarded=rest)
    proceed(state, ctx, "end")


def _eclipse(state: State, ctx: Ctx, seat: int, target: None) -> None:
    flip_phase(state, ctx)
    _extra_turn(state, ctx, seat, "eclipse")


def _time_loop(state: State, ctx: Ctx, seat: int, target: None) -> None:
    state["direction"] = -state["direction"]
    state["phase_turns"] = 0
    ctx.emit("direction", direction=state["direction"])
    _extra_turn(state, ctx, seat, "time_loop")


def _extra_turn(state: State, ctx: Ctx, seat: int, special: str) -> None:
    """After Eclipse (the phase flips) or Time Loop (the direction reverses) the phase count restarts with
    this player, who draws one card and takes an extra turn (§8, BW-11)."""
    state["turn"]["extra"] = special
    start_draws(state, ctx, seat, rule("special_draws"), then="extra")


#: each card's effect; its last argument is the target, a seat for a targeted card and None for the others
_PLAY: dict[str, Callable[[State, Ctx, int, Any], None]] = {
    "vaccine": _vaccine, "candle": _candle, "keys": _keys, "pandora": _pandora, "thief": _thief,
    "blood_test": _blood_test, "confession": _confession, "leshy": _leshy, "hunter": _hunter,
    "eclipse": _eclipse, "time_loop": _time_loop,
}

