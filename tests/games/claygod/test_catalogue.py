"""Every data file loads and validates; the catalogue is the rule book's; broken data is caught with its place."""
import re
from pathlib import Path

import pytest

from bot.engine.catalog import CatalogError, validate
from bot.games.claygod.cards import CARD_SCHEMA, COLOURS, COMBO_SCHEMA, catalogue
from bot.i18n import catalogue as strings

RULE_BOOK = "/work/shared/rules/claygod.md"


def _printed_catalogue():
    """(name, cost numbers) of every card, read from the rule book itself."""
    try:
        text = Path(RULE_BOOK).read_text(encoding="utf-8")
    except FileNotFoundError:
        pytest.skip("the rule book is not in this checkout")
    cat = text[text.index("## КАТАЛОГ КАРТ"):]
    return [(n, [int(x) for x in c.split()])
            for n, _, c in re.findall(r"<p><b>(.*?)</b></p>\s*<p>(.*?)</p>\s*<p>([\d ]+)</p>", cat)]


def test_all_74_cards_with_three_names_and_seven_costs():
    cards = catalogue().cards
    assert len(cards) == 74
    for card in cards.values():
        assert set(card.names) == {"ru", "uk", "en"} and all(card.names.values())
        assert len(card.cost) == 7 and all(0 <= n <= 6 for n in card.cost)
        assert card.effects and card.text_ru
    assert len({c.names["en"] for c in cards.values()}) == 74


def test_costs_follow_the_printed_numbers_and_cg1():
    eight = []
    for card in catalogue().cards.values():
        numbers = [int(x) for x in card.printed_cost.split()]
        if len(numbers) == 8:
            eight.append(card.id)
            assert numbers[5] == 0 and list(card.cost) == numbers[:5] + numbers[6:]
        else:
            assert list(card.cost) == numbers
    assert sorted(eight) == sorted(["library", "luck", "sacrifice", "hairpin", "ghost", "runaway_wolf", "statue",
                                    "charmed_monster", "mask", "skeleton"])


def test_names_and_printed_costs_are_the_rule_books():
    printed = _printed_catalogue()
    assert len(printed) == 74
    by_name = {c.names["ru"]: c for c in catalogue().cards.values()}
    for name, numbers in printed:
        assert by_name[name.rstrip(".")].printed_cost.split() == [str(n) for n in numbers]


def test_named_energies_sit_in_their_colour():
    cat = catalogue()
    assert cat.card("ring_of_darkness").cost_of("violet") == 6        # "фиолетовая энергия"
    assert cat.card("ring_of_air").cost_of("light_blue") == 6         # "голубая энергия"
    assert cat.card("mask").cost == cat.card("ring_of_air").cost      # CG-1: the stray zero dropped
    assert cat.card("ghost").cost_of("violet") == 1 and cat.card("skeleton").cost_of("violet") == 1


def test_combinations_are_the_twelve_of_the_rule_book():
    ids = [c.id for c in catalogue().combos]
    assert ids == ["seven_sixes", "five_sixes", "three_sixes", "seven_fives", "five_fives", "seven_threes",
                   "seven_ones", "flush", "twenty_one", "twos_and_fours", "all_odd", "all_even"]


def test_rule_numbers():
    r = catalogue().rules
    assert (r["start_health"], r["start_sphere"], r["hand_size"], r["dealt"]) == (50, 50, 5, 6)
    assert (r["win_above"], r["lose_health_below"], r["lose_sphere_below"], r["drain"]) == (200, 0, -50, 2)
    assert r["colours"] == list(COLOURS)


def test_broken_data_is_reported_with_its_place():
    good = {"id": "x", "name_ru": "Х", "name_uk": "Х", "name_en": "X", "cost": [0] * 7, "printed_cost": "0",
            "text_ru": "…", "effects": [{"do": "change", "who": "self", "stat": "health", "by": 1}]}
    validate(good, CARD_SCHEMA)
    with pytest.raises(CatalogError, match=r"cost"):
        validate({**good, "cost": [0] * 8}, CARD_SCHEMA)
    with pytest.raises(CatalogError, match=r"unknown effect"):
        validate({**good, "effects": [{"do": "teleport"}]}, CARD_SCHEMA)
    with pytest.raises(CatalogError, match=r"stat"):
        validate({**good, "effects": [{"do": "change", "who": "self", "stat": "mana", "by": 1}]}, CARD_SCHEMA)
    with pytest.raises(CatalogError):
        validate({"id": "c", "name_ru": "К", "name_uk": "К", "name_en": "C", "text_ru": "…",
                  "pattern": {"sum": 99}, "effects": [{"do": "free_cast"}]}, COMBO_SCHEMA)


def test_strings_have_three_languages_the_same_placeholders_and_every_option_label():
    from bot.games.claygod import GAME

    placeholder = re.compile(r"\{(\w+)")
    keys = [k for k in strings() if k.startswith("claygod.")]
    assert len(keys) > 140
    for key in keys:
        texts = strings()[key]
        assert set(texts) == {"ru", "uk", "en"}, key
        assert len({frozenset(placeholder.findall(texts[lang])) for lang in texts}) == 1, key
    for opt in GAME.options:
        assert f"claygod.option.{opt.name}" in strings()
        for choice in opt.choices:
            assert f"claygod.option.{opt.name}.{choice}" in strings()


def test_every_effect_of_the_vocabulary_has_an_interpreter_and_is_used():
    from bot.games.claygod.cards import EFFECT_SCHEMAS
    from bot.games.claygod.effects import Resolution

    used = {e["do"] for c in catalogue().cards.values() for e in c.effects}
    used |= {e["do"] for c in catalogue().combos for e in c.effects}
    assert used == set(EFFECT_SCHEMAS)
    assert all(callable(getattr(Resolution, f"_{do}", None)) for do in EFFECT_SCHEMAS)


def test_the_guide_lists_every_card_and_combination_id_with_its_cost():
    """docs/games/claygod.md is all an outside scenario writer reads: every id must be findable there."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[3] / "docs" / "games" / "claygod.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (.*) \|$", guide, flags=re.M))
    for card in catalogue().cards.values():
        assert card.id in rows, f"{card.id} missing from the guide"
        name_ru, _, cost = [cell.strip() for cell in rows[card.id].split("|")]
        assert name_ru == card.names["ru"]
        listed = {part.rsplit(" ", 1)[0].replace(" ", "_"): int(part.rsplit(" ", 1)[1]) for part in cost.split(", ")}
        assert listed == {c: n for c, n in zip(COLOURS, card.cost) if n}, card.id
    for combo in catalogue().combos:
        assert combo.id in rows, f"{combo.id} missing from the guide"
