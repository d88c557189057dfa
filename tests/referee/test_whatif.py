"""A moderator's "what if" (bot/referee/whatif.py, ``python -m bot mod whatif``): another legal move tried at a stored
step on a scratch copy, played on by the bots to an outcome in every game; the real table's rows stay byte for
byte as they were (only the moderation log gains the look); refused to a user seated at the table; the trial is
the same each time it is played."""
import asyncio
import json

import pytest

from bot.engine import Code, Rejection, all_games, get_game
from bot.referee import whatif
from bot.render.whatif import trial_text
from bot.terminal.cli import main
from tests.support.records import looks, record_rows
from tests.support.tables import played_table

GAMES = [name for name in all_games() if name != "toy"]


@pytest.mark.parametrize("name", GAMES)
async def test_another_move_played_on_by_the_bots_reaches_an_outcome_and_leaves_the_table_as_it_was(env, name):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, name, moves=12)
    before = await record_rows(store, tid)
    table = await store.get_table(tid)
    middle = table.version // 2
    real = next(a for a in await store.actions(tid) if a.version == middle + 1)

    trial = await whatif.open_trial(referee, tid, moderator="u:mod", version=middle)
    assert not isinstance(trial, Rejection), trial
    assert trial.state == await store.state(tid, middle)
    offered = trial.offers()
    assert offered, "a running table offers a move"
    other = next(((s, a) for s, a in offered if a != real.action), offered[0])  # another move where there is one
    chosen = whatif.pick(trial, str(offered.index(other) + 1))
    assert chosen == other
    tried = whatif.play(trial, *chosen)
    assert not isinstance(tried, Rejection), tried
    assert tried.state["version"] == middle + 1 and tried.tried[0].by_bot is False
    ended = whatif.bots(tried)
    assert ended.outcome is not None, f"{name}: the bots stopped after {len(ended.tried)} moves"
    assert not ended.cut and all(step.by_bot for step in ended.tried[1:])
    get_game(name).check_invariants(ended.state)
    # the same trial played again goes the same way (the table's random source, seeded bots)
    assert whatif.bots(tried).state == ended.state
    text = trial_text(ended, "en")
    assert f"table #{tid}" in text and "✋" in text

    assert await record_rows(store, tid) == before   # the real table: not a byte changed
    assert await looks(store, tid) == [("u:mod", "hidden_view", {"what": "whatif", "version": middle})]


async def test_a_seated_player_is_refused_and_nothing_is_logged(env):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, "claygod", moves=6)
    refused = await whatif.try_moves(referee, tid, moderator="u:ann", move=1, actions=["1"])
    assert isinstance(refused, Rejection) and refused.code == Code.FORBIDDEN
    assert refused.key == "moderation.reject.seated"
    assert await looks(store, tid) == []


async def test_what_cannot_be_tried_is_refused_with_its_reason(env):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, "claygod", moves=6)
    before = await record_rows(store, tid)
    latest = (await store.get_table(tid)).version
    no_version = await whatif.open_trial(referee, tid, moderator="u:mod", version=latest + 1)
    assert isinstance(no_version, Rejection) and no_version.key == "whatif.reject.no_version"
    no_move = await whatif.open_trial(referee, tid, moderator="u:mod", move=999)
    assert isinstance(no_move, Rejection) and no_move.key == "whatif.reject.no_move"
    no_table = await whatif.open_trial(referee, 999, moderator="u:mod")
    assert isinstance(no_table, Rejection) and no_table.code == Code.NOT_FOUND
    trial = await whatif.open_trial(referee, tid, moderator="u:mod", move=0)
    assert trial.version == 0 and trial.move == 0
    count = len(trial.offers())
    assert whatif.pick(trial, str(count + 1)).key == "core.reject.no_such_choice"
    assert isinstance(whatif.pick(trial, '{"type": "no such move"}'), Rejection)
    assert whatif.pick(trial, "1", seat=7).key == "core.cli.no_such_seat"
    assert await record_rows(store, tid) == before


async def test_a_move_typed_as_json_or_a_label_for_the_seat_that_owes_it(env):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, "claygod", moves=6)
    trial = await whatif.open_trial(referee, tid, moderator="u:mod", move=2)
    seat, action = trial.offers()[-1]
    assert whatif.pick(trial, json.dumps(action)) == (seat, action)
    label = trial.game.describe_action(trial.state, seat, action, "ru", trial.names)
    assert whatif.pick(trial, label) == (seat, action)
    assert whatif.pick(trial, json.dumps(action), seat=seat) == (seat, action)


async def _run(db, *argv):
    """The command as typed at the terminal (in a thread: it runs its own event loop)."""
    return await asyncio.to_thread(main, ["--db", str(db), "--locale", "en", "mod", "whatif", *map(str, argv)])


async def test_the_terminal_command(env, capsys):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, "gwent", moves=8, prefix="cli:")
    before = await record_rows(store, tid)
    db = store.path
    await store.close()  # the command opens the database itself, as a second process would
    assert await _run(db, tid, "--move", 1, "--user", "mod") == 0
    shown = capsys.readouterr().out
    assert "What if — table" in shown and "Legal moves now" in shown and "— Seat 2," in shown
    assert await _run(db, tid, "--move", 1, "--action", 1, "--playout", "bots", "--user", "mod") == 0
    shown = capsys.readouterr().out
    assert "1. ✋" in shown and "🤖" in shown and "Legal moves now" not in shown  # played to its end
    assert await _run(db, tid, "--version", 2, "--action", 1, "--action", 1, "--playout", "bots", "--steps", 2,
                "--user", "mod") == 0
    shown = capsys.readouterr().out
    assert "\n2. ✋" in shown and "\n4. 🤖" in shown and "\n5. 🤖" not in shown
    assert await _run(db, tid, "--move", 1, "--user", "ann") == 1                       # ann plays there
    assert "You play at table" in capsys.readouterr().err
    assert await _run(db, tid, "--move", 1, "--version", 1, "--user", "mod") == 2       # one or the other
    assert await _run(db, tid, "--move", 1, "--action", 9999, "--user", "mod") == 1
    assert "no choice number 9999" in capsys.readouterr().err
    from bot.storage.store import Store
    again = await Store.open(db)
    try:
        assert await record_rows(again, tid) == before
        logged = await looks(again, tid)
        assert [who for who, _, _ in logged] == ["cli:mod"] * 4   # each trial looked once, the refused one not
        assert logged[2][2] == {"what": "whatif", "version": 2, "moves": 2, "playout": "bots", "steps": 2}
    finally:
        await again.close()
