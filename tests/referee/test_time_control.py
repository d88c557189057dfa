"""Time control (bot/referee/timecontrol.py, bot/referee/timekeeper.py) and a moderator's pause (bot/referee/moderation.py), on toy
tables with a fake clock."""
from __future__ import annotations

import pytest

from bot.engine import Code, Rejection
from bot.referee import moderation
from bot.referee.record import verify_table
from bot.referee.service import Accepted, Referee
from bot.referee.timecontrol import duration, parse
from bot.storage.clocks import Clocks
from bot.storage.store import Store
from bot.tournament.director import Director
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one

HOUR = 3600


def test_settings_are_parsed_and_bad_ones_refused():
    assert duration("48h") == 48 * HOUR and duration("2d") == 2 * 86400 and duration("90m") == 5400
    assert duration("12") == 12 * HOUR and duration("soon") is None and duration(True) is None
    options = {"clock": "48h", "vacation": 3, "tricks": 2}
    assert parse(options) == {"move": 48 * HOUR, "expiry": "forfeit", "remind": [86400, 3600], "vacation": 3 * 86400}
    assert options == {"tricks": 2}  # the referee's settings are taken out, the game's stay
    assert parse({}) is None and parse({"clock": "off"}) is None
    for bad in ({"clock": "30s"}, {"clock": "40d"}, {"clock": "1h", "clock_expiry": "nap"},
                {"clock": "1h", "clock_remind": "2x"}, {"clock": "1h", "vacation": 99}, {"vacation": 2}):
        refused = parse(dict(bad))
        assert isinstance(refused, Rejection) and refused.code == Code.BAD_OPTIONS, bad


async def _messages(store, kind):
    return [m for m in await pending_messages(store, limit=1000) if m.kind == kind]


async def test_reminders_are_enqueued_once_each_and_the_deadline_forfeits(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "48h"})
    state = await store.state(tid)
    late = state["turn"]
    clock.t += 23 * HOUR
    await referee.tick()
    assert await _messages(store, "reminder") == []
    clock.t += 2 * HOUR                       # 24 h before the deadline has passed
    await referee.tick()
    await referee.tick()                      # a second look sends nothing twice
    sent = await _messages(store, "reminder")
    assert [(m.seat, m.payload["left"]) for m in sent] == [(late, 86400)]
    assert sent[0].payload["deadline"] == pytest.approx(1_700_000_000 + 48 * HOUR)
    clock.t += 22.5 * HOUR
    await referee.tick()
    assert [m.payload["left"] for m in await _messages(store, "reminder")] == [86400, 3600]
    clock.t += HOUR
    await referee.tick()
    table = await store.get_table(tid)
    assert table.status == "finished"
    assert table.outcome["reason"] == "clock.outcome.forfeit" and table.outcome["winners"] == [1 - late]
    assert (await verify_table(store, tid)).ok  # the forfeit is a step of the record, re-run by verify


async def test_a_move_restarts_the_clock_of_the_next_seat(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "2h", "clock_remind": "off"})
    clock.t += 1.5 * HOUR
    assert isinstance(await play_one(referee, store, tid), Accepted)
    clocks = await Clocks(store).seat_clocks(tid)
    turn = (await store.state(tid))["turn"]
    assert clocks[turn].since == pytest.approx(clock.t) and clocks[1 - turn].since is None
    clock.t += 1.5 * HOUR                     # 3 h since the start, 1.5 h of this decision
    await referee.tick()
    assert (await store.get_table(tid)).status == "active"


async def test_moderator_expiry_waits_and_zombie_hands_the_seat_to_a_bot(env):
    store, referee, clock = env
    waits = await new_toy(referee, options={"clock": "1h", "clock_expiry": "moderator"})
    zombie = await new_toy(referee, players=("carol", "dave"), options={"clock": "1h", "clock_expiry": "zombie"})
    clock.t += 2 * HOUR
    await referee.tick()
    await referee.tick()
    assert (await store.get_table(waits)).status == "active"
    notices = [m for m in await _messages(store, "clock") if m.table_id == waits]
    assert [m.payload["what"] for m in notices] == ["expired"]       # told once, and logged
    assert (await store.get_table(zombie)).version > 0               # the bot moved at once
    assert sum(s.is_bot for s in await store.seats(zombie)) == 1
    rows = await store._all("SELECT action FROM moderation WHERE action LIKE 'clock_%' ORDER BY id")
    assert [r["action"] for r in rows] == ["clock_expired", "clock_zombie"]


async def test_vacation_stops_the_clock_within_the_allowance(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "1d", "vacation": 2, "clock_remind": "off"})
    seats = await store.seats(tid)
    turn = (await store.state(tid))["turn"]
    user = seats[turn].user_id
    assert (await referee.timekeeper.vacation(tid, user, 3)).key == "clock.reject.vacation_left"
    until = await referee.timekeeper.vacation(tid, user, 1.5)
    assert until == pytest.approx(clock.t + 1.5 * 86400)
    assert (await referee.timekeeper.vacation(tid, user, 0.5)).key == "clock.reject.away"
    clock.t += 2.4 * 86400                    # a day's clock plus a day and a half away
    await referee.tick()
    assert (await store.get_table(tid)).status == "active"
    clock.t += 0.2 * 86400
    await referee.tick()
    assert (await store.get_table(tid)).status == "finished"
    untimed = await new_toy(referee)
    assert (await referee.timekeeper.vacation(untimed, "u:alice", 1)).key == "clock.reject.untimed"


async def test_pause_refuses_every_action_and_resume_moves_every_deadline(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"turn_seconds": 600, "clock": "1h", "clock_remind": "off"})
    assert (await moderation.pause(referee, tid, moderator="cli:mod", reason=" ")).key == "clock.reject.no_reason"
    assert await moderation.pause(referee, tid, moderator="cli:mod", reason="a ruling is checked") is True
    assert (await moderation.pause(referee, tid, moderator="cli:mod", reason="x")).key == "clock.reject.already_paused"
    refused = await play_one(referee, store, tid)
    assert refused.key == "clock.reject.paused"
    assert refused.params["who"] == "mod" and refused.params["reason"] == "a ruling is checked"
    clock.t += 5 * HOUR                       # far past both deadlines: nothing runs out while paused
    await referee.tick()
    assert (await store.get_table(tid)).version == 0
    assert await moderation.resume(referee, tid, moderator="cli:mod") is True
    assert (await moderation.resume(referee, tid, moderator="cli:mod")).key == "clock.reject.not_paused"
    table = await store.get_table(tid)
    assert table.paused_total == 5 * HOUR and table.next_deadline == pytest.approx(1_700_000_000 + 600 + 5 * HOUR)
    clock.t += 500                            # the engine's 10 minutes run from the resume, less the 0 used
    await referee.tick()
    assert (await store.get_table(tid)).version == 0
    clock.t += 200
    await referee.tick()
    assert (await store.get_table(tid)).version == 1  # the engine's own timeout, on the table's clock
    assert isinstance(await play_one(referee, store, tid), Accepted)
    assert [m.payload["what"] for m in await _messages(store, "clock")] == ["paused", "resumed"]
    rows = await store._all("SELECT action, reason FROM moderation WHERE action IN ('pause', 'resume') ORDER BY id")
    assert [(r["action"], r["reason"]) for r in rows] == [("pause", "a ruling is checked"), ("resume", None)]
    assert (await verify_table(store, tid, moderator=True)).ok


async def test_clocks_survive_a_restart(tmp_path, env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"clock": "2h", "clock_remind": "1h"})
    path = (await store._one("PRAGMA database_list"))["file"]
    other = await Store.open(path)
    try:
        again = Referee(other, clock=clock)
        clock.t += 1.2 * HOUR
        await again.tick()
        assert len(await _messages(other, "reminder")) == 1
        clock.t += HOUR
        await again.tick()
        assert (await other.get_table(tid)).status == "finished"
    finally:
        await other.close()


async def test_a_tournaments_tables_get_its_clock_and_a_forfeit_on_time_scores_as_a_loss(env):
    from tests.support.events import new_event
    store, referee, clock = env
    refused = await Director(referee).create("toy", "swiss", creator="u:org", options={"clock": "1s"})
    assert isinstance(refused, Rejection) and refused.key == "clock.reject.bad_setting"
    director, tid = await new_event(referee, 2, options={"clock": "2h", "clock_remind": "off"}, bots=False)
    await director.start(tid, by="u:org")
    (game,) = await director.record.games(tid, 1)
    table = await store.get_table(game.table_id)
    assert table.time_control["move"] == 2 * HOUR and "clock" not in table.options
    late = (await store.state(table.id))["turn"]
    clock.t += 3 * HOUR
    await referee.tick()
    assert (await store.get_table(table.id)).status == "finished"
    await director.sync(tid)
    (game,) = await director.record.games(tid, 1)
    assert game.points == {p: (0 if i == late else 1) for i, p in enumerate(game.players)}


def test_the_standings_picture_is_small_cached_and_lists_the_leaders_first():
    from io import BytesIO

    from PIL import Image

    from bot.engine.canvas import SCALE
    from bot.render.picture.standings import MOST_ROWS, standings_png
    rows = [{"rank": i + 1, "name": f"Игрок {i}", "status": "active" if i % 7 else "dropped", "points": 7 - i / 40,
             "wins": 7, "draws": 0, "losses": 0, "buchholz_cut1": 30.5, "buchholz": 33, "sonneborn_berger": 20.25,
             "user_id": f"u:{i}"} for i in range(256)]
    data = standings_png(rows, "swiss", "ru", "Кубок · идёт")
    assert data.startswith(b"\x89PNG") and len(data) <= 300_000
    assert standings_png(list(rows), "swiss", "ru", "Кубок · идёт") is data   # the same rows: drawn once
    tall = Image.open(BytesIO(data)).height
    short = Image.open(BytesIO(standings_png(rows[:3], "swiss", "ru", "Кубок"))).height
    assert short < tall < (120 + 26 * (MOST_ROWS + 3)) * SCALE  # 256 players: the top 64, a line for the rest


async def test_a_pause_by_the_referee_itself_is_named_in_the_readers_language(env):
    """A refusal is worded once for every reader: the referee, whose name differs by language, is not put
    into it in English (a Russian refusal once read "модератором (the referee)")."""
    store, referee, _ = env
    tid = await new_toy(referee)
    assert await moderation.pause(referee, tid, moderator="system", reason="a release is checked") is True
    refused = await play_one(referee, store, tid)
    assert refused.key == "clock.reject.paused_by_referee" and "who" not in refused.params
    assert "бот-судьёй" in refused.message("ru") and "ботом-суддею" in refused.message("uk")
    assert not any("the referee" in refused.message(locale) for locale in ("ru", "uk"))
    assert "the referee" in refused.message("en")
