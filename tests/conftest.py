import asyncio
import shutil

import pytest

from bot.referee.service import Referee
from bot.storage.store import Store

from bot.engine import all_games, register
from tests.support.tables import Clock
from tests.support.toy import TOY

register(TOY)


def pytest_addoption(parser):
    parser.addoption("--playouts", type=int, default=None,
                     help="random playouts per game in the conformance suite (default: per game)")


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory):
    """A new database opened (so migrated) once per test process.  A test's fresh database is a copy of it:
    the sixteen migrations cost about 37 ms of CPU and 180 ms of waiting per new file, a copy 15 ms and 25 ms;
    the copy is the same file a first Store.open leaves (tests/storage/test_migrated_copy.py)."""
    path = tmp_path_factory.mktemp("migrated") / "judge.db"

    async def migrate() -> None:
        await (await Store.open(path)).close()

    asyncio.run(migrate())
    return path


@pytest.fixture
def fresh_db(migrated_db, tmp_path):
    """``tmp_path/judge.db``: a new, migrated database of this test's own."""
    path = tmp_path / "judge.db"
    shutil.copyfile(migrated_db, path)
    return path


@pytest.fixture
async def env(fresh_db):
    """A fresh database, a referee over it and the fake clock it reads."""
    clock = Clock()
    store = await Store.open(fresh_db)
    referee = Referee(store, clock=clock)
    yield store, referee, clock
    await store.close()


@pytest.fixture(autouse=True)
def _deck_files_forgotten():
    """A deck file a test's scenario loads stays a choice of its game's option for the whole process (the
    terminal's way): forgotten after each test, so that no test's options (the conformance playouts' option sets,
    say) depend on which tests ran before it in the same worker."""
    yield
    for game in all_games().values():
        if game.facts.deck_files:
            game.forget_deck_files()
