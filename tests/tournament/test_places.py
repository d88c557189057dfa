"""Shared places in brackets (T-8b), the round robin's withdrawal rule (T-4a) and FIDE's tie-break
conventions (T-5a), against hand-computed events and bot-played brackets of 8 and 13."""
from collections import Counter

import pytest

from bot.engine import Reject
from bot.render.picture.standings import standings_png
from bot.render.standings import standings_text
from bot.storage.tournaments import Entry, GameRow
from bot.tournament.crosstable import crosstable
from bot.tournament.director import check_settings
from bot.tournament.pairing import round_robin
from bot.tournament.places import annulled, without
from bot.tournament.standings import Points, standings
from bot.web import public
from bot.web.pages import Page, tournament_page
from tests.support.events import new_event, play_out
from tests.support.events import matches


def _entries(names, dropped=()):
    return [Entry(u, u, False, i + 1, "dropped" if u in dropped else "active", 1) for i, u in enumerate(names)]


def _g(rnd, board, a, b, pa, pb, result="played"):
    return GameRow(rnd, board, "table", [a, b], None, {a: pa, b: pb}, result)


def _bye(rnd, p, got, result="bye"):
    return GameRow(rnd, 9, "bye", [p], None, {p: got}, result)


def _places(table):
    return Counter(s.place for s in table)


# ---------------------------------------------------------------------------------------- shared places
@pytest.mark.parametrize("n, third, expected", [
    (8, False, {"1": 1, "2": 1, "3–4": 2, "5–8": 4}),
    (8, True, {"1": 1, "2": 1, "3": 1, "4": 1, "5–8": 4}),
    (13, False, {"1": 1, "2": 1, "3–4": 2, "5–8": 4, "9–13": 5}),
])
async def test_single_elimination_shares_the_places_of_a_round(env, n, third, expected):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt="elimination", settings={"third_place": third})
    await director.start(tid, by="u:org")
    await play_out(director, tid)
    table = await director.standings(tid)
    assert _places(table) == expected
    assert [s.rank for s in table] == list(range(1, n + 1))
    games = await director.record.games(tid)
    if third:  # the 3rd-place match decides: its winner third whatever the points say
        final = max(g.round for g in games)
        (match,) = {frozenset(g.players) for g in games if g.round == final and g.kind == "table"
                    and table[0].user_id not in g.players}
        won = matches(games)[(final, match)]
        assert table[2].user_id == won and table[2].place == "3" and table[3].place == "4"
    # the places as the text standings, the picture and the public page show them
    text = standings_text([s.as_dict() for s in table], "elimination", "en")
    assert any(line.startswith("5–8 ") for line in text.splitlines())
    assert standings_png([s.as_dict() for s in table], "elimination", "en", "cup").startswith(b"\x89PNG")
    html = tournament_page(Page("en"), await public.load_tournament(store, tid))
    assert html.count(">5–8<") == 4


@pytest.mark.parametrize("n", [8, 13])
async def test_double_elimination_shares_the_places_of_a_losers_round(env, n):
    store, referee, clock = env
    director, tid = await new_event(referee, n, fmt="double_elimination")
    await director.start(tid, by="u:org")
    await play_out(director, tid, limit=200)
    games = await director.record.games(tid)
    table = await director.standings(tid)
    # out = the round of a player's second lost match (the grand final's loser: their last match)
    losses, out = Counter(), {}
    for (rnd, pair), winner in sorted(matches(games).items(), key=lambda kv: kv[0][0]):
        for p in pair - {winner}:
            losses[p] += 1
            out[p] = rnd
    champion = table[0].user_id
    assert table[0].place == "1" and losses[champion] < 2
    by_round = Counter(out[p] for p in out if p != champion)
    for s in table[1:]:
        first, _, last = s.place.partition("–")
        size = int(last or first) - int(first) + 1
        assert size == by_round[out[s.user_id]], (s.user_id, s.place, out[s.user_id])
        same = {o.user_id for o in table[1:] if o.place == s.place}
        assert same == {p for p in out if p != champion and out[p] == out[s.user_id]}
    if n == 8:  # L1 and L2 lose two each, then one a round: 1, 2, 3, 4, 5–6, 5–6, 7–8, 7–8
        assert [s.place for s in table] == ["1", "2", "3", "4", "5–6", "5–6", "7–8", "7–8"]


# ------------------------------------------------------------------------------- the withdrawal rule
def test_annulled_players_and_the_byes_they_caused_by_hand():
    order = ["A", "B", "C", "D", "E", "F"]
    schedule = round_robin(order)
    r1 = {frozenset(p) for p in schedule[0]}
    d_opp = next(next(iter(pair - {"D"})) for pair in r1 if "D" in pair)
    games = [_g(1, 1, "D", d_opp, 1.0, 0.0)]
    later = next(b if a == "D" else a for a, b in schedule[1] if "D" in (a, b))
    games.append(_bye(2, later, 1.0))
    games.append(_g(2, 2, *[p for p in order if p not in ("D", later)][:2], 0.5, 0.5))
    entries = _entries(order, dropped={"D"})
    assert annulled(entries, games, order) == {"D"}  # one game of five: fewer than half
    kept = without(games, {"D"}, schedule)
    assert all("D" not in g.players for g in kept) and all(g.kind == "table" for g in kept)
    # three of five played is not fewer than half: the results stand
    assert annulled(entries, [_g(r, 1, "D", o, 0.0, 1.0) for r, o in ((1, "A"), (2, "B"), (3, "C"))],
                    order) == set()
    # a forfeit is not a game played
    assert annulled(entries, [_g(r, 1, "D", o, 0.0, 1.0, "forfeit") for r, o in ((1, "A"), (2, "B"), (3, "C"))],
                    order) == {"D"}


@pytest.mark.parametrize("rule", ["annul", "keep"])
async def test_round_robin_withdrawal_rule_both_ways(env, rule):
    store, referee, clock = env
    director, tid = await new_event(referee, 6, fmt="round_robin", settings={"withdrawal": rule})
    await director.start(tid, by="u:org")
    for g in await director.record.games(tid, 1):
        if g.table_id:
            await director.referee.drive_bots(g.table_id)
    await director.sync(tid)
    t = await director.record.get(tid)
    assert t.round == 2
    gone = "u:p03"
    assert await director.leave(tid, gone, by=gone) is True
    entries = await director.record.entries(tid)
    assert next(e for e in entries if e.user_id == gone).status != "active"
    await play_out(director, tid)
    games = await director.record.games(tid)
    table = {s.user_id: s for s in await director.standings(tid)}
    first = next(g for g in games if g.round == 1 and gone in g.players)
    rival = next(p for p in first.players if p != gone)
    byes_for_gone = [g for g in games if g.kind == "bye" and g.result == "bye"]
    assert byes_for_gone  # the players due to meet the leaver got byes
    if rule == "annul":  # two games of five: fewer than half
        assert table[gone].points == 0 and table[gone].played == 0
        for u, s in table.items():  # each keeps only the games among those who stayed
            assert s.points == sum(g.points[u] for g in games if g.kind == "table" and u in g.players
                                   and gone not in g.players)
    else:
        theirs = [g for g in games if g.kind == "table" and gone in g.players]  # round 2 was paired: it plays on
        assert len(theirs) == 2 and table[gone].played == 2
        assert table[gone].points == sum(g.points[gone] for g in theirs)
        assert table[rival].points == sum(g.points.get(rival, 0) for g in games if rival in g.players)
    t = await director.record.get(tid)
    rows = [s.as_dict() for s in await director.standings(tid)]
    text = crosstable(rows, director.counted(t, entries, director.as_matches(t, games)), t.round)
    gone_row = next(line for line in text.splitlines() if "P03" in line)
    assert (set(gone_row.split()[3:]) <= {"·"}) == (rule == "annul")


def test_the_withdrawal_rule_is_a_round_robin_setting():
    assert check_settings("toy", "round_robin", {})["withdrawal"] == "annul"
    assert check_settings("toy", "round_robin", {"withdrawal": "keep"})["withdrawal"] == "keep"
    assert check_settings("toy", "swiss", {})["withdrawal"] == "keep"
    with pytest.raises(Reject):
        check_settings("toy", "swiss", {"withdrawal": "annul"})
    with pytest.raises(Reject):
        check_settings("toy", "round_robin", {"withdrawal": "maybe"})
    with pytest.raises(Reject):
        check_settings("toy", "elimination", {"tiebreak_rules": "fide"})
    assert check_settings("toy", "swiss", {"tiebreak_rules": "fide"})["tiebreak_rules"] == "fide"


# ------------------------------------------------------------------------------- FIDE's tie-breaks
def _swiss():
    """Five players, three rounds: a pairing bye, a requested half-point bye, a forfeit."""
    return [
        _g(1, 1, "A", "B", 1.0, 0.0), _g(1, 2, "C", "D", 1.0, 0.0), _bye(1, "E", 1.0),
        _g(2, 1, "A", "C", 0.5, 0.5), _g(2, 2, "E", "B", 1.0, 0.0), _bye(2, "D", 0.5, "requested"),
        _g(3, 1, "A", "E", 1.0, 0.0, "forfeit"), _g(3, 2, "C", "B", 1.0, 0.0), _bye(3, "D", 1.0),
    ]


def test_fide_buchholz_by_hand():
    # points: A 2.5, B 0, C 2.5, D 1.5, E 2.  For opponents, unplayed rounds count as draws:
    # A 1.5+½ = 2, B 0, C 2.5, D 0+½+½ = 1, E 1+½+½ = 2.  Own unplayed rounds: a dummy with one's own score.
    rows = {s.user_id: s for s in standings("swiss", _entries("ABCDE"), _swiss(), "seed", Points(), rules="fide")}
    assert {u: s.points for u, s in rows.items()} == {"A": 2.5, "B": 0, "C": 2.5, "D": 1.5, "E": 2}
    expected = {"A": (5.0, 5.0),   # B 0 + C 2.5 + dummy 2.5 (the forfeit won); cut the 0
                "B": (6.5, 4.5),   # A 2 + E 2 + C 2.5; cut a 2
                "C": (3.0, 3.0),   # D 1 + A 2 + B 0; cut the 0
                "D": (5.5, 4.0),   # C 2.5 + dummy 1.5 (requested) + dummy 1.5; the requested bye is cut
                "E": (4.0, 2.0)}   # dummy 2 (bye) + B 0 + dummy 2 (forfeit lost): the forfeit is cut, not B's 0
    assert {u: (s.buchholz, s.buchholz_cut1) for u, s in rows.items()} == expected
    # the classic rule (T-5) gives other values: a virtual opponent with the score before the round
    classic = {s.user_id: s for s in standings("swiss", _entries("ABCDE"), _swiss(), "seed", Points())}
    assert (classic["A"].buchholz, classic["E"].buchholz, classic["E"].buchholz_cut1) == (4.5, 2.5, 2.5)
    # A and C tie on 2.5 but cut-1 parts them before direct encounter is reached: it counts for nobody
    assert rows["A"].direct_encounter == rows["C"].direct_encounter == 0
    first = standings("swiss", _entries("ABCDE"), _swiss(), "seed", Points(), tiebreaks=["direct_encounter"])
    assert first[0].direct_encounter == first[1].direct_encounter == 0.5  # first after points: their draw
    assert [s.user_id for s in standings("swiss", _entries("ABCDE"), _swiss(), "seed", Points(),
                                         rules="fide")][:2] == ["A", "C"]


def test_fide_round_robin_order_puts_direct_encounter_before_sonneborn_berger():
    # A beat B and D, lost to C; B beat C and D; D beat C.  Points A 2, B 2, C 1, D 1.
    games = [_g(1, 1, "A", "B", 1, 0), _g(1, 2, "C", "D", 0, 1), _g(2, 1, "A", "C", 0, 1),
             _g(2, 2, "B", "D", 1, 0), _g(3, 1, "A", "D", 1, 0), _g(3, 2, "B", "C", 1, 0)]
    fide = standings("round_robin", _entries("ABCD"), games, "seed", Points(), rules="fide")
    assert {s.user_id: s.direct_encounter for s in fide} == {"A": 1, "B": 0, "C": 0, "D": 1}
    assert {s.user_id: s.sonneborn_berger for s in fide} == {"A": 3, "B": 2, "C": 2, "D": 1}
    assert [s.user_id for s in fide] == ["A", "B", "D", "C"]  # D beat C
    classic = standings("round_robin", _entries("ABCD"), games, "seed", Points())
    assert [s.user_id for s in classic] == ["A", "B", "C", "D"]  # C's SB 2 over D's 1


def test_direct_encounter_breaks_nothing_when_the_tied_did_not_all_meet():
    # A, B and C tie on 1; A beat B, C never met either
    games = [_g(1, 1, "A", "B", 1, 0), _g(1, 2, "C", "D", 1, 0), _g(2, 1, "B", "D", 1, 0), _g(2, 2, "A", "C", 0, 0)]
    rows = standings("swiss", _entries("ABCD"), games[:3], "seed", Points(), tiebreaks=["direct_encounter"])
    assert {s.user_id: s.direct_encounter for s in rows if s.points == 1} == {"A": 0, "B": 0, "C": 0}


async def test_a_third_place_match_decides_only_once_it_is_over(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, fmt="elimination", settings={"third_place": True, "best_of": 3})
    await director.start(tid, by="u:org")
    for _ in range(40):  # the semi-finals, until the final's round is paired
        t = await director.record.get(tid)
        if t.round == 2:
            break
        for g in await director.record.games(tid, t.round):
            if g.table_id:
                await director.referee.drive_bots(g.table_id)
        await director.sync(tid)
    assert t.round == 2
    assert [s.place for s in await director.standings(tid)][2:] == ["3–4", "3–4"]  # not played yet
    await play_out(director, tid)
    table = await director.standings(tid)
    assert [s.place for s in table] == ["1", "2", "3", "4"]
    games = await director.record.games(tid)
    semis = {p for g in games if g.round == 1 for p in g.players} - {table[0].user_id, table[1].user_id}
    third = [g for g in games if g.round == 2 and set(g.players) == semis]
    won = Counter(max(g.players, key=g.points.get) for g in third if len(set(g.points.values())) == 2)
    assert table[2].user_id == won.most_common(1)[0][0]


def test_the_terminal_takes_the_settings_and_shows_shared_places(tmp_path, capsys):
    from bot.terminal.cli import main

    def run(*args):
        code = main(["--db", str(tmp_path / "j.db"), "--locale", "en", "tournament", *args])
        return code, capsys.readouterr()

    assert run("new", "--game", "toy", "--format", "elimination")[0] == 0  # the test game: quick
    assert run("bot", "1", "--count", "5")[0] == 0
    assert run("start", "1")[0] == 0
    code, out = run("standings", "1")
    assert code == 0 and [line.split()[0] for line in out.out.splitlines()[1:]] == ["1", "2", "3–4", "3–4", "5"]
    assert run("new", "--game", "claygod", "--format", "round_robin", "--set", "withdrawal=keep",
               "--set", "tiebreak_rules=fide")[0] == 0
    code, out = run("new", "--game", "claygod", "--format", "swiss", "--set", "withdrawal=annul")
    assert code != 0 and "withdrawal" in out.err
