"""Gwent's rules versions (bot/engine/versions.py).  Rules version 2 is the first that is recorded; the migration
1→2 brings every shape an unversioned release wrote (from the game's first commit, 2026-11-22, to 2026-11-27)
to it.  The shapes, found in the history of this package (``git log -p -- bot/games/gwent``):

- 2026-11-23 11:01 (faa7141) to 2026-11-23 12:31 (703ed64): the judge's table (row totals, scores) was stored
  in every state under ``table``; it is derived when read now (``Game.judge_table``), so it is dropped;
- up to 2026-11-24 05:33 (0df7dfa, issue 14): no options ``emperor_shown_to``, ``empty_hand_take``,
  ``treacherous_crach``, ``scorch_spares_zero``, ``bran_weather_floor`` (the team's former readings were the
  only rules then: docs/rulings/gwent.md GW-24, GW-27, GW-28, GW-10, GW-12);
- a choice on the stack without ``left`` / ``source`` (the earliest releases): read as 1 and ``medic`` by the
  engine itself (choices.py), so left as it is;
- since: today's shape (the key ``rules`` aside).
"""
from __future__ import annotations

from typing import Any

from bot.engine.versions import Migration, former_readings, refuse_unknown, require_keys

#: option → the value that reproduces how a table started before the option existed was played
FORMER_READINGS = {
    "emperor_shown_to": "owner",    # GW-24: the Emperor's cards were told to the two players only
    "empty_hand_take": "play",      # GW-27: the Invader's card could be the second card of the double move
    "treacherous_crach": True,      # GW-28: the Treacherous halved Crach an Craite's horn too
    "scorch_spares_zero": True,     # GW-10: nothing of strength 0 was scorched
    "bran_weather_floor": True,     # GW-12: under King Bran a unit never fell below plain weather's 1
}
OPTIONS_V2 = frozenset({
    "variant", "faction_a", "faction_b", "deck", "mulligan", "end_when_ahead", "emperor_reveal", "emperor_shown_to",
    "empty_hand_take", "treacherous_crach", "scorch_spares_zero", "bran_weather_floor", "cow", "turn_seconds"})
STATE_KEYS = frozenset({
    "game", "version", "seats", "options", "rng", "outcome", "rules", "aside", "cand", "cards", "chooser", "deck",
    "discard", "draws_due", "hand", "journal", "keeper", "mull", "next_token", "no_summon", "phase", "players",
    "results", "revealed", "round", "round_fx", "rows", "setup", "since", "slots", "stack", "starters", "turn",
    "turn_in_round", "turn_no", "variant", "weak_horn", "weather"})
#: keys older releases stored that today's rules derive instead
DROPPED = ("table",)


options_1_to_2 = former_readings(FORMER_READINGS, OPTIONS_V2)


def state_1_to_2(state: dict[str, Any]) -> None:
    for key in DROPPED:
        state.pop(key, None)
    refuse_unknown(state, STATE_KEYS)
    require_keys(state, {"players", "phase", "cards", "rows", "hand", "deck", "discard", "stack", "variant"})


#: rules version 3, one release with two changes: issue 29 added the choice ``play_pass`` to ``empty_hand_take``
#: (GW-27), and an older table keeps its value, which was one of the two it could have (a turn's key
#: ``taken_then_pass`` exists only under the new one); issue 27 added the option ``pace``, and a table started
#: before it was played at the book's real-time pace (docs/rulings/gwent.md GW-35)
OPTIONS_V3 = OPTIONS_V2 | {"pace"}
options_2_to_3 = former_readings({"pace": "live"}, OPTIONS_V3)


MIGRATIONS = (
    Migration(2, "the issue-14 options get the team's former readings; the stored judge's table is dropped "
                 "(derived when read)", state=state_1_to_2, options=options_1_to_2),
    Migration(3, "empty_hand_take may be play_pass (GW-27: the Invader's card played, then the automatic pass); "
                 "older tables keep their value; the option pace: live (the rule book's real-time rules, as every "
                 "table was played)", options=options_2_to_3),
)
