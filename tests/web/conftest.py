"""The browser tests' shared fixtures: one headless Chromium per test module, and the folder its screenshots go
to (``JUDGE_SCREENSHOTS``, default test-screenshots/web-pyX.Y/ in the repository, not tracked) for a person to
look at.  Each module's ``server`` fixture builds its own database and serves it (tests/support/browser.py)."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.browser import CHROMEDRIVER, CHROMIUM, ROOT, require_browser


@pytest.fixture(scope="module")
def browser():
    require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    profile = tempfile.mkdtemp(prefix="judge-chromium-")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--lang=en-US", f"--user-data-dir={profile}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER if Path(CHROMEDRIVER).exists()
                                              else shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots():
    folder = Path(os.environ.get("JUDGE_SCREENSHOTS")
                  or ROOT / "test-screenshots" / f"web-py{sys.version_info[0]}.{sys.version_info[1]}")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
