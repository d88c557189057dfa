"""Corrections that redo what they invalidate (issue 37 item 2, bot/tournament/corrections.py): a bracket result
corrected after its winner played on is shown, confirmed, and the bracket paired again; Swiss keeps its pairings."""
from bot.tournament.corrections import Undo
from bot.tournament.director import Progress
from tests.support.events import new_event, play_out


async def finish_round(director, tid, number):
    """Let the bots play round ``number``'s tables until the next round is paired."""
    for _ in range(20):
        if (await director.record.get(tid)).round > number:
            return
        for g in await director.record.games(tid, number):
            if g.table_id and not g.settled:
                await director.referee.drive_bots(g.table_id)
        await director.sync(tid)
    raise AssertionError(f"round {number} did not finish")


def winner(g):
    return max(g.players, key=lambda p: g.points[p])


async def statuses(store, games):
    return [(await store.get_table(g.table_id)).status if g.table_id else None for g in games]


async def cancel_reason(store, table_id):
    row = await store._one("SELECT reason FROM moderation WHERE table_id = ? AND action = 'cancel'", (table_id,))
    return row and row["reason"]


async def round_one_played(referee, players, rounds=1, **event):
    """An event started and its first ``rounds`` played: the director, the tournament, round 1's first table,
    its winner and its loser."""
    director, tid = await new_event(referee, players, **event)
    await director.start(tid, by="u:org")
    for number in range(1, rounds + 1):
        await finish_round(director, tid, number)
    first = next(g for g in await director.record.games(tid, 1) if g.kind == "table")
    w = winner(first)
    (lost,) = set(first.players) - {w}
    return director, tid, first, w, lost


async def test_an_elimination_correction_during_the_next_round_undoes_only_that_path(env):
    store, referee, clock = env
    director, tid, first, w, lost = await round_one_played(referee, 8, fmt="elimination")
    later = await director.record.games(tid, 2)
    path = next(g for g in later if w in g.players)
    (opponent,) = set(path.players) - {w}
    others = [g for g in later if g is not path]

    dry = await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org",
                                reason="the loser was wrongly scored")
    assert isinstance(dry, Undo) and not dry.done
    assert [(g.round, g.board) for g in dry.games] == [(2, path.board)]
    assert dry.from_round == 2 and not dry.dropped_rounds
    # a dry run changes nothing
    assert (await director.record.games(tid, 1))[first.board - 1].points == first.points
    assert (await store.get_table(path.table_id)).status == "active"

    done = await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org",
                                 reason="the loser was wrongly scored", confirm=True)
    assert isinstance(done, Undo) and done.done and isinstance(done.progress, Progress)
    assert (await store.get_table(path.table_id)).status == "cancelled"
    assert "corrected the result of round 1" in await cancel_reason(store, path.table_id)  # its players are told why
    now = await director.record.games(tid, 2)
    assert set(await statuses(store, others)) == {"active"}  # the rest of the round plays on
    assert {frozenset(g.players) for g in now} == \
        {frozenset(g.players) for g in others} | {frozenset({lost, opponent})}
    redo = [e for e in await director.record.log(tid) if e["action"] == "redo"]
    assert redo and redo[0]["data"]["from_round"] == 2
    t = await play_out(director, tid)
    games = await director.record.games(tid)
    assert t.status == "finished" and not any(w in g.players for g in games if g.round > 1)
    assert (await director.record.games(tid, 1))[first.board - 1].points == {lost: 1.0, w: 0.0}


async def test_an_elimination_correction_two_rounds_on_takes_the_later_round_back(env):
    store, referee, clock = env
    director, tid, first, w, lost = await round_one_played(referee, 8, rounds=2, fmt="elimination")
    semi = next(g for g in await director.record.games(tid, 2) if w in g.players)
    final = (await director.record.games(tid, 3))[0]

    dry = await director.forfeit(tid, 1, first.board, [w], by="u:org", reason="an illegal substitute")
    assert isinstance(dry, Undo) and dry.from_round == 2 and dry.dropped_rounds == [3]
    assert {(g.round, g.board) for g in dry.games} == {(2, semi.board), (3, final.board)}

    done = await director.forfeit(tid, 1, first.board, [w], by="u:org", reason="an illegal substitute",
                                  confirm=True)
    assert done.done and (await store.get_table(final.table_id)).status == "cancelled"
    t = await director.record.get(tid)
    assert t.round == 2 and not await director.record.games(tid, 3)
    semis = await director.record.games(tid, 2)
    assert any(lost in g.players and not g.settled for g in semis)
    assert sum(g.settled for g in semis) == len(semis) - 1  # the other semi-final stands as played
    t = await play_out(director, tid)
    later = [g for g in await director.record.games(tid) if g.round > 1]
    assert t.status == "finished" and not any(w in g.players for g in later)


async def test_a_double_elimination_correction_swaps_brackets(env):
    store, referee, clock = env
    director, tid, first, w, lost = await round_one_played(referee, 4, fmt="double_elimination")
    tour = await director.record.get(tid)

    def bracket_of(labels, player):
        return next(which for (rnd, pair), which in labels.items() if rnd == 2 and player in pair)

    before = director.bracket_labels(tour, await director.record.games(tid))
    assert bracket_of(before, w) == "W" and bracket_of(before, lost) == "L"
    dry = await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org", reason="scored the wrong way")
    assert isinstance(dry, Undo) and len(dry.games) == 2  # the upper and the lower match of round 2
    await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org", reason="scored the wrong way",
                          confirm=True)
    after = director.bracket_labels(await director.record.get(tid), await director.record.games(tid))
    assert bracket_of(after, lost) == "W" and bracket_of(after, w) == "L"
    assert set(await statuses(store, dry.games)) == {"cancelled"}
    assert (await play_out(director, tid)).status == "finished"


async def test_a_correction_that_changes_no_later_game_is_made_at_once(env):
    store, referee, clock = env
    director, tid, first, w, lost = await round_one_played(referee, 8, fmt="elimination")
    kept = await director.adjust(tid, 1, first.board, {w: 1, lost: 0.5}, by="u:org", reason="a half point owed")
    assert isinstance(kept, Progress)  # the same winner: nothing later is wrong
    assert set(await statuses(store, await director.record.games(tid, 2))) == {"active"}


async def test_a_swiss_correction_after_the_next_pairing_keeps_the_pairings_and_says_so(env):
    store, referee, clock = env
    director, tid, first, w, lost = await round_one_played(referee, 8, settings={"rounds": 3})
    paired = await director.record.games(tid, 2)
    result = await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org", reason="scored the wrong way")
    assert isinstance(result, Progress) and result.kept_pairings == [2]
    assert await director.record.games(tid, 2) == paired
    assert (await director.record.games(tid, 1))[0].points == {lost: 1.0, w: 0.0}
    # a correction inside the current round says nothing of later pairings
    open_game = next(g for g in paired if g.kind == "table")
    a, b = open_game.players
    assert (await director.adjust(tid, 2, open_game.board, {a: 1, b: 0}, by="u:org",
                                  reason="b conceded")).kept_pairings == []


def test_the_terminal_lists_what_a_correction_undoes_and_applies_it_with_confirm(tmp_path, capsys):
    import json
    import sqlite3

    from tests.support.events import tournament_cli as run
    db = tmp_path / "j.db"
    run(db, "new", "--game", "toy", "--format", "elimination", "--user", "org")
    for who in ("alice", "bob", "carol", "dave"):
        assert run(db, "join", "1", "--user", who)[0] == 0
    assert run(db, "start", "1", "--user", "org")[0] == 0
    with sqlite3.connect(db) as con:
        pairs = [json.loads(p) for (p,) in con.execute("SELECT players FROM tournament_games WHERE round = 1"
                                                         " ORDER BY board")]
    for board, (a, b) in enumerate(pairs, start=1):  # the organiser settles round 1: the final is paired
        assert run(db, "adjust", "1", "--round", "1", "--board", str(board), "--points", f"{a}=1",
                   "--points", f"{b}=0", "--reason", "played over the board", "--user", "org")[0] == 0
    a, b = pairs[0]
    fix = ["adjust", "1", "--round", "1", "--board", "1", "--points", f"{a}=0", "--points", f"{b}=1",
           "--reason", "scored the wrong way", "--user", "org"]
    code, out = run(db, *fix, capsys=capsys)
    assert code == 0 and "This will be undone" in out.out and "round 2, table 1" in out.out
    assert "--confirm" in out.out and "paired again from round 2" in out.out
    with sqlite3.connect(db) as con:  # the dry run changed nothing
        assert json.loads(con.execute("SELECT points FROM tournament_games WHERE round = 1 AND board = 1")
                          .fetchone()[0]) == {a: 1, b: 0}
    code, out = run(db, *fix, "--confirm", capsys=capsys)
    assert code == 0 and "1 table undone" in out.out
    with sqlite3.connect(db) as con:
        final = [json.loads(p) for (p,) in con.execute("SELECT players FROM tournament_games WHERE round = 2")]
        assert len(final) == 1 and b in final[0] and a not in final[0]  # the corrected winner in the final


def test_the_terminal_says_a_swiss_correction_keeps_the_later_pairings(tmp_path, capsys):
    import json
    import sqlite3

    from tests.support.events import tournament_cli as run
    db = tmp_path / "j.db"
    run(db, "new", "--game", "toy", "--set", "rounds=3", "--user", "org")
    for who in ("alice", "bob", "carol", "dave"):
        run(db, "join", "1", "--user", who)
    run(db, "start", "1", "--user", "org")
    with sqlite3.connect(db) as con:
        pairs = [json.loads(p) for (p,) in con.execute("SELECT players FROM tournament_games WHERE round = 1")]
    for board, (a, b) in enumerate(pairs, start=1):
        run(db, "adjust", "1", "--round", "1", "--board", str(board), "--points", f"{a}=1", "--points", f"{b}=0",
            "--reason", "played", "--user", "org")
    a, b = pairs[0]
    code, out = run(db, "adjust", "1", "--round", "1", "--board", "1", "--points", f"{a}=0", "--points", f"{b}=1",
                    "--reason", "scored the wrong way", "--user", "org", capsys=capsys)
    assert code == 0 and "pairings of the rounds already paired (2) stand" in out.out


async def test_a_finished_bracket_is_not_reopened_by_a_correction(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, fmt="elimination")
    await director.start(tid, by="u:org")
    assert (await play_out(director, tid)).status == "finished"
    first = (await director.record.games(tid, 1))[0]
    w = winner(first)
    (lost,) = set(first.players) - {w}
    refused = await director.adjust(tid, 1, first.board, {lost: 1, w: 0}, by="u:org", reason="late", confirm=True)
    assert refused.key == "tournament.reject.undo_finished"
    assert (await director.record.games(tid, 1))[0].points == first.points
