"""Damage, attacks and counter-attacks (§1.5), with everything that changes a blow on its way: the mark, the
experimental technique, Fortifications, Burilla's protection, Shield balls, the Spiked Shell's thorns, traps;
a boss's death with its drop (§3) and the end of the game (§1.6, §1.9, §5.1).

Every function works on the (already copied) state and reports what happened as public events.  ``over``
is checked after each whole blow: a character at 0 health ends the game at once (§1.6, BR-24)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

from bot.engine import Ctx

from .data import boss as boss_data
from .data import catalogue, item
from .state import (
    State,
    bank_add,
    boss_alive,
    can_counter,
    char,
    chars_on,
    cls_rule,
    give_fresh,
    max_hp,
    note_recent,
    scaled,
    strength,
)

RISKY_TAG = "bridges.risky"
DROP_TAG = "bridges.drop"


# ------------------------------------------------------------------------------------------ the end
def check_over(state: State, ctx: Ctx) -> bool:
    """End the game if it is decided: defeat when a character or the Base is at 0 (§1.6, §5.1), which
    wins over a Krabulon killed by the same blow (BR-24); victory when Krabulon is dead (§1.9)."""
    if state["outcome"] is not None:
        return True
    fallen = [s for s, c in enumerate(state["chars"]) if c["cls"] and c["hp"] <= 0]
    final = catalogue().final_boss
    if fallen:
        _end(state, ctx, [], "bridges.outcome.fallen", seats=fallen, rule="§1.6")
    elif state["base_hp"] <= 0:
        _end(state, ctx, [], "bridges.outcome.base", rule="§5.1")
    elif not boss_alive(state, final):
        _end(state, ctx, list(range(state["seats"])), "bridges.outcome.victory", rule="§1.9")
    return state["outcome"] is not None


def _end(state: State, ctx: Ctx, winners: list[int], reason: str, rule: str, seats: list[int] | None = None) -> None:
    params: dict[str, Any] = {"round": state["round"], "lost": not winners}
    if seats is not None:
        params["seats"] = seats
    state["outcome"] = {"winners": winners, "reason": reason, "params": params,
                        "scores": {"round": state["round"], "base_hp": state["base_hp"],
                                   "bosses_killed": sorted(b for b in state["bosses"] if not boss_alive(state, b))}}
    ctx.emit("game_over", won=bool(winners), reason=reason, seats=seats or [], round=state["round"], rule=rule)


# ------------------------------------------------------------------------------------------ players' damage
def attack_modes(state: Mapping[str, Any], seat: int, bid: str) -> list[str]:
    """How ``seat`` can attack ``bid`` from where it stands (§1.5): "body" (its own damage with the +bonus
    weapons, on the same island) and "weapons" (its weapons with their own damage that reach the boss)."""
    here = char(state, seat)["at"]
    there = state["bosses"][bid]["at"]
    modes = []
    if here == there:
        modes.append("body")
    if weapon_sources(state, seat, bid):
        modes.append("weapons")
    return modes


def weapon_sources(state: Mapping[str, Any], seat: int, bid: str) -> list[str]:
    """The held weapons with their own damage that reach the boss: all of them on its island, those that
    «Может атаковать по соединенным островам» on a neighbouring one (BR-6)."""
    here = char(state, seat)["at"]
    there = state["bosses"][bid]["at"]
    adjacent = catalogue().adjacent(here, there)
    return [i for i in char(state, seat)["hands"]
            if "damage" in item(i) and (here == there or (adjacent and item(i)["reach"] == "connected"))]


def sources(state: Mapping[str, Any], seat: int, bid: str, mode: str) -> list[int]:
    if mode == "body":
        return [strength(state, seat) + sum(item(i).get("bonus", 0) for i in char(state, seat)["hands"])]
    return [item(i)["damage"] for i in weapon_sources(state, seat, bid)]


def provoked_counter(state: Mapping[str, Any], seat: int, bid: str, mode: str) -> str:
    """The counter-attack an attack provokes (§4.1-§4.3, BR-6): a bare or +bonus blow is melee unless every
    +bonus weapon held «Не вызывает контратаку»; with own-damage weapons, ranged if any used weapon is ranged."""
    hands = char(state, seat)["hands"]
    if mode == "body":
        bonus = [item(i)["provokes"] for i in hands if "bonus" in item(i)]
        return "none" if bonus and all(p == "none" for p in bonus) else "melee"
    used = [item(i)["provokes"] for i in weapon_sources(state, seat, bid)]
    for kind in ("ranged", "melee"):
        if kind in used:
            return kind
    return "none"


def best_counter_damage(state: State, seat: int, bid: str) -> tuple[str, int] | None:
    """A character's counter-attack deals «полный урон от оружия и характеристик»: the stronger of its two
    ways to hit that boss (BR-7)."""
    options = [(m, sum(sources(state, seat, bid, m))) for m in attack_modes(state, seat, bid)]
    return max(options, key=lambda o: o[1]) if options else None


def risky_modifier(roll: int) -> int:
    return cast("int", catalogue().chars["risky"][roll])


def apply_risky(values: list[int], roll: int) -> list[int]:
    """§1.5: the d6 changes every source; a -1 never takes a source below 1 (BR-30)."""
    mod = risky_modifier(roll)
    return [max(1, v + mod) if mod < 0 else v + mod for v in values]


# ------------------------------------------------------------------------------------------ bosses take damage
def register_attack(state: State, bid: str, seat: int) -> None:
    """A player attacked ``bid`` (an attack or a counter-attack): Karate-bum remembers him (§3.4), the Casserole
    was attacked this round (§3.3), Golemko's peace ends (§3.2, BR-10)."""
    b = state["bosses"][bid]
    b["last_attacker"] = seat
    b["attacked"] = True
    b["angry"] = True


def hurt_boss(state: State, ctx: Ctx, bid: str, amount: int, cause: str, by: int | None = None) -> None:
    """``amount`` damage to a boss (never below 0); at 0 it dies and drops its loot (§3)."""
    b = state["bosses"][bid]
    if b["hp"] <= 0:
        return
    amount = max(0, amount)
    b["hp"] = max(0, b["hp"] - amount)
    ctx.emit("boss_hurt", boss=bid, amount=amount, hp=b["hp"], cause=cause, seat=by)
    if amount > 0 and bid == catalogue().final_boss and not state["provoked"]:
        state["provoked"] = True
        ctx.emit("provoked", why="hurt", rule="§3.1")
    if b["hp"] == 0:
        _boss_dies(state, ctx, bid)


def _boss_dies(state: State, ctx: Ctx, bid: str) -> None:
    b = state["bosses"][bid]
    b["marked"] = False
    ctx.emit("boss_killed", boss=bid, island=b["at"])
    for other, data in catalogue().bosses.items():
        if data.get("peaceful_while_dead") == bid and boss_alive(state, other):
            state["bosses"][other]["angry"] = False
            ctx.emit("peace", boss=other, dead=bid, rule="§3.2")
    drops = boss_data(bid).get("drops")
    if not drops:
        return
    roll = ctx.rng.randint(1, 4, DROP_TAG)
    drop = drops[roll]
    items = dict(drop.get("items", {}))
    coins = scaled(state, drop["coins"])
    bank_add(state, items)
    state["bank"]["coins"] += coins
    give_fresh(state, range(state["seats"]), items)
    ctx.emit("drop", boss=bid, roll=roll, items=items, coins=coins, rule="§3")


# ------------------------------------------------------------------------------------------ characters take damage
def _guardian(state: State, seat: int) -> int | None:
    """The Burilla who takes the damage meant for ``seat``: another character of that class on the same island
    with the protection on, the lowest seat first (§1.3, BR-15)."""
    island = char(state, seat)["at"]
    for s in chars_on(state, island):
        if s != seat and char(state, s)["guard"] and cls_rule(state, s, "guard", False):
            return s
    return None


def hurt_characters(state: State, ctx: Ctx, meant: dict[int, int], *, attack: bool, melee: bool,
                    boss: str | None, what: str) -> dict[int, dict[str, Any]]:
    """Deal ``meant`` damage (seat → amount) at once: one attack or blast (§1.5).  In order (BR-15, BR-27):
    Fortifications take 1 off each blow of an attack and count the attack once per island; a guarding Burilla
    takes the damage meant for his allies, halved and rounded up; Shield balls absorb; health drops.  Returns
    per targeted seat what happened to it (``blocked``: nothing got through)."""
    forts = catalogue().chars["buildings"]["fort"]
    report: dict[int, dict[str, Any]] = {s: {"meant": d, "fort": 0, "guard": None, "shield": 0, "taken": 0}
                                         for s, d in meant.items()}
    after_fort: dict[int, int] = {}
    islands_hit = set()
    for s, d in meant.items():
        island = char(state, s)["at"]
        building = state["buildings"].get(island)
        if attack and building and building["kind"] == "fort":
            cut = min(d, forts["reduce"])
            report[s]["fort"] = cut
            d -= cut
            islands_hit.add(island)
        after_fort[s] = max(0, d)
    incoming: dict[int, int] = {}
    for s, d in after_fort.items():
        guard = _guardian(state, s)
        if guard is not None:
            share = math.ceil(d / 2)
            report[s]["guard"] = guard
            report[s]["guarded"] = share
            incoming[guard] = incoming.get(guard, 0) + share
        else:
            incoming[s] = incoming.get(s, 0) + d
    for s, d in sorted(incoming.items()):
        c = char(state, s)
        absorbed = min(c["shield"], d)
        c["shield"] -= absorbed
        d -= absorbed
        c["hp"] = max(0, c["hp"] - d)
        entry = report.setdefault(s, {"meant": 0, "fort": 0, "guard": None, "shield": 0, "taken": 0})
        entry["shield"] += absorbed
        entry["taken"] += d
    for s, entry in sorted(report.items()):
        entry["blocked"] = entry["guard"] is not None or after_fort.get(s, 0) == 0 or entry["taken"] == 0
        ctx.emit("char_hurt", seat=s, meant=entry["meant"], fort=entry["fort"], guard=entry["guard"],
                 shield=entry["shield"], taken=entry["taken"], hp=char(state, s)["hp"], mhp=max_hp(state, s),
                 boss=boss, what=what)
    for island in sorted(islands_hit):
        building = state["buildings"][island]
        building["hits"] += 1
        if building["hits"] >= forts["hits"]:
            del state["buildings"][island]
            ctx.emit("fort_broken", island=island, rule="§1.8")
    if melee and boss is not None:
        for s in sorted(meant):
            armour = char(state, s)["armour"]
            thorns = item(armour).get("thorns") if armour else None
            if thorns and not report[s]["blocked"] and boss_alive(state, boss):
                ctx.emit("thorns", seat=s, boss=boss, amount=thorns, rule="§4.4")
                hurt_boss(state, ctx, boss, thorns, cause="thorns", by=s)
    return report


# ------------------------------------------------------------------------------------------ a boss strikes
def ability(bid: str, aid: str) -> dict[str, Any]:
    return cast("dict[str, Any]", boss_data(bid)["abilities"][aid])


def boss_strike(state: State, ctx: Ctx, bid: str, aid: str, targets: list[int], *, counter: bool) -> None:
    """``bid`` uses ``aid`` on ``targets``; each survivor may counter-attack unless the blow is «Без ответа»
    or is itself a counter-attack (§1.5)."""
    ab = ability(bid, aid)
    melee = ab.get("reach", "here") == "here"
    meant = {s: ab.get("damage", 0) for s in targets}
    hurt_characters(state, ctx, meant, attack=True, melee=melee, boss=bid, what=aid)
    if check_over(state, ctx) or counter or not ab.get("answer", False):
        return
    for s in targets:
        if not boss_alive(state, bid):
            return
        player_counter(state, ctx, s, bid)
        if check_over(state, ctx):
            return


def player_counter(state: State, ctx: Ctx, seat: int, bid: str) -> None:
    """The defender hits back at once with full damage (§1.5, BR-7); not Burilla, not with the Giant Shield."""
    if not can_counter(state, seat):
        ctx.emit("no_counter", seat=seat, boss=bid, why="cannot")
        return
    best = best_counter_damage(state, seat, bid)
    if best is None:
        ctx.emit("no_counter", seat=seat, boss=bid, why="reach")
        return
    mode, amount = best
    b = state["bosses"][bid]
    mark = 2 if b["marked"] else 1
    b["marked"] = False
    register_attack(state, bid, seat)
    ctx.emit("counter", seat=seat, boss=bid, mode=mode, amount=amount * mark, marked=mark == 2)
    hurt_boss(state, ctx, bid, amount * mark, cause="counter", by=seat)


def counter_ability(state: State, bid: str, kind: str) -> str | None:
    """The counter-attack ``bid`` answers a ``kind`` attack with (its «Контратака» lines)."""
    if kind == "none":
        return None
    here = chars_on(state, state["bosses"][bid]["at"])
    for line in boss_data(bid)["counter"][kind]:
        if line["if"] == "always" or (line["if"] == "here_2plus" and len(here) >= 2) or \
                (line["if"] == "here_1" and len(here) == 1):
            return cast("str | None", line["use"])
    return None


def boss_counter(state: State, ctx: Ctx, bid: str, attacker: int, aid: str) -> None:
    """``bid`` counter-attacks ``attacker`` with ``aid``, unless a trap on its island catches it (§1.3, BR-14)."""
    island = state["bosses"][bid]["at"]
    if island in state["traps"]:
        state["traps"].remove(island)
        ctx.emit("trap_sprung", boss=bid, island=island, rule="§1.3")
        hurt_boss(state, ctx, bid, 1, cause="trap")
        return
    ab = ability(bid, aid)
    targets = chars_on(state, island) if ab.get("all") else [attacker]
    ctx.emit("boss_counter", boss=bid, ability=aid, seat=attacker, targets=targets)
    boss_strike(state, ctx, bid, aid, targets, counter=True)


# ------------------------------------------------------------------------------------------ a player attacks
def player_attack(state: State, ctx: Ctx, seat: int, bid: str, mode: str, risky: bool) -> None:
    """The attack action (§1.4, §1.5): the attacker strikes first, then the defender, if alive, counter-attacks;
    the Dark Archer's «Удар» comes before the blow (§3.5)."""
    kind = provoked_counter(state, seat, bid, mode)
    register_attack(state, bid, seat)
    note_recent(state, "acted", seat)
    ctx.emit("attack", seat=seat, boss=bid, mode=mode, risky=risky, provokes=kind)
    counter = counter_ability(state, bid, kind)
    if counter and ability(bid, counter).get("first"):
        boss_counter(state, ctx, bid, seat, counter)
        counter = None
        if check_over(state, ctx):
            return
        if not boss_alive(state, bid):
            ctx.emit("attack_missed", seat=seat, boss=bid)
            return
    values = sources(state, seat, bid, mode)
    if risky:
        char(state, seat)["risky"] = True
        roll = ctx.rng.randint(1, 6, RISKY_TAG)
        changed = apply_risky(values, roll)
        ctx.emit("risky", seat=seat, roll=roll, modifier=risky_modifier(roll), before=values, after=changed,
                 rule="§1.5")
        values = changed
    b = state["bosses"][bid]
    mark = 2 if b["marked"] else 1
    b["marked"] = False
    total = sum(values) * mark
    ctx.emit("blow", seat=seat, boss=bid, sources=values, marked=mark == 2, amount=total)
    hurt_boss(state, ctx, bid, total, cause="attack", by=seat)
    if check_over(state, ctx):
        return
    if counter and boss_alive(state, bid):
        boss_counter(state, ctx, bid, seat, counter)
        check_over(state, ctx)


# ------------------------------------------------------------------------------------------ bombs
def blast(state: State, ctx: Ctx, bomb: dict[str, Any]) -> None:
    """A bomb blows: 3×N to everyone on its island, characters and bosses alike; not an attack (BR-13)."""
    island = bomb["at"]
    amount = item("bomb")["per_player"] * state["seats"]
    ctx.emit("bomb_blast", island=island, amount=amount, seat=bomb["by"], rule="§4.5")
    for bid in list(state["bosses"]):
        if state["bosses"][bid]["at"] == island and boss_alive(state, bid):
            state["bosses"][bid]["angry"] = True
            hurt_boss(state, ctx, bid, amount, cause="bomb", by=bomb["by"])
    targets = chars_on(state, island)
    if targets:
        hurt_characters(state, ctx, {s: amount for s in targets}, attack=False, melee=False, boss=None, what="bomb")
