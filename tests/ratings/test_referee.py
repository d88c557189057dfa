"""Ratings through the referee: real tables between people, a bot seat, a casual table, a moderator's rollback."""
from __future__ import annotations

import random

from bot.engine import get_game
from bot.referee.moderation import rollback
from bot.ratings.model import Skill, rate
from bot.ratings.ratings import Ratings
from bot.referee.service import Accepted


async def play(referee, users, *, seed, bots=0, options=None, game="claygod"):
    """A table of ``users`` (and ``bots`` bot seats) played to its end by the game's own bot choices."""
    table = await referee.create_table(game, creator=users[0], creator_name=users[0][4:], origin="terminal",
                                       options=options)
    for u in users[1:]:
        assert isinstance(await referee.join(table.id, u, u[4:]), int)
    for _ in range(bots):
        assert isinstance(await referee.add_bot(table.id), int)
    assert isinstance(await referee.start(table.id, users[0], seed=seed), Accepted)
    g, rng = get_game(game), random.Random(seed)
    seats = await referee.store.seats(table.id)
    while (state := await referee.store.state(table.id)).get("outcome") is None:
        seat = g.to_act(state)[0].seat
        result = await referee.act(table.id, seats[seat].user_id, g.bot_action(state, seat, rng), seat=seat)
        assert isinstance(result, Accepted), result
    return table.id, state["outcome"]


async def test_rated_tables_change_ratings_as_openskill_says(env):
    store, referee, clock = env
    ratings = Ratings(store)
    first, outcome = await play(referee, ["cli:ann", "cli:bob"], seed="r1")
    changes = await ratings.table_changes(first)
    (won,), (lost,) = rate([[Skill()], [Skill()]], [1, 2])
    winner = outcome["winners"][0]
    assert [c.after for c in changes] == [won.shown if s == winner else lost.shown for s in (0, 1)]
    assert all(c.before == 1500 and c.provisional for c in changes)
    clock.t += 60
    second, _ = await play(referee, ["cli:bob", "cli:ann"], seed="r2")
    before_rollback = await ratings.table_changes(second)
    assert [c.games for c in before_rollback] == [2, 2]
    rows, differ, _ = await ratings.rebuild()
    assert (rows, differ) == (4, 0)

    # the first table rolled back (reopened): the second is now both players' first rated game
    clock.t += 60
    undone = await rollback(referee, first, 1, moderator="cli:mod", reason="wrong deal", reopen=True)
    assert isinstance(undone, Accepted)
    assert await ratings.table_changes(first) == []
    after = await ratings.table_changes(second)
    assert [c.games for c in after] == [1, 1] and all(c.before == 1500 for c in after)
    board = await ratings.leaderboard("", "claygod")
    assert {r.user_id for r in board.rows} == {"cli:ann", "cli:bob"} and all(r.games == 1 for r in board.rows)


async def test_a_bot_seat_and_a_casual_table_are_not_rated(env):
    store, referee, _ = env
    ratings = Ratings(store)
    with_bot, _ = await play(referee, ["cli:ann"], seed="b1", bots=1)
    casual, _ = await play(referee, ["cli:ann", "cli:bob"], seed="c1", options={"rated": False})
    assert await ratings.table_changes(with_bot) == [] and await ratings.table_changes(casual) == []
    assert (await ratings.leaderboard("", "claygod")).rows == []
    refused = await referee.create_table("claygod", creator="cli:ann", creator_name="ann", options={"rated": "maybe"})
    assert refused.key == "core.reject.bad_option"
    profile = await ratings.profile("", "cli:ann")
    assert profile.games[0].played == 2 and profile.games[0].games == 0 and profile.games[0].shown is None


async def test_the_terminal_prints_the_change_at_the_end(env):
    import io

    from bot.referee.delivery import drain
    from bot.terminal.session import TerminalDeliverer

    store, referee, _ = env
    table_id, outcome = await play(referee, ["cli:ann", "cli:bob"], seed="t1")
    out = io.StringIO()
    while await drain(store, TerminalDeliverer(out, "cli:ann", "en", store=store)):
        pass
    winner = ["ann", "bob"][outcome["winners"][0]]
    loser = "bob" if winner == "ann" else "ann"
    expected = {winner: "+69 → 1,569?", loser: "\u221237 → 1,463?"}
    assert f"Rating: ann {expected['ann']} · bob {expected['bob']}" in out.getvalue()
    # a bare "1,569?" reads as a doubt: the line after it says what the mark means
    assert f"Rating: ann {expected['ann']} · bob {expected['bob']}\n? — provisional: fewer than 10 rated games." \
        in out.getvalue()
