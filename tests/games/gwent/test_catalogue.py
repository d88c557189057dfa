"""Every data file loads and validates; the rule book's changes are in the data; broken data is caught."""
import re

import pytest

from bot.engine.catalog import CatalogError, load_data, validate
from bot.games.gwent.cards import _CARD_SCHEMA, FACTIONS, _check_cards, catalogue, deck_problem
from bot.i18n import catalogue as strings


def test_all_data_files_load():
    cat = catalogue()
    assert len(cat.cards) == 167 and len(cat.leaders) == 25
    for faction in FACTIONS:
        assert deck_problem(cat, faction, cat.presets[faction]["cards"], "standard", {}) is None


def test_forum_strength_buffs():
    cat = catalogue()
    buffs = {"siege_tower": 7, "filavandrel": 7, "yaevinn": 7, "fiend": 7, "griffin": 6}
    assert {c: cat.card(c).strength for c in buffs} == buffs


def test_muster_groups_have_the_rule_book_sizes():
    cat = catalogue()
    sizes = {g: sum(cat.card(c).copies for c in cat.muster_group(g))
             for g in {c.group for c in cat.cards.values() if c.group}}
    assert sizes == {"vampires": 5, "crones": 3, "arachas": 4, "ghouls": 9, "nekkers": 6, "dwarven_skirmishers": 6,
                     "havekar_smugglers": 3, "elven_skirmishers": 6, "light_longships": 4, "cerys_maidens": 3,
                     "gaunter_odimm": 4}
    assert cat.card("cerys").musters == "cerys_maidens" and cat.card("cerys").group is None


def test_deck_sizes_follow_ruling_gw1():
    cat = catalogue()
    for faction in FACTIONS:
        pool = cat.deck_pool(faction, {})
        own = sum(n for c, n in pool.items() if cat.card(c).faction == faction)
        assert own == (35 if faction == "skellige" else 55)
        assert sum(n for c, n in pool.items() if cat.card(c).faction == "special") == 25
        assert sum(n for c, n in pool.items() if cat.card(c).faction == "neutral") == 15
        assert sum(cat.deck_pool(faction, {"cow": True}).values()) == sum(pool.values()) + 1
        assert sum(1 for c in pool if cat.card(c).effect == "faction_card") == 1


def test_leaders_per_variant():
    cat = catalogue()
    for faction in FACTIONS:
        assert len(cat.leaders_of(faction, "hardgwent")) == 5
        assert len(cat.leaders_of(faction, "standard")) == (2 if faction == "skellige" else 5)


def test_a_broken_card_is_reported_with_its_place():
    with pytest.raises(CatalogError, match=r"strength"):
        validate({"id": "x", "name_en": "X", "name_ru": "Х", "faction": "neutral", "type": "unit",
                  "strength": "ten", "rows": ["melee"], "copies": 1}, _CARD_SCHEMA)
    assert "agile" in _check_cards([{"id": "x", "name_en": "X", "name_ru": "Х", "faction": "neutral", "type": "unit",
                                     "strength": 3, "rows": ["melee", "ranged"], "copies": 1}])
    with pytest.raises(CatalogError):
        load_data("gwent", "no_such_file.yaml")


def test_gwent_strings_have_three_languages_and_the_same_placeholders():
    placeholder = re.compile(r"\{(\w+)")
    keys = [k for k in strings() if k.startswith("gwent.")]
    assert len(keys) > 150
    for key in keys:
        texts = strings()[key]
        assert set(texts) == {"ru", "uk", "en"}, key
        assert len({frozenset(placeholder.findall(texts[lang])) for lang in texts}) == 1, key
