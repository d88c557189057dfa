"""Tournaments seed by rating: the rated by their figure, the unrated by lot (said in the pairing post); Swiss
round 1 pairs the top half against the bottom half; the standings show the rating at the start; an organiser
can switch rating off."""
from __future__ import annotations

from bot.engine import Rejection
from bot.ratings.ratings import Ratings
from bot.ratings.seeding import first_swiss_round, seeding_line
from bot.render.standings import standings_text
from bot.tournament.director import Director
from tests.ratings.records import add_table, finish

PLAYERS = [f"u:p{i}" for i in range(5)]


async def rate_some(store):
    """p3 beat p1 twice, p2 beat p4, p1 beat p4 (terminal tables); p0 never played."""
    def write(c):
        for at, (a, b) in enumerate([("u:p3", "u:p1"), ("u:p3", "u:p1"), ("u:p2", "u:p4"), ("u:p1", "u:p4")]):
            finish(c, add_table(c, "claygod", [a, b]), [0], 100.0 + at)
    await store._write_in_thread(write)


async def event(referee, settings=None):
    director = Director(referee)
    tour = await director.create("claygod", "swiss", creator="u:org", settings=settings, origin="terminal",
                                 locale="en")
    assert not isinstance(tour, Rejection), tour
    for i, p in enumerate(PLAYERS):
        assert await director.join(tour.id, p, f"P{i}") == i + 1
    assert not isinstance(await director.start(tour.id, by="u:org"), Rejection)
    return director, await director.record.get(tour.id)


def test_first_swiss_round_is_top_half_against_bottom_half():
    assert first_swiss_round(list("abcdef")) == ([("a", "d"), ("b", "e"), ("c", "f")], None)
    assert first_swiss_round(list("abcde")) == ([("a", "c"), ("b", "d")], "e")


async def test_swiss_seeds_and_pairs_round_one_by_rating(env):
    store, referee, _ = env
    await rate_some(store)
    now = await Ratings(store).current("", "claygod", PLAYERS)
    assert set(now) == {"u:p1", "u:p2", "u:p3", "u:p4"}
    by_rating = sorted(now, key=lambda p: -now[p][0])
    director, tour = await event(referee)
    assert tour.settings["order"] == by_rating + ["u:p0"]
    assert tour.settings["seeded"] == {"ratings": {p: now[p][0] for p in now}, "by_lot": ["u:p0"], "rated": True}
    games = await director.record.games(tour.id, 1)
    pairs = [tuple(sorted(g.players)) for g in games if g.kind == "table"]
    assert pairs == [tuple(sorted((by_rating[0], by_rating[2]))), tuple(sorted((by_rating[1], by_rating[3])))]
    assert [g.players for g in games if g.kind == "bye"] == [["u:p0"]]
    line = seeding_line(tour.settings, {p: f"P{p[-1]}" for p in PLAYERS}, "en")
    assert line == "Seeded by rating; by lot for the unrated: P0."
    rows = [r.as_dict() for r in await director.standings(tour.id)]
    assert {r["user_id"]: r["rating"] for r in rows} == {**{p: now[p][0] for p in now}, "u:p0": None}
    text = standings_text(rows, "swiss", "en")
    assert "Rtg" in text.split("\n")[0] and str(now["u:p3"][0]) in text


async def test_an_organiser_switches_rating_off(env):
    store, referee, _ = env
    await rate_some(store)
    director, tour = await event(referee, {"rated": False})
    assert tour.settings["seeded"]["rated"] is False and tour.settings["seeded"]["ratings"] == {}
    assert seeding_line(tour.settings, {}, "ru") == "Рейтинг в этом турнире выключен: посев жребием."
    assert sorted(tour.settings["order"]) == PLAYERS
    refused = await Director(referee).create("claygod", "swiss", creator="u:org", settings={"rated": "maybe"},
                                             origin="terminal")
    assert isinstance(refused, Rejection) and refused.key == "tournament.reject.choice"
