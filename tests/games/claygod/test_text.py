"""The referee's lines in words (issue 14, item 7): plurals in Russian and Ukrainian, a draw that one mage
brings on alone, the energy a die has rather than the one it rolled, the drain's two sides."""
import pytest

from bot.games.claygod import GAME

from .helpers import NAMES, apply, event, ready, reject, table

LINE = {"ru": {1: "1 использованная карта перемешана", 3: "3 использованные карты перемешаны",
               21: "21 использованная карта перемешана", 63: "63 использованные карты перемешаны",
               65: "65 использованных карт перемешаны"},
        "uk": {1: "1 використану карту перемішано", 3: "3 використані карти перемішано",
               63: "63 використані карти перемішано", 65: "65 використаних карт перемішано"},
        "en": {1: "1 used card is shuffled", 63: "63 used cards are shuffled"}}


@pytest.mark.parametrize("locale", sorted(LINE))
def test_the_reshuffle_line_agrees_with_its_number(locale):
    for n, words in LINE[locale].items():
        line = GAME.render_event({"kind": "reshuffled", "data": {"count": n}, "to": None}, locale, NAMES)
        assert words in line, line


def test_the_stacked_used_pile_line_agrees_with_its_number():
    render = GAME.render_event
    assert "61 карта лежит" in render({"kind": "used_pile_set", "data": {"count": 61}, "to": None}, "ru", NAMES)
    assert "62 карты лежат" in render({"kind": "used_pile_set", "data": {"count": 62}, "to": None}, "ru", NAMES)
    assert "65 карт лежат" in render({"kind": "used_pile_set", "data": {"count": 65}, "to": None}, "ru", NAMES)


def test_one_mage_above_200_and_below_minus_50_is_not_both_mages_falling():
    state = ready(table(hands=(["ghoul_refuge"], []), stats=[{"health": 195, "sphere": -45}, {}]), 0)
    applied = apply(state, 0, type="play", card="ghoul_refuge")
    assert applied.state["outcome"]["reason"] == "claygod.outcome.won_and_fell"
    for locale in ("ru", "uk", "en"):
        line = GAME.render_event(event(applied.events, "game_over"), locale, NAMES)
        assert "200" in line and "CG-9" in line
    assert "Оба мага" not in GAME.render_event(event(applied.events, "game_over"), "ru", NAMES)


def test_a_held_die_is_what_the_player_has_not_what_they_rolled():
    state = ready(table(hands=(["demon"], [])), 0, dice=(1, 6, 6, 6, 6, 6, 6))
    refusal = reject(state, 0, type="play", card="demon")
    assert refusal.message("ru") == "Не хватает энергии: нужно 🟥6, у вас 🟥1. (см. §3.1)"
    assert "you have 🟥1" in refusal.message("en") and "у вас 🟥1" in refusal.message("uk")


def test_the_drain_marks_only_the_drained_player_as_below_zero():
    state = ready(table(first=1, stats=[{"sphere": -3}, {}]), 1)
    applied = apply(state, 1, type="restore_sphere")  # seat 0's turn begins: rule 7 moves 2 health to seat 1
    start = [e for e in applied.events if e["kind"] == "stats" and e["data"]["cause"] == {"kind": "turn_start"}]
    assert GAME.render_event(start[-1], "en", NAMES) == (
        "Start of turn: Аня ❤️ 50→48 (sphere below 0); Боб ❤️ 45→47 (the opponent's sphere below 0)")
    assert "(сфера соперника ниже 0)" in GAME.render_event(start[-1], "ru", NAMES)
