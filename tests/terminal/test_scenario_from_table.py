"""``scenario --from-table``: a stored table's position at a version, written as a scenario file, is the stored
state byte for byte (canonical JSON), and playing the table's own later actions from it ends where the table
ended; the command is a moderator's look (refused to a seated user, logged).  One short seeded table per game."""
import argparse
import random

import pytest

from bot.engine import all_games, get_game
from bot.engine.canonical import dumps
from bot.process.config import Settings
from bot.referee.service import Accepted
from bot.terminal import scenario
from bot.terminal.positions import cmd_from_table, dump_scenario, position_scenario
from tests.support.tables import PLAYERS, played_table

GAMES = [name for name in all_games() if name != "toy"]


@pytest.mark.parametrize("name", GAMES)
async def test_a_position_from_a_table_is_its_state_and_plays_on_to_its_end(env, tmp_path, name):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, name)
    table = await store.get_table(tid)
    actions = await store.actions(tid)
    middle = table.version // 2
    at = next(a.at for a in actions if a.version == middle) if middle else table.started_at
    doc = position_scenario(table, await store.seats(tid), await store.state(tid, middle), at,
                            [a for a in actions if a.version > middle])
    path = tmp_path / f"{name}.yaml"
    path.write_text(dump_scenario(doc, tid), encoding="utf-8")
    report = scenario.run(scenario.load(path))
    assert report["ok"], report.get("message")
    assert dumps(report["initial"]["state"]) == dumps(await store.state(tid, middle))
    assert dumps(report["final"]) == dumps(await store.state(tid))


def _args(table, **extra):
    return argparse.Namespace(from_table=table, version=extra.get("version"), out=extra.get("out"),
                              position_only=extra.get("position_only", False), user=extra.get("user"),
                              locale="en", file=None)


async def test_the_command_writes_the_file_for_a_moderator_and_refuses_a_seated_player(env, tmp_path, capsys):
    store, referee, clock = env
    tid = await played_table(referee, store, clock, "claygod", moves=10, prefix="cli:")
    settings = Settings(database=store.path, locale="en")
    out = tmp_path / "pos.yaml"
    assert await cmd_from_table(_args(tid, user="ann", out=str(out)), settings) != 0   # ann plays there
    assert not out.exists()
    assert f"You play at table #{tid}" in capsys.readouterr().err
    assert await cmd_from_table(_args(tid, version=4, out=str(out), user="mod"), settings) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# MODERATORS ONLY")
    report = scenario.run(scenario.load(out))
    assert report["ok"]
    assert dumps(report["initial"]["state"]) == dumps(await store.state(tid, 4))
    assert dumps(report["final"]) == dumps(await store.state(tid))
    rows = await store._all("SELECT moderator, action FROM moderation WHERE table_id = ?", (tid,))
    assert [(r["moderator"], r["action"]) for r in rows] == [("cli:mod", "hidden_view")]


async def test_stored_tables_of_a_release_fixture_are_reproduced_and_play_on_to_their_end(tmp_path):
    """The newest release fixture (tables stored by a real release, tests/fixtures/releases/): for one table of
    each game, its position halfway is its stored state (as today's rules read it) and plays on to its end."""
    import shutil
    from pathlib import Path

    from bot.engine.versions import readable
    from bot.referee.upgrade import open_store

    newest = sorted((Path(__file__).parents[1] / "fixtures" / "releases").glob("*.db"))[-1]
    db = tmp_path / "fixture.db"
    shutil.copy(newest, db)
    store = await open_store(db)
    try:
        longest = {}
        for table in await store.find_tables(limit=1000):
            if table.status != "lobby" and table.version > longest.get(table.game, (0, None))[0]:
                longest[table.game] = (table.version, table)
        assert set(longest) == set(GAMES)
        for name, (_, table) in sorted(longest.items()):
            game, actions = get_game(name), await store.actions(table.id)
            upgraded = [a.version for a in actions if a.seat < 0]   # an upgrade at opening: play on after it
            middle = max([table.version // 2, *upgraded])
            at = next((a.at for a in actions if a.version == middle), table.started_at)
            stored = readable(game, await store.state(table.id, middle))
            doc = position_scenario(table, await store.seats(table.id), stored, at,
                                    [a for a in actions if a.version > middle])
            path = tmp_path / f"{name}.yaml"
            path.write_text(dump_scenario(doc, table.id), encoding="utf-8")
            report = scenario.run(scenario.load(path))
            assert report["ok"], (name, report.get("message"))
            assert dumps(report["initial"]["state"]) == dumps(stored), name
            assert dumps(report["final"]) == dumps(readable(game, await store.state(table.id))), name
    finally:
        await store.close()


async def test_a_moderators_rollback_in_the_record_is_replayed_and_one_before_the_position_ends_the_steps(env):
    """A table rolled back by a moderator and played on: from a version before the rollback's target the steps
    replay the rollback (``moderator:``) and end where the table ended; from a version after the target the
    steps stop at the rollback with a note."""
    from bot.referee import moderation

    store, referee, clock = env
    tid = await played_table(referee, store, clock, "raiders", moves=8)
    assert isinstance(await moderation.rollback(referee, tid, 4, moderator="mod:m", reason="a misclick"), Accepted)
    tid_again = await _play_on(referee, store, clock, tid, moves=4)
    table, actions = await store.get_table(tid_again), await store.actions(tid)
    assert any(a.seat < 0 for a in actions)
    early = position_scenario(table, await store.seats(tid), await store.state(tid, 2),
                              next(a.at for a in actions if a.version == 2), [a for a in actions if a.version > 2])
    assert any(step.get("moderator", {}).get("type") == "rollback" for step in early["steps"])
    report = scenario.run(early)
    assert report["ok"] and dumps(report["final"]) == dumps(await store.state(tid))
    late = position_scenario(table, await store.seats(tid), await store.state(tid, 6),
                             next(a.at for a in actions if a.version == 6), [a for a in actions if a.version > 6])
    assert "rollback to version 4" in late["steps"][-1]["note"]


async def _play_on(referee, store, clock, tid, moves):
    game, rng = get_game("raiders"), random.Random(3)
    for _ in range(moves):
        state = await store.state(tid)
        pending = game.to_act(state)
        if not pending:
            break
        seat = pending[0].seat
        clock.t += 60
        action = game.bot_action(state, seat, rng)
        assert isinstance(await referee.act(tid, f"u:{PLAYERS[seat]}", action, seat=seat), Accepted)
    return tid
