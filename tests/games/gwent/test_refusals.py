"""A refusal out of phase says what the table is waiting for; every key those refusals can take is written in
the three languages."""
import pytest

from bot.i18n import catalogue as texts

from .helpers import act, reject, table

PHASES = ("setup", "mulligan", "first", "keep", "choice", "play")
SETUP_STEPS = ("faction", "leader", "deck", "ready")


@pytest.mark.parametrize("key", [f"gwent.reject.now_{p}" for p in PHASES]
                         + [f"gwent.reject.setup_{s}_first" for s in SETUP_STEPS])
def test_every_phase_refusal_is_translated(key):
    assert {"ru", "uk", "en"} <= set(texts()[key])


def test_a_keep_during_a_turn_names_the_turn():
    s = table(a="monsters", b="nilfgaard", first=0, end_when_ahead=True)
    s = act(s, 0, type="pass")
    s = act(s, 1, type="pass")
    assert s["phase"] == "play" and s["round"] == 2  # 0:0, no unit to keep: straight on to round 2
    assert reject(s, s["turn"]["seat"], type="keep", card="c0").key == "gwent.reject.now_play"
