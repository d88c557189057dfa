"""The tournament's settings (bot/tournament/settings.py): validation, defaults, the points and the number of
rounds — pure functions, no database."""
from dataclasses import replace

import pytest

from bot.engine import Reject
from bot.storage.tournaments import TournamentRow
from bot.tournament.settings import DEFAULTS, MAX_ROUNDS, check_settings, points, rounds_planned


def event(fmt: str = "swiss", game: str = "claygod", **settings) -> TournamentRow:
    return TournamentRow(id=1, game=game, format=fmt, status="running", title=None, creator="u:org",
                         settings={**check_settings(game, fmt, settings)}, options={}, seed="seed", origin="terminal",
                         locale="en", guild_id=None, channel_id=None, message_id=None, round=0, created_at=0.0,
                         started_at=None, finished_at=None)


def refused(game: str, fmt: str, raw: dict) -> Reject:
    with pytest.raises(Reject) as caught:
        check_settings(game, fmt, raw)
    return caught.value


def test_the_defaults_complete_the_settings_and_withdrawal_stands_outside_a_round_robin():
    s = check_settings("claygod", "swiss", {"rounds": 5})
    assert set(s) == set(DEFAULTS) and s["rounds"] == 5
    assert s["withdrawal"] == "keep"  # a Swiss player's games always stand (T-4)
    assert check_settings("claygod", "round_robin", {})["withdrawal"] == "annul"


def test_a_fixed_schedule_takes_no_late_entry_no_requested_bye_and_no_round_count():
    s = check_settings("gwent", "elimination", {"late_entry": True, "requested_byes": 3})
    assert s["late_entry"] is False and s["requested_byes"] == 0
    assert refused("gwent", "round_robin", {"rounds": 3}).rejection.params["name"] == "rounds"


def test_refusals_name_what_is_wrong():
    assert refused("bloodwood", "swiss", {}).rejection.key == "tournament.reject.not_a_duel"
    assert refused("claygod", "swiss", {"colour": 1}).rejection.params["name"] == "colour"
    assert refused("claygod", "ladder", {}).rejection.key == "tournament.reject.format"
    too_many = refused("claygod", "swiss", {"rounds": MAX_ROUNDS + 1}).rejection
    assert too_many.key == "tournament.reject.range" and too_many.params["max"] == MAX_ROUNDS
    assert refused("claygod", "swiss", {"rounds": True}).rejection.key == "tournament.reject.range"
    assert refused("claygod", "swiss", {"best_of": 2}).rejection.key == "tournament.reject.best_of"
    assert refused("raiders", "multiseat", {"best_of": 3}).rejection.key == "tournament.reject.best_of"
    assert refused("claygod", "elimination", {"tiebreak_rules": "fide"}).rejection.params["name"] == "tiebreak_rules"


def test_place_points_are_parsed_for_multiseat_only_and_must_not_rise():
    assert check_settings("raiders", "multiseat", {"place_points": "4,2,1,0"})["place_points"] == [4.0, 2.0, 1.0, 0.0]
    assert refused("raiders", "multiseat", {"place_points": "1,2"}).rejection.key == "tournament.reject.place_points"
    assert refused("claygod", "swiss", {"place_points": "1,0"}).rejection.params["name"] == "place_points"


def test_table_size_is_within_the_games_seats_and_only_for_multiseat():
    assert check_settings("bloodwood", "multiseat", {"table_size": 7})["table_size"] == 7
    assert refused("bloodwood", "multiseat", {"table_size": 4}).rejection.params["min"] == 5
    assert refused("claygod", "swiss", {"table_size": 2}).rejection.params["name"] == "table_size"


def test_points_follow_the_bye_setting_and_the_place_points():
    assert points(event(bye="draw")).bye == 0.5
    multi = points(event("multiseat", "raiders", place_points="4,2,1,0", bye="loss"))
    assert (multi.win, multi.draw, multi.loss, multi.bye, multi.places) == (4.0, 2.0, 0.0, 0.0, (4.0, 2.0, 1.0, 0.0))


@pytest.mark.parametrize("fmt, players, rounds", [
    ("round_robin", 5, 5), ("round_robin", 6, 5), ("elimination", 9, 4), ("elimination", 2, 1),
    ("swiss", 8, 4), ("swiss", 2, 2), ("multiseat", 30, 3), ("double_elimination", 4, 5)])
def test_rounds_come_from_the_field_unless_fixed(fmt, players, rounds):
    game = "raiders" if fmt == "multiseat" else "claygod"
    assert rounds_planned(event(fmt, game), players) == rounds


def test_fixed_rounds_and_groups_decide_the_count():
    assert rounds_planned(event(rounds=3), 64) == 3
    grouped = event("round_robin")
    grouped = replace(grouped, settings={**grouped.settings, "pools": [["a", "b", "c"], ["d", "e", "f", "g"]]})
    assert rounds_planned(grouped, 7) == 3  # the largest group's round robin: four players, three rounds
