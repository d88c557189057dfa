"""What a seat may do at each stage of a turn, and doing it.

Stages (state["turn"]["stage"]): roll → [choose_combo] → [freeze_own, freeze_enemy | flush | swap] → action
→ [give].  Every action is validated here, including actions that are not in the legal list, and refused
with a specific, localised reason that names the rule or ruling it rests on.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from bot.engine import Code, Ctx, Reject

from . import outcome
from .cards import COLOUR_MARK, COLOURS, STATS, catalogue, rules
from .deck import discard, draw, refill
from .dice import freezable, freezable_for_good, freeze, frozen_colours, matching_combos, roll, thaw, values
from .effects import Moment, Resolution, resolve
from .state import awaited_seat, dice_sum, energy, opponent, player
from .turns import end_turn

SWAP_TAG = "claygod.swap"
SIDES = ("own", "enemy")


# ================================================================================== legal actions
def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if state["outcome"] is not None or seat != awaited_seat(state):
        return []
    return _LEGAL[state["turn"]["stage"]](state, seat)


def _legal_main(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    p, o = player(state, seat), player(state, opponent(seat))
    hand = p["hand"]
    acts: list[dict[str, Any]] = [{"type": "play", "card": c} for c in hand if affordable(state, seat, [c])]
    acts += [{"type": "play_two", "cards": [a, b]} for a in hand for b in hand
             if a != b and affordable(state, seat, [a, b])]
    if table_card_playable(state, seat):
        acts.append({"type": "play_table"})
    acts += [{"type": "discard", "card": c} for c in hand]
    acts += [{"type": "restore_health"}, {"type": "restore_sphere"},
             {"type": "freeze_all", "pay": "health"}, {"type": "freeze_all", "pay": "sphere"}]
    for side, q in (("own", p), ("enemy", o)):
        acts += [{"type": "freeze", "side": side, "colour": c} for c in freezable_for_good(q)]
        acts += [{"type": "thaw", "side": side, "colour": c} for c in frozen_colours(q)]
    if dice_sum(p) > o["last_roll_sum"]:
        acts += [{"type": "attack", "stat": s} for s in STATS]
    return acts


def _legal_freeze_pick(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [{"type": "combo_freeze", "colour": c} for c in freezable(player(state, _freeze_target(state, seat)))]


_LEGAL: dict[str, Callable[[dict[str, Any], int], list[dict[str, Any]]]] = {
    "roll": lambda state, seat: [{"type": "roll"}],
    "choose_combo": lambda state, seat: [{"type": "combo", "combo": c} for c in state["turn"]["combos"]],
    "freeze_own": _legal_freeze_pick,
    "freeze_enemy": _legal_freeze_pick,
    "flush": lambda state, seat: [{"type": "flush_discard", "card": c} for c in player(state, seat)["hand"]]
    + [{"type": "flush_done"}],
    "swap": lambda state, seat: [{"type": "swap_give", "card": c} for c in player(state, seat)["hand"]],
    "action": _legal_main,
    "give": lambda state, seat: [{"type": "give", "card": c} for c in player(state, seat)["hand"]],
}


def affordable(state: dict[str, Any], seat: int, cards: list[str]) -> bool:
    return _shortfall(state, seat, cards) is None


def _shortfall(state: dict[str, Any], seat: int, cards: list[str]) -> tuple[str, int, int] | None:
    """The first colour the dice do not cover (colour, needed, rolled), or None (rule 3.1, rule 4)."""
    if state["turn"]["free_cast"]:
        return None
    p = player(state, seat)
    for colour in COLOURS:
        need = sum(catalogue().card(c).cost_of(colour) for c in cards)
        if need > energy(p, colour):
            return colour, need, energy(p, colour)
    return None


def table_card_playable(state: dict[str, Any], seat: int) -> bool:
    p = player(state, seat)
    return p["table_card"] is not None and (state["turn"]["free_cast"] or _low_energy(p) is None)


def _low_energy(p: dict[str, Any]) -> str | None:
    return next((c for c in COLOURS if energy(p, c) < rules()["table_card_energy"]), None)


# ================================================================================== applying
def apply_action(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    kind = action["type"]
    if kind not in _HANDLERS:
        raise Reject("claygod.reject.unknown_action", code=Code.MALFORMED, type=kind[:40])
    handler, stages = _HANDLERS[kind]
    stage = state["turn"]["stage"]
    if stage not in stages:
        raise Reject(f"claygod.reject.stage.{stage}")
    handler(state, seat, action, ctx)


# ---------------------------------------------------------------------------------- field checks
def _field(action: dict[str, Any], name: str, allowed: tuple[str, ...]) -> str:
    value = action.get(name)
    if value not in allowed:
        raise Reject("claygod.reject.bad_field", code=Code.MALFORMED, field=name, allowed=", ".join(allowed))
    return cast("str", value)


def _known_card(value: Any) -> str:
    if not isinstance(value, str) or value not in catalogue().cards:
        raise Reject("claygod.reject.unknown_card", code=Code.MALFORMED, card=str(value)[:40])
    return value


def _hand_card(state: dict[str, Any], seat: int, value: Any) -> str:
    card = _known_card(value)
    if card not in player(state, seat)["hand"]:
        raise Reject("claygod.reject.not_in_hand")
    return card


def _require_energy(state: dict[str, Any], seat: int, cards: list[str]) -> None:
    short = _shortfall(state, seat, cards)
    if short:
        colour, need, have = short
        key = "claygod.reject.energy" if len(cards) == 1 else "claygod.reject.energy_two"
        raise Reject(key, rule="§3.1" if len(cards) == 1 else "§4", colour=COLOUR_MARK[colour], need=need, have=have)


# ---------------------------------------------------------------------------------- the roll and combinations
def _roll(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    held = roll(state, seat, ctx)
    p = player(state, seat)
    full_throw = not held or state["options"]["frozen_combos"]  # ruling CG-14
    ruling: dict[str, Any] = {} if full_throw else {"ruling": "CG-14"}
    ctx.emit("rolled", seat=seat, dice={c: p["dice"][c]["value"] for c in COLOURS}, held=held,
             sum=p["last_roll_sum"], **ruling)
    if full_throw:
        combos = matching_combos(values(p), state["options"]["flush_order"])
    elif state["options"]["thrown_combos"]:  # CG-14's option: the dice that were thrown form combinations
        combos = matching_combos([None if c in held else v for c, v in zip(COLOURS, values(p))],
                                 state["options"]["flush_order"])
    else:
        combos = []
    if len(combos) > 1:
        state["turn"].update(stage="choose_combo", combos=combos)
        ctx.emit("combos_available", seat=seat, combos=combos)
    elif combos:
        _run_combo(state, seat, combos[0], ctx)
    else:
        state["turn"]["stage"] = "action"


def _choose_combo(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    combo = action.get("combo")
    if not isinstance(combo, str) or combo not in state["turn"]["combos"]:
        raise Reject("claygod.reject.no_such_combo", rule="§2", code=Code.ILLEGAL)
    state["turn"]["combos"] = []
    _run_combo(state, seat, combo, ctx)


def _run_combo(state: dict[str, Any], seat: int, combo_id: str, ctx: Ctx) -> None:
    ctx.emit("combo", seat=seat, combo=combo_id)
    resolve(state, seat, catalogue().combo(combo_id).effects, ctx, {"combo": combo_id})
    if not outcome.check(state, ctx):
        _advance(state, ctx)


def _advance(state: dict[str, Any], ctx: Ctx) -> None:
    """Move to the next combination step owed this turn that can be taken, else to the main action."""
    turn = state["turn"]
    while turn["steps"]:
        step = turn["steps"][0]
        if _step_possible(state, turn["seat"], step["kind"]):
            turn["stage"] = step["kind"]
            return
        turn["steps"].pop(0)
        ctx.emit("step_skipped", seat=turn["seat"], step=step["kind"],
                 ruling="CG-16" if step["kind"] == "swap" else "CG-18")
    turn["stage"] = "action"


def _step_possible(state: dict[str, Any], seat: int, kind: str) -> bool:
    if kind == "freeze_own":
        return bool(freezable(player(state, seat)))
    if kind == "freeze_enemy":
        return bool(freezable(player(state, opponent(seat))))
    if kind == "swap":
        return bool(player(state, seat)["hand"]) and bool(player(state, opponent(seat))["hand"])
    return True


def _freeze_target(state: dict[str, Any], seat: int) -> int:
    return seat if state["turn"]["stage"] == "freeze_own" else opponent(seat)


def _combo_freeze(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Three sixes: one energy of each player, held through its owner's next roll (ruling CG-18)."""
    target = _freeze_target(state, seat)
    colour = _field(action, "colour", COLOURS)
    if colour not in freezable(player(state, target)):
        raise Reject("claygod.reject.cannot_freeze", rule="CG-18", colour=COLOUR_MARK[colour])
    step = state["turn"]["steps"].pop(0)
    freeze(player(state, target)["dice"][colour], "three_sixes", rolls=step["rolls"])
    ctx.emit("frozen", seat=seat, owner=target, colour=colour, rolls=step["rolls"], cause="three_sixes",
             ruling="CG-18")
    if not outcome.check(state, ctx):  # the seventh frozen die loses (rule 6)
        _advance(state, ctx)


def _flush_discard(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    card = _hand_card(state, seat, action.get("card"))
    player(state, seat)["hand"].remove(card)
    discard(state, card)
    ctx.emit("discarded", seat=seat, card=card, cause="flush")


def flush_target(state: dict[str, Any], seat: int) -> int:
    """How many cards the falling flush draws up to: «добрать из колоды до 5» (option ``flush_draw:
    hand_size``: the player's hand size, ruling CG-15)."""
    if state["options"]["flush_draw"] == "hand_size":
        return cast("int", player(state, seat)["hand_size"])
    return cast("int", state["turn"]["steps"][0]["up_to"])


def _flush_done(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """The falling flush: after the discards, draw up to five, then play (ruling CG-15)."""
    drawn = draw(state, seat, flush_target(state, seat) - len(player(state, seat)["hand"]), ctx)
    ctx.emit("flush_done", seat=seat, count=len(drawn))  # said even when nothing was replaced
    state["turn"]["steps"].pop(0)
    _advance(state, ctx)


def _swap_give(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Twenty-one: one own card for a card of the opponent's hand taken blind (ruling CG-16)."""
    card = _hand_card(state, seat, action.get("card"))
    enemy = opponent(seat)
    mine, theirs = player(state, seat)["hand"], player(state, enemy)["hand"]
    taken = ctx.rng.choice(list(theirs), SWAP_TAG)
    mine.remove(card)
    theirs.remove(taken)
    mine.append(taken)
    theirs.append(card)
    ctx.emit("swapped", to=[seat, enemy], seat=seat, gave=card, took=taken)
    ctx.emit("swapped_public", seat=seat)
    state["turn"]["steps"].pop(0)
    _advance(state, ctx)


# ---------------------------------------------------------------------------------- the nine actions
def _cast(state: dict[str, Any], seat: int, card: str, source: str, ctx: Ctx, moment: Moment | None = None) -> None:
    """Play one card: to the used pile, then its effects (reading the numbers of ``moment``, if given)."""
    p = player(state, seat)
    if source == "hand":
        p["hand"].remove(card)
    else:
        p["table_card"] = None
    discard(state, card)
    ctx.emit("played", seat=seat, card=card, source=source)
    resolve(state, seat, catalogue().card(card).effects, ctx, {"card": card, "source": source}, moment)


def _play(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    card = _hand_card(state, seat, action.get("card"))
    _require_energy(state, seat, [card])
    _cast(state, seat, card, "hand", ctx)
    _after_check(state, seat, ctx)


def _play_two(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rule 4: two cards «одновременно» when the dice cover both costs: both read the numbers as they were
    before the play and the game is judged once both have acted (option ``two_cards: in_order``: one after
    the other, judged after each); the hand is then refilled by the opponent's choice (ruling CG-28)."""
    cards = action.get("cards")
    if not isinstance(cards, list) or len(cards) != 2 or cards[0] == cards[1]:
        raise Reject("claygod.reject.two_cards", code=Code.MALFORMED)
    cards = [_hand_card(state, seat, c) for c in cards]
    _require_energy(state, seat, cards)
    together = state["options"]["two_cards"] == "together"
    moment = Moment(state) if together else None
    for card in cards:
        _cast(state, seat, card, "hand", ctx, moment)
        if not together and outcome.check(state, ctx):
            return
    if not outcome.check(state, ctx):
        _start_give(state, seat, ctx)


def _play_table(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rule 3.2: the face-down card, when every energy is at least 2, whatever it costs (ruling CG-19)."""
    p = player(state, seat)
    if p["table_card"] is None:
        raise Reject("claygod.reject.no_table_card", rule="§3.2")
    low = None if state["turn"]["free_cast"] else _low_energy(p)
    if low:
        raise Reject("claygod.reject.table_energy", rule="§3.2", colour=COLOUR_MARK[low], have=energy(p, low),
                     need=rules()["table_card_energy"])
    _cast(state, seat, p["table_card"], "table", ctx)
    _after_check(state, seat, ctx)


def _discard(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rule 3.3: «сбросить ненужную карту и взять новую из колоды» — a new card even in a hand above its size
    (option ``discard_draw: to_hand_size``: only up to the hand size, ruling CG-20)."""
    card = _hand_card(state, seat, action.get("card"))
    player(state, seat)["hand"].remove(card)
    discard(state, card)
    ctx.emit("discarded", seat=seat, card=card, cause="action")
    if state["options"]["discard_draw"] == "always":
        draw(state, seat, 1, ctx)
    _finish_turn(state, seat, ctx)


def _restore(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rules 3.4 and 3.5: trade sphere for health or health for sphere."""
    res = Resolution(state, seat, ctx, {"action": action["type"]})
    for stat, by in rules()[action["type"]].items():
        res.add(seat, stat, by)
    res.finish()
    _after_check(state, seat, ctx)


def _freeze_all(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rules 3.6 and 3.7: every own energy is held through the player's next roll (ruling CG-11)."""
    pay = _field(action, "pay", STATS)
    res = Resolution(state, seat, ctx, {"action": "freeze_all"})
    res.add(seat, pay, -rules()["freeze_all_cost"])
    res.finish()
    rolls = rules()["freeze_all_rolls"]
    for die in player(state, seat)["dice"].values():
        freeze(die, "freeze_all", rolls=rolls)
    ctx.emit("frozen_all", seat=seat, pay=pay, rolls=rolls, ruling="CG-11")
    _after_check(state, seat, ctx)


def _target_die(state: dict[str, Any], seat: int, action: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
    side = _field(action, "side", SIDES)
    colour = _field(action, "colour", COLOURS)
    owner = seat if side == "own" else opponent(seat)
    return owner, colour, player(state, owner)["dice"][colour]


def _freeze_one(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rule 3.8: a freeze that lasts until the die is thawed (ruling CG-11), also on a die held for a term."""
    owner, colour, die = _target_die(state, seat, action)
    if die["value"] is None:
        raise Reject("claygod.reject.not_rolled", rule="CG-32", colour=COLOUR_MARK[colour])
    if colour not in freezable_for_good(player(state, owner)):
        raise Reject("claygod.reject.already_frozen", rule="§3.8", colour=COLOUR_MARK[colour])
    freeze(die, "action")
    ctx.emit("frozen", seat=seat, owner=owner, colour=colour, turns=None, cause="action")
    _after_check(state, seat, ctx)


def _thaw_one(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    owner, colour, die = _target_die(state, seat, action)
    if not die["frozen"]:
        raise Reject("claygod.reject.not_frozen", rule="§3.8", colour=COLOUR_MARK[colour])
    thaw(die)
    ctx.emit("thawed", seat=seat, owner=owner, colour=colour)
    _finish_turn(state, seat, ctx)


def _attack(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    """Rule 3.9: -1 to the opponent's health or sphere when this roll's sum beats theirs (ruling CG-27)."""
    stat = _field(action, "stat", STATS)
    mine, theirs = dice_sum(player(state, seat)), player(state, opponent(seat))["last_roll_sum"]
    if mine <= theirs:
        raise Reject("claygod.reject.attack_sum", rule="§3.9", mine=mine, theirs=theirs)
    res = Resolution(state, seat, ctx, {"action": "attack"})
    res.add(opponent(seat), stat, -rules()["attack_damage"])
    res.finish()
    _after_check(state, seat, ctx)


def _after_check(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    if not outcome.check(state, ctx):
        _finish_turn(state, seat, ctx)


def _finish_turn(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """Rule 5: refill the hand, then the turn passes."""
    refill(state, seat, ctx)
    end_turn(state, ctx)


# ---------------------------------------------------------------------------------- the two-card hand-over
def _start_give(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    giver = opponent(seat)
    need = player(state, seat)["hand_size"] - len(player(state, seat)["hand"])
    count = min(max(need, 0), len(player(state, giver)["hand"]))
    if count == 0:
        _complete_give(state, seat, giver, ctx)
        return
    state["turn"].update(stage="give", give={"from": giver, "to": seat, "left": count}, since=ctx.now)
    ctx.emit("give_requested", seat=giver, receiver=seat, count=count)


def _give(state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
    card = _hand_card(state, seat, action.get("card"))
    give = state["turn"]["give"]
    player(state, seat)["hand"].remove(card)
    player(state, give["to"])["hand"].append(card)
    ctx.emit("gave", to=[seat, give["to"]], seat=seat, receiver=give["to"], card=card)
    ctx.emit("gave_count", seat=seat, receiver=give["to"])
    give["left"] -= 1
    if not give["left"]:
        _complete_give(state, give["to"], seat, ctx)


def _complete_give(state: dict[str, Any], receiver: int, giver: int, ctx: Ctx) -> None:
    """A short hand-over is made up from the deck; the giver then refills from the deck (ruling CG-28)."""
    state["turn"]["give"] = None
    refill(state, receiver, ctx)
    refill(state, giver, ctx)
    end_turn(state, ctx)


# ---------------------------------------------------------------------------------- running out of time
def forfeit(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """Rule 8: a decision not taken in time.  Owed choices are made by default (the first one listed; the
    flush stops discarding); the turn's action is lost (ruling CG-26)."""
    number = state["turn"]["number"]
    ctx.emit("timed_out", seat=seat, stage=state["turn"]["stage"], ruling="CG-26")

    def still_owed() -> bool:
        turn = state["turn"]
        return state["outcome"] is None and turn["number"] == number and turn["stage"] not in ("roll", "action")

    while still_owed():
        stage = state["turn"]["stage"]
        default = {"type": "flush_done"} if stage == "flush" else legal_actions(state, seat)[0]
        apply_action(state, seat, default, ctx)
    if state["outcome"] is None and state["turn"]["number"] == number:
        _finish_turn(state, seat, ctx)


_HANDLERS: dict[str, tuple[Callable[[dict[str, Any], int, dict[str, Any], Ctx], None], tuple[str, ...]]] = {
    "roll": (_roll, ("roll",)),
    "combo": (_choose_combo, ("choose_combo",)),
    "combo_freeze": (_combo_freeze, ("freeze_own", "freeze_enemy")),
    "flush_discard": (_flush_discard, ("flush",)),
    "flush_done": (_flush_done, ("flush",)),
    "swap_give": (_swap_give, ("swap",)),
    "play": (_play, ("action",)),
    "play_two": (_play_two, ("action",)),
    "play_table": (_play_table, ("action",)),
    "discard": (_discard, ("action",)),
    "restore_health": (_restore, ("action",)),
    "restore_sphere": (_restore, ("action",)),
    "freeze_all": (_freeze_all, ("action",)),
    "freeze": (_freeze_one, ("action",)),
    "thaw": (_thaw_one, ("action",)),
    "attack": (_attack, ("action",)),
    "give": (_give, ("give",)),
}
