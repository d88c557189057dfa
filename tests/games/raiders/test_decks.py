"""The deck format: the house set loads; a file with mistakes gets one clear line per mistake, naming the file,
the card and the field; the checker's command line."""
from pathlib import Path

import pytest

from bot.engine.catalog import CatalogError
from bot.games.raiders import cards
from bot.games.raiders.cards import deck_set, load_set, main, problems

HOUSE = cards.DECK_DIR / "house.yaml"


def test_the_house_set_is_a_durak_deck_with_aces_and_is_marked_as_ours():
    s = deck_set("house")
    assert s.house and "не печатная" in s.titles["ru"]
    assert sorted((f.suit, f.rank) for f in s.fighters) == sorted(
        (suit, rank) for suit in cards.SUITS for rank in cards.RANKS)
    assert sum(p.babki for p in s.properties) >= 36 * 2


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_mistake_is_reported_once_with_card_and_field(tmp_path):
    text = HOUSE.read_text(encoding="utf-8")
    text = text.replace("suit: clubs\n    rank: \"7\"", "suit: clover\n    rank: \"7\"", 1)          # c7's suit
    text = text.replace("rank: \"8\"\n    krutizna: 3", "rank: \"8\"\n    krutizna: three", 1)      # c8
    text = text.replace("timing: own_turn", "timing: sometimes", 1)                                 # c9
    text = text.replace("{do: recall, target: own_fighter}", "{do: teleport, target: own_fighter}", 1)  # c10
    text = text.replace("kind: bank, babki: 6", "kind: bank, babki: -6", 1)                         # bank1
    found = problems(_write(tmp_path, text))
    assert len(found) == 5, found
    joined = "\n".join(found)
    assert "(id 'c7').suit: 'clover' is not one of clubs" in joined
    assert "(id 'c8').krutizna: expected a whole number, got 'three'" in joined
    assert "(id 'c9').shnyaga.timing: 'sometimes'" in joined
    assert "(id 'c10').shnyaga.effects[0]: unknown effect 'teleport'" in joined
    assert "(id 'bank1').babki: -6 is outside" in joined
    assert all(line.startswith(str(tmp_path)) for line in found)
    with pytest.raises(CatalogError) as info:
        load_set(tmp_path / "bad.yaml")
    assert str(info.value).count("\n") == 4


@pytest.mark.parametrize("change, message", [
    (("- {do: discard, count: 1}\n        - {do: krutizna, by: 3, target: own_fighter}", "- {do: discard, count: 1}"),
     "only discards is not allowed"),
    (("{do: kill, target: fighter, same_suit: true}", "{do: kill, target: fighter, same_suit: maybe}"),
     "same_suit: expected true or false"),
    (("{do: take, target: enemy_guard, same_suit: true}", "{do: take, target: own_fighter}"),
     "'own_fighter' is not one of enemy_guard"),
    (("bonuses: {2: 14, 3: 24, 4: 36}}", "bonuses: {2: 15}}"), "differs from the other 'bank' cards"),
    (("- id: c6\n", "- id: c7\n"), "id 'c7': used by more than one card"),
    (("en: Boar}", "de: Eber}"), "missing the en text"),
])
def test_one_mistake_one_line(tmp_path, change, message):
    text = HOUSE.read_text(encoding="utf-8").replace(*change, 1)
    found = problems(_write(tmp_path, text))
    assert len([line for line in found if message in line]) >= 1 and len(found) <= 2, found


def test_a_manual_card_states_its_outcome_and_has_no_effects(tmp_path):
    text = HOUSE.read_text(encoding="utf-8").replace(
        "timing: any\n      effects:\n        - {do: recall, target: own_fighter}", "timing: any\n      manual: true", 1)
    assert problems(_write(tmp_path, text)) == []
    assert load_set(tmp_path / "bad.yaml").fighters[4].shnyaga.manual


def test_not_yaml_and_missing_files(tmp_path):
    assert "not valid YAML" in problems(_write(tmp_path, "fighters: [\n"))[0]
    assert "file not found" in problems(tmp_path / "none.yaml")[0]


def test_the_checker_command(tmp_path, capsys):
    assert main([str(HOUSE)]) == 0 and capsys.readouterr().out.strip().endswith(": ok")
    path = _write(tmp_path, HOUSE.read_text(encoding="utf-8").replace("suit: clubs", "suit: clover", 1))
    assert main([str(path)]) == 1 and "clover" in capsys.readouterr().out
