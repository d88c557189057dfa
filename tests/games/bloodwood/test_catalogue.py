"""The data files load and validate, carry the rule book's counts (BW-1), and broken data is caught; every
string key the engine uses exists in all three languages."""
import copy
import re
from pathlib import Path

import pytest

from bot.engine.catalog import CatalogError, load_data, validate
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import SCHEMA, catalogue, check_catalogue
from bot.i18n import catalogue as strings

SOURCE = Path(__file__).resolve().parents[3] / "bot" / "games" / "bloodwood"


def test_the_decks_hold_the_rule_books_counts():
    cat = catalogue()
    copies = {cid: c.copies for cid, c in cat.cards.items()}
    assert copies == {
        "vaccine": 8, "candle": 8, "keys": 8, "pandora": 8, "thief": 8, "blood_test": 8, "confession": 8,
        "amulet": 8, "day_eclipse": 2, "day_time_loop": 2,
        "bite": 16, "curse_mark": 8, "chains": 8, "tranquilizer": 8, "voodoo": 8, "mirror": 8, "leshy": 4,
        "hunter": 4, "night_eclipse": 2, "night_time_loop": 2,
    }
    assert len(cat.deck_list("day")) == len(cat.deck_list("night")) == 68
    assert {r: (i["team"], i["leader"]) for r, i in cat.roles.items()} == {
        "vampire": ("vampires", False), "dracula": ("vampires", True),
        "werewolf": ("werewolves", False), "alpha": ("werewolves", True)}
    assert (GAME.min_seats, GAME.max_seats) == (cat.rules["min_seats"], cat.rules["max_seats"])


def _raw():
    return copy.deepcopy(load_data("bloodwood", "cards.yaml", SCHEMA))


@pytest.mark.parametrize("breakage, message", [
    (lambda d: d["cards"]["bite"].update(copies=15), "night deck has 67 cards"),
    (lambda d: d["cards"]["vaccine"].update(phase="night"), "cannot be played in the night phase"),
    (lambda d: d["cards"]["mirror"].update(phase="night"), "counter cards"),
    (lambda d: d["cards"]["day_eclipse"].update(phase="day"), "special cards"),
    (lambda d: d["roles"]["alpha"].update(leader=False), "one plain role and one leader"),
])
def test_cross_checks_catch_broken_data(breakage, message):
    data = _raw()
    breakage(data)
    assert message in check_catalogue(data)


@pytest.mark.parametrize("breakage", [
    lambda d: d["cards"]["bite"].update(copies="16"),
    lambda d: d["cards"]["bite"].update(kind="nibble"),
    lambda d: d["cards"]["bite"].update(colour="red"),
    lambda d: d["rules"].pop("hand_size"),
])
def test_the_schema_catches_broken_fields(breakage):
    data = _raw()
    breakage(data)
    with pytest.raises(CatalogError):
        validate(data, SCHEMA)


def _keys_in_source():
    keys = set()
    for path in SOURCE.glob("*.py"):
        keys |= set(re.findall(r'"(bloodwood\.(?:reject|outcome|prompt|option|act|ev|board)\.[a-z_.]+)"',
                               path.read_text(encoding="utf-8")))
    return keys


def test_every_string_the_engine_names_exists():
    known = strings()
    missing = sorted(k for k in _keys_in_source() if k not in known)
    assert not missing, missing
    for reason in ("only_day", "only_night", "already_named", "already_unnamed"):
        assert f"bloodwood.reject.{reason}" in known
    for reason in ("forever", "cursed", "chained", "asleep", "not_cursed", "not_chained", "empty_hand",
                   "confessed_to_all"):
        assert f"bloodwood.reject.target_{reason}" in known
    for why in ("declared", "wrong_names", "not_mutated"):
        for team in ("vampires", "werewolves"):
            assert f"bloodwood.outcome.{why}.{team}" in known
    for kind in ("turn", "thief_back", "counter", "keep_voodoo", "keep_hunter", "give", "leshy", "confess",
                 "draw", "trim", "declare", "assign", "first"):
        assert f"bloodwood.prompt.{kind}" in known
    for opt in GAME.options:
        assert f"bloodwood.option.{opt.name}" in known
        for choice in opt.choices:
            assert f"bloodwood.option.{opt.name}.{choice}" in known

