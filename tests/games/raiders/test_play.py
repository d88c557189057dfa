"""Whole games with the built-in players: they end, they use шняги where those turn a capture, every event
and board renders in every language within a phone's width, and labels parse back."""
import random

import pytest

from bot.engine import Applied
from bot.engine.board_text import PHONE_WIDTH, display_width
from bot.engine.playout import play

from .helpers import GAME, act, arrange, card, new_table

NAMES = ["Аня", "Борис", "Вера", "Гена", "Даша", "Егор"]


@pytest.mark.parametrize("seats, options", [(2, {}), (3, {"short_target": True}), (4, {"pairs": True}),
                                            (6, {"short_target": True})])
def test_bot_games_end_and_everything_renders_on_a_phone(seats, options):
    state = GAME.initial_state(seats, seed=f"render-{seats}", options=options).state
    rng, steps, shnyagi = random.Random(seats), 0, 0
    while state["outcome"] is None and steps < 4000:
        pending = GAME.to_act(state)
        seat = rng.choice(pending).seat
        action = GAME.bot_action(state, seat, rng)
        label = GAME.describe_action(state, seat, action, "uk", NAMES)
        assert label and display_width(label) <= 80, label
        shnyagi += action["type"] == "shnyaga"
        result = GAME.apply(state, seat, action)
        assert isinstance(result, Applied), result
        for event in result.events:
            for locale in ("ru", "uk", "en"):
                line = GAME.render_event(event, locale, NAMES)
                assert line is None or "{" not in line, (event, line)
        state = result.state
        steps += 1
        if steps % 15 == 0 or state["outcome"] is not None:
            for viewer in (None, *range(seats)):
                for locale in ("ru", "uk", "en"):
                    for full in (False, True):
                        board = GAME.render_view(GAME.view(state, viewer), locale, NAMES, full=full)
                        wide = [line for line in board.split("\n") if display_width(line) > PHONE_WIDTH]
                        assert not wide and "{" not in board, wide or board
    assert state["outcome"] is not None and shnyagi > 0


def test_the_bot_plays_a_boost_that_wins_its_capture_and_recalls_a_doomed_fighter():
    state = arrange(new_table(2), hands={0: ["c9", "h8"], 1: ["d6"]}, free=["market1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c9"), "prop": card("market1")})
    assert GAME.bot_action(state, 0, random.Random(0)) == {"type": "shnyaga", "card": card("h8"),
                                                             "target": card("c9")}
    assert GAME.bot_action(state, 1, random.Random(0)) == {"type": "pass"}, "nothing of its own at stake"


def test_the_bot_defends_its_guard():
    state = arrange(new_table(2), hands={0: ["ck"], 1: ["d7", "d6"]}, guarded={"garage1": ("dq", 1)})
    state, _ = act(state, 0, {"type": "capture", "card": card("ck"), "prop": card("garage1")})
    # 8 against the guard's 7: Подножка (−2) on the attacker turns the fight
    assert GAME.bot_action(state, 1, random.Random(0)) == {"type": "shnyaga", "card": card("d7"),
                                                             "target": card("ck")}


def test_labels_parse_back():
    state = arrange(new_table(2), hands={0: ["c10", "h8"], 1: ["d6"]}, free=["market1", "kiosk1"])
    for action in GAME.legal_actions(state, 0):
        label = GAME.describe_action(state, 0, action, "ru", NAMES)
        if sum(GAME.describe_action(state, 0, a, "ru", NAMES) == label for a in GAME.legal_actions(state, 0)) == 1:
            assert GAME.parse_action(state, 0, label, NAMES) == action


def test_demo_tables_end_quickly():
    po = play(GAME, GAME.demo_seat_count(), seed="demo-check", bot_seed=1)
    assert po.final["outcome"] is not None and not po.cut
