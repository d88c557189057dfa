"""Raiders' rules versions (bot/engine/versions.py).  Version 1: from the game's first commit (2026-11-24 05:37,
3d98622) to 2026-11-27 neither its stored state nor its options changed (``git log -p -- bot/games/raiders``;
1bbc046 changed only which moves the referee takes for a player, not what is stored), so an unversioned Raiders
state is a version-1 state.

Version 2 (issue 27) adds the option ``pace``: a table started before it was played at the real-time pace, its
windows timed by ``window_seconds`` as it stood (docs/rulings/raiders.md RD-20), so its former reading is ``live``.
"""
from __future__ import annotations

from bot.engine.versions import Migration, former_readings

#: every option a table of rules version 1 has
OPTIONS_V1 = frozenset({"deck", "sets", "short_target", "pairs", "disputes", "window_seconds"})
OPTIONS_V2 = OPTIONS_V1 | {"pace"}
options_1_to_2 = former_readings({"pace": "live"}, OPTIONS_V2)

MIGRATIONS = (
    Migration(2, "the option pace: live (the rule book's real-time rules, as every table was played)",
              options=options_1_to_2),
)
