"""Random playouts for every faction pair in both variants (the conformance suite flips one option at a
time, so the pairs are covered here), plus the size limits of the text the players read."""
import itertools

import pytest

from bot.engine.playout import play
from bot.games.gwent import GAME
from bot.games.gwent.cards import FACTIONS

from .helpers import NAMES


@pytest.mark.long
def test_every_faction_pair_in_both_variants_plays_to_the_end():
    for variant in ("standard", "hardgwent"):
        for a, b in itertools.product(FACTIONS, FACTIONS):
            options = {"variant": variant, "faction_a": a, "faction_b": b}
            po = play(GAME, 2, seed=f"pair-{variant}-{a}-{b}", options=options, bot_seed=len(a) * 7 + len(b),
                      on_state=GAME.check_invariants)
            assert not po.cut and po.final["outcome"] is not None
            assert [p["faction"] for p in po.final["players"]] == [a, b]


def test_boards_fit_a_discord_message_and_labels_fit_a_button():
    po = play(GAME, 2, seed="sizes", options={"variant": "hardgwent", "faction_a": "monsters",
                                               "faction_b": "scoiatael"}, bot_seed=11)
    for state in po.states:
        for seat in (None, 0, 1):
            for locale in ("ru", "uk", "en"):
                assert len(GAME.render_view(GAME.view(state, seat), locale, NAMES)) <= 1800
        for p in GAME.to_act(state):
            for action in GAME.legal_actions(state, p.seat):
                assert 0 < len(GAME.describe_action(state, p.seat, action, "ru")) <= 80
