"""An event as a player sees it: each standings row's results round by round (the result linking the table,
the opponent's place linking their page), and on a player's page, per event they are in, their games (round,
opponents, table, result, points) and their score."""
from __future__ import annotations

import re
from urllib.parse import quote

from aiohttp.test_utils import TestClient, TestServer

from bot.storage.tournaments import GameRow, Tournaments
from bot.web import pages
from bot.web.app import Site
from bot.web.pages import Page
from bot.web.sample import bot_tournament


def _row(html: str, name: str) -> str:
    return next(r for r in re.findall(r"<tr>.*?</tr>", html, re.DOTALL) if f"<bdi>{name}</bdi>" in r)


async def test_standings_rows_and_player_pages_show_the_event_round_by_round(env):
    store, referee, _ = env
    tour = await bot_tournament(referee, "toy", "round_robin", 3, names=["Аня", "Борис", "Віра"])
    games = [g for g in await Tournaments(store).games(tour) if g.kind == "table"]
    assert len(games) == 3
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        html = await (await c.get(f"/tournament/{tour}")).text()
        assert "<th>By round</th>" in html and "+ won, = drawn, − lost" in html
        first = await (await c.get(f"/player/{quote(f'bot:t{tour}:1', safe='')}")).text()
    names = {f"bot:t{tour}:{i}": n for i, n in enumerate(["Аня", "Борис", "Віра"], start=1)}
    decided = 0
    for g in games:
        players, points = g.players, g.points
        winner = max(players, key=lambda p: points[p])
        loser = next(p for p in players if p != winner)
        if points[winner] == points[loser]:
            continue
        won, lost = _row(html, names[winner]), _row(html, names[loser])
        # the winner's cell for that round: "+" linking the table, then the loser's place linking their page
        cells = re.findall(r'<span class="rr">(.*?)</span>', won)
        assert re.fullmatch(rf'<a href="/table/{g.table_id}">\+</a> '
                            rf'<a href="/player/{quote(loser, safe="")}" title="{names[loser]}">#\d</a>',
                            cells[g.round - 1]), cells
        assert re.search(rf'<a href="/table/{g.table_id}">−</a>', lost)
        decided += 1
    assert decided, "every game a draw: the marks would be unchecked"
    # the player's page: three rounds (two games and a scheduled rest), the score of the settled ones
    block = re.search(r'<table class="event-games".*?</table>', first, re.DOTALL).group()
    assert block.count("<tr>") == 3 and "scheduled rest" in block
    mine = [g for g in games if f"bot:t{tour}:1" in g.players]
    score = sum(g.points[f"bot:t{tour}:1"] for g in mine)
    assert f"points: {score:g}" in first
    for g in mine:
        assert f'href="/table/{g.table_id}"' in block


def test_a_games_mark():
    page = Page("en")
    two = GameRow(1, 1, "table", ["a", "b"], 7, {"a": 1.0, "b": 0.0}, None)
    assert (pages._mark(page, two, "a"), pages._mark(page, two, "b")) == ("+", "−")
    drawn = GameRow(1, 1, "table", ["a", "b"], 7, {"a": 0.5, "b": 0.5}, "draw")
    assert pages._mark(page, drawn, "a") == "="
    assert pages._mark(page, GameRow(1, 1, "table", ["a", "b"], 7, None, None), "a") == "…"
    three = GameRow(1, 1, "table", ["a", "b", "c"], 7, {"a": 3.0, "b": 1.0, "c": 0.0}, None)
    assert pages._mark(page, three, "b") == "1"
    assert pages._mark(page, GameRow(2, 1, "bye", ["a"], None, {"a": 1.0}, None), "a") == "bye"
