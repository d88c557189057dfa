"""The built-in bot: scores every legal action with a cheap one-step preview (health and sphere after the
effects, plus rough values for turns, ongoing spells and dice) and plays the best, with a little noise.
It reads only what its seat may know: its own hand, the public numbers, dice and used pile.

Blind cards (the face-down table card, Pandora's box) are worth the average of what they may turn out to
be, so the Clock's risk is counted.  The Clock is a near-certain loss unless the enemy can be brought down
within its term; while the bot's own Clock runs it races: only the enemy's fall counts (ruling CG-25)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping

from .actions import legal_actions
from .cards import catalogue, rules
from .dice import freezable
from .outcome import counts_as_frozen
from .state import opponent, player

HEALTH, SPHERE = 1.0, 0.6
ONGOING_TURNS = 6          # how long the bot expects an ongoing spell to keep acting
TURN_VALUE = 7.0           # an extra turn, or one the opponent loses
WIN = 1000.0
DRAW_VALUE = 1.0           # a card drawn blind
CLOCK_LOSS = WIN / 2       # a Clock whose term the bot cannot expect to win in: about half a lost game
RACE_DAMAGE = 3.0          # while racing, a point of enemy health is worth this much
CLOCK_REACH = 1.0          # enemy health a racing bot takes per own turn, as measured in bot games
LIVE_CLOCK_TURNS = 15      # five minutes at rule 8's ten seconds a turn: at least 15 own turns (CG-25)
NOISE = 0.5                # random tie-breaking, so that two bots do not repeat the same exchange forever

_BONUS = {"maximise": 3.0, "free_cast": 10.0, "redraw": 3.0, "swap_card": 1.0, "freeze_one_each": 1.0,
          "freeze_all_dice": 0.0}


def _worth(h: int, s: int, both: bool = False) -> float:
    r = rules()
    if h < r["lose_health_below"] or s < r["lose_sphere_below"]:
        return -WIN
    above = (h > r["win_above"], s > r["win_above"])
    if all(above) if both else any(above):  # option win_needs (ruling CG-34)
        return WIN
    value = h * HEALTH + s * SPHERE
    if h < 15:
        value -= (15 - h) * 1.5
    if s < 0:
        value -= 4 + (-s) * 0.3
    return value


def _standing(numbers: list[list[int]], seat: int, racing: bool = False, both: bool = False) -> float:
    (h, s), (their_h, their_s) = numbers[seat], numbers[opponent(seat)]
    mine, theirs = _worth(h, s, both=both), _worth(their_h, their_s, both=both)
    if racing and max(abs(mine), abs(theirs)) < WIN:  # under a Clock only the enemy's fall counts
        health, sphere = numbers[opponent(seat)]
        return -(health * RACE_DAMAGE + sphere * SPHERE)
    return mine - theirs


def racing(state: dict[str, Any], seat: int) -> bool:
    return any(e["kind"] == "clock" for e in player(state, seat)["effects"])


def clock_turns(state: dict[str, Any]) -> int:
    options = state["options"]
    return options["clock_turns"] if options["clock_mode"] == "turns" else LIVE_CLOCK_TURNS


def clock_value(state: dict[str, Any], caster: int) -> float:
    """The Clock's deadline: a likely loss unless the enemy's health can be taken within the term."""
    if player(state, opponent(caster))["health"] < CLOCK_REACH * clock_turns(state):
        return -25.0
    return -CLOCK_LOSS


def _locking_value(state: dict[str, Any], seat: int, colours: Iterable[str]) -> float:
    """Own dice frozen in a way that counts for rule 6 (the Pyramid's for good): a seventh loses at once, a
    sixth leaves the opponent one freeze from winning (ruling CG-13); otherwise two energies held at 6 are a
    gain."""
    dice = player(state, seat)["dice"]
    locked = len({c for c, d in dice.items() if counts_as_frozen(state, d)} | set(colours))
    return {7: -WIN, 6: -WIN / 2}.get(locked, 3.0)


def unseen_cards(state: dict[str, Any], seat: int) -> list[str]:
    """The cards the seat cannot place: not in its hand and not in the used pile (the face-down cards, the
    deck and the opponent's hand)."""
    known = set(player(state, seat)["hand"]) | set(state["discard"])
    return [c for c in catalogue().cards if c not in known]


def blind_value(state: dict[str, Any], seat: int, cards: list[str]) -> float:
    """What a card drawn blind from ``cards`` is worth to the seat on average."""
    return sum(card_value(state, seat, c) for c in cards) / len(cards) if cards else 0.0


def preview(state: dict[str, Any], caster: int, effects: Iterable[Mapping[str, Any]]) -> float:
    """How much better the caster stands after ``effects`` (immediate numbers plus rough bonuses)."""
    before = [[p["health"], p["sphere"]] for p in state["players"]]
    after = [list(n) for n in before]
    bonus = 0.0
    enemy = opponent(caster)
    race = racing(state, caster)
    idx = {"health": 0, "sphere": 1}
    weight = {"health": HEALTH, "sphere": SPHERE}

    def seats(who: str) -> list[int]:
        return {"self": [caster], "enemy": [enemy], "both": [caster, enemy]}[who]

    for e in effects:
        do = e["do"]
        if do == "change":
            for s in seats(e["who"]):
                after[s][idx[e["stat"]]] += e["by"]
        elif do == "change_if_below":
            for s in seats(e["who"]):
                after[s][idx[e["stat"]]] += e["by"] if after[s][idx[e["stat"]]] < e["below"] else e["else_by"]
        elif do == "set":
            for s in seats(e["who"]):
                after[s][idx[e["stat"]]] = e["to"]
        elif do == "raise_to_max":
            for s in seats(e["who"]):
                top = player(state, s)["max_" + e["stat"]]
                after[s][idx[e["stat"]]] = max(after[s][idx[e["stat"]]], top)
        elif do == "swap_spheres":
            after[caster][1], after[enemy][1] = after[enemy][1], after[caster][1]
        elif do == "solomon":
            for i in (0, 1):
                total = after[caster][i] + after[enemy][i]
                after[caster][i], after[enemy][i] = total - total // 2, total // 2
        elif do == "each_turn":
            for s in seats(e["who"]):
                sign = 1 if s == caster else -1
                bonus += sign * e["by"] * ONGOING_TURNS * weight[e["stat"]]
        elif do == "extra_turns":
            bonus += TURN_VALUE * e["n"]
        elif do == "skip_turns":
            on_enemy = e["who"] == "enemy" or (e.get("house_rule") and state["options"][e["house_rule"]] == "enemy")
            bonus += TURN_VALUE * e["n"] * (1 if on_enemy else -1)
        elif do == "lose_place":
            bonus -= 4.0
        elif do == "max_and_freeze":
            bonus += _locking_value(state, caster, e["colours"])
        elif do == "clock":
            bonus += clock_value(state, caster)
        elif do == "pandora":  # ruling CG-24: any other card of the catalogue
            bonus += blind_value(state, caster, [c for c in catalogue().cards if c != "pandoras_box"])
        elif do == "lift_curses":
            bonus += sum(-x["by"] * ONGOING_TURNS * HEALTH for x in player(state, caster)["effects"]
                         if x["kind"] == "each_turn" and x["stat"] == "health" and x["by"] < 0)
        else:
            bonus += _BONUS.get(do, 0.0)
    both = state["options"]["win_needs"] == "both"
    return _standing(after, caster, race, both) - _standing(before, caster, race, both) + bonus


def card_value(state: dict[str, Any], seat: int, card: str) -> float:
    return preview(state, seat, catalogue().card(card).effects)


@lru_cache(maxsize=None)
def afford_chance(card: str) -> float:
    """The chance that a fresh roll pays for the card (each die at least its cost in that colour)."""
    chance = 1.0
    for cost in catalogue().card(card).cost:
        chance *= (7 - cost) / 6 if cost else 1.0
    return chance


def keep_value(state: dict[str, Any], seat: int, card: str) -> float:
    """What holding a card is worth: its value, discounted by how rarely the dice pay for it."""
    return card_value(state, seat, card) * afford_chance(card)


def _trade_value(state: dict[str, Any], seat: int, changes: Mapping[str, int]) -> float:
    effects = [{"do": "change", "who": "self", "stat": stat, "by": by} for stat, by in changes.items()]
    return preview(state, seat, effects)


def _score(state: dict[str, Any], seat: int, action: dict[str, Any], values: dict[str, float]) -> float:
    kind = action["type"]
    me, them = player(state, seat), player(state, opponent(seat))
    if kind == "play":
        return values[action["card"]]
    if kind == "play_two":
        return sum(values[c] for c in action["cards"]) - 3.0
    if kind == "play_table":
        return blind_value(state, seat, unseen_cards(state, seat))
    if kind == "discard":  # a fresh card is worth about DRAW_VALUE
        return DRAW_VALUE - keep_value(state, seat, action["card"])
    if kind in ("restore_health", "restore_sphere"):
        return _trade_value(state, seat, rules()[kind])
    if kind == "freeze_all":
        return _trade_value(state, seat, {action["pay"]: -rules()["freeze_all_cost"]}) + 1.0
    if kind == "attack":
        effect = {"do": "change", "who": "enemy", "stat": action["stat"], "by": -rules()["attack_damage"]}
        return preview(state, seat, [effect])
    own = action.get("side") == "own"
    dice = (me if own else them)["dice"]
    die = dice[action["colour"]]
    locked = sum(counts_as_frozen(state, d) for d in dice.values())
    if kind == "freeze":
        if locked == 6:  # the seventh frozen die decides the game (rule 6, ruling CG-13)
            return -WIN if own else WIN
        if own:
            if locked == 5:  # the opponent would freeze the seventh
                return -WIN / 2
            return 0.5 if die["value"] == 6 else -1.0
        if locked == 5:  # a sixth lasting freeze only makes the opponent thaw one: a wasted pair of turns
            return 0.3
        # below that, a freeze mostly buys a freeze-and-thaw exchange that wastes both players' turns
        return 0.1 * locked + (0.2 if die["value"] <= 2 else 0.0)
    if kind == "thaw":
        if own:
            return {6: WIN / 2, 5: 1.0}.get(locked, 0.3 if die["value"] <= 2 else -1.0)
        return -1.0
    return 0.0


def choose(state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
    legal = legal_actions(state, seat)
    stage = state["turn"]["stage"]
    if stage == "roll":
        return legal[0]
    if stage == "choose_combo":
        return max(legal, key=lambda a: preview(state, seat, catalogue().combo(a["combo"]).effects))
    if stage in ("freeze_own", "freeze_enemy"):
        target = player(state, seat if stage == "freeze_own" else opponent(seat))
        pick = max if stage == "freeze_own" else min
        colour = pick(freezable(target), key=lambda c: target["dice"][c]["value"])
        return {"type": "combo_freeze", "colour": colour}
    hand = player(state, seat)["hand"]
    if stage == "flush":
        bad = [c for c in hand if keep_value(state, seat, c) < DRAW_VALUE / 2]
        return {"type": "flush_discard", "card": bad[0]} if bad else {"type": "flush_done"}
    if stage == "swap":
        return {"type": "swap_give", "card": min(hand, key=lambda c: card_value(state, seat, c))}
    if stage == "give":  # hand over what would help the receiver least
        receiver = state["turn"]["give"]["to"]
        return {"type": "give", "card": min(hand, key=lambda c: card_value(state, receiver, c))}
    values = {c: card_value(state, seat, c) for c in hand}
    return max(legal, key=lambda a: _score(state, seat, a, values) + rng.random() * NOISE)
