"""The neutral phase (§1.2.2): the referee plays every living boss by its priority lines (chapter 3) and reports,
for each, the line it used and why."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import Ctx

from .combat import ability, blast, boss_strike, check_over
from .data import boss as boss_data
from .data import catalogue
from .state import State, boss_alive, char, chars_adjacent, chars_on, is_ranged, peaceful

#: the book's boss chapter numbers, cited in the account of each boss's turn
RULES = {bid: data["rule"] for bid, data in catalogue().bosses.items()}


def boss_order(state: State) -> list[str]:
    """Who acts first in the neutral phase (BR-23): by island, from the Base outwards, or in the numbered list
    of §1.1.6; Krabulon last either way."""
    cat = catalogue()
    placed = [b for b in state["bosses"] if b != cat.final_boss]
    if state["options"]["boss_order"] == "islands":
        placed.sort(key=lambda b: cat.islands.index(state["bosses"][b]["at"]))
    else:
        placed.sort(key=lambda b: cat.bosses[b]["list_no"])
    return placed + [cat.final_boss]


def choose_target(state: State, candidates: list[int]) -> int:
    """§3 «Выбор цели»: the lowest health; on a tie a ranged character; then the last player to act (or to
    move, option tie_break, BR-11); then the lowest seat."""
    order = state["recent"][state["options"]["tie_break"]]

    def key(seat: int) -> tuple[int, int, int, int]:
        recency = -order.index(seat) if seat in order else 1
        return char(state, seat)["hp"], 0 if is_ranged(state, seat) else 1, recency, seat

    return min(candidates, key=key)


def hunting(state: State, bid: str) -> bool:
    """The Casserole attacks by himself once the Dark Archer is dead; under BR-9's default also in a round in
    which he was attacked (option casserole)."""
    prey = boss_data(bid).get("hunts_when_dead")
    if prey and not boss_alive(state, prey):
        return True
    return bool(state["options"]["casserole"] == "retaliates" and state["bosses"][bid]["attacked"])


def _targets(state: State, bid: str, line: dict[str, Any]) -> list[int] | None:
    """The characters a priority line strikes, or None when its condition does not hold."""
    island = state["bosses"][bid]["at"]
    here, near = chars_on(state, island), chars_adjacent(state, island)
    cond = line["if"]
    ab = ability(bid, line["use"])
    if cond == "always":
        return []
    if cond == "here_2plus":
        return here if len(here) >= 2 else None
    if cond == "here_1":
        return here if len(here) == 1 else None
    if cond == "here_any":
        if not here:
            return None
        return here if ab.get("all") else [choose_target(state, here)]
    if cond == "adjacent_any":
        if not near:
            return None
        return near if line.get("all_adjacent") else [choose_target(state, near)]
    if cond == "attacker_adjacent":
        seat = state["bosses"][bid]["last_attacker"]
        return [seat] if seat is not None and seat in near else None
    raise AssertionError(f"unknown condition {cond}")


def neutral_phase(state: State, ctx: Ctx) -> None:
    ctx.emit("neutral_phase", round=state["round"], rule="§1.2")
    if state["options"]["bomb_timing"] == "neutral":
        blow_bombs(state, ctx, lambda bomb: bomb["round"] == state["round"])
        if check_over(state, ctx):
            return
    for bid in boss_order(state):
        if boss_alive(state, bid):
            boss_turn(state, ctx, bid)
            if check_over(state, ctx):
                return


def blow_bombs(state: State, ctx: Ctx, due: Callable[[dict[str, Any]], bool]) -> None:
    ready = [b for b in state["bombs"] if due(b)]
    state["bombs"] = [b for b in state["bombs"] if not due(b)]
    for bomb in ready:
        blast(state, ctx, bomb)
        if check_over(state, ctx):
            return


def boss_turn(state: State, ctx: Ctx, bid: str) -> None:
    data = boss_data(bid)
    b = state["bosses"][bid]
    island = b["at"]
    rule = RULES[bid]
    if peaceful(state, bid):
        heal_lines = [(g, n, line) for g, group in enumerate(data["priorities"], 1)
                      for n, line in enumerate(group, 1) if "heal" in ability(bid, line["use"])]
        if heal_lines:
            g, n, line = heal_lines[0]
            _heal(state, ctx, bid, line["use"], g, n, "peace", rule)
        else:
            ctx.emit("boss_turn", boss=bid, group=0, line=0, ability=None, targets=[], why="peace", rule=rule)
        return
    struck_player = False
    visited = bool(data.get("no_attack_when_visited")) and bool(chars_on(state, island))
    idle: list[int] = []
    for g, group in enumerate(data["priorities"], 1):
        skipped = []
        for n, line in enumerate(group, 1):
            aid = line["use"]
            ab = ability(bid, aid)
            if line.get("needs") == "hunting" and not hunting(state, bid):
                skipped.append(n)
                continue
            if visited and "damage" in ab:
                ctx.emit("boss_turn", boss=bid, group=g, line=n, ability=aid, targets=[], why="visited",
                         skipped=skipped, rule=rule)
                break
            targets = _targets(state, bid, line)
            if targets is None:
                continue
            if "heal" in ab:
                _heal(state, ctx, bid, aid, g, n, line["if"], rule, skipped=skipped)
                break
            ctx.emit("boss_turn", boss=bid, group=g, line=n, ability=aid, targets=targets, why=line["if"],
                     skipped=skipped, rule=rule)
            struck_player = True
            boss_strike(state, ctx, bid, aid, targets, counter=False)
            if check_over(state, ctx) or not boss_alive(state, bid):
                return
            break
        else:
            idle.append(g)
    lasers = data.get("base_lasers")
    if lasers and state["provoked"] and not struck_player and boss_alive(state, bid):
        amount = ability(bid, lasers)["damage"]
        state["base_hp"] = max(0, state["base_hp"] - amount)
        ctx.emit("base_lasers", boss=bid, amount=amount, hp=state["base_hp"], rule="§3.1")
        check_over(state, ctx)
    elif len(idle) == len(data["priorities"]):
        ctx.emit("boss_turn", boss=bid, group=0, line=0, ability=None, targets=[], why="idle", rule=rule)


def _heal(state: State, ctx: Ctx, bid: str, aid: str, group: int, line: int, why: str, rule: str,
          skipped: list[int] | None = None) -> None:
    b = state["bosses"][bid]
    before = b["hp"]
    b["hp"] = min(b["mhp"], b["hp"] + ability(bid, aid)["heal"] * state["seats"])
    ctx.emit("boss_turn", boss=bid, group=group, line=line, ability=aid, targets=[], why=why,
             skipped=skipped or [], healed=b["hp"] - before, hp=b["hp"], rule=rule)
