"""The real browser the web tests drive (Debian's headless Chromium through its chromedriver, Selenium, offline)
and the page server they drive it at (``python -m bot web`` on a database of their own): what every browser test
shares.  Without Chromium a browser test is skipped with a notice saying how to install it, so the README's test
command passes on a fresh machine; ``.ci/run`` installs it and sets JUDGE_REQUIRE_BROWSER=1, under which a
missing browser fails the test instead."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTHS = {"phone": 390, "desktop": 1280}


def missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(Path(path).name)):
            return path
    return None


def require_browser() -> None:
    """Skip the test (fail it under JUDGE_REQUIRE_BROWSER=1) when Chromium or its driver is missing."""
    absent = missing()
    if absent:
        if os.environ.get("JUDGE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{absent} is missing: apt-get install -y chromium chromium-driver (or run .ci/run, which does)")
        pytest.skip(f"NOTICE: {absent} is missing, so the browser test is skipped: apt-get install -y chromium "
                    "chromium-driver (.ci/run does)")


@contextmanager
def serving(path: Path) -> Iterator[str]:
    """``python -m bot web`` serving the database at ``path`` on a free port, in English: its base address."""
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
                    assert process.stdout is not None
                    pytest.fail("python -m bot web stopped: " + process.stdout.read().decode(errors="replace"))
                time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def open_page(driver: Any, url: str, width: int) -> Any:
    driver.set_window_size(width, 900)
    driver.get(url)
    return driver


def shoot(driver: Any, folder: Path, name: str, width: int) -> None:
    """The whole page: the window made as tall as the document (up to a bound), then a screenshot."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height + 120, 600), 6000))
    assert driver.save_screenshot(str(folder / f"{name}-{width}.png"))
    driver.set_window_size(width, 900)


def fits(driver: Any, width: int) -> None:
    """Nothing wider than the window but the tables' own scrolling boxes: no sideways scrolling of the page."""
    wide = driver.execute_script("return document.documentElement.scrollWidth")
    inner = driver.execute_script("return window.innerWidth")
    assert wide <= inner, f"the page is {wide}px wide in a {inner}px window"
