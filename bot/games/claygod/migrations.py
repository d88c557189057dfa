"""Clay God's rules versions (bot/engine/versions.py).  Rules version 2 is the first that is recorded; the
migration 1→2 brings every shape an unversioned release wrote (from the game's first commit to 2026-11-27)
to it.  The shapes, found in the history of this package (``git log -p -- bot/games/claygod``):

- up to 2026-11-23 11:08 (7b76092): no option ``win_needs`` (§6 read as "either" — CG-34's default today);
- up to 2026-11-24 05:35 (ed09e3e, issue 14): no options ``count_turns``, ``frozen_defeat``, ``flush_draw``,
  ``discard_draw``, ``lost_place``, ``two_cards`` (the team's former readings were the only rules then); a die
  had no ``frozen_rolls`` / ``frozen_by``, a player no ``table_place``, a turn no ``extra``; the steps a
  combination owes were ``{"kind": "freeze_own" | "freeze_enemy", "turns": n}`` (now ``rolls``) and
  ``{"kind": "flush"}`` (now with ``up_to``);
- since: today's shape (the key ``rules`` aside).
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import CannotMigrate, Migration, former_readings, refuse_unknown, require_keys

#: option → the value that reproduces how a table started before the option existed was played: each is the
#: team's former reading, which was then the only rule (docs/rulings/claygod.md names each as the option)
FORMER_READINGS = {
    "win_needs": "either",          # 7b76092: either number above 200 won before the option existed
    "count_turns": "every",         # ed09e3e: extra turns counted as turns
    "frozen_defeat": "lasting",     # only dice frozen until thawed made "all frozen" a defeat
    "flush_draw": "hand_size",      # the flush drew up to the hand size
    "discard_draw": "to_hand_size",  # §3.3 drew only up to the hand size
    "lost_place": "hand",           # Sacrifice / Banner from the table left the table place
    "two_cards": "in_order",        # two cards at once were judged one after the other
}
#: every option a table of rules version 2 has
OPTIONS_V2 = frozenset({
    "maximum", "win_needs", "count_turns", "frozen_defeat", "frozen_combos", "flush_order", "flush_draw",
    "discard_draw", "lost_place", "prince_skip", "clock_mode", "clock_turns", "turn_clock", "async_turn_hours",
    "two_cards"})
STATE_KEYS = frozenset({"game", "version", "seats", "options", "rng", "outcome", "rules", "players", "deck",
                        "discard", "turn"})
#: the flush's draw in the catalogue (data/claygod/combos.yaml, ``redraw: up_to 5``) — only read under
#: ``flush_draw: five``, which an old table does not play
FLUSH_UP_TO = 5


options_1_to_2 = former_readings(FORMER_READINGS, OPTIONS_V2)


def state_1_to_2(state: dict[str, Any]) -> None:
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, STATE_KEYS - {"rules"})
    for p in state["players"]:
        # a table place was never lost before lost_place existed (and old tables keep lost_place: hand)
        p.setdefault("table_place", True)
        for die in p["dice"].values():
            # an old hold is a term in turns (frozen_turns) or none: no hold through a roll, cause unrecorded
            # (frozen_by is read only by frozen_defeat: any, which an old table does not play)
            die.setdefault("frozen_rolls", None)
            die.setdefault("frozen_by", None)
    turn = state["turn"]
    if turn is not None:
        if not isinstance(turn, dict):
            raise CannotMigrate("upgrade.cannot.shape", detail="turn")
        turn.setdefault("extra", False)  # with count_turns: every an extra turn counts as any other
        for step in turn.get("steps") or []:
            if step.get("kind") in ("freeze_own", "freeze_enemy") and "rolls" not in step:
                # three sixes' hold was one of the owner's turns; it is now held through the next roll
                step["rolls"] = step.pop("turns", 1)
            if step.get("kind") == "flush":
                step.setdefault("up_to", FLUSH_UP_TO)


#: rules version 3, one release with two changes: issue 29, CG-14's third reading as an option (a table of rules
#: version 2 formed no combination on a roll with a held die, unless frozen_combos, which thrown_combos: false
#: keeps); issue 27, the option ``pace`` (a table started before it was played at the rule book's own real-time
#: pace, whatever its other options said: docs/rulings/claygod.md CG-36)
FORMER_READINGS_V3 = {"thrown_combos": False, "pace": "live"}
OPTIONS_V3 = OPTIONS_V2 | {"thrown_combos", "pace"}

options_2_to_3 = former_readings(FORMER_READINGS_V3, OPTIONS_V3)


MIGRATIONS = (
    Migration(2, "the issue-14 options get the team's former readings; dice, turns and combination steps in "
                 "today's shape", state=state_1_to_2, options=options_1_to_2),
    Migration(3, "option thrown_combos (CG-14: a roll with a held die forms combinations from the thrown dice); "
                 "older tables keep false; the option pace: live (the rule book's real-time rules, as every table "
                 "was played)", options=options_2_to_3),
)
