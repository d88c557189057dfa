"""The paged index in a real browser (the Chromium and Selenium of tests/web/test_browser.py, skipped as it is
when the browser is missing): at a phone's width and a desktop's the page links fit without sideways scrolling,
and following "Older" and "Newer" walks the pages with no table shown twice."""
from __future__ import annotations

import asyncio

import pytest

from bot.referee.service import Referee
from bot.storage.store import Store
from bot.web.public import TABLES_PER_PAGE
from tests.support.browser import WIDTHS, fits, open_page, require_browser, serving, shoot

PAGES = 3


async def _build(path) -> list[int]:
    """Tables just dealt, enough for ``PAGES`` pages (the last one holds a single table)."""
    store = await Store.open(path)
    try:
        referee, ids = Referee(store), []
        for _ in range(TABLES_PER_PAGE * (PAGES - 1) + 1):
            table = await referee.create_table("claygod", creator="cli:pages", creator_name="pages", origin="demo",
                                               join=False)
            for name in ("Аня", "Борис"):
                await referee.add_bot(table.id, name=name)
            await referee.start(table.id, "cli:pages")
            ids.append(table.id)
        return ids
    finally:
        await store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    require_browser()
    path = tmp_path_factory.mktemp("pages") / "pages.db"
    ids = asyncio.run(_build(path))
    with serving(path) as base:
        yield base, ids


def _tables(d) -> list[int]:
    from selenium.webdriver.common.by import By

    return [int(a.get_attribute("href").rsplit("/", 1)[1])
            for a in d.find_elements(By.CSS_SELECTOR, "main ul.cards a[href*='/table/']")]


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_the_paged_index_in_a_browser(server, browser, shots, form):
    from selenium.webdriver.common.by import By

    base, ids = server
    width = WIDTHS[form]
    d = open_page(browser, base + "/", width)
    seen = []
    for number in range(1, PAGES + 1):
        pager = d.find_element(By.CSS_SELECTOR, "nav.pager")
        assert pager.find_element(By.CSS_SELECTOR, "[aria-current=page]").text == str(number)
        assert pager.size["width"] <= width and pager.size["height"] < 80  # one row of links on a phone too
        fits(d, width)
        seen += _tables(d)
        if number == 2:
            shoot(d, shots, "index-page-2", width)
        if number < PAGES:
            d.find_element(By.CSS_SELECTOR, "nav.pager a[rel=next]").click()
    assert seen == sorted(ids, reverse=True)
    d.find_element(By.CSS_SELECTOR, "nav.pager a[rel=prev]").click()
    assert d.current_url == base + f"/?page={PAGES - 1}" and _tables(d) == seen[TABLES_PER_PAGE:2 * TABLES_PER_PAGE]
