"""The built-in bot player: a co-operative team member.

It decides from the open table only; when it looks ahead it works on a copy whose random source is replaced by
one of its own, so it never learns the table's coming dice.  Each decision:

1. free actions first, by rule: take the best gear (on the Base, or an item just received), shop at the craftsman
   and the troll, drink a potion when hurt;
2. then a short search over its remaining action points: every sequence of up to two AP actions (moves, attacks,
   the Scout's abilities, bombs, forts) is played on the copy, the other seats are assumed to end their phase,
   the neutral phase is played by the real boss rules, and the position is scored (bosses hurt and killed, the
   team's health, the Base, gear and coins, and the way to the team's current target);
3. before ending its phase it raises a Shield ball if the bosses are about to hit it.

The team's target is the next boss in a fixed order (Karate-bum, whose death calms Golemko; the Casserole, who
would hunt everyone near him once the Dark Archer is dead; the Archer; Golemko unless at peace; Krabulon)."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, cast

from bot.engine import Applied, Ctx, Game, clone
from bot.engine.contract import Action

from .actions import AP_ACTIONS, equip_options, legal_actions, problem, quote
from .combat import attack_modes, sources
from .data import CLASSES, catalogue, item
from .state import State, bank_count, boss_alive, char, cls_rule, equipped, max_hp, peaceful, strength, team_owns

CLASS_PREFERENCE = ("burilla", "master", "mage", "scout")
TARGET_ORDER = ("karate", "krabulon")
#: what an item in the bank is worth to the team (coins are 10 each)
ITEM_VALUE = {"bomb": 45, "spring": 12, "potion": 25, "shield_ball": 30, "extending_arm": 30, "greatsword": 25,
              "crossbow": 25, "elements_staff": 30, "forest_staff": 15, "recurve_bow": 12, "giant_shield": 15,
              "plate_armour": 25, "spiked_shell": 15}
#: the weights of the position score (tuned by hand on seeded games)
KRABULON_WEIGHT = 6000
TARGET_WEIGHT = 1200
KILL_BONUS = 2000
HP_WEIGHT = 70
#: rounds of patience: the bot weighs risks fully until CALM_ROUNDS, then less and less; past CHARGE_ROUND it
#: walks at its target whatever it costs, so that every game ends
CALM_ROUNDS = 25
CHARGE_ROUND = 45
END = {"type": "end"}


def choose(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    """The bot's action for ``seat``; ``game`` (the engine, bot/games/bridges/game.py, which calls this) plays
    out the plans it weighs."""
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state["phase"] == "choose":
        open_ = [a["cls"] for a in legal]
        return {"type": "choose", "cls": next(c for c in CLASS_PREFERENCE if c in open_)}
    for rule in (_equip, _drink, _shop, _bombard):
        action = rule(state, seat, legal)
        if action is not None:
            return action
    return _plan(game, state, seat, legal)


# ------------------------------------------------------------------------------------------ gear
def _power(state: State, seat: int, hands: list[str]) -> int:
    """The stronger of the two ways this character hits with ``hands`` on its own island."""
    body = strength(state, seat) + sum(item(i).get("bonus", 0) for i in hands)
    own = sum(item(i).get("damage", 0) for i in hands)
    reach = any(item(i).get("reach") == "connected" for i in hands)
    bonus = [i for i in hands if "bonus" in item(i)]
    quiet = bool(bonus) and all(item(i)["provokes"] == "none" for i in bonus)  # no counter-attack: worth 2
    return cast("int", max(body + (2 if quiet else 0), own + (1 if reach else 0)))


def _gear_score(state: State, seat: int, hands: list[str], armour: str | None) -> float:
    score = 10 * _power(state, seat, hands)
    gear = hands + ([armour] if armour else [])
    score += 6 * sum(item(i).get("mhp", 0) for i in gear)
    if armour == "plate_armour":
        score -= 2  # slow
    if any(item(i).get("no_counter") for i in hands) and not cls_rule(state, seat, "no_counter", False):
        score -= 3
    return cast("float", score)


def _equip(state: State, seat: int, legal: list[Action]) -> Action | None:
    c = char(state, seat)
    best, gain = None, 0.5
    base = _gear_score(state, seat, c["hands"], c["armour"])
    for a in legal:
        if a["type"] != "equip":
            continue
        hands, armour = list(c["hands"]), c["armour"]
        for old in a["replace"]:
            if armour == old:
                armour = None
            else:
                hands.remove(old)
        if item(a["item"])["kind"] == "armour":
            armour = a["item"]
        else:
            hands.append(a["item"])
        delta = _gear_score(state, seat, hands, armour) - base
        # leave an item to a team-mate who gains more from it
        if delta > gain and not _better_owner(state, seat, a["item"], delta):
            best, gain = a, delta
    return best


def _better_owner(state: State, seat: int, iid: str, delta: float) -> bool:
    if item(iid)["kind"] == "armour" or bank_count(state, iid) > 1:
        return False
    for other in range(state["seats"]):
        if other == seat or char(state, other)["at"] != char(state, seat)["at"] or char(state, other)["done"]:
            continue
        if item(iid).get("mage_only") and not cls_rule(state, other, "staves", False):
            continue
        c = char(state, other)
        if 2 - sum(item(h)["hands"] for h in c["hands"]) >= item(iid)["hands"]:
            gain = _gear_score(state, other, c["hands"] + [iid], c["armour"]) - \
                _gear_score(state, other, c["hands"], c["armour"])
            if gain > delta + 1 or (gain == delta + 1 and other < seat):
                return True
    return False


def _drink(state: State, seat: int, legal: list[Action]) -> Action | None:
    c = char(state, seat)
    if {"type": "use", "item": "potion"} in legal and c["hp"] <= max(1, max_hp(state, seat) - 2):
        return {"type": "use", "item": "potion"}
    return None


def _shop(state: State, seat: int, legal: list[Action]) -> Action | None:
    coins = state["bank"]["coins"]
    buys = {a["item"]: a for a in legal if a["type"] == "buy"}
    if not buys and {"type": "blueprints"} not in legal and {"type": "camp"} not in legal:
        return None
    c = char(state, seat)
    team = range(state["seats"])
    mage = cls_rule(state, seat, "staves", False)
    wants: list[str] = []
    if mage and "elements_staff" not in equipped(state, seat):
        wants.append("elements_staff")
    if not mage:
        if cls_rule(state, seat, "no_counter", False) or c["cls"] == "master":
            wants += ["extending_arm", "extending_arm", "greatsword"]
        wants += ["crossbow", "extending_arm"]
    if c["armour"] is None and seat == _tank(state):
        wants.append("plate_armour")
    arm = catalogue().craftsman["arm_trade"]["item"]
    for want in wants:
        spare_ok = bank_count(state, want) == 0 or (want == arm and _arms_wanted(state) > 0)
        if want in buys and spare_ok and _useful(state, seat, want):
            return buys[want]
    if {"type": "blueprints"} in legal and coins >= 7:
        return {"type": "blueprints"}
    hurt = any(char(state, s)["hp"] < max_hp(state, s) for s in team)
    if {"type": "camp"} in legal and hurt and (coins >= 4 or team_target(state) == catalogue().final_boss):
        return {"type": "camp"}
    spare = coins - 2 * _arms_wanted(state)
    for want, keep in (("shield_ball", state["seats"]), ("potion", 2), ("spring", 1), ("bomb", 2)):
        if want in buys and bank_count(state, want) < keep and spare >= quote(state, seat, want)[0] + 1:
            return buys[want]
    return None


def _arms_wanted(state: State) -> int:
    """Extending Arms the team still means to buy (two for each fighter who is not a Mage), once it can."""
    arm = catalogue().craftsman["arm_trade"]["item"]
    if not (state["arm_trade"] or team_owns(state, arm)):
        return 0
    held = sum(c["hands"].count(arm) for c in state["chars"]) + bank_count(state, arm)
    fighters = sum(1 for c in state["chars"] if c["cls"] != "mage")
    return cast("int", max(0, 2 * fighters - held))


def _tank(state: State) -> int:
    """The one who stands in front: a Burilla (she guards the others), else a Master, else the first seat."""
    for cls in ("burilla", "master"):
        for s, c in enumerate(state["chars"]):
            if c["cls"] == cls:
                return s
    return 0


def _useful(state: State, seat: int, iid: str) -> bool:
    c = char(state, seat)
    hands = list(c["hands"])
    options = equip_options(state, seat, iid) if problem(state, seat, {"type": "equip", "item": iid,
                                                                       "replace": []}) is None else None
    del options
    if item(iid)["kind"] == "armour":
        return _gear_score(state, seat, hands, iid) > _gear_score(state, seat, hands, c["armour"])
    best = _gear_score(state, seat, hands, c["armour"])
    for drop in ([], hands[:1], hands[1:], hands):
        kept = [h for h in hands if h not in drop] if drop else hands
        if sum(item(h)["hands"] for h in kept) + item(iid)["hands"] <= 2:
            if _gear_score(state, seat, kept + [iid], c["armour"]) > best:
                return True
    return False


def _bombard(state: State, seat: int, legal: list[Action]) -> Action | None:
    """Bombs are best thrown at Krabulon from afar: build a Catapult on the Base, charge it, launch."""
    final = catalogue().final_boss
    if team_target(state) != final or not bank_count(state, "bomb"):
        return None
    crb = state["bosses"][final]["at"]
    launch = {"type": "launch_item", "item": "bomb", "island": crb}
    if launch in legal:
        return launch
    if {"type": "charge"} in legal:
        return {"type": "charge"}
    build = {"type": "build", "building": "catapult"}
    if build in legal and char(state, seat)["at"] == catalogue().base:
        return build
    return None


# ------------------------------------------------------------------------------------------ search
def _sim_copy(state: State, seat: int) -> State:
    sim = clone(state)
    sim["rng"] = {"seed": f"bridges-bot:{state['version']}:{seat}", "n": 0, "stack": {}}
    # the copy keeps a seat's phase open at 0 AP (the referee's End, BR-1), so that a plan's last AP leaves the
    # neutral phase to _finish_round; the search itself stops where the real table would end the phase
    if sim["options"]["zero_ap"] == "end":
        sim["options"] = {**sim["options"], "zero_ap": "referee"}
    return sim


def _ends_at_zero(state: State) -> bool:
    """Whether the table ends a seat's phase in the action that spends its last AP (BR-1)."""
    return bool(state["options"]["zero_ap"] == "end" or state["options"]["phase_end"] == "auto")


def _step(game: Game, state: State, seat: int, action: Action) -> State | None:
    result = game.apply(state, seat, action)
    return result.state if isinstance(result, Applied) else None


def _finish_round(game: Game, state: State, seat: int) -> State:
    """Everyone ends the phase where they stand and the neutral phase is played (by the real boss rules, on a
    copy with the bot's own dice), up to the start of the next round."""
    from bot.engine import Ctx

    from .bosses import neutral_phase
    from .flow import begin_round

    if state["outcome"] is not None or state["phase"] != "actions":
        return state
    sim = clone(state)
    ctx = Ctx(sim, 0.0)
    _allies_strike(sim, ctx, seat)
    if sim["outcome"] is not None:
        return sim
    for c in sim["chars"]:
        c["done"] = True
    neutral_phase(sim, ctx)
    if sim["outcome"] is None:
        begin_round(sim, ctx)
    return sim


def _allies_strike(sim: State, ctx: Ctx, seat: int) -> None:
    """What the bot expects of the team-mates still in the phase: each hits the team's target with what it
    has left, if the target is within its reach (so that a seat sees the whole team's blow coming)."""
    from bot.engine import Reject

    from .actions import apply_action

    target = team_target(sim)
    for other in range(sim["seats"]):
        c = sim["chars"][other]
        if other == seat or c["done"] or sim["outcome"] is not None or not boss_alive(sim, target):
            continue
        if not attack_modes(sim, other, target) and c["ap"] >= 2:
            # one step to where it can hit the target, if there is such a step
            for there in catalogue().neighbours(c["at"]):
                here = c["at"]
                c["at"] = there
                reach = attack_modes(sim, other, target)
                c["at"] = here
                if reach:
                    try:
                        apply_action(sim, other, {"type": "move", "to": there}, ctx)
                    except Reject:
                        pass
                    break
        while c["ap"] > 0 and boss_alive(sim, target) and sim["outcome"] is None:
            modes = attack_modes(sim, other, target)
            if not modes:
                break
            mode = max(modes, key=lambda m: sum(sources(sim, other, target, m)))
            try:
                apply_action(sim, other, {"type": "attack", "boss": target, "mode": mode}, ctx)
            except Reject:
                break


def _plan(game: Game, state: State, seat: int, legal: list[Action]) -> Action:
    sim = _sim_copy(state, seat)
    c = char(state, seat)
    target = team_target(state)
    may_end = END in legal  # not while AP can still be spent (phase_end: spend, BR-1)
    ends_at_zero = _ends_at_zero(state)
    best: list[Any] = [None, END]

    def options(current: State, free_used: bool, first: bool) -> list[Action]:
        acts = legal if first else legal_actions(current, seat)
        kinds = AP_ACTIONS if first else ("move", "attack", "bomb", "mark")
        found = [a for a in acts if a["type"] in kinds and _worth_trying(current, seat, a, target)]
        if not free_used:
            found += [a for a in acts if a["type"] == "spring" and a["to"] in _spring_goals(current, seat, target)]
        return found

    if state["round"] > CHARGE_ROUND:
        return _charge(game, state, seat, legal, target)

    def search(current: State, plan: list[Action], free_used: bool) -> None:
        if plan or may_end:
            value = _value(game, current, seat, target, plan)
            if best[0] is None or value > best[0]:
                best[0], best[1] = value, plan[0] if plan else END
        if len(plan) >= 3 or current["outcome"] is not None or current["phase"] != "actions":
            return
        if plan and ends_at_zero and current["chars"][seat]["ap"] == 0:
            return  # the last AP ended the phase: nothing more, not even a free action, this round
        for a in options(current, free_used, not plan):
            nxt = _step(game, current, seat, _risky_off(a))
            if nxt is None or nxt["chars"][seat]["done"] or nxt["round"] != current["round"]:
                continue
            search(nxt, plan + [a], free_used or a["type"] == "spring")

    search(sim, [], False)
    best_first = best[1]
    if best_first == END:
        return _before_end(game, state, seat, legal) if may_end else _spend_somehow(game, state, seat, legal)
    if best_first["type"] == "attack" and not c["risky"]:
        risky = {**best_first, "risky": True}
        if risky in legal:
            return risky
    return cast("dict[str, Any]", best_first)


def _charge(game: Game, state: State, seat: int, legal: list[Action], target: str) -> Action:
    """Past CHARGE_ROUND a team that still has not found its way stops weighing risks: it walks straight at its
    target and hits it, so that every game ends."""
    attacks = [a for a in legal if a["type"] == "attack" and a["boss"] == target]
    if attacks:
        return max(attacks, key=lambda a: (sum(sources(state, seat, target, a["mode"])), a["risky"]))
    goal = _distances(state["bosses"][target]["at"])
    here = goal[char(state, seat)["at"]]
    moves = [a for a in legal if a["type"] == "move" and goal[a["to"]] < here]
    if moves:
        return moves[0]
    return END if END in legal else _spend_somehow(game, state, seat, legal)


def _risky_off(a: Action) -> Action:
    return {**a, "risky": False} if a["type"] == "attack" else a


def _before_end(game: Game, state: State, seat: int, legal: list[Action]) -> Action:
    shield = {"type": "use", "item": "shield_ball"}
    if shield in legal:
        after = _finish_round(game, _sim_copy(state, seat), seat)
        if after["outcome"] is not None or after["chars"][seat]["hp"] < char(state, seat)["hp"]:
            return shield
    return END


def _spend_somehow(game: Game, state: State, seat: int, legal: list[Action]) -> Action:
    """The book lets the phase end only once every AP is spent (§1.2.1): the AP action whose round ends best."""
    target = team_target(state)
    spend = [a for a in legal if a["type"] in AP_ACTIONS and not a.get("risky")]

    def outcome(a: Action) -> float:
        after = _step(game, _sim_copy(state, seat), seat, a)
        return float("-inf") if after is None else _value(game, after, seat, target, [a])
    return max(spend, key=outcome)


def _together(state: State, seat: int, to: str) -> bool:
    """Krabulon is fought by the whole team at once: nobody steps next to him (or onto his island) before every
    team-mate is as close as that step."""
    final = catalogue().final_boss
    if team_target(state) != final or _calm(state) < 1:
        return True
    dist = _distances(state["bosses"][final]["at"])
    step = dist[to]
    if step > 1:
        return True
    return all(dist[c["at"]] <= step + 1 for s, c in enumerate(state["chars"]) if s != seat)


def _worth_trying(state: State, seat: int, a: Action, target: str) -> bool:
    kind = a["type"]
    if kind in ("move", "spring", "launch") and not _together(state, seat, a["to"]):
        return False
    if kind == "push":
        return bool(a["seat"] != seat and a["to"] == catalogue().base and char(state, a["seat"])["hp"] <= 1)
    if kind == "build":
        return a["building"] == "fort" and bool(_bosses_near(state, char(state, seat)["at"]))
    if kind == "bomb":
        return bool(_bosses_here(state, char(state, seat)["at"]))
    if kind == "charge":
        return False
    if kind == "trap":
        return bool(_bosses_here(state, char(state, seat)["at"]))
    if kind == "attack":
        return not a["risky"] and not (peaceful(state, a["boss"]) or _avoid(state, a["boss"], target))
    return True


def _avoid(state: State, bid: str, target: str) -> bool:
    """Bosses the team leaves alone for now: attacking them would only wake them or hurt needlessly."""
    if bid == target:
        return False
    return True


def _bosses_here(state: State, island: str) -> list[str]:
    return [b for b, v in state["bosses"].items() if v["at"] == island and v["hp"] > 0]


def _bosses_near(state: State, island: str) -> list[str]:
    near = (island,) + catalogue().neighbours(island)
    return [b for b, v in state["bosses"].items() if v["at"] in near and v["hp"] > 0 and not peaceful(state, b)]


def team_target(state: State) -> str:
    from .bosses import hunting

    if boss_alive(state, "casserole") and not boss_alive(state, "archer") and hunting(state, "casserole"):
        return "casserole"  # he beams everyone near him now: he goes first
    for bid in TARGET_ORDER:
        if boss_alive(state, bid) and not peaceful(state, bid):
            return bid
    return catalogue().final_boss


def _spring_goals(state: State, seat: int, target: str) -> set[str]:
    at = state["bosses"][target]["at"]
    goals = {at} if target != "krabulon" else set()
    if char(state, seat)["hp"] <= 1:
        goals.add(catalogue().base)
    return goals - {char(state, seat)["at"]}


def _calm(state: State) -> float:
    """1 until CALM_ROUNDS, then falling to 0 over 15 rounds: a team that has found nothing better for that long
    grows bolder, so that every game ends."""
    return cast("float", 1 - min(1.0, max(0.0, (state["round"] - CALM_ROUNDS) / 15)))


def goal_island(state: State, seat: int, target: str) -> str:
    """Where this character is heading: the Base to heal at the camp (before Krabulon, to full health) or to buy
    an upgrade it can afford, else the target boss's island."""
    cat = catalogue()
    c = char(state, seat)
    if _calm(state) < 1:
        return cast("str", state["bosses"][target]["at"])
    healing = state["camp"] or state["bank"]["coins"] >= cat.craftsman["camp"]
    final = target == cat.final_boss
    engaged = state["provoked"]  # once Krabulon shoots the Base there is no time left to heal: fight
    low = c["hp"] * 2 <= max_hp(state, seat) or (final and c["hp"] < max_hp(state, seat) and not engaged)
    if low and healing:
        return cat.base
    if final and not engaged and not team_ready(state):
        return cat.base if healing or upgrade_waiting(state, seat) else _staging(state)
    if upgrade_waiting(state, seat):
        return cat.base
    return cast("str", state["bosses"][target]["at"])


def team_ready(state: State) -> bool:
    """Before Krabulon: everyone at full health (where the camp can give it) and nothing left to buy that
    would help."""
    heal = state["camp"] or state["bank"]["coins"] >= catalogue().craftsman["camp"]
    return all((c["hp"] >= max_hp(state, s) or not heal) and not upgrade_waiting(state, s)
               for s, c in enumerate(state["chars"]))


def _staging(state: State) -> str:
    """An island two steps from Krabulon where no boss will strike: the Archer's (he cannot attack while
    visited), or one with a calm or dead boss."""
    for island in ("3", "4"):
        bosses = [b for b, v in state["bosses"].items() if v["at"] == island and v["hp"] > 0]
        if not bosses or bosses[0] in ("archer", "casserole") or peaceful(state, bosses[0]):
            return island
    return catalogue().base


def upgrade_waiting(state: State, seat: int) -> bool:
    """The craftsman has something this character would use and the team can pay for it."""
    cat = catalogue()
    coins = state["bank"]["coins"]
    c = char(state, seat)
    shop = dict(cat.craftsman["tier1"])
    extra = 0 if state["blueprints"] else cat.craftsman["blueprints"]
    for iid, cost in cat.craftsman["tier2"].items():
        if iid not in state["tier2_sold"]:
            shop[iid] = cost + extra
    arm = cat.craftsman["arm_trade"]["item"]
    if state["arm_trade"] or team_owns(state, arm):  # showing the Arm on the Base opens its trade
        shop[arm] = cat.craftsman["arm_trade"]["price"]
    held_arms = c["hands"].count(arm)
    if arm in shop and c["cls"] != "mage" and held_arms < 2 and _arms_wanted(state) > 0 and coins >= shop[arm]:
        return True
    for iid, cost in shop.items():
        if cost > coins or item(iid)["kind"] == "consumable":
            continue
        if item(iid).get("mage_only") and not cls_rule(state, seat, "staves", False):
            continue
        if bank_count(state, iid) == 0 and _useful(state, seat, iid):
            gain = _gear_score(state, seat, _with(c["hands"], iid), c["armour"] if item(iid)["kind"] != "armour"
                               else iid) - _gear_score(state, seat, c["hands"], c["armour"])
            if gain >= 6:
                return True
    return False


def _with(hands: list[str], iid: str) -> list[str]:
    if item(iid)["kind"] == "armour":
        return list(hands)
    kept = list(hands)
    while kept and sum(item(h)["hands"] for h in kept) + item(iid)["hands"] > 2:
        kept.pop(0)
    return kept + [iid]


@lru_cache(maxsize=None)
def _distances(source: str) -> dict[str, int]:
    cat = catalogue()
    dist, frontier = {source: 0}, [source]
    while frontier:
        nxt = []
        for here in frontier:
            for there in cat.neighbours(here):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    nxt.append(there)
        frontier = nxt
    return dist


def _value(game: Game, state: State, seat: int, target: str, plan: list[Action]) -> float:
    after = _finish_round(game, state, seat)
    value = score(after, target) - 0.5 * len(plan)
    if after["outcome"] is None and _calm(after) > 0:
        # one round further, if nobody moved: who would then be in mortal danger (it would have to flee)
        quiet = clone(after)
        for c in quiet["chars"]:
            c["ap"] = 0
        later = _finish_round(game, quiet, seat)
        for s, c in enumerate(after["chars"]):
            lost = c["hp"] - later["chars"][s]["hp"]
            if lost >= c["hp"] or (later["outcome"] is not None and not later["outcome"]["winners"]):
                value -= 300 * _calm(after) if lost >= c["hp"] else 0
            elif lost:
                value -= 25 * lost * _calm(after)
    return value


def score(state: State, target: str) -> float:
    """How good a position is for the team."""
    cat = catalogue()
    final = cat.final_boss
    kb = state["bosses"][final]
    progress = 1 - kb["hp"] / kb["mhp"]
    if state["outcome"] is not None:
        return 1e6 if state["outcome"]["winners"] else -1e6 + 1000 * progress
    value = KRABULON_WEIGHT * progress
    for bid, b in state["bosses"].items():
        if bid == final:
            continue
        if b["hp"] <= 0:
            value += KILL_BONUS
        else:
            value += (TARGET_WEIGHT if bid == target else 150) * (1 - b["hp"] / b["mhp"])
    value += 150 * state["base_hp"]
    if state["provoked"] and target != final:
        value -= 400
    value += 10 * state["bank"]["coins"]
    value += sum(ITEM_VALUE.get(i, 10) * n for i, n in state["bank"]["items"].items())
    # a team that has found nothing better for many rounds grows bolder, so that every game ends
    calm = _calm(state)
    # a ready team closes in on Krabulon whatever the Lasers cost on the way: the fight pays later
    pull = 300 if target == final and (team_ready(state) or state["provoked"]) else 40
    for s, c in enumerate(state["chars"]):
        goal = goal_island(state, s, target)
        hp, mhp = c["hp"], max_hp(state, s)
        value += calm * HP_WEIGHT * hp + 15 * mhp
        if hp <= 1:
            value -= 250 * calm
        elif hp == 2:
            value -= 60 * calm
        value += 35 * _power(state, s, c["hands"])
        value += 12 * c["shield"]
        dist = _distances(goal)[c["at"]]
        reach = any(item(i).get("reach") == "connected" for i in c["hands"])
        if reach and dist >= 1 and goal != cat.base:
            dist -= 1
        value -= (pull + 200 * (1 - calm)) * dist
    return cast("float", value)


__all__ = ["choose", "score", "team_target", "CLASSES"]
