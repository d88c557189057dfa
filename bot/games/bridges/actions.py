"""Every player action: its fields, why it may be refused (each check returns the Reject that explains it, so
the legal list and the refusals never disagree), and what it does.

Actions cost AP only where the book says so (§1.4): Move, Attack, Build, the Scout's abilities, charging the
Catapult, laying a Bomb; everything else is free while the seat's action phase lasts (BR-28)."""
from __future__ import annotations

from typing import Any, Callable, Mapping, cast

from bot.engine import Code, Ctx, Reject
from bot.engine.contract import Action

from .combat import attack_modes, check_over, hurt_boss, player_attack, provoked_counter, sources
from .data import CLASSES, catalogue, item
from .flow import after_action
from .setup import choose_class, open_classes
from .state import (
    State,
    bank_add,
    bank_count,
    bank_take,
    boss_alive,
    char,
    clamp_hp,
    cls_rule,
    equipped,
    give_fresh,
    hands_used,
    heal,
    max_hp,
    may_relocate,
    move_cost,
    note_recent,
)


# ------------------------------------------------------------------------------------------ fields
def _island(v: Any) -> bool:
    return isinstance(v, str) and v in catalogue().islands


def _boss(v: Any) -> bool:
    return isinstance(v, str) and v in catalogue().bosses


def _item(v: Any) -> bool:
    return isinstance(v, str) and v in catalogue().items


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _seat_field(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 64


def _replace(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= 2 and all(_item(i) for i in v)


#: per action type: field → (validator, default; ``...`` = required)
FIELDS: dict[str, dict[str, tuple[Callable[[Any], bool], Any]]] = {
    "choose": {"cls": (lambda v: v in CLASSES, ...)},
    "end": {},
    "move": {"to": (_island, ...)},
    "attack": {"boss": (_boss, ...), "mode": (lambda v: v in ("body", "weapons"), ...), "risky": (_bool, False)},
    "mark": {"boss": (_boss, ...)},
    "trap": {"island": (_island, None)},  # where (§1.3: the Scout's own island); absent in older records: his own
    "push": {"seat": (_seat_field, ...), "to": (_island, ...)},
    "guard": {"on": (_bool, ...)},
    "build": {"building": (lambda v: v in ("fort", "catapult"), ...)},
    "charge": {},
    "launch": {"to": (_island, ...)},
    "launch_item": {"item": (_item, ...), "island": (_island, None), "seat": (_seat_field, None),
                    "to": (_island, None)},
    "bomb": {},
    "spring": {"to": (_island, ...)},
    "use": {"item": (lambda v: v in ("potion", "shield_ball"), ...)},
    "buy": {"item": (_item, ...)},
    "blueprints": {},
    "camp": {},
    "equip": {"item": (_item, ...), "replace": (_replace, [])},
    "unequip": {"item": (_item, ...)},
    "dismantle": {"item": (_item, ...)},
}


def normalise(action: Any) -> Action:
    """The action with its defaults filled in, or Reject(malformed) for unknown types, fields or values."""
    kind = action.get("type")
    spec = FIELDS.get(kind)
    if spec is None:
        raise Reject("bridges.reject.unknown_action", code=Code.MALFORMED)
    unknown = sorted(set(action) - set(spec) - {"type"})
    if unknown:
        raise Reject("bridges.reject.bad_field", code=Code.MALFORMED, field=str(unknown[0])[:40])
    result: Action = {"type": kind}
    for name, (valid, default) in spec.items():
        if name not in action:
            if default is ...:
                raise Reject("bridges.reject.bad_field", code=Code.MALFORMED, field=name)
            if default is not None:
                result[name] = list(default) if isinstance(default, list) else default
            continue
        if not valid(action[name]):
            raise Reject("bridges.reject.bad_field", code=Code.MALFORMED, field=name)
        result[name] = list(action[name]) if isinstance(action[name], list) else action[name]
    return result


# ------------------------------------------------------------------------------------------ shared checks
def named(kind: str, ident: str) -> str:
    """A refusal's parameter that names an island, boss, item or class in the reader's language (bot/i18n)."""
    return f"@bridges.{kind}.{ident}"


def _need_ap(state: State, seat: int, need: int, rule: str = "§1.4") -> Reject | None:
    have = char(state, seat)["ap"]
    if have < need:
        return Reject("bridges.reject.no_ap", rule=rule, need=need, have=have)
    return None


def _here(state: Mapping[str, Any], seat: int) -> str:
    return cast("str", char(state, seat)["at"])


def _coins(state: State, need: int, rule: str) -> Reject | None:
    if state["bank"]["coins"] < need:
        return Reject("bridges.reject.no_coins", rule=rule, need=need, have=state["bank"]["coins"])
    return None


def _in_bank(state: State, iid: str, rule: str, n: int = 1) -> Reject | None:
    if bank_count(state, iid) < n:
        return Reject("bridges.reject.not_in_bank", rule=rule, item=named("item", iid))
    return None


def _relocate_problem(state: State, seat: int) -> Reject | None:
    if not may_relocate(state, seat):
        return Reject("bridges.reject.shell_moved", rule="§4.4")
    return None


def _alive_boss(state: State, bid: str) -> Reject | None:
    if not boss_alive(state, bid):
        return Reject("bridges.reject.boss_dead", rule="§3", boss=named("boss", bid))
    return None


# ------------------------------------------------------------------------------------------ problems per type
def problem(state: State, seat: int, a: Action) -> Reject | None:
    kind = a["type"]
    if state["phase"] == "choose":
        if kind != "choose":
            return Reject("bridges.reject.choose_first", rule="§1.1")
        if char(state, seat)["cls"]:
            return Reject("bridges.reject.chosen", rule="§1.1")
        if a["cls"] not in open_classes(state):
            # Unique up to four players is the book's (§1.1); "evenly" beyond that is the option's (BR-2).
            return Reject("bridges.reject.class_taken", rule="§1.1" if state["seats"] <= len(CLASSES) else "BR-2",
                          cls=named("class", a["cls"]))
        return None
    if kind == "choose":
        return Reject("bridges.reject.chosen", rule="§1.1")
    return PROBLEMS[kind](state, seat, a)


#: the actions that cost AP (§1.4, §1.3, §1.8, §4.5); every other one is free (BR-28)
AP_ACTIONS = ("move", "attack", "mark", "trap", "push", "bomb", "build", "charge")


def ap_left_to_spend(state: State, seat: int) -> bool:
    """Whether something ``seat`` could do now costs AP (what ending the phase would give up)."""
    return char(state, seat)["ap"] > 0 and any(
        problem(state, seat, x) is None for x in candidates(state, seat) if x["type"] in AP_ACTIONS)


def _p_end(state: State, seat: int, a: Action) -> Reject | None:
    """§1.2.1: the phase lasts «пока все игроки не потратят все свои Очки Действия», so under ``phase_end:
    spend`` a seat ends it only with its AP spent, or when nothing it could do costs AP (BR-1)."""
    ap = char(state, seat)["ap"]
    if state["options"]["phase_end"] != "spend" or ap == 0:
        return None
    if ap_left_to_spend(state, seat):
        return Reject("bridges.reject.spend_ap", rule="§1.2", ap=ap)
    return None


def _p_move(state: State, seat: int, a: Action) -> Reject | None:
    here = _here(state, seat)
    if not catalogue().adjacent(here, a["to"]):
        return Reject("bridges.reject.not_adjacent", rule="§1.4", island=named("island", a["to"]),
                      here=named("island", here))
    cost = move_cost(state, seat)
    return _need_ap(state, seat, cost, "§4.4" if cost > 1 else "§1.4") or _relocate_problem(state, seat)


def _p_attack(state: State, seat: int, a: Action) -> Reject | None:
    bid = a["boss"]
    problem_ = _alive_boss(state, bid)
    if problem_:
        return problem_
    modes = attack_modes(state, seat, bid)
    if not modes:
        return Reject("bridges.reject.out_of_reach", rule="§1.5", boss=named("boss", bid))
    if a["mode"] not in modes:
        key = "bridges.reject.no_weapons" if a["mode"] == "weapons" else "bridges.reject.not_here"
        return Reject(key, rule="§1.5", boss=bid)
    if a["risky"] and char(state, seat)["risky"]:
        return Reject("bridges.reject.risky_used", rule="§1.5")
    return _need_ap(state, seat, 1)


def _scout(state: State, seat: int, ability: str) -> Reject | None:
    if not cls_rule(state, seat, ability, False):
        return Reject("bridges.reject.not_scout", rule="§1.3")
    return None


def _p_mark(state: State, seat: int, a: Action) -> Reject | None:
    bid = a["boss"]
    problem_ = _scout(state, seat, "mark") or _alive_boss(state, bid)
    if problem_:
        return problem_
    if state["bosses"][bid]["at"] != _here(state, seat):
        return Reject("bridges.reject.not_here", rule="§1.3", boss=named("boss", bid))
    if state["bosses"][bid]["marked"]:
        return Reject("bridges.reject.marked", rule="BR-8", boss=named("boss", bid))
    return _need_ap(state, seat, 1, "§1.3")


def trap_island(state: State, seat: int, a: Action) -> str:
    """The island a trap action names (an action of rules version 2 named none: the Scout's own)."""
    return a.get("island") or _here(state, seat)


def _p_trap(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _scout(state, seat, "trap")
    if problem_:
        return problem_
    island = trap_island(state, seat, a)
    if island != _here(state, seat):  # «Может поставить ловушку за 1 ОД на свой остров»
        return Reject("bridges.reject.trap_own_island", rule="§1.3", island=named("island", island),
                      here=named("island", _here(state, seat)))
    if island in state["traps"]:
        return Reject("bridges.reject.trap_there", rule="§1.3")
    return _need_ap(state, seat, 1, "§1.3")


def _p_push(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _scout(state, seat, "push")
    if problem_:
        return problem_
    ally = a["seat"]
    if ally >= state["seats"] or ally == seat:
        return Reject("bridges.reject.not_ally", rule="§1.3")
    there = _here(state, ally)
    if not catalogue().adjacent(there, a["to"]):
        # «на соседний остров»
        return Reject("bridges.reject.not_adjacent", rule="§1.3", island=named("island", a["to"]),
                      here=named("island", there))
    return _need_ap(state, seat, 1, "§1.3")


def _p_guard(state: State, seat: int, a: Action) -> Reject | None:
    if not cls_rule(state, seat, "guard", False):
        return Reject("bridges.reject.not_burilla", rule="§1.3")
    if char(state, seat)["guard"] == a["on"]:
        return Reject("bridges.reject.guard_already", rule="BR-15")
    return None


def building_cost(state: Mapping[str, Any], seat: int, kind: str) -> tuple[int, dict[str, int]]:
    """Coins and items a building costs this seat: the Master builds for no coins (§1.3), but the Catapult's
    Spring is still needed (BR-27)."""
    spec = catalogue().chars["buildings"][kind]
    coins = 0 if cls_rule(state, seat, "free_buildings", False) else spec["coins"]
    return coins, dict(spec.get("items", {}))


def _p_build(state: State, seat: int, a: Action) -> Reject | None:
    here = _here(state, seat)
    if here in state["buildings"]:
        return Reject("bridges.reject.one_building", rule="§1.8")
    coins, items = building_cost(state, seat, a["building"])
    for iid, n in items.items():
        problem_ = _in_bank(state, iid, "§1.8", n)
        if problem_:
            return problem_
    return _coins(state, coins, "§1.8") or _need_ap(state, seat, 1)


def _catapult(state: State, seat: int) -> dict[str, Any] | None:
    b = state["buildings"].get(_here(state, seat))
    return b if b and b["kind"] == "catapult" else None


def _catapult_here(state: State, seat: int) -> dict[str, Any]:
    """The catapult an action's check found where ``seat`` stands."""
    cat_ = _catapult(state, seat)
    if cat_ is None:
        raise ValueError(f"no catapult where seat {seat} stands")
    return cat_


def quote(state: Mapping[str, Any], seat: int, iid: str) -> tuple[int, str]:
    """The price and rule of an item the checks found for sale where ``seat`` stands."""
    found = price(state, seat, iid)
    if isinstance(found, Reject):
        raise found
    return found


def _p_charge(state: State, seat: int, a: Action) -> Reject | None:
    cat_ = _catapult(state, seat)
    if cat_ is None:
        return Reject("bridges.reject.no_catapult", rule="§1.8")
    if cat_["charged"]:
        return Reject("bridges.reject.charged", rule="§1.8")
    return _need_ap(state, seat, 1, "§1.8")


def _charged(state: State, seat: int) -> Reject | None:
    cat_ = _catapult(state, seat)
    if cat_ is None:
        return Reject("bridges.reject.no_catapult", rule="§1.8")
    if not cat_["charged"]:
        return Reject("bridges.reject.not_charged", rule="§1.8")
    return None


def _p_launch(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _charged(state, seat)
    if problem_:
        return problem_
    if a["to"] == _here(state, seat):
        return Reject("bridges.reject.same_island", rule="§1.8")
    return _relocate_problem(state, seat)


def _p_launch_item(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _charged(state, seat)
    if problem_:
        return problem_
    iid = a["item"]
    if item(iid)["kind"] != "consumable":
        return Reject("bridges.reject.not_consumable", rule="§1.8", item=named("item", iid))
    problem_ = _in_bank(state, iid, "§1.8")
    if problem_:
        return problem_
    use = item(iid)["use"]
    wanted = {"bomb": {"island"}, "heal": {"seat"}, "shield": {"seat"}, "jump": {"seat", "to"}}[use]
    given = {k for k in ("island", "seat", "to") if k in a}
    if given != wanted:
        return Reject("bridges.reject.launch_target", rule="BR-19", item=named("item", iid))
    if "seat" in a and a["seat"] >= state["seats"]:
        return Reject("bridges.reject.not_ally", rule="BR-19")
    if use == "heal":
        return _heal_problem(state, a["seat"])
    if use == "shield":
        return _shield_problem(state, a["seat"])
    if use == "jump":
        if a["to"] == _here(state, a["seat"]):
            return Reject("bridges.reject.same_island", rule="§4.5")
        return _relocate_problem(state, a["seat"]) if a["seat"] == seat else None
    return None


def _heal_problem(state: State, target: int) -> Reject | None:
    if char(state, target)["hp"] >= max_hp(state, target):
        return Reject("bridges.reject.full_health", rule="§4.5")
    return None


def _shield_problem(state: State, target: int) -> Reject | None:
    if char(state, target)["shield"] > 0:
        return Reject("bridges.reject.shield_up", rule="BR-18")
    return None


def _p_bomb(state: State, seat: int, a: Action) -> Reject | None:
    return _in_bank(state, "bomb", "§4.5") or _need_ap(state, seat, item("bomb")["ap"], "§4.5")


def _p_spring(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _in_bank(state, "spring", "§4.5")
    if problem_:
        return problem_
    if a["to"] == _here(state, seat):
        return Reject("bridges.reject.same_island", rule="§4.5")
    return _relocate_problem(state, seat)


def _p_use(state: State, seat: int, a: Action) -> Reject | None:
    iid = a["item"]
    problem_ = _in_bank(state, iid, "§4.5")
    if problem_:
        return problem_
    return _heal_problem(state, seat) if iid == "potion" else _shield_problem(state, seat)


def price(state: Mapping[str, Any], seat: int, iid: str) -> tuple[int, str] | Reject:
    """What ``iid`` costs where ``seat`` stands, and the rule that sells it, or why it is not for sale."""
    cat = catalogue()
    here = _here(state, seat)
    troll, craft = cat.troll, cat.craftsman
    if here == troll["island"]:
        if iid in troll["stock"]:
            return troll["stock"][iid], "§5.3"
        return Reject("bridges.reject.not_sold", rule="§5.3", item=named("item", iid))
    if here != craft["island"]:
        return Reject("bridges.reject.no_shop", rule="§1.4")
    if iid in craft["tier1"]:
        return craft["tier1"][iid], "§5.2"
    if iid in craft["tier2"]:
        if not state["blueprints"]:
            return Reject("bridges.reject.need_blueprints", rule="§5.2", item=named("item", iid))
        if iid in state["tier2_sold"]:
            return Reject("bridges.reject.tier2_once", rule="§5.2", item=named("item", iid))
        return craft["tier2"][iid], "§5.2"
    if iid == craft["arm_trade"]["item"]:
        if not state["arm_trade"]:
            return Reject("bridges.reject.show_hand", rule="§5.1")
        return craft["arm_trade"]["price"], "§5.1"
    return Reject("bridges.reject.not_sold", rule="§5.2", item=named("item", iid))


def _p_buy(state: State, seat: int, a: Action) -> Reject | None:
    quote = price(state, seat, a["item"])
    if isinstance(quote, Reject):
        return quote
    return _coins(state, quote[0], quote[1])


def _at_craftsman(state: State, seat: int) -> Reject | None:
    if _here(state, seat) != catalogue().craftsman["island"]:
        return Reject("bridges.reject.not_at_base", rule="§5.1")
    return None


def _p_blueprints(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _at_craftsman(state, seat)
    if problem_:
        return problem_
    if state["blueprints"]:
        return Reject("bridges.reject.have_blueprints", rule="§1.3")
    return _coins(state, catalogue().craftsman["blueprints"], "§5.1")


def camp_cost(state: Mapping[str, Any], seat: int) -> int:
    if state["options"]["master_camp"] == "free" and cls_rule(state, seat, "free_buildings", False):
        return 0
    return cast("int", catalogue().craftsman["camp"])


def _p_camp(state: State, seat: int, a: Action) -> Reject | None:
    problem_ = _at_craftsman(state, seat)
    if problem_:
        return problem_
    if state["camp"]:
        return Reject("bridges.reject.have_camp", rule="§5.1")
    return _coins(state, camp_cost(state, seat), "§5.1")


def equip_options(state: State, seat: int, iid: str) -> list[list[str]]:
    """The equipped items that must come off to put ``iid`` on (one list per way of doing it, § 1.3)."""
    it = item(iid)
    c = char(state, seat)
    if it["kind"] == "armour":
        return [[c["armour"]]] if c["armour"] else [[]]
    need = it["hands"]
    if 2 - hands_used(state, seat) >= need:
        return [[]]
    if need == 2:
        return [sorted(c["hands"])]
    return [[h] for h in sorted(set(c["hands"]))]


def _p_equip(state: State, seat: int, a: Action) -> Reject | None:
    iid = a["item"]
    it = item(iid)
    if it["kind"] == "consumable":
        return Reject("bridges.reject.not_equipment", rule="§1.3", item=named("item", iid))
    if it.get("mage_only") and not cls_rule(state, seat, "staves", False):
        return Reject("bridges.reject.mage_only", rule="§4.3", item=named("item", iid))
    problem_ = _in_bank(state, iid, "§1.3")
    if problem_:
        return problem_
    at_base = _here(state, seat) == catalogue().base
    if not at_base and iid not in state["fresh"][seat]:
        return Reject("bridges.reject.equip_at_base", rule="§1.3", item=named("item", iid))
    if sorted(a["replace"]) not in equip_options(state, seat, iid):
        return Reject("bridges.reject.bad_replace", rule="§1.3", item=named("item", iid))
    return None


def _p_unequip(state: State, seat: int, a: Action) -> Reject | None:
    if a["item"] not in equipped(state, seat):
        return Reject("bridges.reject.not_equipped", rule="§1.3", item=named("item", a["item"]))
    if _here(state, seat) != catalogue().base:
        return Reject("bridges.reject.unequip_at_base", rule="§1.3")
    return None


def _p_dismantle(state: State, seat: int, a: Action) -> Reject | None:
    if not cls_rule(state, seat, "dismantle", False):
        return Reject("bridges.reject.not_master", rule="§1.3")
    return _in_bank(state, a["item"], "BR-22")


PROBLEMS: dict[str, Callable[[State, int, Action], Reject | None]] = {
    "end": _p_end, "move": _p_move, "attack": _p_attack, "mark": _p_mark, "trap": _p_trap, "push": _p_push,
    "guard": _p_guard, "build": _p_build, "charge": _p_charge, "launch": _p_launch, "launch_item": _p_launch_item,
    "bomb": _p_bomb, "spring": _p_spring, "use": _p_use, "buy": _p_buy, "blueprints": _p_blueprints,
    "camp": _p_camp, "equip": _p_equip, "unequip": _p_unequip, "dismantle": _p_dismantle,
}


# ------------------------------------------------------------------------------------------ candidates
def candidates(state: State, seat: int) -> list[Action]:
    """Every action worth asking ``problem`` about, in the order the lists show them."""
    cat = catalogue()
    if state["phase"] == "choose":
        return [{"type": "choose", "cls": c} for c in CLASSES]
    c = char(state, seat)
    here = c["at"]
    out: list[Action] = []
    for bid in state["bosses"]:
        for mode in ("body", "weapons"):
            for risky in (False, True):
                out.append({"type": "attack", "boss": bid, "mode": mode, "risky": risky})
    out += [{"type": "move", "to": i} for i in cat.neighbours(here)]
    out += [{"type": "mark", "boss": bid} for bid in state["bosses"]]
    out.append({"type": "trap", "island": here})
    for ally in range(state["seats"]):
        if ally != seat:
            out += [{"type": "push", "seat": ally, "to": i} for i in cat.neighbours(state["chars"][ally]["at"])]
    out += [{"type": "use", "item": "potion"}, {"type": "use", "item": "shield_ball"}, {"type": "bomb"}]
    out += [{"type": "build", "building": b} for b in ("fort", "catapult")]
    out.append({"type": "charge"})
    out += [{"type": "spring", "to": i} for i in cat.islands]
    out += [{"type": "launch", "to": i} for i in cat.islands]
    if (cat_ := _catapult(state, seat)) and cat_["charged"]:
        for iid in sorted(state["bank"]["items"]):
            use = item(iid).get("use")
            if use == "bomb":
                out += [{"type": "launch_item", "item": iid, "island": i} for i in cat.islands]
            elif use in ("heal", "shield"):
                out += [{"type": "launch_item", "item": iid, "seat": s} for s in range(state["seats"])]
            elif use == "jump":
                out += [{"type": "launch_item", "item": iid, "seat": s, "to": i}
                        for s in range(state["seats"]) for i in cat.islands]
    shop = sorted(set(cat.craftsman["tier1"]) | set(cat.craftsman["tier2"]) | {cat.craftsman["arm_trade"]["item"]}
                  | set(cat.troll["stock"]), key=list(cat.items).index)
    out += [{"type": "buy", "item": i} for i in shop]
    out += [{"type": "blueprints"}, {"type": "camp"}]
    for iid in sorted(state["bank"]["items"], key=list(cat.items).index):
        if item(iid)["kind"] != "consumable":
            # putting on an item in place of the same item changes nothing: not offered (still allowed)
            out += [{"type": "equip", "item": iid, "replace": r} for r in equip_options(state, seat, iid)
                    if r != [iid]]
    out += [{"type": "unequip", "item": i} for i in dict.fromkeys(equipped(state, seat))]
    out += [{"type": "guard", "on": not c["guard"]}]
    out += [{"type": "dismantle", "item": i} for i in sorted(state["bank"]["items"], key=list(cat.items).index)]
    out.append({"type": "end"})
    return out


def receiving(state: State, seat: int) -> bool:
    """Whether ``seat`` may still put on an item it has just received (BR-4: a boss's drop from its own last
    blow): a choice of the moment, so under ``zero_ap: end`` the phase waits for it, or for End (BR-1).  Read
    from the open table alone."""
    fresh = state["fresh"][seat]
    return bool(fresh) and any(a["type"] == "equip" and a["item"] in fresh for a in legal_actions(state, seat))


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["outcome"] is not None:
        return []
    return [a for a in candidates(state, seat) if problem(state, seat, a) is None]


# ------------------------------------------------------------------------------------------ doing
def apply_action(state: State, seat: int, raw: Action, ctx: Ctx) -> None:
    a = normalise(raw)
    refusal = problem(state, seat, a)
    if refusal:
        raise refusal
    kind = a["type"]
    if kind == "choose":
        choose_class(state, ctx, seat, a["cls"])
        return
    if kind != "equip" or a["item"] not in state["fresh"][seat]:
        state["fresh"][seat] = []
    DOERS[kind](state, seat, a, ctx)
    check_over(state, ctx)
    after_action(state, seat=seat, ctx=ctx, receiving=char(state, seat)["ap"] == 0 and receiving(state, seat))


def _spend(state: State, seat: int, ap: int) -> None:
    char(state, seat)["ap"] -= ap
    note_recent(state, "acted", seat)


def arrive(state: State, ctx: Ctx, seat: int, island: str, how: str, *, own: bool = True) -> None:
    """``seat`` is now on ``island``: a chest there opens (§2), stepping next to Krabulon provokes him (§3.1)."""
    cat = catalogue()
    c = char(state, seat)
    frm = c["at"]
    c["at"] = island
    if own:
        c["moves"] += 1
    note_recent(state, "moved", seat)
    ctx.emit("moved", seat=seat, frm=frm, dest=island, how=how)
    if island in state["chests"]:
        state["chests"].remove(island)
        coins = catalogue().chars["chest_coins"] + state["seats"] - 1
        state["bank"]["coins"] += coins
        ctx.emit("chest", seat=seat, island=island, coins=coins, rule="§2")
    final = cat.final_boss
    if not state["provoked"] and cat.adjacent(island, state["bosses"][final]["at"]) and boss_alive(state, final):
        state["provoked"] = True
        ctx.emit("provoked", why="near", seat=seat, island=island, rule="§3.1")


def _d_end(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    c = char(state, seat)
    c["done"] = True
    # All AP spent: the book's own end of the phase (§1.2); with AP left, a ruling allows it (BR-1).
    ctx.emit("phase_ended", seat=seat, ap=c["ap"], how="end", rule="BR-1" if c["ap"] else "§1.2")


def _d_move(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, move_cost(state, seat))
    arrive(state, ctx, seat, a["to"], "move")


def _d_attack(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, 1)
    player_attack(state, ctx, seat, a["boss"], a["mode"], a["risky"])


def _d_mark(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, 1)
    state["bosses"][a["boss"]]["marked"] = True
    ctx.emit("marked", seat=seat, boss=a["boss"], rule="§1.3")


def _d_trap(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, 1)
    island = trap_island(state, seat, a)
    state["traps"].append(island)
    ctx.emit("trap_set", seat=seat, island=island, rule="§1.3")


def _d_push(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, 1)
    ctx.emit("pushed", seat=seat, ally=a["seat"], rule="§1.3")
    arrive(state, ctx, a["seat"], a["to"], "push", own=False)


def _d_guard(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    char(state, seat)["guard"] = a["on"]
    ctx.emit("guard", seat=seat, on=a["on"], rule="BR-15")


def _d_build(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    coins, items = building_cost(state, seat, a["building"])
    _spend(state, seat, 1)
    state["bank"]["coins"] -= coins
    for iid, n in items.items():
        bank_take(state, iid, n)
    here = _here(state, seat)
    state["buildings"][here] = {"kind": "fort", "hits": 0} if a["building"] == "fort" else \
        {"kind": "catapult", "charged": False}
    state["buildings"] = dict(sorted(state["buildings"].items(), key=lambda kv: catalogue().islands.index(kv[0])))
    ctx.emit("built", seat=seat, building=a["building"], island=here, coins=coins, items=items, rule="§1.8")


def _d_charge(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, 1)
    _catapult_here(state, seat)["charged"] = True
    ctx.emit("charged", seat=seat, island=_here(state, seat), rule="§1.8")


def _d_launch(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _catapult_here(state, seat)["charged"] = False
    arrive(state, ctx, seat, a["to"], "catapult")


def _d_launch_item(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _catapult_here(state, seat)["charged"] = False
    iid = a["item"]
    bank_take(state, iid)
    ctx.emit("launched", seat=seat, item=iid, island=a.get("island"), target=a.get("seat"), dest=a.get("to"),
             rule="§1.8")
    use = item(iid)["use"]
    if use == "bomb":
        _lay_bomb(state, ctx, seat, a["island"])
    elif use == "heal":
        _drink(state, ctx, a["seat"], iid)
    elif use == "shield":
        _shield(state, ctx, a["seat"])
    else:
        arrive(state, ctx, a["seat"], a["to"], "spring", own=a["seat"] == seat)


def _lay_bomb(state: State, ctx: Ctx, seat: int, island: str) -> None:
    state["bombs"].append({"at": island, "round": state["round"], "by": seat})
    ctx.emit("bomb_laid", seat=seat, island=island, timing=state["options"]["bomb_timing"], rule="BR-13")


def _drink(state: State, ctx: Ctx, seat: int, iid: str) -> None:
    gained = heal(state, seat, item(iid)["heal"])
    ctx.emit("healed", seat=seat, amount=gained, hp=char(state, seat)["hp"], rule="§4.5")


def _shield(state: State, ctx: Ctx, seat: int) -> None:
    char(state, seat)["shield"] = item("shield_ball")["absorb"]
    ctx.emit("shield_up", seat=seat, points=char(state, seat)["shield"], rule="§4.5")


def _d_bomb(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    _spend(state, seat, item("bomb")["ap"])
    bank_take(state, "bomb")
    _lay_bomb(state, ctx, seat, _here(state, seat))


def _d_spring(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    bank_take(state, "spring")
    arrive(state, ctx, seat, a["to"], "spring")


def _d_use(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    bank_take(state, a["item"])
    if a["item"] == "potion":
        _drink(state, ctx, seat, "potion")
    else:
        _shield(state, ctx, seat)


def _d_buy(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    cost, rule = quote(state, seat, a["item"])
    state["bank"]["coins"] -= cost
    if a["item"] in catalogue().craftsman["tier2"]:
        state["tier2_sold"].append(a["item"])
    bank_add(state, {a["item"]: 1})
    give_fresh(state, [seat], {a["item"]: 1})
    ctx.emit("bought", seat=seat, item=a["item"], coins=cost, rule=rule)


def _d_blueprints(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    cost = catalogue().craftsman["blueprints"]
    state["bank"]["coins"] -= cost
    state["blueprints"] = True
    ctx.emit("blueprints", seat=seat, coins=cost, rule="§5.1")


def _d_camp(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    cost = camp_cost(state, seat)
    state["bank"]["coins"] -= cost
    state["camp"] = True
    ctx.emit("camp", seat=seat, coins=cost, rule="§5.1")


def _d_equip(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    iid = a["item"]
    fresh = iid in state["fresh"][seat]
    if fresh:
        state["fresh"][seat].remove(iid)
    c = char(state, seat)
    for old in a["replace"]:
        if c["armour"] == old:
            c["armour"] = None
        else:
            c["hands"].remove(old)
        bank_add(state, {old: 1})
    bank_take(state, iid)
    if item(iid)["kind"] == "armour":
        c["armour"] = iid
    else:
        c["hands"].append(iid)
        c["hands"].sort()
    clamp_hp(state, seat)
    healed = heal(state, seat, item(iid).get("mhp", 0)) if fresh else 0
    ctx.emit("equipped", seat=seat, item=iid, removed=list(a["replace"]), fresh=fresh, healed=healed,
             hp=c["hp"], mhp=max_hp(state, seat), rule="§1.3")


def _d_unequip(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    c = char(state, seat)
    iid = a["item"]
    if c["armour"] == iid:
        c["armour"] = None
    else:
        c["hands"].remove(iid)
    bank_add(state, {iid: 1})
    clamp_hp(state, seat)
    ctx.emit("unequipped", seat=seat, item=iid, hp=c["hp"], mhp=max_hp(state, seat), rule="§1.3")


def _d_dismantle(state: State, seat: int, a: Action, ctx: Ctx) -> None:
    iid = a["item"]
    value = (catalogue().price(iid) or 0) // 2
    bank_take(state, iid)
    state["bank"]["coins"] += value
    ctx.emit("dismantled", seat=seat, item=iid, coins=value, rule="§1.3")


DOERS: dict[str, Callable[[State, int, Action, Ctx], None]] = {
    "end": _d_end, "move": _d_move, "attack": _d_attack, "mark": _d_mark, "trap": _d_trap, "push": _d_push,
    "guard": _d_guard, "build": _d_build, "charge": _d_charge, "launch": _d_launch, "launch_item": _d_launch_item,
    "bomb": _d_bomb, "spring": _d_spring, "use": _d_use, "buy": _d_buy, "blueprints": _d_blueprints,
    "camp": _d_camp, "equip": _d_equip, "unequip": _d_unequip, "dismantle": _d_dismantle,
}


def timeout(state: State, seat: int, ctx: Ctx) -> None:
    """A seat's deadline passed (option phase_seconds): while choosing it gets the first open class; in the
    action phase its phase ends with what it has left (BR-33)."""
    ctx.emit("timed_out", seat=seat, rule="BR-33")
    if state["phase"] == "choose":
        choose_class(state, ctx, seat, open_classes(state)[0])
        return
    state["fresh"][seat] = []
    _d_end(state, seat, {"type": "end"}, ctx)
    after_action(state, ctx=ctx, seat=seat)


__all__ = ["apply_action", "legal_actions", "normalise", "problem", "timeout", "hurt_boss", "provoked_counter",
           "sources"]
