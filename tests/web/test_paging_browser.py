"""The paged index in a real browser (the Chromium and Selenium of tests/web/test_browser.py, skipped as it is
when the browser is missing): at a phone's width and a desktop's the page links fit without sideways scrolling,
and following "Older" and "Newer" walks the pages with no table shown twice."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from bot.referee.service import Referee
from bot.storage.store import Store
from bot.web.public import TABLES_PER_PAGE
from tests.web.test_browser import ROOT, WIDTHS, _fits, _open, _shoot, browser, shots

_ = (browser, shots)  # the browser test's own fixtures, found by pytest under these names
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
    from tests.web.test_browser import _missing
    missing = _missing()
    if missing:
        if os.environ.get("JUDGE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{missing} is missing: apt-get install -y chromium chromium-driver (or run .ci/run)")
        pytest.skip(f"NOTICE: {missing} is missing, so the browser test is skipped (.ci/run installs it)")
    path = tmp_path_factory.mktemp("pages") / "pages.db"
    ids = asyncio.run(_build(path))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "bot", "--db", str(path), "--locale", "en", "web",
                                "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/static/style.css", timeout=1).read()
                break
            except OSError:
                if process.poll() is not None:
                    pytest.fail("python -m bot web stopped: " + process.stdout.read().decode(errors="replace"))
                time.sleep(0.05)
        yield base, ids
    finally:
        process.terminate()
        process.wait(timeout=10)


def _tables(d) -> list[int]:
    from selenium.webdriver.common.by import By

    return [int(a.get_attribute("href").rsplit("/", 1)[1])
            for a in d.find_elements(By.CSS_SELECTOR, "main ul.cards a[href*='/table/']")]


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_the_paged_index_in_a_browser(server, browser, shots, form):
    from selenium.webdriver.common.by import By

    base, ids = server
    width = WIDTHS[form]
    d = _open(browser, base + "/", width)
    seen = []
    for number in range(1, PAGES + 1):
        pager = d.find_element(By.CSS_SELECTOR, "nav.pager")
        assert pager.find_element(By.CSS_SELECTOR, "[aria-current=page]").text == str(number)
        assert pager.size["width"] <= width and pager.size["height"] < 80  # one row of links on a phone too
        _fits(d, width)
        seen += _tables(d)
        if number == 2:
            _shoot(d, shots, "index-page-2", width)
        if number < PAGES:
            d.find_element(By.CSS_SELECTOR, "nav.pager a[rel=next]").click()
    assert seen == sorted(ids, reverse=True)
    d.find_element(By.CSS_SELECTOR, "nav.pager a[rel=prev]").click()
    assert d.current_url == base + f"/?page={PAGES - 1}" and _tables(d) == seen[TABLES_PER_PAGE:2 * TABLES_PER_PAGE]
