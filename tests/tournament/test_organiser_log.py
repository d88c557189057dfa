"""The organiser's entries in a tournament's log read back (bot/tournament/organiser.py): check-ins, requested
byes taken and taken back, forbidden pairs — pure functions over log rows, no database."""
from bot.tournament.organiser import byes_requested, checked_in_from, forbidden_pairs


def entry(action: str, **data) -> dict:
    return {"action": action, "data": data or None, "reason": None}


def test_check_ins_are_the_users_who_checked_in():
    log = [entry("check_in", user="a"), entry("forbid", players=["a", "b"]), entry("check_in", user="c"),
           entry("check_in")]
    assert checked_in_from(log) == {"a", "c"}


def test_a_bye_asked_for_again_is_taken_back_and_each_round_counts_apart():
    log = [entry("bye_requested", user="a", round=2), entry("bye_requested", user="a", round=3),
           entry("bye_withdrawn", user="a", round=2), entry("bye_requested", user="b", round=2)]
    assert byes_requested(log) == {"a": {3}, "b": {2}}
    assert byes_requested([]) == {}


def test_forbidden_pairs_keep_the_logs_order():
    log = [entry("forbid", players=["a", "b"]), entry("check_in", user="a"), entry("forbid", players=["c", "d"])]
    assert forbidden_pairs(log) == [("a", "b"), ("c", "d")]
