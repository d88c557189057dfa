"""Playing cards and resolving their effects: placement, spies, medics, muster, scorch, weather, horns,
decoys, Mardroeme and berserkers, avengers (Kambi -> Hemdall), the faction card.

Choices that depend on what happened (which card a medic revives, what the faction card summons) are pushed
onto ``state["stack"]`` as sub-decisions; flow.py resumes the turn once the stack is empty.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from bot.engine import Code, Ctx, Reject

from .cards import ROWS, catalogue
from .scoring import row_totals, strengths
from .state import (
    Zone, add_weather, board_units, card, drop_weather_entry, is_token, move, new_token, opp, owner,
    remove_token, zone_of,
)


def rules(state: dict[str, Any]) -> Mapping[str, Any]:
    return catalogue().variants[state["variant"]]


def perk(state: dict[str, Any], seat: int, faction: str) -> bool:
    """A faction bonus works only when the two players play different factions (rule book, faction bonuses)."""
    mine, theirs = (state["players"][s]["faction"] for s in (seat, opp(seat)))
    return bool(mine == faction and theirs != faction)


# ------------------------------------------------------------------------------------------ what may be played
def decoy_targets(state: dict[str, Any], seat: int) -> list[str]:
    """Non-hero units on the player's own side, enemy spies included; tokens are not cards (ruling GW-9)."""
    return [u for u, _ in board_units(state, seat) if not card(state, u).is_hero and not is_token(u)]


def horn_free(state: dict[str, Any], seat: int, row: str) -> bool:
    slot = state["slots"][seat][row]
    if slot["horn"] is not None or slot["horn_crach"]:
        return False
    # Standard: a leader's horn occupies the horn cell; in HardGwent it is a separate effect (rule book).
    return state["variant"] == "hardgwent" or not slot["leader_horn"]


def card_specs(state: dict[str, Any], seat: int, uid: str) -> list[dict[str, Any]]:
    """Every legal way to play a card: its row, the side of a spy, the target of a decoy."""
    c = card(state, uid)
    if c.is_unit:
        rows = [{"row": r} for r in c.rows] if c.agile else [{}]
        if c.has("spy"):
            return [dict(r, side=side) for side in ("enemy", "own") for r in rows]
        return rows
    if c.effect == "decoy":
        return [{"target": t} for t in decoy_targets(state, seat)] or [{}]
    if c.effect == "horn":
        return [{"row": r} for r in ROWS if horn_free(state, seat, r)]
    if c.effect == "mardroeme":
        return [{"row": r} for r in ROWS if state["slots"][seat][r]["mardroeme"] is None]
    return [{}]


def check_spec(state: dict[str, Any], seat: int, uid: str, action: dict[str, Any]) -> dict[str, Any]:
    """The normalised spec of an action for card ``uid``, or a Reject saying what is wrong with it."""
    c = card(state, uid)
    specs = card_specs(state, seat, uid)
    given = {k: action[k] for k in ("row", "side", "target") if action.get(k) is not None}
    if c.is_unit and not c.agile and given.get("row") == c.rows[0]:
        del given["row"]
    if c.has("spy") and "side" not in given:
        given["side"] = "enemy"
    if given in specs:
        return given
    if not specs:
        raise Reject("gwent.reject.no_free_row", rule="§2", card=c.id)
    if c.effect == "decoy":
        if "target" in given:
            raise Reject("gwent.reject.decoy_target", rule="§2")
        raise Reject("gwent.reject.need_target", code=Code.MALFORMED, rule="§2")
    wanted = specs[0]
    for key in ("row", "side", "target"):
        if key in given and key not in wanted:
            raise Reject("gwent.reject.unexpected_field", code=Code.MALFORMED, field=key)
        if key in wanted and key not in given:
            raise Reject(f"gwent.reject.need_{key}", code=Code.MALFORMED, card=c.id)
    if "row" in given and given["row"] not in ROWS:
        raise Reject("gwent.reject.bad_row", code=Code.MALFORMED, row=str(given["row"])[:20])
    if "side" in given and given["side"] not in ("enemy", "own"):
        raise Reject("gwent.reject.bad_side", code=Code.MALFORMED)
    if c.is_unit:
        raise Reject("gwent.reject.wrong_row", rule="§3", card=c.id)
    raise Reject("gwent.reject.row_taken", rule="§2", card=c.id)


# ------------------------------------------------------------------------------------------ playing
def play_card(state: dict[str, Any], seat: int, uid: str, spec: dict[str, Any], ctx: Ctx, source: str) -> None:
    """Put a card into play from the hand, or from the deck (faction card), as ``seat``."""
    c = card(state, uid)
    ctx.emit("played", seat=seat, card=c.id, source=source, **spec)
    if c.is_unit:
        side = opp(seat) if spec.get("side") == "enemy" else seat
        place_unit(state, seat, uid, side, spec.get("row") or c.rows[0], ctx)
        return
    effect = c.effect
    if effect == "decoy":
        move(state, uid, ["discard", owner(state, uid)])
        if "target" in spec:
            ctx.emit("decoyed", seat=seat, card=card(state, spec["target"]).id)
            leave_board(state, spec["target"], ["hand", seat], ctx)
    elif effect == "horn":
        move(state, uid, ["horn", seat, spec["row"]])
    elif effect == "mardroeme":
        move(state, uid, ["mardroeme", seat, spec["row"]])
        transform_berserkers(state, ctx)
    elif effect == "scorch":
        move(state, uid, ["discard", seat])
        scorch(state, [0, 1], ROWS, ctx, cap=None)
    elif effect == "clear":
        clear_weather(state, ctx)
        move(state, uid, ["discard", seat])
    elif effect == "faction_card":
        move(state, uid, ["discard", seat])
        if summon_candidates(state, seat):
            push(state, "summon", seat)
    else:
        move(state, uid, ["weather"], weather=effect)


def place_unit(state: dict[str, Any], seat: int, uid: str, side: int, row: str, ctx: Ctx) -> None:
    """A unit arrives on the field (played, revived or summoned): its abilities trigger now."""
    c = card(state, uid)
    move(state, uid, ["row", side, row])
    if side != seat:
        state["draws_due"].append({"seat": seat, "n": rules(state)["spy_draw"], "cause": _cause(state)})
    transform_berserkers(state, ctx)
    if c.musters:
        muster(state, seat, c.musters, ctx)
    if c.has("scorch_row"):
        row_scorch(state, opp(seat), row, ctx, cap=rules(state).get("row_scorch_cap_unit"))
    if c.has("scorch"):
        scorch(state, [0, 1], ROWS, ctx, cap=None)
    if c.has("medic") and revive_candidates(state, seat, ["own"], heroes=False):
        push(state, "revive", seat, piles=["own"], heroes=False, to="field")


def _cause(state: dict[str, Any]) -> int | None:
    journal = state.get("journal")
    return journal["at"] if journal else None


def push(state: dict[str, Any], kind: str, seat: int, **info: Any) -> None:
    state["stack"].append({"kind": kind, "seat": seat, "cause": _cause(state), **info})


def muster(state: dict[str, Any], seat: int, group: str, ctx: Ctx) -> None:
    """Every card of the group still in the deck comes to the field; the hand is untouched (forum change)."""
    members = set(catalogue().muster_group(group))
    pulled = [u for u in sorted(state["deck"][seat] + state["aside"][seat], key=_uid_order)
              if state["cards"][u]["id"] in members and u not in state["no_summon"]]
    for uid in pulled:
        move(state, uid, ["row", seat, card(state, uid).rows[0]])
    if pulled:
        ctx.emit("mustered", seat=seat, cards=[state["cards"][u]["id"] for u in pulled])
        transform_berserkers(state, ctx)


def _uid_order(uid: str) -> int:
    return int(uid[1:])


def transform_berserkers(state: dict[str, Any], ctx: Ctx) -> None:
    """Berserkers on a row with Mardroeme (the card, or Ermion) turn into vildkaarls for good."""
    for side in (0, 1):
        for row in ROWS:
            units = state["rows"][side][row]
            if state["slots"][side][row]["mardroeme"] is None and not any(
                    card(state, u).has("mardroeme") for u in units):
                continue
            for uid in units:
                c = card(state, uid)
                if c.has("berserker") and c.transforms_to:
                    state["cards"][uid]["id"] = c.transforms_to
                    ctx.emit("transformed", side=side, card=c.id, into=c.transforms_to)


def leave_board(state: dict[str, Any], uid: str, dest: Zone, ctx: Ctx) -> None:
    """A unit leaves the field (killed, decoyed); an avenger calls its replacement at once."""
    side, row = zone_of(state, uid)[1:]
    c = card(state, uid)
    if is_token(uid):
        remove_token(state, uid)
    else:
        move(state, uid, dest)
    if c.summons and not on_field(state, c.summons):
        new_token(state, c.summons, side, catalogue().card(c.summons).rows[0])
        ctx.emit("avenger", side=side, card=c.id, token=c.summons, rule="§5")


def on_field(state: dict[str, Any], card_id: str) -> bool:
    return any(state["cards"][u]["id"] == card_id for s in (0, 1) for u, _ in board_units(state, s))


# ------------------------------------------------------------------------------------------ scorch
def scorch(state: dict[str, Any], sides: list[int], rows_: tuple[str, ...] | list[str], ctx: Ctx,
           cap: int | None) -> None:
    """Kill the strongest non-hero unit(s) among ``sides``/``rows_``; ties all die (§2; HardGwent limits
    apply).  The strongest may have strength 0 (a lone Kambi), unless the table spares it (GW-10)."""
    values = strengths(state)
    pool = [u for s in sides for r in rows_ for u in state["rows"][s][r] if not card(state, u).is_hero]
    best = max((values[u] for u in pool), default=None)
    if best is None or (best <= 0 and state["options"]["scorch_spares_zero"]):
        ctx.emit("scorch_none", rule="GW-10" if pool else "§2")
        return
    kill(state, _limit(state, [u for u in pool if values[u] == best], cap), ctx)


def row_scorch(state: dict[str, Any], side: int, row: str, ctx: Ctx, cap: int | None) -> None:
    """Scorch one enemy row, only if it holds at least 10 points (20 in HardGwent), heroes counted."""
    total = row_totals(state)[side][row]
    need = rules(state)["row_scorch_min"]
    if total < need * 10:
        ctx.emit("row_scorch_short", side=side, row=row, total=total, need=need, rule="§3")
        return
    scorch(state, [side], [row], ctx, cap)


def _limit(state: dict[str, Any], victims: list[str], cap: int | None) -> list[str]:
    """HardGwent: a tight-bond group loses at most half of its cards to one scorch, and row scorches kill at
    most 3 (unit) or 6 (leader) cards.  Which of the tied cards die: board order (ruling GW-11)."""
    if rules(state).get("bond_scorch_half"):
        kept: list[str] = []
        lost: dict[tuple[int, str, str], int] = {}  # (side, row, card id) -> tight-bond copies lost
        for uid in victims:
            c = card(state, uid)
            side, row = zone_of(state, uid)[1:]
            if c.has("tight_bond"):
                size = sum(1 for u in state["rows"][side][row] if state["cards"][u]["id"] == c.id)
                key = (side, row, c.id)
                if size >= 2 and lost.get(key, 0) >= size // 2:
                    continue
                lost[key] = lost.get(key, 0) + 1
            kept.append(uid)
        victims = kept
    return victims[:cap] if cap else victims


def kill(state: dict[str, Any], victims: list[str], ctx: Ctx) -> None:
    """The victims go to the discard pile of their side; the line comes before what their leaving calls
    (Kambi's Hemdall)."""
    sides = [zone_of(state, uid)[1] for uid in victims]
    ctx.emit("scorched", killed=[{"card": card(state, u).id, "side": s} for u, s in zip(victims, sides)], rule="§2")
    for uid, side in zip(victims, sides):
        leave_board(state, uid, ["discard", side], ctx)


# ------------------------------------------------------------------------------------------ weather
def clear_weather(state: dict[str, Any], ctx: Ctx) -> None:
    """Clear Weather ends every weather effect; the weather cards go to their owners' discard piles."""
    for i in range(len(state["weather"]) - 1, -1, -1):
        entry = state["weather"][i]
        if entry["uid"] is None:
            drop_weather_entry(state, i)
        else:
            move(state, entry["uid"], ["discard", owner(state, entry["uid"])])
    ctx.emit("cleared")


def leader_weather(state: dict[str, Any], seat: int, kind: str, ctx: Ctx) -> None:
    if kind == "clear":
        clear_weather(state, ctx)
    else:
        add_weather(state, kind, seat)
        ctx.emit("weather", seat=seat, weather=kind)


# ------------------------------------------------------------------------------------------ draws
def draw(state: dict[str, Any], seat: int, n: int, ctx: Ctx) -> list[str]:
    """Random cards from the deck: the next ones of the pre-drawn sample; the set-aside cards only once the
    sample is exhausted (ruling GW-6)."""
    drawn = []
    for _ in range(n):
        if not state["deck"][seat] and state["aside"][seat]:
            refill = list(state["aside"][seat])
            ctx.rng.shuffle(refill, f"gwent.refill.{seat}")
            ctx.emit("shuffled", to=(), seat=seat, order=[state["cards"][u]["id"] for u in refill])
            for uid in refill:
                move(state, uid, ["deck", seat])
        if not state["deck"][seat]:
            break
        uid = state["deck"][seat][0]
        move(state, uid, ["hand", seat])
        if uid in state["no_summon"]:
            state["no_summon"].remove(uid)
        drawn.append(uid)
    if n:
        ctx.emit("drew", to=(seat,), seat=seat, cards=[state["cards"][u]["id"] for u in drawn])
        ctx.emit("drew_count", seat=seat, n=len(drawn))
    return drawn


# ------------------------------------------------------------------------------------------ choices from piles
def revive_candidates(state: dict[str, Any], seat: int, piles: list[str], heroes: bool) -> list[str]:
    """Units a medic (or a reviving leader) may bring back: never specials, heroes only for Valhalla."""
    found = []
    for pile in piles:
        side = seat if pile == "own" else opp(seat)
        found += [u for u in state["discard"][side] if card(state, u).is_unit and (heroes or not card(state, u).is_hero)]
    return found


def summon_candidates(state: dict[str, Any], seat: int) -> list[str]:
    """Cards the faction card may call from the deck: any card not yet used, heroes included, nothing that
    Helheim sent back (ruling GW-15)."""
    return [u for u in state["deck"][seat] + state["aside"][seat] if u not in state["no_summon"]]


def distinct(state: dict[str, Any], uids: list[str]) -> list[str]:
    """One uid per card id (the lowest), so identical copies give one choice."""
    best: dict[str, str] = {}
    for uid in uids:
        cid = state["cards"][uid]["id"]
        if cid not in best or _uid_order(uid) < _uid_order(best[cid]):
            best[cid] = uid
    return sorted(best.values(), key=_uid_order)
