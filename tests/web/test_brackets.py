"""The tournament page's whole bracket (issue 38, item 1): single and double elimination with 2, 3, 5 and 8
players, before the draw, with round 1 paired and played out: every round drawn from the start with empty slots
saying where their player comes from, the upper bracket, lower bracket and grand final as separate trees, byes
labelled (never a bare "1"), the lines' classes in place; and the standings' words (a lot number, not a hash;
no round counted that nobody played)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from bot.tournament.director import Director
from bot.web import pages, public
from bot.web.pages import Page
from bot.web.sample import bot_tournament

#: (players) -> (the upper bracket's columns, the lower's, the grand final's with its reset)
DOUBLE = {2: (1, 0, 2), 3: (2, 2, 2), 5: (3, 4, 2), 8: (3, 4, 2)}
SINGLE = {2: 1, 3: 2, 5: 3, 8: 3}


async def _page(store, tid: int, lang: str = "en") -> str:
    data = await public.load_tournament(store, tid)
    return unescape(pages.tournament_page(Page(lang), data))


async def _registered(referee, fmt: str, players: int, settings=None) -> int:
    director = Director(referee)
    made = await director.create("toy", fmt, creator="cli:org", settings=dict(settings or {}), origin="demo")
    for i in range(players):
        await director.join(made.id, f"bot:b{i}", f"Bot {i + 1}", is_bot=True)
    return made.id


def _trees(html: str) -> list[tuple[str, int]]:
    """(tree kind, its columns) in the page's order."""
    out = []
    for kind, body in re.findall(r'<div class="tree tree-(\w)">(.*?)</div></div>\n</div>', html, re.DOTALL):
        out.append((kind, len(re.findall(r'<h4 class="round">', body))))
    return out


def _bracket(html: str) -> str:
    return html[html.index('<div class="bracket">'):html.index("</section>", html.index('<div class="bracket">'))]


@pytest.mark.parametrize("players", sorted(SINGLE))
@pytest.mark.parametrize("fmt", ["elimination", "double_elimination"])
async def test_the_whole_bracket_is_drawn_before_the_draw(env, fmt, players):
    store, referee, _ = env
    tid = await _registered(referee, fmt, players, {"third_place": fmt == "elimination"})
    html = _bracket(await _page(store, tid))
    size = 1 << (players - 1).bit_length()
    if fmt == "elimination":
        expected = [("W", SINGLE[players])] + ([("3", 1)] if players > 2 else [])
        assert "Upper bracket" not in html
    else:
        w, lower, final = DOUBLE[players]
        expected = [("W", w)] + ([("L", lower)] if lower else []) + [("F", final)]
        for title in ("Upper bracket", "Grand final") + (("Lower bracket",) if lower else ()):
            assert f"<h3>{title}</h3>" in html
        assert "second final: if the lower bracket's champion wins" in html
    assert _trees(html) == expected
    assert sorted(int(n) for n in re.findall(r"seed (\d+)", html)) == list(range(1, players + 1))
    assert html.count('class="slot bye"') >= size - players
    if size > 2:
        assert "winner of match 1" in html and 'href="#match-1"' in html
        assert 'class="col join' in html and 'fed"' in html


@pytest.mark.parametrize("players", [3, 5, 8])
@pytest.mark.parametrize("fmt", ["elimination", "double_elimination"])
async def test_round_one_paired_and_the_event_played_out(env, fmt, players):
    store, referee, _ = env
    running = await bot_tournament(referee, "toy", fmt, players, rounds_to_play=1)
    html = _bracket(await _page(store, running))
    size = 1 << (players - 1).bit_length()
    # round 1's players by name; a bye says so, and its player shows no score (the bye's point is not a result)
    for bye in re.findall(r'<div class="match" id="match-\d+">(?:(?!<div class="match").)*?class="slot bye".*?</div>\n',
                          html, re.DOTALL):
        assert "<span>bye</span>" in bye or bye.count("<span>—</span>") == 2  # a match nobody reaches: two dashes
        assert not re.search(r'<span class="pts">[^<]+</span>', bye)
    assert html.count("<span>bye</span>") >= size - players
    w, lower, final = DOUBLE[players]  # every round there while the event runs
    assert _trees(html) == ([("W", w), ("L", lower), ("F", final)] if fmt == "double_elimination"
                            else [("W", SINGLE[players])])
    assert "seed " not in html
    finished = await bot_tournament(referee, "toy", fmt, players)
    html = await _page(store, finished)
    tour = await Director(referee).record.get(finished)
    assert f"{tour.round} rounds played" in html and " of " not in html.split("</p>")[0]
    bracket = _bracket(html)
    assert "winner of match" not in bracket and "loser of match" not in bracket
    assert 'class="slot player advances"' in bracket
    standings = await Director(referee).standings(finished)
    assert max(s.survived for s in standings) <= tour.round  # no round nobody played


async def test_the_lot_is_shown_as_a_place_in_the_drawn_order(env):
    store, referee, _ = env
    tid = await bot_tournament(referee, "toy", "swiss", 4, rounds_to_play=1)
    html = await _page(store, tid)
    head = re.search(r'<table class="standings">\s*<thead><tr>(.*?)</tr>', html, re.DOTALL).group(1)
    assert re.search(r"<th>Lot no\.</th>(<th>By round</th>)?$", head)  # the last column but the results by round
    body = html.split('<table class="standings">')[1].split("<tbody>")[1].split("</tbody>")[0]
    lots = [re.findall(r"<td>([^<]*)</td>", row)[-1] for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL)]
    assert sorted(lots) == ["1", "2", "3", "4"]
    assert "drawn order" in html
    ru = await _page(store, tid, "ru")
    assert "<th>№ жребия</th>" in ru


async def test_a_first_stage_shows_the_knockout_it_leads_to_before_it_exists(env):
    store, referee, _ = env
    tid = await _registered(referee, "swiss", 6, {"stage2": "double_elimination", "advance": 4, "rounds": 2})
    html = await _page(store, tid)
    assert "Upper bracket" in html and "Lower bracket" in html and "Grand final" in html
    assert sorted(int(n) for n in re.findall(r"seed (\d+)", html)) == [1, 2, 3, 4]
