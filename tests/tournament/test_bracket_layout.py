"""The whole bracket's layout (bot/tournament/bracket_layout.py): every round from the start, each place saying
where its player comes from, byes labelled, separate trees; and, played out at random, the same matches in
every round as the director's own walk (``_bracket_places``, ``double_elimination``)."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.i18n import t
from bot.storage.tournaments import GameRow
from bot.tournament.bracket_layout import as_rows, layout
from bot.tournament.brackets import double_elimination
from bot.tournament.director import Director
from bot.tournament.pairing import bracket
from bot.tournament.standings import Points

POINTS = Points()


def _en(key, **values):
    return t(key, "en", **values)


@pytest.mark.parametrize("players, single, double", [
    (2, [1], [("W", [1]), ("F", [1, 1])]),
    (3, [2, 1], [("W", [2, 1]), ("L", [1, 1]), ("F", [1, 1])]),
    (5, [4, 2, 1], [("W", [4, 2, 1]), ("L", [2, 2, 1, 1]), ("F", [1, 1])]),
    (8, [4, 2, 1], [("W", [4, 2, 1]), ("L", [2, 2, 1, 1]), ("F", [1, 1])]),
    (16, [8, 4, 2, 1], [("W", [8, 4, 2, 1]), ("L", [4, 4, 2, 2, 1, 1]), ("F", [1, 1])]),
])
def test_every_round_is_drawn_before_the_draw(players, single, double):
    one = layout(None, [], POINTS, double=False, entrants=players)
    assert [(tr.kind, [len(c) for c in tr.columns]) for tr in one.trees] == [("W", single)]
    two = layout(None, [], POINTS, double=True, entrants=players)
    assert [(tr.kind, [len(c) for c in tr.columns]) for tr in two.trees] == double
    numbers = [m.number for m in two.matches()]
    assert numbers == list(range(1, len(numbers) + 1))
    # every place after round 1 names the match it comes from, and that match sends its player there
    by_number = {m.number: m for m in two.matches()}
    for m in two.matches():
        for place, slot in enumerate(m.slots):
            if slot.kind == "winner" and not m.reset:
                assert by_number[slot.ref].goes_to == (m.number, place)
            elif slot.kind == "loser" and not m.reset:
                assert by_number[slot.ref].loser_to == (m.number, place)
    first = two.trees[0].columns[0]
    seeds = sorted(s.ref for m in first for s in m.slots if s.kind == "seed")
    assert seeds == list(range(1, players + 1))
    assert sum(s.kind == "bye" for m in first for s in m.slots) == one.size - players


def test_a_bye_is_labelled_and_the_third_place_match_is_a_tree_of_its_own():
    lay = layout(["a", "b", "c"], [], POINTS, double=False, current_round=1, third_place=True)
    assert [tr.kind for tr in lay.trees] == ["W", "3"]
    rows = as_rows(lay, {"a": "Ann", "b": "Bob", "c": "Cid"}, _en)
    first = rows[0]["columns"][0]["matches"]
    assert [s["text"] for s in first[0]["slots"]] == ["Ann", "bye"]
    assert [s["text"] for s in first[1]["slots"]] == ["Bob", "Cid"]
    final = rows[0]["columns"][1]["matches"][0]
    assert [s["text"] for s in final["slots"]] == ["Ann", "winner of match 2"]
    assert rows[0]["title"] == "Bracket" and rows[1]["title"] == "Match for third place"
    assert [s["text"] for s in rows[1]["columns"][0]["matches"][0]["slots"]] == ["bye", "loser of match 2"]
    assert rows[0]["columns"][0]["step"] == "join" and rows[0]["columns"][1]["step"] == "end"


def _play(match, number, board, rng, games):
    present = [p for p in match if p is not None]
    if len(present) == 2:
        winner = rng.choice(present)
        games.append(GameRow(number, board, "table", present, 100 + len(games),
                             {p: float(p == winner) for p in present}, "played"))
    elif present:
        games.append(GameRow(number, board, "bye", present, None, {present[0]: 1.0}, "bye"))


def _paired(lay, number):
    return sorted(sorted(s.player for s in m.slots if s.player) for m in lay.matches()
                  if m.round == number and all(s.kind in ("player", "bye") for s in m.slots)
                  and any(s.player for s in m.slots))


@pytest.mark.parametrize("players", [2, 3, 5, 8, 11])
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_matches_the_directors_walk_round_by_round(players, reset):
    rng = random.Random(players * 7 + reset)
    order = [f"p{i}" for i in range(players)]
    games: list[GameRow] = []
    number = 1
    while True:
        walk = double_elimination(order, games, number, POINTS, reset=reset)
        if walk.over:
            lay = layout(order, games, POINTS, double=True, current_round=number - 1, finished=True, reset=reset)
            final = [m for m in lay.matches() if m.tree == "F"]
            assert final[-1].winner == walk.champion
            assert len(final) == (2 if reset and final[0].winner != final[0].slots[0].player else 1)
            break
        lay = layout(order, games, POINTS, double=True, current_round=number, reset=reset)
        expected = sorted(sorted(p for p in m if p) for m in walk.matches if any(m))
        assert _paired(lay, number) == expected, number
        for board, match in enumerate(walk.matches, start=1):
            _play(match, number, board, rng, games)
        number += 1


@pytest.mark.parametrize("players", [2, 3, 5, 8, 13])
def test_single_elimination_matches_the_directors_places(players):
    rng = random.Random(players)
    order = [f"p{i}" for i in range(players)]
    tour = SimpleNamespace(settings={"order": order, "best_of": 1})
    rounds = len(bracket(order)).bit_length()
    games: list[GameRow] = []
    for number in range(1, rounds + 1):
        places = Director._bracket_places(tour, games, number, POINTS)
        lay = layout(order, games, POINTS, double=False, current_round=number)
        expected = sorted(sorted(p for p in places[i:i + 2] if p) for i in range(0, len(places), 2)
                          if any(places[i:i + 2]))
        assert _paired(lay, number) == expected
        for board, i in enumerate(range(0, len(places), 2), start=1):
            _play(places[i:i + 2], number, board, rng, games)
    lay = layout(order, games, POINTS, double=False, current_round=rounds, finished=True)
    champion = Director._bracket_places(tour, games, rounds + 1, POINTS)[0]
    assert lay.trees[0].columns[-1][0].winner == champion
    assert all(m.decided for m in lay.matches())


def test_a_round_in_play_shows_its_games_and_sends_nobody_on_until_decided():
    order = ["a", "b", "c", "d"]
    games = [GameRow(1, 1, "table", ["a", "d"], 7, {"a": 1.0, "d": 0.0}, "played"),
             GameRow(1, 2, "table", ["b", "c"], 8, None, None)]
    lay = layout(order, games, POINTS, double=False, current_round=1)
    first, second = lay.trees[0].columns[0]
    assert first.decided and first.winner == "a" and [s.score for s in first.slots] == ["1", "0"]
    assert not second.decided and second.tables == [8] and [s.advances for s in second.slots] == [False, False]
    final = lay.trees[0].columns[1][0]
    assert [(s.kind, s.player or s.ref) for s in final.slots] == [("player", "a"), ("winner", 2)]
