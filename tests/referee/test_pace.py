"""Issue 27: a table's pace.  A correspondence table never sets a deadline under one hour nor under its clock, its
out-of-turn windows still close by themselves; a live table keeps the rule books' seconds; a refused value says
why in every language; deadlines read absolute and relative."""
from __future__ import annotations

import random

import pytest

from bot.engine import Code, Reject, Rejection, get_game
from bot.engine.pace import SHORTEST
from bot.referee.service import Accepted
from bot.referee.timecontrol import with_deadlines
from bot.render.deadlines import deadline, relative
from bot.storage.clocks import Clocks
from bot.i18n import LOCALES

from tests.games.claygod.helpers import START

HOUR = 3600
FIVE = ("claygod", "gwent", "bloodwood", "bridges", "raiders")


# ---------------------------------------------------------------------------------------------- options
@pytest.mark.parametrize("name", FIVE)
def test_every_game_has_a_pace_and_its_correspondence_defaults_set_no_deadline_under_an_hour(name):
    game = get_game(name)
    live, post = game.validate_options({}), game.validate_options({"pace": "correspondence"})
    assert live["pace"] == "live" and post["pace"] == "correspondence"
    for option in game.options:
        if option.name.endswith("_seconds"):
            assert post[option.name] == 0 or post[option.name] >= SHORTEST, option.name
    with pytest.raises(Reject) as bad:
        game.validate_options({"pace": "slow"})
    assert "live, correspondence" in bad.value.rejection.message("en")


def test_a_live_table_keeps_the_options_it_had():
    assert {k: v for k, v in get_game("claygod").validate_options({}).items() if k in ("turn_clock", "clock_mode")} \
        == {"turn_clock": "live", "clock_mode": "live"}
    assert get_game("bloodwood").validate_options({})["counter_seconds"] == 120
    assert get_game("raiders").validate_options({})["window_seconds"] == 0


@pytest.mark.parametrize("name,options,clock,reason", [
    ("claygod", {"turn_clock": "live"}, None, "live_only"),
    ("claygod", {"clock_mode": "live"}, None, "live_only"),
    ("claygod", {"turn_clock": "async"}, 48 * HOUR, "under_clock"),
    ("bloodwood", {"counter_seconds": 120}, None, "short"),
    ("bloodwood", {"counter_seconds": 0}, None, "never"),
    ("bloodwood", {"turn_seconds": 2 * HOUR}, 24 * HOUR, "under_clock"),
    ("raiders", {"window_seconds": 0}, None, "never"),
    ("raiders", {"window_seconds": 60}, None, "short"),
    ("gwent", {"turn_seconds": 60}, None, "short"),
    ("bridges", {"phase_seconds": HOUR}, 2 * HOUR, "under_clock"),
])
def test_a_real_time_value_at_a_correspondence_table_is_refused_saying_why(name, options, clock, reason):
    with pytest.raises(Reject) as refused:
        get_game(name).validate_options({"pace": "correspondence", **options}, clock=clock)
    rejection = refused.value.rejection
    assert rejection.code == Code.BAD_OPTIONS and rejection.key == f"core.reject.pace.{reason}"
    for locale in LOCALES:
        text = rejection.message(locale)
        assert "{" not in text and f"{next(iter(options))}=" in text, text
    get_game(name).validate_options({"pace": "live", **options}, clock=clock)  # live: the same value stands


def test_correspondence_values_that_are_slow_enough_stand():
    raiders = get_game("raiders").validate_options({"pace": "correspondence", "window_seconds": 3 * HOUR})
    assert raiders["window_seconds"] == 3 * HOUR
    gwent = get_game("gwent").validate_options({"pace": "correspondence", "turn_seconds": 48 * HOUR},
                                               clock=24 * HOUR)
    assert gwent["turn_seconds"] == 48 * HOUR
    claygod = get_game("claygod").validate_options({"pace": "correspondence"}, clock=48 * HOUR)
    assert claygod["turn_clock"] == "off" and claygod["clock_mode"] == "turns"


# ---------------------------------------------------------------------------------------------- Clay God's rules
def test_a_live_table_keeps_the_books_ten_seconds_and_five_minutes_and_correspondence_does_not():
    from tests.games.claygod.helpers import cast

    for pace, turn_limit in (("live", 10), ("correspondence", 24 * HOUR)):
        _, after, _ = cast("ring_of_air", pace=pace)  # a timed spell: rule 8 applies (CG-26, CG-36)
        (pending,) = get_game("claygod").to_act(after)
        assert pending.deadline == after["turn"]["since"] + turn_limit, pace
    _, live, _ = cast("clock", stats=[{"health": 20}, {}], pace="live")
    _, post, _ = cast("clock", stats=[{"health": 20}, {}], pace="correspondence")
    clock_live, clock_post = (next(e for e in s["players"][0]["effects"] if e["kind"] == "clock") for s in (live, post))
    assert clock_live["deadline"] == START + 300 and clock_live["turns_left"] is None  # five minutes (CG-25)
    assert clock_post.get("deadline") is None and clock_post["turns_left"] == 15


# ---------------------------------------------------------------------------------------------- through the referee
async def _seated(referee, name: str, seats: int, options: dict) -> int:
    table = await referee.create_table(name, creator="u:0", creator_name="P0", options=options, origin="terminal")
    assert not isinstance(table, Rejection), table
    for seat in range(1, seats):
        assert await referee.join(table.id, f"u:{seat}", f"P{seat}") == seat
    assert isinstance(await referee.start(table.id, "u:0", seed="pace"), Accepted)
    return table.id


async def _shortest_deadlines(env, name: str, seats: int, options: dict, moves: int) -> list[float]:
    """Every deadline a player was shown (seconds from the moment), over ``moves`` decisions of bots' choices."""
    store, referee, clock = env
    tid = await _seated(referee, name, seats, options)
    game, rng, seen = get_game(name), random.Random(7), []
    for _ in range(moves):
        table, state = await store.get_table(tid), await store.state(tid)
        if table.status != "active":
            break
        shown = await with_deadlines(Clocks(store), table, game.view(state, None))
        seen += [p["deadline"] - clock.t for p in shown["to_act"] if p.get("deadline")]
        seat = game.to_act(state)[0].seat
        done = await referee.act(tid, f"u:{seat}", game.bot_action(state, seat, rng), seat=seat)
        assert isinstance(done, Accepted), done
        clock.t += 5
    return seen


async def test_a_correspondence_clay_god_table_sets_no_deadline_under_an_hour(env):
    seen = await _shortest_deadlines(env, "claygod", 2, {"pace": "correspondence"}, 80)
    assert seen and min(seen) >= 23 * HOUR  # rule 8 by post: a day a turn (CG-36), never ten seconds


async def test_a_correspondence_table_with_a_clock_is_never_cut_below_it(env):
    seen = await _shortest_deadlines(env, "claygod", 2, {"pace": "correspondence", "clock": "48h"}, 80)
    assert seen and min(seen) >= 48 * HOUR - 80 * 5  # the clock from each decision's start, nothing shorter


async def test_a_live_clay_god_table_still_gives_ten_seconds(env):
    seen = await _shortest_deadlines(env, "claygod", 2, {}, 80)
    assert seen and min(seen) <= 10  # the book's rule 8 (CG-26) at the same table, same bots


async def _until_reaction(referee, store, game, tid: int, rng, clock, limit: int = 600):
    """Bots' choices until an out-of-turn answer is asked; its pending decisions."""
    for _ in range(limit):
        state = await store.state(tid)
        asked = [p for p in game.to_act(state) if p.deadline is not None]
        if asked:
            return state, asked
        seat = game.to_act(state)[0].seat
        assert isinstance(await referee.act(tid, f"u:{seat}", game.bot_action(state, seat, rng), seat=seat),
                          Accepted)
        clock.t += 1
    raise AssertionError("no window opened")


@pytest.mark.parametrize("name,seats,length", [("raiders", 2, 2 * HOUR), ("bloodwood", 5, 6 * HOUR)])
async def test_a_correspondence_window_closes_by_itself_after_its_time(env, name, seats, length):
    store, referee, clock = env
    game = get_game(name)
    tid = await _seated(referee, name, seats, {"pace": "correspondence"})
    state, asked = await _until_reaction(referee, store, game, tid, random.Random(3), clock)
    opened = {p.deadline for p in asked}
    assert len(opened) == 1 and opened.pop() - clock.t > length - 600  # its correspondence length, ≥ an hour
    version = state["version"]
    clock.t += length - 700
    assert await referee.tick() == []  # not before its time
    clock.t += 701
    while await referee.tick():  # one silent seat after another passes (the referee's timeouts)
        pass
    after = await store.state(tid)
    assert after["version"] > version
    assert not any(p.deadline is not None and p.deadline <= clock.t for p in game.to_act(after))
    system = [a for a in await store.actions(tid) if a.user_id == "system"]
    assert system and all(a.action == {"type": "timeout"} for a in system)


# ---------------------------------------------------------------------------------------------- deadlines as text
NOON = 1795874400.0  # 2026-11-28 14:00 UTC


@pytest.mark.parametrize("locale,text", [
    ("ru", "28 ноября, 14:00 UTC (через 2 дня)"),
    ("uk", "28 листопада, 14:00 UTC (за 2 дні)"),
    ("en", "28 November, 14:00 UTC (in 2 days)"),
])
def test_a_deadline_reads_absolute_and_relative_in_every_language(locale, text):
    assert deadline(NOON, locale, "terminal", now=NOON - 2 * 86400) == text


def test_relative_times_take_the_right_unit_and_plural():
    assert relative(NOON + 10, NOON, "ru") == "через 10 секунд"
    assert relative(NOON + 3 * HOUR, NOON, "ru") == "через 3 часа"
    assert relative(NOON + 21 * 60, NOON, "uk") == "за 21 хвилину"
    assert relative(NOON - HOUR, NOON, "en") == "1 hour ago"
    assert relative(NOON, NOON, "uk") == "зараз"


def test_discord_shows_the_date_then_how_far_off_in_each_readers_own_time():
    from bot.discord.panels import control_text, live_text
    from bot.storage.store import SeatRow, TableRow
    from tests.support.toy import TOY

    at = int(NOON)
    view = {**TOY.view(TOY.initial_state(2, seed="s").state, None),
            "to_act": [{"seat": 0, "kind": "turn", "deadline": at, "prompt": None}]}
    table = TableRow(id=7, game="toy", status="active", options={"pace": "correspondence"}, seed=None, seed_hash="h",
                     stack=None, version=3, next_deadline=at, origin="discord", creator="discord:1", title=None,
                     locale="ru", guild_id="1", channel_id="2", thread_id="3", outcome=None, created_at=0.0,
                     started_at=0.0, finished_at=None)
    seats = [SeatRow(0, "discord:1", "Аня", False), SeatRow(1, "discord:2", "Борис", False)]
    live = live_text(TOY, table, seats, view, [], "ru")
    assert f"⏰ Решить до <t:{at}:f> (<t:{at}:R>)" in live and "✉️ по переписке" in live.splitlines()[0]
    control = control_text(TOY, table, seats, 0, view, [], "en", link=None, asked=view["to_act"][0], waiting_for=[])
    assert f"⏰ by <t:{at}:f> (<t:{at}:R>)" in control
