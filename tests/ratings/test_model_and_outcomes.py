"""The openskill calls on hand-computed cases, and every game's outcome as teams and ranks."""
from __future__ import annotations

import math

import pytest

from bot.ratings.derive import Finish, judge
from bot.ratings.model import BETA, MU, SIGMA, TAU, Skill, rate, shown
from bot.ratings.outcomes import Unrated, places, standing


def test_two_new_players_by_hand():
    # Plackett–Luce, two teams of one, the first wins.  tau first widens both sigmas; then with
    # c = sqrt(s1² + s2² + 2β²) and the winner's probability 1/2 (equal means):
    #   mu' = mu ± s²/c · 1/2,   sigma' = s · sqrt(1 − (s/c) · s²/c² · 1/4)
    s = math.sqrt(SIGMA ** 2 + TAU ** 2)
    c = math.sqrt(2 * s * s + 2 * BETA * BETA)
    mu_win, mu_lose = MU + s * s / c / 2, MU - s * s / c / 2
    sigma = s * math.sqrt(1 - (s / c) * s * s / c ** 2 / 4)
    (win,), (lose,) = rate([[Skill()], [Skill()]], [1, 2])
    assert win.mu == pytest.approx(mu_win, abs=1e-9) and lose.mu == pytest.approx(mu_lose, abs=1e-9)
    assert win.sigma == pytest.approx(sigma, abs=1e-9) and lose.sigma == pytest.approx(sigma, abs=1e-9)
    assert round(mu_win, 3) == 27.635 and round(sigma, 3) == 8.066
    # the figure shown: 1500 + 20·(mu − 3·sigma)
    assert win.shown == round(1500 + 20 * (mu_win - 3 * sigma)) == 1569
    assert lose.shown == 1463


def test_a_draw_moves_nobody_s_mean_and_three_with_a_shared_second():
    (a,), (b,) = rate([[Skill()], [Skill()]], [1, 1])
    assert a.mu == pytest.approx(MU) and b.mu == pytest.approx(MU) and a.sigma < SIGMA
    (x,), (y,), (z,) = rate([[Skill()], [Skill()], [Skill()]], [1, 2, 2])
    assert (round(x.mu, 2), round(y.mu, 2), round(z.mu, 2)) == (27.87, 23.57, 23.57)
    assert y == z


def test_the_better_player_gains_less_for_beating_the_weaker():
    strong, weak = Skill(30, 4), Skill(20, 4)
    (s1,), (_w1,) = rate([[strong], [weak]], [1, 2])
    (w2,), (_s2,) = rate([[weak], [strong]], [1, 2])
    assert 0 < s1.mu - strong.mu < w2.mu - weak.mu


def test_places_share_ties():
    assert places([5, 9, 5]) == [2, 1, 2]
    assert places([3, 3, 3]) == [1, 1, 1]


@pytest.mark.parametrize("game", ["claygod", "gwent"])
def test_duels_win_loss_draw(game):
    assert standing(game, {}, 2, {"winners": [1]}).ranks == [2, 1]
    assert standing(game, {}, 2, {"winners": []}).ranks == [1, 1]
    assert standing(game, {}, 2, {"winners": [0, 1]}).ranks == [1, 1]


def test_raiders_by_final_standing_with_shared_ties():
    st = standing("raiders", {}, 4, {"winners": [2], "scores": {"0": 10, "1": 22, "2": 36, "3": 10}})
    assert st.teams == [[0], [1], [2], [3]] and st.ranks == [3, 2, 1, 3]
    # a loser with more бабки than the winner (RD-13 picks among several over the target) is still second
    st = standing("raiders", {}, 3, {"winners": [0], "scores": {"0": 36, "1": 40, "2": 1}})
    assert st.ranks == [1, 2, 3]


def test_raiders_pairs_are_teams():
    st = standing("raiders", {"pairs": True}, 4, {"winners": [1, 3], "scores": {"0": 9, "1": 20, "2": 9, "3": 17}})
    assert st.teams == [[0, 2], [1, 3]] and st.ranks == [2, 1]


def test_bloodwood_by_team_at_the_end():
    roles = ["dracula", "werewolf", "alpha", "vampire", "werewolf"]
    st = standing("bloodwood", {}, 5, {"winners": [1, 2, 4], "scores": {"roles": roles}})
    assert sorted(map(sorted, st.teams)) == [[0, 3], [1, 2, 4]]
    assert st.place_of(1) == 1 and st.place_of(0) == 2 and st.place_of(3) == 2
    # nobody could declare any more (BW-26): a draw between the teams
    assert standing("bloodwood", {}, 5, {"winners": [], "scores": {"roles": roles}}).ranks == [1, 1]
    with pytest.raises(Unrated):  # winners that are not one whole team: the record is not understood
        standing("bloodwood", {}, 5, {"winners": [0, 1], "scores": {"roles": roles}})


def test_bridges_is_not_rated():
    with pytest.raises(Unrated) as why:
        standing("bridges", {}, 2, {"winners": [0, 1]})
    assert why.value.reason == "cooperative"


def test_a_time_forfeit_puts_those_out_of_time_last():
    st = standing("raiders", {}, 3, {"winners": [0, 2], "reason": "clock.outcome.forfeit", "params": {"seats": [1]}})
    assert st.ranks == [1, 2, 1]


def _finish(users, **kw):
    base = dict(table_id=1, game="claygod", scope="", finished_at=1.0, options={}, outcome={"winners": [0]},
                users=users, rated=True, moved=True, tournament_rated=True, adjusted=None)
    return Finish(**{**base, **kw})


@pytest.mark.parametrize("change,reason", [
    (dict(users=["cli:a", "bot:1"]), "bot_seat"),
    (dict(users=["cli:a", "cli:a"]), "hot_seat"),
    (dict(rated=False), "casual"),
    (dict(moved=False), "no_move"),
    (dict(tournament_rated=False), "tournament_casual"),
])
def test_tables_that_count_for_nobody(change, reason):
    with pytest.raises(Unrated) as why:
        judge(_finish(change.pop("users", ["cli:a", "cli:b"]), **change))
    assert why.value.reason == reason


def test_an_organisers_corrected_points_decide():
    st = judge(_finish(["cli:a", "cli:b"], adjusted={"cli:a": 0, "cli:b": 1}))
    assert st.ranks == [2, 1]


def test_shown_is_conservative():
    assert shown(MU, SIGMA) == 1500
    assert shown(30, 2) == 1500 + 20 * 24
