"""The judge's table derived from the state (scores, row totals, strengths, counts, discard piles) and cards named by
their card id instead of an instance id."""
from bot.games.gwent import GAME
from bot.games.gwent.scoring import scores

from .helpers import act, give, reject, table


def test_the_table_follows_every_card_with_the_scores_of_the_view():
    s = table(first=0)
    give(s, 0, "blue_stripes_commando", "blue_stripes_commando")
    s = act(s, 0, type="play", card="blue_stripes_commando")
    assert GAME.judge_table(s)["units"][0]["melee"] == ["blue_stripes_commando"]
    s = act(s, 1, type="play", card=s["hand"][1][0])  # the filler Decoy, played idle
    s = act(s, 0, type="play", card="blue_stripes_commando")
    assert GAME.judge_table(s)["strength"][0]["melee"] == [8, 8]
    assert GAME.judge_table(s)["rows"][0] == {"melee": 16, "ranged": 0, "siege": 0}
    assert GAME.judge_table(s)["score"] == [16, 0] == [x // 10 for x in scores(s)]
    assert GAME.judge_table(s)["score"] == [p["score"] // 10 for p in GAME.view(s, None)["players"]]
    assert GAME.judge_table(s)["hand"] == [len(s["hand"][0]), len(s["hand"][1])]
    assert GAME.judge_table(s)["discard"][1] == ["decoy"]


def test_a_card_id_names_the_copy_the_legal_actions_offer():
    s = table(first=0)
    uid = give(s, 0, "ciri")
    after = act(s, 0, type="play", card="ciri")
    assert uid in after["rows"][0]["melee"]
    assert reject(s, 0, type="play", card="geralt_of_rivia").key == "gwent.reject.not_in_hand"
    assert reject(s, 0, type="play", card="no_such_card").key == "gwent.reject.not_in_hand"


def test_a_named_card_with_an_impossible_target_is_refused_for_the_target():
    s = table(first=0)
    give(s, 0, "vernon_roche")
    s = act(s, 0, type="play", card="vernon_roche")
    s = act(s, 1, type="play", card=s["hand"][1][0])
    give(s, 0, "decoy")
    assert reject(s, 0, type="play", card="decoy", target="vernon_roche").key == "gwent.reject.decoy_target"
