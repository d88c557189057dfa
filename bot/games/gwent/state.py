"""The table state: card instances, zones, and the one way cards move between zones.

Cards are instances ``uid -> {"id": card id, "owner": seat}``; the owner is the deck a card came from (where
Crach an Craite sends it back).  Zones hold uids:

    deck[s]      the draw order, top first (the judge's pre-drawn random sample)
    aside[s]     still in the deck but out of the sample (exchanged cards), drawn only when the sample is empty
    cand[s]      the judge's exchange candidates during the mulligan
    hand[s], discard[s], rows[s][row], weather (shared), slots[s][row]["horn" | "mardroeme"]

Every move goes through ``move`` so that, in HardGwent, the effect of a leader can be undone by White Flame:
moves and flag changes are written to a journal of the current and the previous turn.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from .cards import ROWS, Card, catalogue

LIST_ZONES = ("deck", "aside", "cand", "hand", "discard")
#: a zone as the state's JSON writes it: its kind, then the seat and the row where it has them
#: (["hand", 0], ["row", 1, "siege"], ["horn", 0, "melee"], ["weather"])
Zone = list[Any]


def card(state: dict[str, Any], uid: str) -> Card:
    return catalogue().card(state["cards"][uid]["id"])


def owner(state: dict[str, Any], uid: str) -> int:
    return cast("int", state["cards"][uid]["owner"])


def opp(seat: int) -> int:
    return 1 - seat


def zone_list(state: dict[str, Any], zone: Zone) -> list[Any]:
    kind = zone[0]
    if kind in LIST_ZONES:
        return cast("list[Any]", state[kind][zone[1]])
    if kind == "row":
        return cast("list[Any]", state["rows"][zone[1]][zone[2]])
    if kind == "weather":
        return cast("list[Any]", state["weather"])
    raise ValueError(zone)


def locate(state: dict[str, Any], uid: str) -> Zone | None:
    """The zone holding ``uid`` (None for a token that has left the board)."""
    for kind in LIST_ZONES:
        for s in (0, 1):
            if uid in state[kind][s]:
                return [kind, s]
    for s in (0, 1):
        for row in ROWS:
            if uid in state["rows"][s][row]:
                return ["row", s, row]
            slot = state["slots"][s][row]
            for what in ("horn", "mardroeme"):
                if slot[what] == uid:
                    return [what, s, row]
    if any(w["uid"] == uid for w in state["weather"]):
        return ["weather"]
    return None


def _take(state: dict[str, Any], uid: str, zone: Zone) -> int:
    kind = zone[0]
    if kind in ("horn", "mardroeme"):
        state["slots"][zone[1]][zone[2]][kind] = None
        return 0
    if kind == "weather":
        entries = state["weather"]
        i = next(i for i, w in enumerate(entries) if w["uid"] == uid)
        del entries[i]
        return i
    items = zone_list(state, zone)
    i = items.index(uid)
    del items[i]
    return i


def _put(state: dict[str, Any], uid: str, zone: Zone, index: int | None, weather: str | None = None) -> None:
    kind = zone[0]
    if kind in ("horn", "mardroeme"):
        state["slots"][zone[1]][zone[2]][kind] = uid
        return
    if kind == "weather":
        entry = {"kind": weather, "uid": uid, "seat": owner(state, uid)}
        state["weather"].insert(len(state["weather"]) if index is None else index, entry)
        return
    items = zone_list(state, zone)
    items.insert(len(items) if index is None else min(index, len(items)), uid)


def move(state: dict[str, Any], uid: str, dest: Zone, index: int | None = None, weather: str | None = None) -> None:
    """Move a card to ``dest`` (appended unless ``index``); journaled for White Flame."""
    src = locate(state, uid)
    entry = None
    if src and src[0] == "weather":
        entry = next(w for w in state["weather"] if w["uid"] == uid)
    at = _take(state, uid, src) if src else None
    _put(state, uid, dest, index, weather)
    log(state, ["move", uid, src, dest, at, entry["kind"] if entry else weather])
    if src and src[0] == "hand" and uid in state["revealed"][opp(src[1])]:
        # A card shown to the Emperor is known only while it stays in the hand: should it come back later
        # (drawn again after Crach an Craite), nobody has seen it.
        state["revealed"][opp(src[1])].remove(uid)


def is_token(uid: str) -> bool:
    """Tokens (Hemdall, the Bovine Defense Force) are made on the field; a transformed berserker stays a card."""
    return uid.startswith("t")


def new_token(state: dict[str, Any], card_id: str, side: int, row: str) -> str:
    """Hemdall and the Bovine Defense Force exist only on the battlefield (ruling GW-9)."""
    uid = f"t{state['next_token']}"
    state["next_token"] += 1
    state["cards"][uid] = {"id": card_id, "owner": side}
    state["rows"][side][row].append(uid)
    log(state, ["token_add", uid])
    return uid


def remove_token(state: dict[str, Any], uid: str) -> None:
    zone = zone_of(state, uid)
    index = _take(state, uid, zone)
    info = state["cards"].pop(uid)
    log(state, ["token_remove", uid, info, zone, index])


def set_flag(state: dict[str, Any], path: list[str | int], value: Any) -> None:
    """Set a nested state value (a leader horn, a round effect), journaled for White Flame."""
    target: Any = state  # a dict or, past a seat's index, a list
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    target[path[-1]] = value
    log(state, ["flag", path, old, value])


def add_weather(state: dict[str, Any], kind: str, seat: int) -> None:
    """Weather created by a leader, without a card."""
    entry = {"kind": kind, "uid": None, "seat": seat}
    state["weather"].append(entry)
    log(state, ["weather_add", entry])


def drop_weather_entry(state: dict[str, Any], index: int) -> None:
    entry = state["weather"].pop(index)
    log(state, ["weather_drop", entry, index])


# --------------------------------------------------------------------------------------------- the journal
def log(state: dict[str, Any], op: list[Any]) -> None:
    journal = state.get("journal")
    if journal and journal["at"] is not None:
        journal["cur"][journal["at"]]["ops"].append(op)


def open_cause(state: dict[str, Any], kind: str, **info: Any) -> int | None:
    """Start journaling the effects of one card or leader; returns its index (None outside HardGwent)."""
    journal = state.get("journal")
    if not journal:
        return None
    journal["cur"].append({"kind": kind, "ops": [], **info})
    journal["at"] = len(journal["cur"]) - 1
    return cast("int | None", journal["at"])


def resume_cause(state: dict[str, Any], index: int | None) -> None:
    if state.get("journal"):
        state["journal"]["at"] = index


def rotate_journal(state: dict[str, Any], seat: int) -> None:
    """The turn of ``seat`` is over: it becomes the previous turn that White Flame may answer."""
    journal = state.get("journal")
    if journal:
        state["journal"] = {"cur": [], "at": None, "last": {"seat": seat, "causes": journal["cur"]}}


def undo_ops(state: dict[str, Any], ops: list[list[Any]]) -> list[dict[str, Any]]:
    """Reverse journaled operations that are still in place, newest first.  Returns what changed, for the
    referee to announce: ``{"uid", "card", "left", "to"}`` for a card moved back (zone kinds it left and
    went to), ``{"token", "gone": bool}`` for a token taken off or put back, ``{"weather", "gone": bool}``."""
    changes: list[dict[str, Any]] = []
    for op in reversed(ops):
        kind = op[0]
        if kind == "move":
            _, uid, src, dest, at, weather = op
            if uid in state["cards"] and src is not None and locate(state, uid) == dest:
                _take(state, uid, dest)
                _put(state, uid, src, at, weather)
                changes.append({"uid": uid, "card": state["cards"][uid]["id"], "left": dest[0], "to": src[0]})
        elif kind == "token_add":
            zone = locate(state, op[1]) if op[1] in state["cards"] else None
            if zone:
                _take(state, op[1], zone)
                changes.append({"token": state["cards"].pop(op[1])["id"], "gone": True})
        elif kind == "token_remove":
            _, uid, info, zone, index = op
            state["cards"][uid] = info
            _put(state, uid, zone, index)
            changes.append({"token": info["id"], "gone": False})
        elif kind == "flag":
            _, path, old, new = op
            target: Any = state
            for key in path[:-1]:
                target = target[key]
            if target[path[-1]] == new:
                target[path[-1]] = old
        elif kind == "weather_add":
            if op[1] in state["weather"]:
                state["weather"].remove(op[1])
                changes.append({"weather": op[1]["kind"], "gone": True})
        elif kind == "weather_drop":
            state["weather"].insert(min(op[2], len(state["weather"])), op[1])
            changes.append({"weather": op[1]["kind"], "gone": False})
    return changes


# --------------------------------------------------------------------------------------------- shapes
def empty_slots() -> dict[str, Any]:
    return {row: {"horn": None, "horn_crach": False, "leader_horn": False, "mardroeme": None} for row in ROWS}


def empty_rows() -> dict[str, Any]:
    return {row: [] for row in ROWS}


def board_units(state: dict[str, Any], side: int) -> Iterator[tuple[str, str]]:
    """(uid, row) for every unit on one side, in board order."""
    for row in ROWS:
        for uid in state["rows"][side][row]:
            yield uid, row


def relocate(state: dict[str, Any], uid: str, dest: Zone) -> None:
    """Move a card without journaling (used while undoing)."""
    _take(state, uid, zone_of(state, uid))
    _put(state, uid, dest, None)


def zone_of(state: dict[str, Any], uid: str) -> Zone:
    """The zone of a card the caller knows is in play (a token, a card being relocated)."""
    zone = locate(state, uid)
    if zone is None:
        raise ValueError(f"{uid} is in no zone")
    return zone
