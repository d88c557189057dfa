"""The default clock of a correspondence table (issue 35 item 2; bot/referee/timecontrol.py ``defaulted``,
docs/tournaments.md TC-7): a new table or tournament at correspondence pace without ``clock`` gets 48 h per
decision with a bot taking the seat when it runs out; ``clock=off`` keeps none; a table, lobby or tournament
stored before the default keeps none; every decision of a complete game at correspondence pace shows a
deadline; the reminders and the expiry with the default."""
from __future__ import annotations

import json
import random
import sqlite3

import pytest

from bot.engine import Rejection, get_game
from bot.referee.service import Accepted
from bot.referee.timecontrol import DEFAULT_CLOCK, DEFAULT_EXPIRY, defaulted, duration, with_deadlines
from bot.storage.clocks import Clocks
from bot.storage.tournaments import Tournaments
from bot.tournament.director import Director
from bot.referee.visibility import pending_messages

HOUR = 3600
GAMES = ("claygod", "bridges", "bloodwood", "gwent", "raiders")
DEFAULT = {"move": 48 * HOUR, "expiry": "zombie", "remind": [24 * HOUR, HOUR], "vacation": 0.0}


def test_the_default_applies_only_at_correspondence_pace_without_a_clock():
    assert duration(DEFAULT_CLOCK) == 48 * HOUR and DEFAULT_EXPIRY == "zombie"
    assert defaulted({"pace": "correspondence"}) == {"pace": "correspondence", "clock": "48h",
                                                     "clock_expiry": "zombie"}
    # the creator's own settings beside it stay theirs
    assert defaulted({"pace": "correspondence", "clock_expiry": "forfeit", "vacation": 2}) == {
        "pace": "correspondence", "clock": "48h", "clock_expiry": "forfeit", "vacation": 2}
    for kept in ({"pace": "correspondence", "clock": "off"}, {"pace": "correspondence", "clock": "72h"},
                 {"pace": "live"}, {}):
        assert defaulted(kept) == kept, kept


async def _new(referee, game, n, options, players=None):
    users = players or [f"p{i}" for i in range(n)]
    table = await referee.create_table(game, creator=f"u:{users[0]}", creator_name=users[0], options=options,
                                       origin="terminal")
    assert not isinstance(table, Rejection), table.message("en")
    for u in users[1:]:
        assert isinstance(await referee.join(table.id, f"u:{u}", u), int)
    return table


def _seats(game: str) -> int:
    return 5 if game == "bloodwood" else max(get_game(game).min_seats, 2)  # Bloodwood's smallest table


@pytest.mark.parametrize("game", GAMES)
async def test_a_new_correspondence_table_has_the_default_clock_and_clock_off_none(env, game):
    store, referee, _ = env
    n = _seats(game)
    by_default = await _new(referee, game, n, {"pace": "correspondence"})
    assert by_default.time_control == DEFAULT
    off = await _new(referee, game, n, {"pace": "correspondence", "clock": "off"}, [f"q{i}" for i in range(n)])
    assert off.time_control is None
    live = await _new(referee, game, n, {"pace": "live"}, [f"r{i}" for i in range(n)])
    assert live.time_control is None
    # a clock the creator names keeps the expiry it always had (forfeit), as before the default
    named = await _new(referee, game, n, {"pace": "correspondence", "clock": "72h"}, [f"s{i}" for i in range(n)])
    assert named.time_control["move"] == 72 * HOUR and named.time_control["expiry"] == "forfeit"


def test_the_terminal_table_new_gets_the_default_at_correspondence_pace(tmp_path, capsys):
    from bot.terminal.cli import main

    db = tmp_path / "judge.db"
    run = lambda *a: main(["--db", str(db), "--locale", "en", "table", "new", "--game", *a])  # noqa: E731
    assert run("gwent", "--user", "ann", "--option", "pace=correspondence") == 0
    assert "48 h per decision; when it runs out, a bot takes the seat" in capsys.readouterr().out  # as in the lobby
    assert run("gwent", "--user", "ann") == 0
    assert "Clock" not in capsys.readouterr().out
    assert run("gwent", "--user", "ann", "--option", "pace=correspondence", "--option", "clock=off") == 0
    con = sqlite3.connect(db)
    try:
        stored = [json.loads(tc) if tc else None for (tc,) in con.execute("SELECT time_control FROM tables ORDER BY id")]
    finally:
        con.close()
    # the terminal's own default pace is live (players at one keyboard): no clock unless correspondence is asked
    assert stored == [DEFAULT, None, None]


async def test_a_lobby_stored_before_the_default_starts_without_a_clock(env):
    """A lobby an older release wrote at correspondence pace without a clock: its stored ``time_control`` is
    NULL and nothing reads its options again for a clock, so it starts and plays untimed."""
    store, referee, _ = env
    game = get_game("gwent")
    options = game.validate_options({"pace": "correspondence"}, clock=None)   # as the older release stored them
    tid = await store.create_table(game="gwent", options=options, creator="u:old", origin="discord",
                                   now=referee.now(), max_seats=game.max_seats, creator_name="old",
                                   rules_version=game.rules_version)
    assert isinstance(await referee.join(tid, "u:older", "older"), int)
    assert isinstance(await referee.start(tid, "u:old", seed="s"), Accepted)
    assert (await store.get_table(tid)).time_control is None
    assert await Clocks(store).seat_clocks(tid) == {}


async def test_a_tournament_gets_the_default_and_one_stored_before_it_keeps_none(env):
    store, referee, _ = env
    director = Director(referee)
    new = await director.create("gwent", "swiss", creator="u:org", origin="terminal")
    assert new.options["clock"] == "48h" and new.options["clock_expiry"] == "zombie"
    off = await director.create("gwent", "swiss", creator="u:org", origin="terminal", options={"clock": "off"})
    assert off.options["clock"] == "off"
    # an event an older release created: its stored options name no clock (the default is not read into them)
    old_options = {k: v for k, v in new.options.items() if k not in ("clock", "clock_expiry")}
    for tournament, wanted in ((new, DEFAULT), (off, None)):
        assert await _tables_of(referee, director, tournament.id) == [wanted, wanted]
    older = await Tournaments(store).create(game="gwent", format="swiss", creator="u:org", settings=dict(new.settings),
                                            options=old_options, seed="s", origin="terminal", now=referee.now())
    assert await _tables_of(referee, director, older) == [None, None]


async def _tables_of(referee, director, tid):
    """Round 1 of a four-player Swiss: its two tables' time controls."""
    for i in range(4):
        joined = await director.join(tid, f"u:t{tid}p{i}", f"t{tid}p{i}")
        assert not isinstance(joined, Rejection), joined
    started = await director.start(tid, by="u:org")
    assert not isinstance(started, Rejection), started
    tables = [t for t in await referee.store.find_tables(status=["active"]) if t.creator == f"tournament:{tid}"]
    return [t.time_control for t in tables]


@pytest.mark.parametrize("game", GAMES)
async def test_every_decision_of_a_correspondence_game_shows_a_deadline(env, game):
    """A complete game at correspondence pace with the default clock, every seat human (each decision taken by
    the game's bot through the referee): after every step each seat asked has a deadline, as the live message,
    the control message and the terminal show it."""
    store, referee, clock = env
    n = _seats(game)
    table = await _new(referee, game, n, {"pace": "correspondence"})
    assert isinstance(await referee.start(table.id, "u:p0", seed=f"seed-{game}"), Accepted)
    rng, engine, asked = random.Random(7), get_game(game), 0
    seats = await store.seats(table.id)
    for _ in range(engine.max_actions + 50):
        table = await store.get_table(table.id)
        if table.status != "active":
            break
        state = await store.state(table.id)
        shown = await with_deadlines(Clocks(store), table, engine.view(state, None))
        for p in shown["to_act"]:
            assert p["deadline"] is not None, (game, state["version"], p)
            # no later than the clock's: a decision is never given more than 48 h on an untouched clock
            assert p["deadline"] <= clock.t + 48 * HOUR + 1, (game, state["version"], p)
        asked += len(shown["to_act"])
        p = rng.choice(engine.to_act(state))
        clock.t += rng.uniform(60, 2 * HOUR)
        done = await referee.act(table.id, seats[p.seat].user_id, engine.bot_action(state, p.seat, rng),
                                 seat=p.seat)
        assert not isinstance(done, Rejection), (game, done.message("en"))
    else:
        raise AssertionError(f"{game} did not end")
    assert (await store.get_table(table.id)).status == "finished" and asked > 0


async def test_the_default_clock_reminds_then_a_bot_takes_the_seat(env):
    store, referee, clock = env
    table = await _new(referee, "claygod", 2, {"pace": "correspondence"})
    assert isinstance(await referee.start(table.id, "u:p0", seed="s"), Accepted)
    owing = {p.seat for p in get_game("claygod").to_act(await store.state(table.id))}
    assert len(owing) == 1                              # one seat on move: the other stays a player
    clock.t += 23 * HOUR
    await referee.tick()
    assert [m for m in await pending_messages(store, limit=1000) if m.kind == "reminder"] == []
    clock.t += 2 * HOUR                                 # 24 h before the deadline: the first reminder
    await referee.tick()
    reminders = [m for m in await pending_messages(store, limit=1000) if m.kind == "reminder"]
    assert sorted(m.seat for m in reminders) == sorted(owing) and {m.payload["left"] for m in reminders} == {86400}
    clock.t += 24 * HOUR                                # past the deadline: a bot plays the seat, the game goes on
    await referee.tick()
    table = await store.get_table(table.id)
    seats = await store.seats(table.id)
    assert table.status == "active" and all(seats[s].is_bot for s in owing)
    assert any(m.kind == "clock" and m.payload["what"] == "zombie"
               for m in await pending_messages(store, limit=1000))
