"""Raiders' rules versions (bot/engine/versions.py).

Version 1: from the game's first commit (2026-11-24 05:37, 3d98622) to 2026-11-27 neither its stored state nor
its options changed (``git log -p -- bot/games/raiders``; 1bbc046 changed only which moves the referee takes
for a player, not what is stored), so an unversioned Raiders state is a version-1 state.

Version 2, one release with two changes.  Issue 29: outcomes changed, the stored shapes did not:
- a pair's target is 36 also with ``short_target`` (RD-21; it was 24).  A table's target is stored in its
  state when it is set up, so an older table keeps the 24 it was started with: its former reading needs no
  step here;
- a judge-assisted step may state a change of −10…+10 or a value крутизна becomes (RD-15; it was −3…+3): what
  an older table stated is among them;
- a deck may hold шняга-only cards and effects that set крутизна; the shipped house set has neither.
Issue 27 adds the option ``pace``: a table started before it was played at the real-time pace, its windows timed
by ``window_seconds`` as it stood (docs/rulings/raiders.md RD-25), so its former reading is ``live``.
So the step gives ``pace: live`` and checks that the state is of a shape version 1 wrote.
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import Migration, former_readings, refuse_unknown, require_keys

STATE_KEYS = frozenset({
    "game", "version", "seats", "options", "rng", "outcome", "rules", "deck_set", "copies", "deck", "discard",
    "pdeck", "players", "props", "mods", "window", "target", "teams", "turn", "trump", "trump_card", "trump_shown"})
#: every option a table of rules version 1 has
OPTIONS_V1 = frozenset({"deck", "sets", "short_target", "pairs", "disputes", "window_seconds"})
OPTIONS_V2 = OPTIONS_V1 | {"pace"}
options_1_to_2 = former_readings({"pace": "live"}, OPTIONS_V2)


def state_1_to_2(state: dict[str, Any]) -> None:
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, STATE_KEYS - {"rules"})


MIGRATIONS = (
    Migration(2, "a pair plays for 36 also with short_target (a started table keeps its stored target); "
                 "wider judge-assisted outcomes; шняга-only cards and set крутизна in deck files; the option "
                 "pace: live (the rule book's real-time rules, as every table was played)",
              state=state_1_to_2, options=options_1_to_2),
)
