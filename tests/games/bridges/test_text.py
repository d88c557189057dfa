"""What players read: every event renders in ru/uk/en without a hole, boards fit a phone (40 columns) and a
Discord message, labels fit a button and are distinct."""
import re

import pytest

from bot.engine.board_text import display_width as width
from bot.engine.playout import play
from bot.games.bridges import GAME
from bot.games.bridges import render
from bot.games.bridges.render import item_name

from .helpers import CLASSES, NAMES, act, place, table

#: the rule book's island codes: players read the islands' names in their language instead
CODES = re.compile(r"\[(BSE|chs|chn|trl|CRB|[1-4])\]|\b(chs|chn|trl|CRB|BSE)\b")


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
                assert not CODES.search(board), board
        for p in GAME.to_act(state):
            for locale in ("ru", "uk", "en"):
                labels = [GAME.describe_action(state, p.seat, a, locale, NAMES)
                          for a in GAME.legal_actions(state, p.seat)]
                assert all(0 < len(label) <= 80 and "{" not in label for label in labels)
                assert not any(CODES.search(label) for label in labels), labels
                assert len(set(labels)) == len(labels), "two choices read the same"
    for event in events:
        assert event["to"] is None, "the game is open: every event is public"
        for locale in ("ru", "uk", "en"):
            short = GAME.render_event(event, locale, NAMES)
            if short is None:  # at the table a phase ended with every AP spent is no news; the log tells it
                assert event["kind"] == "phase_ended" and event["data"]["ap"] == 0, event
            assert GAME.render_event_detail(event, locale, NAMES), event
            for line in filter(None, (short, GAME.render_event_detail(event, locale, NAMES))):
                assert not re.search(r"\{\w+\}", line), (event, line)
                assert not CODES.search(line), line
            rendered += 1
    assert rendered > 100


def test_the_neutral_phase_says_what_each_boss_did_and_the_log_says_why():
    state = table(["master"])
    place(state, 0, "4", armour="plate_armour")
    result = GAME.apply(state, 0, {"type": "end"})
    # the table and the thread: what each boss did, one plain line of at most 60 columns
    turns = [e for e in result.events if e["kind"] == "boss_turn"]
    assert len(turns) == 5
    for locale in ("ru", "uk", "en"):
        for event in turns:
            line = GAME.render_event(event, locale, NAMES)
            assert width(line) <= 60 and "(" not in line.split(":")[0], line
    short = [GAME.render_event(e, "ru", NAMES) for e in turns]
    assert "Големко: Пинок → Аня" in short, short
    assert "Тёмный стрелок: ждёт" in short, short
    summary = next(e for e in result.events if e["kind"] == "neutral_summary")
    assert GAME.render_event(summary, "ru", NAMES) == "Ход боссов: Големко — Пинок → Аня."
    assert "ждут Тёмный стрелок" in GAME.render_event_detail(summary, "ru", NAMES)
    # the log: which priority line and why, with the rule
    lines = [GAME.render_event_detail(e, "ru", NAMES) for e in result.events]
    assert any("Големко (приоритет 2: 1 игрок на его острове): Пинок → Аня" in line for line in lines), lines
    assert any("Запеканка (приоритет 3" in line and "Стрелок жив" in line for line in lines), lines
    en = [GAME.render_event_detail(e, "en", NAMES) for e in result.events]
    assert any("Golemko (priority 2: 1 player on its island): Kick → Аня" in line for line in en)


def test_a_crowd_of_targets_is_counted_to_keep_the_line_short():
    event = {"kind": "boss_turn", "to": None, "data": {
        "boss": "krabulon", "group": 1, "line": 1, "ability": "claw_sweep", "targets": list(range(8)),
        "why": "here_2plus", "rule": "§3.1"}}
    names = [f"Игрок-с-длинным-именем-{i}" for i in range(8)]
    line = GAME.render_event(event, "ru", names)
    assert line == "Крабулон: Размах клешней → 8 игроков", line
    assert "Игрок-с-длинным-именем-7" in GAME.render_event_detail(event, "ru", names)


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


def test_the_full_board_keeps_every_characters_gear_and_is_never_cut(monkeypatch):
    """The "Full board" button.  A board over one message's LIMIT drops the characters' gear to fit and is cut;
    the full board lists everyone's gear, uncut, still 40 columns wide.  (Twelve armed characters come to about
    1,500 characters, under the real LIMIT: a smaller one stands in for a board that overflows.)"""
    state = table(CLASSES * 3)
    for seat in range(12):
        place(state, seat, "base", hands=["greatsword"], armour="plate_armour")
    seen = GAME.view(state, None)
    sword = item_name("greatsword", "ru")
    assert GAME.render_view(seen, "ru", NAMES, full=True) == GAME.render_view(seen, "ru", NAMES)  # it fits
    monkeypatch.setattr(render, "LIMIT", 800)
    short = GAME.render_view(seen, "ru", NAMES)
    full = GAME.render_view(seen, "ru", NAMES, full=True)
    assert len(short) <= 800 and sword not in short
    assert len(full) > 800 and full.count(sword) == 12
    assert all(width(line) <= 40 for line in full.split("\n")), full
