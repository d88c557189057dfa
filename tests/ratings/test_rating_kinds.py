"""How a game's outcome is rated comes from its facts (GameFacts.rating, Game.rated_sides), not its name: each
kind on a game the test defines, the lists of rated and statistics-only games, and the five games' kinds."""
from __future__ import annotations

from typing import Any, Mapping

import pytest

from bot.engine import GameFacts
from bot.engine.registry import registered
from bot.ratings.outcomes import Unrated, is_duel, listed_games, rated_games, standing, statistics_only
from tests.support.toy import Toy

OVER = {"winners": [1], "reason": "x", "params": {}}


def game_rated(rating: str, *, cooperative: bool = False, sides: Any = None) -> Toy:
    class Rated(Toy):
        name = f"rated_{rating}"
        facts = GameFacts(rating=rating, cooperative=cooperative, listed=999)

        def rated_sides(self, options: Mapping[str, Any], seats: int,
                        outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
            if sides is None:
                raise ValueError("malformed")
            return sides

    return Rated()


def test_free_for_all_puts_the_winners_first_and_the_others_second():
    with registered(game_rated("free_for_all")) as game:
        found = standing(game.name, {}, 4, OVER)
        assert found.teams == [[0], [1], [2], [3]] and found.ranks == [2, 1, 2, 2]
        nobody = standing(game.name, {}, 3, {**OVER, "winners": []})
        assert nobody.ranks == [1, 1, 1]  # nobody won: everyone shares the place


def test_a_hook_ranks_the_game_s_own_sides_and_a_refusal_is_malformed():
    with registered(game_rated("hook", sides=([[0, 2], [1, 3]], [2, 1]))) as game:
        found = standing(game.name, {}, 4, OVER)
        assert found.teams == [[0, 2], [1, 3]] and found.ranks == [2, 1]
    with registered(game_rated("hook")) as game, pytest.raises(Unrated) as why:
        standing(game.name, {}, 4, OVER)
    assert why.value.reason == "malformed"


def test_unrated_games_co_operative_or_not_and_where_they_are_listed():
    with registered(game_rated("none", cooperative=True)) as coop, \
            registered(game_rated("free_for_all")) as rated:
        with pytest.raises(Unrated) as why:
            standing(coop.name, {}, 2, OVER)
        assert why.value.reason == "cooperative"
        assert coop.name in statistics_only() and rated.name in rated_games()
        assert listed_games().index(rated.name) < listed_games().index(coop.name)  # rated first, then statistics
    with pytest.raises(Unrated) as why:
        standing("toy", {}, 2, OVER)  # the core's toy game says nothing of rating: not rated, listed nowhere
    assert why.value.reason == "unrated_game" and "toy" not in listed_games()
    with pytest.raises(Unrated) as why:
        standing("no such game", {}, 2, OVER)
    assert why.value.reason == "unknown_game"


def test_the_five_games_keep_their_places_and_kinds():
    """A leaderboard's button names its game by its place in ``rated_games``: the order stays as it was."""
    assert rated_games() == ("claygod", "gwent", "raiders", "bloodwood")
    assert statistics_only() == ("bridges",)
    assert is_duel("claygod") and is_duel("gwent") and not is_duel("raiders") and not is_duel("nothing")


def test_facts_refuse_a_rating_they_do_not_know_and_a_rated_co_operative_game():
    with pytest.raises(ValueError):
        GameFacts(rating="elo")
    with pytest.raises(ValueError):
        GameFacts(rating="duel", cooperative=True)
