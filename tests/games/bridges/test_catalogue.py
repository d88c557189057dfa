"""data/bridges/*.yaml: validated on load; a broken file names the place of its first mistake."""
import copy

import pytest

from bot.engine.catalog import CatalogError, validate
from bot.games.bridges import data
from bot.games.bridges.data import catalogue


def test_the_catalogue_loads_and_holds_every_item_and_boss_of_the_book():
    cat = catalogue()
    assert set(cat.items) == {"greatsword", "extending_arm", "giant_shield", "recurve_bow", "crossbow",
                              "forest_staff", "elements_staff", "plate_armour", "spiked_shell", "spring", "bomb",
                              "potion", "shield_ball"}
    assert set(cat.bosses) == {"krabulon", "golemko", "casserole", "karate", "archer"}
    assert cat.placement_list() == ["archer", "karate", "casserole", "golemko"]
    assert cat.price("elements_staff") == 3 and cat.price("extending_arm") == 2 and cat.price("bomb") == 4


@pytest.mark.parametrize("path,bad,message", [
    (("items", "crossbow", "hands"), 3, "hands"),
    (("items", "crossbow", "kind"), "laser", "kind"),
])
def test_a_wrong_item_field_is_named(path, bad, message):
    from bot.engine.catalog import load_data
    items = copy.deepcopy(load_data("bridges", "items.yaml", data._ITEMS))
    node = items
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = bad
    with pytest.raises(CatalogError) as info:
        validate(items, data._ITEMS)
    assert message in str(info.value)


def test_cross_checks_catch_what_a_schema_cannot():
    from bot.engine.catalog import load_data
    maps = copy.deepcopy(load_data("bridges", "map.yaml", data._MAP))
    items = copy.deepcopy(load_data("bridges", "items.yaml", data._ITEMS))
    bosses = copy.deepcopy(load_data("bridges", "bosses.yaml", data._BOSSES)["bosses"])
    chars = copy.deepcopy(load_data("bridges", "characters.yaml", data._CHARACTERS))
    assert data._check(maps, items, bosses, chars) is None
    broken = copy.deepcopy(bosses)
    del broken["golemko"]["drops"][4]
    assert "d4" in data._check(maps, items, broken, chars)
    broken = copy.deepcopy(bosses)
    broken["karate"]["priorities"][0][0]["use"] = "kamehameha"
    assert "kamehameha" in data._check(maps, items, broken, chars)
    lonely = copy.deepcopy(maps)
    lonely["links"] = [link for link in lonely["links"] if "CRB" not in link]
    assert "connected" in data._check(lonely, items, bosses, chars)
