"""Bloodwood's rules versions (bot/engine/versions.py).  Rules version 2 is the first that is recorded; the
migration 1→2 brings every shape an unversioned release wrote (from the game's first commit, 2026-11-23, to
2026-11-27) to it.  The history of this package (``git log -p -- bot/games/bloodwood``) shows one change to
what is stored: up to 2026-11-24 05:30 (a3e780d, issue 14) there were no options ``reshuffle`` and
``asleep_may_declare`` (the team's former readings were the only rules then: docs/rulings/bloodwood.md BW-6,
BW-25).  The state's own keys did not change.
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import Migration, former_readings, refuse_unknown, require_keys

#: option → the value that reproduces how a table started before the option existed was played
FORMER_READINGS = {
    "reshuffle": "draw",            # BW-6: a deck was rebuilt only when someone drew from it empty
    "asleep_may_declare": False,    # BW-25: a sleeping player could not declare until his skipped turn was over
}
OPTIONS_V2 = frozenset({"leaders", "first_player", "role_deal", "turn_seconds", "counter_seconds",
                        "extra_turn_specials", "mirror", "reshuffle", "asleep_may_declare"})
STATE_KEYS = frozenset({
    "game", "version", "seats", "options", "rng", "outcome", "rules", "assigner", "chains", "composition",
    "confessed", "curse", "decks", "direction", "discard", "dna", "hands", "in_flight", "known", "phase",
    "phase_turns", "roles", "sleep", "step", "turn", "turn_no"})


options_1_to_2 = former_readings(FORMER_READINGS, OPTIONS_V2)


def state_1_to_2(state: dict[str, Any]) -> None:
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"phase", "decks", "hands", "roles", "turn"})


#: rules version 3 (issue 27): the option ``pace``; a table started before it was played at the rule book's own
#: real-time pace, whatever its other options said (docs/rulings/bloodwood.md BW-32)
OPTIONS_V3 = OPTIONS_V2 | {"pace"}
options_2_to_3 = former_readings({"pace": "live"}, OPTIONS_V3)

MIGRATIONS = (
    Migration(2, "the issue-14 options get the team's former readings", state=state_1_to_2,
              options=options_1_to_2),
    Migration(3, "the option pace: live (the rule book's real-time rules, as every table was played)",
              options=options_2_to_3),
)
