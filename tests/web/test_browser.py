"""The public pages in a real browser: Debian's headless Chromium driven by Selenium through the distribution's
chromedriver (no browser is downloaded at run time).  ``python -m bot web`` serves a database of bot-played
tables and a Swiss tournament; the browser loads the index, the tournament, a table and its replay at a phone's
width (390 px) and a desktop's, steps the replay with the keyboard and checks what is shown.  Screenshots go to
``JUDGE_SCREENSHOTS`` (default: test-screenshots/web/ in the repository, not tracked) for a person to look at.

Without Chromium the test is skipped with a notice (tests/support/browser.py, which every browser test shares, as
it shares tests/web/conftest.py's browser and screenshots).
"""
from __future__ import annotations


import pytest

from tests.support import web_world
from tests.support.browser import WIDTHS, fits, open_page, require_browser, serving, shoot

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    require_browser()
    path = tmp_path_factory.mktemp("browser") / "web.db"
    world = web_world.build_sync(path, hostile=False, only_swiss=True, games=("claygod", "gwent", "bloodwood"))
    with serving(path) as base:
        yield base, world


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_index_tournament_and_table_in_a_browser(server, browser, shots, form):
    from selenium.webdriver.common.by import By

    base, world = server
    width = WIDTHS[form]
    d = open_page(browser, base + "/server/local", width)
    assert d.find_element(By.TAG_NAME, "h1").text == "Terminal and demo"
    links = [a.get_attribute("href") for a in d.find_elements(By.CSS_SELECTOR, "main a")]
    assert base + f"/tournament/{world['tournaments']['swiss']}" in links
    assert base + f"/table/{world['finished']['gwent']}" in links
    fits(d, width)
    shoot(d, shots, "index", width)

    d = open_page(browser, base + f"/tournament/{world['tournaments']['swiss']}", width)
    rows = d.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    assert len(rows) == 4 and rows[0].find_element(By.TAG_NAME, "td").text == "1"
    assert d.find_element(By.CSS_SELECTOR, "table.crosstable")
    assert d.find_elements(By.CSS_SELECTOR, "table.pairings a[href*='/table/']")
    fits(d, width)
    shoot(d, shots, "tournament", width)

    d = open_page(browser, base + f"/table/{world['finished']['bloodwood']}", width)
    players = [li.text for li in d.find_elements(By.CSS_SELECTOR, "ol.players > li")]
    assert len(players) == 5 and players[0].startswith("Аня")
    image = d.find_element(By.CSS_SELECTOR, "figure.picture img")
    assert d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 600
    assert image.size["width"] <= width
    assert "judge-seed-commitment:" in d.find_element(By.CSS_SELECTOR, "section.fairness").text
    fits(d, width)
    shoot(d, shots, "table", width)


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_the_replay_steps_with_the_keyboard(server, browser, shots, form):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    base, world = server
    width = WIDTHS[form]
    tid = world["finished"]["claygod"]
    d = open_page(browser, base + f"/table/{tid}/replay/0", width)
    assert d.find_element(By.ID, "step-title").text == "The deal"
    last = int(d.find_element(By.ID, "replay").get_attribute("data-last"))

    def step_after(key, expected: int) -> None:
        d.find_element(By.TAG_NAME, "body").send_keys(key)
        WebDriverWait(d, 10).until(lambda drv: drv.current_url.endswith(f"/replay/{expected}"))
        WebDriverWait(d, 10).until(lambda drv: drv.find_element(By.ID, "replay").get_attribute("data-step")
                                   == str(expected))

    step_after(Keys.ARROW_RIGHT, 1)
    assert d.find_element(By.ID, "step-title").text.startswith("Action 1")
    step_after(Keys.ARROW_RIGHT, 2)
    assert d.find_element(By.ID, "step-title").text.startswith("Action 2")
    image = d.find_element(By.ID, "picture")
    assert image.get_attribute("src").endswith(f"/table/{tid}/replay/2.png")
    assert d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 600
    fits(d, width)
    shoot(d, shots, "replay", width)
    step_after(Keys.ARROW_LEFT, 1)
    step_after(Keys.END, last)
    assert not d.find_elements(By.ID, "next")
    step_after(Keys.HOME, 0)
    d.find_element(By.ID, "next").click()  # the buttons are links: the same steps without the keyboard
    WebDriverWait(d, 10).until(lambda drv: drv.current_url.endswith("/replay/1"))


def test_a_phone_follows_a_citation_to_its_rule_and_the_page_has_its_icon_and_preview(server, browser, shots):
    """At 390 px: the table page (sent gzipped, as Chromium asks) has its preview tags and its icon; a citation in
    its log opens the rules page at that paragraph or ruling, which is the page's target and in view."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    base, world = server
    width = WIDTHS["phone"]
    d = open_page(browser, base + f"/table/{world['finished']['claygod']}/log", width)
    meta = {name: d.execute_script(f"return document.querySelector('meta[property=\"{name}\"]').content")
            for name in ("og:title", "og:description", "og:site_name", "og:locale")}
    assert meta["og:site_name"] == "Judge" and meta["og:locale"] == "en_US"
    assert meta["og:title"].startswith("Table #") and meta["og:description"].startswith("Clay God")
    icon = d.execute_async_script(
        "const done = arguments[arguments.length - 1], image = new Image();"
        "image.onload = () => done(image.naturalWidth); image.onerror = () => done(0);"
        "image.src = document.querySelector('link[rel=icon]').href;")
    assert icon >= 16
    cites = d.find_elements(By.CSS_SELECTOR, "a.cite")
    assert cites, "no citation linked in a played Clay God log"
    cited = cites[0].text
    d.execute_script("arguments[0].scrollIntoView()", cites[0])
    cites[0].click()
    WebDriverWait(d, 10).until(lambda drv: "/rules/claygod#" in drv.current_url)
    target = d.find_element(By.CSS_SELECTOR, ":target")
    assert cited in target.text
    top = d.execute_script("return arguments[0].getBoundingClientRect().top", target)
    assert -2 <= top < 900  # scrolled to it (a fraction of a pixel either way)
    fits(d, width)
    shoot(d, shots, "rules-anchor", width)
