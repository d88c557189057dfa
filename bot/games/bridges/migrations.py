"""Bridges' rules versions (bot/engine/versions.py).  Rules version 2 is the first that is recorded; the
migration 1→2 brings every shape an unversioned release wrote (from the game's first commit, 2026-11-24 02:55,
to 2026-11-27) to it.  The history of this package (``git log -p -- bot/games/bridges``) shows one change to what
is stored: up to 2026-11-24 05:36 (c9a4902, issue 14) there was no option ``arm_trade`` (the Arm trade opened
when the team owned an Arm: docs/rulings/bridges.md BR-21).  The defaults of ``duplicates``, ``phase_end`` and
``master_camp`` changed in that commit too, but a stored table keeps the values it was started with (options
are stored complete), so nothing is needed for them.  The state's own keys did not change.
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import Migration, former_readings, refuse_unknown, require_keys

#: option → the value that reproduces how a table started before the option existed was played
FORMER_READINGS = {
    "arm_trade": "owned",   # BR-21: the Arm trade opened with an Arm in the team's hands
}
OPTIONS_V2 = frozenset({"classes", "duplicates", "phase_end", "bomb_timing", "casserole", "tie_break", "boss_order",
                        "master_camp", "arm_trade", "phase_seconds"})
STATE_KEYS = frozenset({
    "game", "version", "seats", "options", "rng", "outcome", "rules", "arm_trade", "bank", "base_hp", "blueprints",
    "bombs", "bosses", "buildings", "camp", "chars", "chests", "fresh", "opened", "pending_stack", "phase",
    "provoked", "recent", "round", "setup", "tier2_sold", "traps"})


options_1_to_2 = former_readings(FORMER_READINGS, OPTIONS_V2)


def state_1_to_2(state: dict[str, Any]) -> None:
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"phase", "chars", "bosses", "bank", "round"})


#: rules version 3 (issue 27): the option ``pace``; a table started before it was played at the rule book's own
#: real-time pace, whatever its other options said (docs/rulings/bridges.md BR-34)
OPTIONS_V3 = OPTIONS_V2 | {"pace"}
options_2_to_3 = former_readings({"pace": "live"}, OPTIONS_V3)

MIGRATIONS = (
    Migration(2, "the option arm_trade gets the former reading (owned)", state=state_1_to_2,
              options=options_1_to_2),
    Migration(3, "the option pace: live (the rule book's real-time rules, as every table was played)",
              options=options_2_to_3),
)
