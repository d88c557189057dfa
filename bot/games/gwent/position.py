"""A Gwent position set up directly (a scenario's ``state`` / ``position``, or a step's ``position`` once the
decks are built): the invariants the engine keeps, each refused with the key at fault (bot/engine/position.py).
Pure: no Discord, no storage."""
from __future__ import annotations

from typing import Any

from bot.engine.position import PositionError, flag, integer, listing, mapping, one_of, seat, want

from .cards import ROWS, Catalogue, catalogue
from .state import LIST_ZONES, is_token

PHASES = ("setup", "mulligan", "first", "keep", "play", "revive3", "over")
PLAYER_KEYS = ("faction", "leaders", "leaders_used", "leader_round", "gems", "passed")
SLOT_KEYS = ("horn", "horn_crach", "leader_horn", "mardroeme")
TURN_KEYS = ("seat", "need", "played", "moved")


def check(state: dict[str, Any], template: dict[str, Any]) -> None:
    cat = catalogue()
    phase = one_of(state["phase"], "phase", PHASES, "phase")
    want(state["variant"] == state["options"]["variant"], "variant", "must be the table's option 'variant'")
    for s, p in enumerate(listing(state["players"], "players", 2)):
        key = f"players.{s}"
        mapping(p, key, PLAYER_KEYS)
        if p["faction"] is not None:
            one_of(p["faction"], f"{key}.faction", sorted({ld.faction for ld in cat.leaders.values()}), "faction")
        for j, lid in enumerate(listing(p["leaders"], f"{key}.leaders")):
            one_of(lid, f"{key}.leaders.{j}", cat.leaders, "leader")
        used = listing(p["leaders_used"], f"{key}.leaders_used")
        want(len(used) == len(set(used)) and set(used) <= set(p["leaders"]), f"{key}.leaders_used",
             "only the seat's own leaders, each once")
        integer(p["gems"], f"{key}.gems", 0, 2)
        flag(p["passed"], f"{key}.passed")
        flag(p["leader_round"], f"{key}.leader_round")
    _bookkeeping(state, cat)
    cards = _cards(state, cat)
    _zones(state, cards)
    if phase not in ("setup",):
        _decks(state, cards)
    if state["outcome"] is None:
        want(phase != "over", "phase", "'over' while 'outcome' is null")
        want(all(p["gems"] > 0 for p in state["players"]), "players",
             "a seat without gems while the game runs (set 'outcome' too)")
        if phase == "play" and not state["stack"]:
            turn = mapping(state["turn"], "turn", TURN_KEYS)
            seat(turn["seat"], "turn.seat", 2)
            want(not state["players"][turn["seat"]]["passed"], "turn.seat", "the seat to move has passed")
            need = integer(turn["need"], "turn.need", 1, 2)
            integer(turn["played"], "turn.played", 0, need - 1)
        if phase == "first":
            seat(state["chooser"], "chooser", 2)
        if phase == "keep":
            seat(state["keeper"], "keeper", 2)
    else:
        want(phase == "over", "phase", "must be 'over' once there is an outcome")
    for j, entry in enumerate(listing(state["stack"], "stack")):
        mapping(entry, f"stack.{j}")
        seat(entry.get("seat"), f"stack.{j}.seat", 2)
        want(isinstance(entry.get("kind"), str), f"stack.{j}.kind", "a pending choice names its kind")


def _bookkeeping(state: dict[str, Any], cat: Catalogue) -> None:
    """The set-up entries, the round's effects and the counters: values the engine reads without asking."""
    for s, st in enumerate(listing(state["setup"], "setup", 2)):
        key = f"setup.{s}"
        mapping(st, key, ("step", "faction", "leader", "deck"))
        one_of(st["step"], f"{key}.step", ("faction", "leader", "deck", "ready"), "set-up step")
        if st["faction"] is not None:
            one_of(st["faction"], f"{key}.faction", sorted({ld.faction for ld in cat.leaders.values()}), "faction")
        if st["leader"] is not None:
            one_of(st["leader"], f"{key}.leader", cat.leaders, "leader")
        for cid, count in mapping(st["deck"], f"{key}.deck").items():
            one_of(cid, f"{key}.deck.{cid}", cat.cards, "card id")
            integer(count, f"{key}.deck.{cid}", 1)
    fx = mapping(state["round_fx"], "round_fx", ("bran", "hope", "blocked"))
    for name, pair in fx.items():
        for s, value in enumerate(listing(pair, f"round_fx.{name}", 2)):
            flag(value, f"round_fx.{name}.{s}")
    for j, due in enumerate(listing(state["draws_due"], "draws_due")):
        mapping(due, f"draws_due.{j}")
        seat(due.get("seat"), f"draws_due.{j}.seat", 2)
        integer(due.get("n"), f"draws_due.{j}.n", 0)
    for j, s in enumerate(listing(state["starters"], "starters")):
        seat(s, f"starters.{j}", 2)
    for s, at in enumerate(listing(state["since"], "since", 2)):
        want(isinstance(at, (int, float)) and not isinstance(at, bool), f"since.{s}", "a time in epoch seconds")
    for name in ("revealed", "weak_horn"):
        for s, items in enumerate(listing(state[name], name, 2)):
            listing(items, f"{name}.{s}")
    for s, mull in enumerate(listing(state["mull"], "mull", 2)):
        if mull is not None:
            mapping(mull, f"mull.{s}")
    integer(state["round"], "round", 0)
    integer(state["next_token"], "next_token", 0)
    for name in ("turn_no", "turn_in_round"):
        integer(state[name], name, 0)
    if state["journal"] is not None:
        journal = mapping(state["journal"], "journal", ("cur", "at", "last"))
        listing(journal["cur"], "journal.cur")
        if journal["last"] is not None:
            mapping(journal["last"], "journal.last")


def _cards(state: dict[str, Any], cat: Catalogue) -> dict[str, Any]:
    cards = mapping(state["cards"], "cards")
    for uid, inst in cards.items():
        key = f"cards.{uid}"
        mapping(inst, key, ("id", "owner"))
        one_of(inst["id"], f"{key}.id", cat.cards, "card id")
        seat(inst["owner"], f"{key}.owner", 2)
    return cards


def _zones(state: dict[str, Any], cards: dict[str, Any]) -> None:
    """Every card instance in exactly one zone (deck, aside, candidates, hand, discard, a row, a slot, the
    weather), and nothing in a zone that is not an instance; tokens only on the field."""
    seen: dict[str, str] = {}

    def put(uid: Any, key: str) -> None:
        want(isinstance(uid, str) and uid in cards, key, f"{uid!r} is no card of 'cards'")
        if uid in seen:
            raise PositionError(key, f"card {uid!r} is also in {seen[uid]} (every card exactly once)")
        seen[uid] = key

    for kind in LIST_ZONES:
        for s, zone in enumerate(listing(state[kind], kind, 2)):
            for j, uid in enumerate(listing(zone, f"{kind}.{s}")):
                put(uid, f"{kind}.{s}.{j}")
                want(not is_token(uid), f"{kind}.{s}.{j}", "a token exists only on the field")
    for s in (0, 1):
        rows = mapping(state["rows"][s], f"rows.{s}", ROWS)
        slots = mapping(state["slots"][s], f"slots.{s}", ROWS)
        for row in ROWS:
            for j, uid in enumerate(listing(rows[row], f"rows.{s}.{row}")):
                put(uid, f"rows.{s}.{row}.{j}")
            slot = mapping(slots[row], f"slots.{s}.{row}", SLOT_KEYS)
            for what in ("horn", "mardroeme"):
                if slot[what] is not None:
                    put(slot[what], f"slots.{s}.{row}.{what}")
            flag(slot["horn_crach"], f"slots.{s}.{row}.horn_crach")
            flag(slot["leader_horn"], f"slots.{s}.{row}.leader_horn")
    for j, entry in enumerate(listing(state["weather"], "weather")):
        mapping(entry, f"weather.{j}")
        if entry.get("uid") is not None:
            put(entry["uid"], f"weather.{j}.uid")
    lost = sorted(set(cards) - set(seen))
    want(not lost, f"cards.{lost[0]}" if lost else "cards",
         "is in no zone (every card exactly once across deck, hand, board and discard)")


def _decks(state: dict[str, Any], cards: dict[str, Any]) -> None:
    """Each seat has as many cards as the deck it built (setup.<seat>.deck), tokens aside: a card may change what
    it is (a transformed Vildkaarl), never how many there are."""
    for s in (0, 1):
        built = sum((state["setup"][s].get("deck") or {}).values())
        have = sum(1 for uid, inst in cards.items() if inst["owner"] == s and not is_token(uid))
        if built and have != built:
            raise PositionError("cards", f"seat {s} has {have} cards, its deck (setup.{s}.deck) {built}")
