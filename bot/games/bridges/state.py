"""The Bridges table state and the small reads and writes every rule uses.

The game's own keys (besides the framework's; everything is public: the game is co-operative and open,
§1.1.2 «нет тумана войны»):

    phase      "choose" (characters are being chosen, §1.1.4) or "actions" (the players' action phase, §1.2.1);
               the neutral phase (§1.2.2) is played by the referee at once when the last seat ends its phase
    round      the round number (0 while choosing)
    chars      per seat: {cls, at, hp, ap, hands: [item ids], armour, done, risky (technique used this round),
               moves (own relocations this phase), shield (Shield ball points left), guard (Burilla's protection
               switched on)}; cls/at are None while choosing
    bosses     per boss: {at, hp, mhp, marked, last_attacker, attacked (this round), angry (Golemko's anger after
               the peace, BR-10)}; a dead boss has hp 0
    provoked   Krabulon has been provoked (§3.1: lasers at the Base)
    base_hp    the Base's health (§5.1)
    bank       {"coins": n, "items": {item: count}}: the team's shared bank (§1.7)
    buildings  {island: {"kind": "fort", "hits": n} | {"kind": "catapult", "charged": bool}}
    camp, blueprints, arm_trade   the Base's upgrades (§5.1); tier2_sold: tier-2 items already made (§5.2)
    chests     islands whose chest is still there (§2)
    traps      islands with a Scout's trap (§1.3)
    bombs      [{"at": island, "round": r, "by": seat}]: bombs waiting to blow (§4.5, BR-13)
    fresh      per seat, the items that seat has just received and may still put on anywhere (BR-4)
    recent     {"acted": [...], "moved": [...]}: seats, the latest last, for the bosses' tie-break (BR-11)
    setup      {"kit": d6, "placement": [rolls]} once the team's start is rolled
    opened     when the current phase (or the choice) began, for the deadline option
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, cast

from bot.engine.contract import State as State  # noqa: PLC0414 -- an explicit re-export

from .data import catalogue, item


# ------------------------------------------------------------------------------------------ characters
def char(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    return cast("dict[str, Any]", state["chars"][seat])


def cls_rule(state: Mapping[str, Any], seat: int, key: str, default: Any = None) -> Any:
    cls = state["chars"][seat]["cls"]
    return catalogue().chars["classes"].get(cls, {}).get(key, default) if cls else default


def equipped(state: State, seat: int) -> list[str]:
    c = state["chars"][seat]
    return list(c["hands"]) + ([c["armour"]] if c["armour"] else [])


def hands_used(state: State, seat: int) -> int:
    return sum(item(i)["hands"] for i in state["chars"][seat]["hands"])


def max_hp(state: State, seat: int) -> int:
    base = catalogue().chars["base_stats"]["mhp"] + cls_rule(state, seat, "mhp", 0)
    return cast("int", base + sum(item(i).get("mhp", 0) for i in equipped(state, seat)))


def strength(state: Mapping[str, Any], seat: int) -> int:
    """The character's own damage stat (УРН): the base plus the class change."""
    return cast("int", catalogue().chars["base_stats"]["damage"] + cls_rule(state, seat, "damage", 0))


def can_counter(state: State, seat: int) -> bool:
    """Burilla never counter-attacks (§1.3); the Giant Shield forbids it (§4.1)."""
    if cls_rule(state, seat, "no_counter", False):
        return False
    return not any(item(i).get("no_counter") for i in equipped(state, seat))


def is_ranged(state: State, seat: int) -> bool:
    """A «дальник» for the bosses' tie-break: holds a weapon whose attacks provoke a ranged counter (BR-11)."""
    return any(item(i).get("provokes") == "ranged" for i in state["chars"][seat]["hands"])


def move_cost(state: Mapping[str, Any], seat: int) -> int:
    armour = state["chars"][seat]["armour"]
    return item(armour).get("move_cost", 1) if armour else 1


def move_limit(state: State, seat: int) -> int | None:
    """The Spiked Shell: one relocation per phase (§4.4, BR-16)."""
    armour = state["chars"][seat]["armour"]
    return item(armour).get("moves_per_phase") if armour else None


def may_relocate(state: State, seat: int) -> bool:
    limit = move_limit(state, seat)
    return limit is None or state["chars"][seat]["moves"] < limit


def heal(state: State, seat: int, amount: int) -> int:
    """Restore up to ``amount`` health (never above the maximum); returns what was restored."""
    c = state["chars"][seat]
    before = c["hp"]
    c["hp"] = min(max_hp(state, seat), c["hp"] + max(0, amount))
    return cast("int", c["hp"] - before)


def clamp_hp(state: State, seat: int) -> None:
    """Health never exceeds the maximum: taking off a +МЗД item lowers it to the new maximum (BR-5)."""
    c = state["chars"][seat]
    c["hp"] = min(c["hp"], max_hp(state, seat))


def chars_on(state: State, island: str) -> list[int]:
    return [s for s, c in enumerate(state["chars"]) if c["at"] == island]


def chars_adjacent(state: State, island: str) -> list[int]:
    near = catalogue().neighbours(island)
    return [s for s, c in enumerate(state["chars"]) if c["at"] in near]


def note_recent(state: State, kind: str, seat: int) -> None:
    order = state["recent"][kind]
    if seat in order:
        order.remove(seat)
    order.append(seat)


# ------------------------------------------------------------------------------------------ bosses
def boss_alive(state: State, bid: str) -> bool:
    return bool(state["bosses"][bid]["hp"] > 0)


def peaceful(state: State, bid: str) -> bool:
    """Golemko is at peace while Karate-bum is dead, until he is attacked (§3.2, BR-10)."""
    other = catalogue().bosses[bid].get("peaceful_while_dead")
    return bool(other and not boss_alive(state, other) and not state["bosses"][bid]["angry"])


def n_players(state: State) -> int:
    return cast("int", state["seats"])


# ------------------------------------------------------------------------------------------ the bank
def bank_count(state: State, iid: str) -> int:
    return cast("int", state["bank"]["items"].get(iid, 0))


def bank_add(state: State, items: dict[str, int]) -> None:
    bank = state["bank"]["items"]
    for iid, n in items.items():
        if n > 0:
            bank[iid] = bank.get(iid, 0) + n
    state["bank"]["items"] = dict(sorted(bank.items()))


def bank_take(state: State, iid: str, n: int = 1) -> None:
    bank = state["bank"]["items"]
    assert bank.get(iid, 0) >= n, f"the bank holds no {iid}"
    bank[iid] -= n
    if not bank[iid]:
        del bank[iid]
    for fresh in state["fresh"]:
        while fresh.count(iid) > bank.get(iid, 0):
            fresh.remove(iid)


def team_owns(state: State, iid: str) -> bool:
    """In the Bank or in someone's hands (option ``arm_trade: owned``, BR-21)."""
    return bank_count(state, iid) > 0 or any(iid in equipped(state, s) for s in range(state["seats"]))


def give_fresh(state: State, seats: Iterable[int], items: dict[str, int]) -> None:
    for s in seats:
        for iid, n in items.items():
            state["fresh"][s] += [iid] * n
        state["fresh"][s].sort()


def scaled(state: State, base: int) -> int:
    """«написанное кол-во монет + N - 1» (§3 drops, §2 chests)."""
    return base + n_players(state) - 1
