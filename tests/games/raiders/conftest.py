"""Deck files a test (or a scenario) brings stay that test's own: other tests see only the shipped sets."""
import pytest

from bot.games.raiders import cards
from tests.games.raiders.helpers import judged_deck  # noqa: F401  (a fixture the rule tests here use)


@pytest.fixture(autouse=True)
def _own_deck_files(monkeypatch):
    monkeypatch.setattr(cards, "_FILES", {})
    yield
    cards.deck_set.cache_clear()
    cards.table_cards.cache_clear()
