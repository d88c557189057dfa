"""What players read: every event renders in ru/uk/en without a hole, boards fit a phone (40 columns) and a
Discord message, labels fit a button and are distinct."""
import re

import pytest

from bot.engine.board_text import display_width as width
from bot.engine.playout import play
from bot.games.bridges import GAME

from .helpers import NAMES, act, place, table


@pytest.mark.parametrize("seats", [1, 4, 12])
def test_every_event_and_board_renders_in_every_language(seats):
    po = play(GAME, seats, seed=f"text-{seats}", bot_seed=seats, options={"classes": "random"})
    state = po.initial
    rendered = 0
    events = list(po.setup_events)
    for i, step in enumerate(po.steps):
        result = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        state = result.state
        events += result.events
        if seats > 4 and i % 5:
            continue
        for seat in (None, 0):
            for locale in ("ru", "uk", "en"):
                board = GAME.render_view(GAME.view(state, seat), locale, NAMES)
                assert len(board) <= 1800
                assert all(width(line) <= 40 for line in board.split("\n")), board
        for p in GAME.to_act(state):
            labels = [GAME.describe_action(state, p.seat, a, "ru", NAMES) for a in GAME.legal_actions(state, p.seat)]
            assert all(0 < len(label) <= 80 and "{" not in label for label in labels)
            assert len(set(labels)) == len(labels), "two choices read the same"
    for event in events:
        assert event["to"] is None, "the game is open: every event is public"
        for locale in ("ru", "uk", "en"):
            line = GAME.render_event(event, locale, NAMES)
            assert line and not re.search(r"\{\w+\}", line), (event, line)
            rendered += 1
    assert rendered > 100


def test_the_neutral_phase_says_what_each_boss_did_and_why():
    state = table(["master"])
    place(state, 0, "4", armour="plate_armour")
    result = GAME.apply(state, 0, {"type": "end"})
    lines = [GAME.render_event(e, "ru", NAMES) for e in result.events]
    assert any("Големко (приоритет 2: 1 игрок на его острове): Пинок → Аня" in line for line in lines), lines
    assert any("Запеканка (приоритет 3" in line and "Стрелок жив" in line for line in lines), lines
    en = [GAME.render_event(e, "en", NAMES) for e in result.events]
    assert any("Golemko (priority 2: 1 player on its island): Kick → Аня" in line for line in en)


def test_labels_show_the_damage_an_attack_would_deal():
    state = place(table(["burilla"]), 0, "4", hands=["extending_arm", "extending_arm"])
    labels = {GAME.describe_action(state, 0, a, "ru", NAMES) for a in GAME.legal_actions(state, 0)
              if a["type"] == "attack"}
    assert "Атака: Големко, сила 6, без ответа" in labels
    assert "Атака: Големко, сила 6, без ответа + риск d6" in labels


def test_a_typed_label_picks_the_action():
    state = table(["master"])
    action = GAME.parse_action(state, 0, "Идти: Ближний сундук (1 ОД)", NAMES)
    assert action == {"type": "move", "to": "chs"}
    state = act(state, 0, type="move", to="chs")
    assert GAME.parse_action(state, 0, "Go to Near Chest", NAMES).code == "malformed"
