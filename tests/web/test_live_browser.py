"""Pages that keep themselves current, in a real browser (the Chromium and Selenium of tests/web/test_browser.py,
skipped as it is when the browser is missing): times rewritten in the reader's zone, a round's deadline counted
down, a table page and a replay's last step updating themselves after a move made while they are open, and the
tournament page with its tables in play at a phone's width and a desktop's without sideways scrolling."""
from __future__ import annotations

import asyncio

import pytest

from bot.referee.service import Referee
from bot.storage.store import Store
from bot.web.sample import bot_tournament
from tests.support.browser import WIDTHS, fits, open_page, require_browser, serving, shoot


async def _build(path) -> dict[str, int]:
    store = await Store.open(path)
    try:
        referee = Referee(store)
        table = await referee.create_table("claygod", creator="cli:live", creator_name="live", origin="demo",
                                           join=False)
        for name in ("Аня", "Борис"):
            await referee.add_bot(table.id, name=name)
        await referee.start(table.id, "cli:live")
        await referee.drive_bots(table.id, limit=3)
        tour = await bot_tournament(referee, "claygod", "swiss", 4, title="Live", rounds_to_play=1,
                                    settings={"round_hours": 30})
        return {"table": table.id, "tournament": tour}
    finally:
        await store.close()


async def _move(path, table_id: int) -> None:
    """One bot move at the table, by another process than the one serving the pages (as the bot's would be)."""
    store = await Store.open(path)
    try:
        await Referee(store).drive_bots(table_id, limit=1)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    require_browser()
    path = tmp_path_factory.mktemp("live") / "live.db"
    world = asyncio.run(_build(path))
    with serving(path) as base:
        yield base, world, path


def _poll(d) -> None:
    """The page's own poll, now rather than at its next tick (window.judgeLive: static/live.js)."""
    d.set_script_timeout(20)
    d.execute_async_script("var done = arguments[arguments.length - 1]; window.judgeLive.poll().then(done, done);")


@pytest.mark.parametrize("form", sorted(WIDTHS))
def test_local_times_countdowns_and_the_tables_in_play(server, browser, shots, form):
    from selenium.webdriver.common.by import By

    base, world, _path = server
    width = WIDTHS[form]
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    try:
        d = open_page(browser, base + f"/tournament/{world['tournament']}", width)
        deadline = d.find_element(By.CSS_SELECTOR, "time.countdown")
        utc = deadline.get_attribute("title")
        assert utc.endswith(" UTC") and deadline.text != utc  # rewritten; the UTC text kept on hover
        assert "(in 1 d 5 h" in deadline.text or "(in 1 d 6 h)" in deadline.text, deadline.text
        # Tokyo is nine hours ahead of UTC: the local hour is the UTC hour plus nine
        hour = (int(utc.split()[1].split(":")[0]) + 9) % 24
        assert f"{hour:02d}:{utc.split(':')[1][:2]}" in deadline.text, (utc, deadline.text)
        assert d.find_element(By.ID, "zone").text == "times in Asia/Tokyo"
        live = d.find_elements(By.CSS_SELECTOR, "#live-tables li")
        assert len(live) == 2 and all("Waiting for" in li.text for li in live)
        thumb = d.find_element(By.CSS_SELECTOR, "#live-tables img")
        assert d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) == 600
        assert d.find_elements(By.CSS_SELECTOR, "td.by-round a[href*='/table/']")
        fits(d, width)
        shoot(d, shots, "tournament-live", width)
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


def test_an_open_table_page_and_replay_update_after_a_move(server, browser, shots):
    from selenium.webdriver.common.by import By

    base, world, path = server
    tid = world["table"]
    d = open_page(browser, base + f"/table/{tid}", WIDTHS["phone"])
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "on"
    before = len(d.find_elements(By.CSS_SELECTOR, "ol.log > li"))
    picture = d.find_element(By.CSS_SELECTOR, "figure.picture img").get_attribute("src")
    d.execute_script("window.stillHere = true;")  # a reload would lose it
    _poll(d)  # the first poll learns the page's ETag
    assert len(d.find_elements(By.CSS_SELECTOR, "ol.log > li")) == before
    asyncio.run(_move(path, tid))
    _poll(d)
    assert len(d.find_elements(By.CSS_SELECTOR, "ol.log > li")) == before + 1
    assert d.find_element(By.CSS_SELECTOR, "figure.picture img").get_attribute("src") != picture
    assert d.execute_script("return window.stillHere") is True
    fits(d, WIDTHS["phone"])

    d = open_page(browser, base + f"/table/{tid}/replay/{before}", WIDTHS["desktop"])
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "follow"
    d.execute_script("window.stillHere = true;")
    asyncio.run(_move(path, tid))
    _poll(d)
    assert d.current_url.endswith(f"/replay/{before + 1}")  # moved on to the new last step, in place
    assert d.find_element(By.ID, "replay").get_attribute("data-step") == str(before + 1)
    assert d.execute_script("return window.stillHere") is True
    fits(d, WIDTHS["desktop"])
    shoot(d, shots, "replay-live", WIDTHS["desktop"])
