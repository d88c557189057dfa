"""A Clay God position set up directly (a scenario's ``state`` / ``position``): the invariants the engine keeps,
each refused with the key at fault (bot/engine/position.py).  Pure: no Discord, no storage."""
from __future__ import annotations

from typing import Any

from bot.engine.position import (
    PositionError, conserved, flag, integer, listing, mapping, one_of, seat, want,
)

from .cards import COLOURS, card_ids, catalogue, rules
from .outcome import _fall, _win
from .state import STAGES

DIE_KEYS = ("value", "frozen", "frozen_turns", "frozen_rolls", "frozen_by")
FROZEN_BY = ("action", "pyramid", "three_sixes", "freeze_all", "snowflake")
TURN_KEYS = ("seat", "number", "extra", "stage", "since", "free_cast", "combos", "steps", "give")
STAT_LIMIT = 10_000   # far beyond any table (a win is above 200), far below what would overflow a message


def check(state: dict[str, Any], template: dict[str, Any]) -> None:
    known = set(card_ids())
    where: list[tuple[str, str]] = []   # (key, card) for the conservation check, in the engine's zones
    players = listing(state["players"], "players", 2)
    for s, p in enumerate(players):
        key = f"players.{s}"
        mapping(p, key, template["players"][0].keys())
        for stat in ("health", "sphere"):
            integer(p[stat], f"{key}.{stat}", -STAT_LIMIT, STAT_LIMIT)
        for stat in ("max_health", "max_sphere"):
            integer(p[stat], f"{key}.{stat}", 1, STAT_LIMIT)
        integer(p["hand_size"], f"{key}.hand_size", rules()["min_hand_size"], 50)
        for j, card in enumerate(listing(p["hand"], f"{key}.hand")):
            one_of(card, f"{key}.hand.{j}", known, "card id")
            where.append((f"{key}.hand", card))
        if p["table_card"] is not None:
            one_of(p["table_card"], f"{key}.table_card", known, "card id")
            where.append((f"{key}.table_card", p["table_card"]))
        if not flag(p["table_place"], f"{key}.table_place"):
            want(p["table_card"] is None, f"{key}.table_card", "a card lies on a table place taken for good")
        _dice(p["dice"], f"{key}.dice")
        for j, effect in enumerate(listing(p["effects"], f"{key}.effects")):
            mapping(effect, f"{key}.effects.{j}")
            want(isinstance(effect.get("kind"), str), f"{key}.effects.{j}.kind", "an effect names its kind")
            if effect.get("turns_left") is not None:
                integer(effect["turns_left"], f"{key}.effects.{j}.turns_left", 0)
        for count in ("extra_turns", "skip_turns", "turns"):
            integer(p[count], f"{key}.{count}", 0)
        integer(p["last_roll_sum"], f"{key}.last_roll_sum", 0, 6 * len(COLOURS))
    for zone in ("deck", "discard"):
        for j, card in enumerate(listing(state[zone], zone)):
            one_of(card, f"{zone}.{j}", known, "card id")
            where.append((zone, card))
    _conservation(where)
    if state["outcome"] is None:
        _turn(state)
        for s in (0, 1):
            why = _fall(state, s) or _win(state, s)
            want(why is None, f"players.{s}", f"the game would be over already (rule 6: {why}); "
                                              "set 'outcome' too, or change the numbers")


def _dice(dice: Any, key: str) -> None:
    mapping(dice, key, COLOURS)
    for colour in COLOURS:
        die = mapping(dice[colour], f"{key}.{colour}", DIE_KEYS)
        k = f"{key}.{colour}"
        if die["value"] is not None:
            integer(die["value"], f"{k}.value", 1, 6)
        if flag(die["frozen"], f"{k}.frozen"):
            want(die["value"] is not None, f"{k}.frozen", "a die frozen before its first roll")
            want(die["frozen_turns"] is None or die["frozen_rolls"] is None, k,
                 "a hold counted both in turns and in rolls (CG-11)")
            if die["frozen_by"] is not None:
                one_of(die["frozen_by"], f"{k}.frozen_by", FROZEN_BY, "cause of a freeze")
        else:
            want(die["frozen_turns"] is None and die["frozen_rolls"] is None and die["frozen_by"] is None, k,
                 "a thawed die keeps a hold (frozen_turns, frozen_rolls, frozen_by must be null)")
        for term in ("frozen_turns", "frozen_rolls"):
            if die[term] is not None:
                integer(die[term], f"{k}.{term}", 0)


def _conservation(where: list[tuple[str, str]]) -> None:
    seen: dict[str, str] = {}
    for key, card in where:
        if card in seen:
            raise PositionError(key, f"card {card!r} is also in {seen[card]} (every card exactly once)")
        seen[card] = key
    conserved("deck", [card for _, card in where], card_ids())


def _turn(state: dict[str, Any]) -> None:
    turn = mapping(state["turn"], "turn", TURN_KEYS)
    seat(turn["seat"], "turn.seat", 2)
    integer(turn["number"], "turn.number", 1)
    flag(turn["extra"], "turn.extra")
    flag(turn["free_cast"], "turn.free_cast")
    stage = one_of(turn["stage"], "turn.stage", STAGES, "stage")
    combos = [c.id for c in catalogue().combos]
    for j, combo in enumerate(listing(turn["combos"], "turn.combos")):
        one_of(combo, f"turn.combos.{j}", combos, "combination")
    for j, step in enumerate(listing(turn["steps"], "turn.steps")):
        one_of(mapping(step, f"turn.steps.{j}").get("kind"), f"turn.steps.{j}.kind",
               ("freeze_own", "freeze_enemy", "flush", "swap"), "combination step")
    want(stage != "choose_combo" or bool(turn["combos"]), "turn.combos", "the combination stage offers none")
    want(stage not in ("freeze_own", "freeze_enemy", "flush", "swap") or bool(turn["steps"]), "turn.steps",
         f"the stage {stage!r} waits for a combination step, and none is owed")
    if stage == "give":
        give = mapping(turn["give"], "turn.give")
        for side in ("from", "to"):
            seat(give.get(side), f"turn.give.{side}", 2)
    else:
        want(turn["give"] is None, "turn.give", "a hand-over is open outside the 'give' stage")
