"""The whole bracket in a real browser (the Chromium of tests/web/test_browser.py, offline), at a phone's width
(390 px) and a desktop's: a double elimination of eight drawn before its first round and a single elimination
in play; the page never scrolls sideways (a tree scrolls in its own box), each tree is drawn apart, every match
sits level with the middle of the two that feed it, and the lines between them are drawn."""
from __future__ import annotations

import asyncio

import pytest

from tests.support.browser import WIDTHS, fits, open_page, require_browser, serving, shoot

NAMES = ["Аня", "Борис", "Віра", "Glen", "Дана", "Егор", "Жанна", "Зоя"]


async def _build(path) -> dict[str, int]:
    from bot.referee.service import Referee
    from bot.storage.store import Store
    from bot.tournament.director import Director
    from bot.web.sample import bot_tournament

    store = await Store.open(path)
    try:
        referee = Referee(store)
        director = Director(referee)
        made = await director.create("claygod", "double_elimination", creator="cli:org", title="Double", origin="demo")
        for i, name in enumerate(NAMES):
            await director.join(made.id, f"bot:d{i}", name, is_bot=True)
        cup = await bot_tournament(referee, "claygod", "elimination", 5, title="Cup", names=NAMES,
                                   settings={"third_place": True}, rounds_to_play=1)
        return {"double": made.id, "single": cup}
    finally:
        await store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    require_browser()
    path = tmp_path_factory.mktemp("brackets") / "web.db"
    world = asyncio.run(_build(path))
    with serving(path) as base:
        yield base, world


#: per join between two columns: (the two feeders' middles, the fed match's middle) in page pixels, and the
#: joining line's drawn width
_GEOMETRY = """
const out = [];
for (const tree of document.querySelectorAll('.bracket .tree')) {
  const cols = [...tree.querySelectorAll('.col')];
  cols.forEach((col, c) => {
    if (!col.classList.contains('join')) return;
    const next = [...cols[c + 1].querySelectorAll('.match')];
    [...col.querySelectorAll('.pair')].forEach((pair, i) => {
      const [a, b] = [...pair.querySelectorAll('.match')].map(m => m.getBoundingClientRect());
      const fed = next[i].getBoundingClientRect();
      const line = getComputedStyle(pair, '::after');
      out.push([(a.top + a.bottom + b.top + b.bottom) / 4, (fed.top + fed.bottom) / 2, line.borderRightWidth,
                line.borderRightStyle, getComputedStyle(next[i], '::before').borderTopWidth]);
    });
  });
}
return out;
"""


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_the_whole_bracket_in_a_browser(server, browser, shots, form):  # noqa: F811 - the fixtures imported above
    from selenium.webdriver.common.by import By

    base, world = server
    width = WIDTHS[form]
    d = open_page(browser, base + f"/tournament/{world['double']}", width)
    titles = [h.text for h in d.find_elements(By.CSS_SELECTOR, ".bracket .tree > h3")]
    assert titles == ["Upper bracket", "Lower bracket", "Grand final"]
    assert len(d.find_elements(By.CSS_SELECTOR, ".bracket .match")) == 4 + 2 + 1 + 2 + 2 + 1 + 1 + 1 + 1
    joins = d.execute_script(_GEOMETRY)
    assert len(joins) == 2 + 1 + 1  # upper 4→2 (two pairs) and 2→1, lower 2→1
    for feeders, fed, line, style, stub in joins:
        assert abs(feeders - fed) <= 2, (feeders, fed)
        assert line == "2px" and style == "solid" and stub == "2px"
    lower = d.find_elements(By.CSS_SELECTOR, ".bracket .tree-L .scroll")[0]
    if form == "phone":  # the tree scrolls in its own box, the page does not
        assert d.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", lower)
    fits(d, width)
    shoot(d, shots, "bracket-double", width)

    d = open_page(browser, base + f"/tournament/{world['single']}", width)
    titles = [h.text for h in d.find_elements(By.CSS_SELECTOR, ".bracket .tree > h3")]
    assert titles == ["Bracket", "Match for third place"]
    assert d.find_elements(By.CSS_SELECTOR, ".bracket .slot.bye")
    assert d.find_elements(By.CSS_SELECTOR, ".bracket .match-head a[href*='/table/']")
    waiting = d.find_elements(By.CSS_SELECTOR, ".bracket .slot.winner a[href^='#match-']")
    assert waiting  # a place not reached yet links the match it waits on
    fits(d, width)
    shoot(d, shots, "bracket-single", width)
