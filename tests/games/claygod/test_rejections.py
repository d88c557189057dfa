"""Refusals: their codes, keys, rule citations and messages, and that a refusal changes nothing."""
import pytest

from bot.engine.canonical import dumps
from bot.games.claygod import GAME

from .helpers import ready, reject, table


@pytest.fixture
def rolling():
    return table(hands=(["demon", "sunset"], ["pearl"]))


@pytest.fixture
def acting(rolling):
    return ready(rolling, 0, dice=(1, 1, 1, 1, 1, 1, 1))


@pytest.mark.parametrize("action,code,key", [
    ({"type": "cast_fireball"}, "malformed", "claygod.reject.unknown_action"),
    ({"type": "play", "card": "demon"}, "illegal", "claygod.reject.stage.roll"),
    ({"type": "give", "card": "demon"}, "illegal", "claygod.reject.stage.roll"),
    ({"type": "combo", "combo": "flush"}, "illegal", "claygod.reject.stage.roll"),
])
def test_before_the_roll(rolling, action, code, key):
    refusal = reject(rolling, 0, **action)
    assert (refusal.code, refusal.key) == (code, key)


@pytest.mark.parametrize("action,code,key,rule", [
    ({"type": "roll"}, "illegal", "claygod.reject.stage.action", None),
    ({"type": "play", "card": "demon"}, "illegal", "claygod.reject.energy", "§3.1"),
    ({"type": "play", "card": "pearl"}, "illegal", "claygod.reject.not_in_hand", None),
    ({"type": "play", "card": "no_such_card"}, "malformed", "claygod.reject.unknown_card", None),
    ({"type": "play"}, "malformed", "claygod.reject.unknown_card", None),
    ({"type": "play", "card": ["demon"]}, "malformed", "claygod.reject.unknown_card", None),
    ({"type": "play_two", "cards": "demon"}, "malformed", "claygod.reject.two_cards", None),
    ({"type": "play_table"}, "illegal", "claygod.reject.table_energy", "§3.2"),
    ({"type": "attack", "stat": "mana"}, "malformed", "claygod.reject.bad_field", None),
    ({"type": "freeze_all", "pay": "gold"}, "malformed", "claygod.reject.bad_field", None),
    ({"type": "flush_done"}, "illegal", "claygod.reject.stage.action", None),
    ({"type": "combo_freeze", "colour": "red"}, "illegal", "claygod.reject.stage.action", None),
])
def test_at_the_action(acting, action, code, key, rule):
    before = dumps(acting)
    refusal = reject(acting, 0, **action)
    assert (refusal.code, refusal.key, refusal.rule) == (code, key, rule)
    assert dumps(acting) == before


def test_the_other_seat_and_an_early_timeout(acting):
    assert reject(acting, 1, type="roll").code == "not_your_turn"
    assert reject(acting, 0, type="timeout").code == "too_early"


def test_messages_in_every_language_cite_the_rule_and_reveal_no_card(acting):
    refusal = reject(acting, 0, type="play", card="pearl")  # the opponent's card: the message must not tell
    for locale in ("ru", "uk", "en"):
        text = refusal.message(locale)
        assert "claygod." not in text and "pearl" not in text.lower()
    energy = reject(acting, 0, type="play", card="demon").message("en")
    assert energy == "Not enough energy: it needs 🟥6, you have 🟥1. (see §3.1)"
    assert GAME.describe_action(acting, 0, {"type": "play", "card": "demon"}, "ru") == "Сыграть: Демон (🟥К6)"
