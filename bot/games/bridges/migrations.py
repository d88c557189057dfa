"""Bridges' rules versions (bot/engine/versions.py).  Rules version 2 is the first that is recorded; the
migration 1→2 brings every shape an unversioned release wrote (from the game's first commit, 2026-11-24 02:55,
to 2026-11-27) to it.  The history of this package (``git log -p -- bot/games/bridges``) shows one change to what
is stored: up to 2026-11-24 05:36 (c9a4902, issue 14) there was no option ``arm_trade`` (the Arm trade opened
when the team owned an Arm: docs/rulings/bridges.md BR-21).  The defaults of ``duplicates``, ``phase_end`` and
``master_camp`` changed in that commit too, but a stored table keeps the values it was started with (options
are stored complete), so nothing is needed for them.  The state's own keys did not change.

Rules version 3 (issues 27 and 29):

- the option ``pace`` (BR-34): a table started before it gets ``live``, the rule book's real-time pace;
- the option ``zero_ap`` (BR-1): a seat's phase now ends by itself when its AP reach 0 (``end``, the default:
  the referee takes the End as a forced move); a table started before it gets ``wait``, how it was played (the
  seat pressed End, free actions still open);
- the trap action names its island (``{"type": "trap", "island": …}``, refused citing §1.3 when it is not the
  Scout's own).  No state stores an action, so no state changes; an action recorded under version 2 without
  the island still reads as the Scout's own island, so an older record replays as it was played.

Rules version 4 (issue 35):

- ``zero_ap: end`` (the default) now ends a seat's phase in the very action that spends its last AP (the
  engine, like ``phase_end: auto``): no End of its own, neither pressed nor forced nor recorded.  A table of
  rules version 3 with ``zero_ap: end`` gets ``zero_ap: referee``, how it was played: the referee took the End
  as a forced move of its own (under ``auto``, when the table's ``auto_forced`` setting was on).  ``wait``
  stays ``wait``.  The state's own keys did not change.
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import Migration, former_readings, refuse_unknown, require_keys

#: option → the value that reproduces how a table started before the option existed was played (rules version 2)
FORMER_READINGS_V2 = {
    "arm_trade": "owned",   # BR-21: the Arm trade opened with an Arm in the team's hands
}
OPTIONS_V2 = frozenset({"classes", "duplicates", "phase_end", "bomb_timing", "casserole", "tie_break", "boss_order",
                        "master_camp", "arm_trade", "phase_seconds"})
#: rules version 3 (issues 27, 29): the options it added, with the value an older table was played with
FORMER_READINGS_V3 = {
    "pace": "live",         # BR-34: the rule book's own real-time pace, whatever the other options said
    "zero_ap": "wait",      # BR-1: the seat pressed End even at 0 AP
}
OPTIONS_V3 = OPTIONS_V2 | frozenset(FORMER_READINGS_V3)
#: every option added since rules version 1, with its former reading
FORMER_READINGS = {**FORMER_READINGS_V2, **FORMER_READINGS_V3}
#: rules version 4 (issue 35): ``zero_ap: end`` changed its reading; the former one has a name of its own
RENAMED_V4 = {"zero_ap": {"end": "referee"}}
STATE_KEYS = frozenset({
    "game", "version", "seats", "options", "rng", "outcome", "rules", "arm_trade", "bank", "base_hp", "blueprints",
    "bombs", "bosses", "buildings", "camp", "chars", "chests", "fresh", "opened", "pending_stack", "phase",
    "provoked", "recent", "round", "setup", "tier2_sold", "traps"})


options_1_to_2 = former_readings(FORMER_READINGS_V2, OPTIONS_V2)
options_2_to_3 = former_readings(FORMER_READINGS_V3, OPTIONS_V3)


def state_1_to_2(state: dict[str, Any]) -> None:
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"phase", "chars", "bosses", "bank", "round"})


def state_2_to_3(state: dict[str, Any]) -> None:
    """Nothing of the state's own keys changed (the options are migrated by ``options_2_to_3``)."""
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"phase", "chars", "bosses", "bank", "round", "traps"})


def options_3_to_4(options: dict[str, Any]) -> None:
    """The value whose reading changed takes the name of the former reading; an option no release knew is
    refused."""
    refuse_unknown(options, OPTIONS_V3, "options")
    for name, renamed in RENAMED_V4.items():
        if options.get(name) in renamed:
            options[name] = renamed[options[name]]


def state_3_to_4(state: dict[str, Any]) -> None:
    """Nothing of the state's own keys changed (the options are migrated by ``options_3_to_4``).  A seat at 0 AP
    whose phase is still open keeps it open: under ``referee`` the forced End ends it, as before."""
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"phase", "chars", "bosses", "bank", "round", "traps"})


MIGRATIONS = (
    Migration(2, "the option arm_trade gets the former reading (owned)", state=state_1_to_2,
              options=options_1_to_2),
    Migration(3, "the options pace: live (the rule book's real-time rules, as every table was played) and "
                 "zero_ap: wait (End pressed at 0 AP); the trap action names its island", state=state_2_to_3,
              options=options_2_to_3),
    Migration(4, "zero_ap: end becomes zero_ap: referee (the referee's forced End at 0 AP, as the table was "
                 "played); a new table's end ends the phase in the action that spends the last AP",
              state=state_3_to_4, options=options_3_to_4),
)
