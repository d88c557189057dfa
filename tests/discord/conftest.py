"""Fixtures for the end-to-end suite: a fake Discord per test, the real bot against it, and a failure for
any platform rule the bot broke or any ERROR it logged."""
import dataclasses
import logging

import pytest

from bot.process.config import WebSettings
from tests.discord.fake_discord import FakeDiscord
from tests.discord.harness import ErrorLog, Harness, redirect_discord
from tests.discord.support import BASE


@pytest.fixture
async def fake(monkeypatch):
    fake = await FakeDiscord().start()
    redirect_discord(monkeypatch, fake)
    yield fake
    await fake.stop()
    assert not fake.violations, "Discord rules broken:\n" + "\n".join(fake.violations)


@pytest.fixture
def error_log():
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
    assert not handler.records, "errors were logged:\n" + handler.report()


@pytest.fixture
async def harness(fake, error_log, fresh_db):
    """The bot running against the fake, with three players in the server: alice, bob and carol."""
    h = Harness(fake, fresh_db)
    h.alice, h.bob, h.carol = (fake.add_user(n) for n in ("Alice", "Bob", "Carol"))
    await h.start_bot()
    yield h
    await h.stop_bot()


@pytest.fixture
def relay():
    """Register the Relay test game for one test (list it before ``harness`` so the bot sees it)."""
    from bot.engine.registry import registered
    from tests.discord.relay_game import RELAY

    with registered(RELAY):  # taken out after: other suites' game lists stay as they were
        yield RELAY


@pytest.fixture
def claygod():
    """Clay God registered for the test even before bot/games/__init__.py lists it; the registry is
    left as it was found (list it before ``harness`` so the bot sees it)."""
    from bot.engine import registry
    from bot.games.claygod import GAME

    added = GAME.name not in registry.all_games()
    registry.register(GAME)
    yield GAME
    if added:
        registry.unregister(GAME.name)


@pytest.fixture
async def linked(fake, error_log, tmp_path):
    h = Harness(fake, tmp_path / "judge.db")
    h.settings = dataclasses.replace(h.settings, web=WebSettings(base_url=BASE))
    h.alice, h.bob, h.carol = (fake.add_user(n) for n in ("Alice", "Bob", "Carol"))
    await h.start_bot()
    yield h
    await h.stop_bot()
