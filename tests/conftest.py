import pytest

from bot.referee.service import Referee
from bot.storage.store import Store

from bot.engine import register
from tests.support.tables import Clock
from tests.support.toy import TOY

register(TOY)


def pytest_addoption(parser):
    parser.addoption("--playouts", type=int, default=None,
                     help="random playouts per game in the conformance suite (default: per game)")


@pytest.fixture
async def env(tmp_path):
    """A fresh database, a referee over it and the fake clock it reads."""
    clock = Clock()
    store = await Store.open(tmp_path / "judge.db")
    referee = Referee(store, clock=clock)
    yield store, referee, clock
    await store.close()
