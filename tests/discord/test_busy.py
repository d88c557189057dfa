"""Busy is an answer in Discord (issue 33, item 2): while another process holds the database's write lock past the
busy timeout, a lobby button and a slash command get one private line saying nothing was recorded — never
"internal error", and no ERROR in the log (the ``harness`` fixture fails on one)."""
import pytest

from bot.i18n import t
from bot.process.config import BUSY_TIMEOUT
from bot.storage.db import set_busy_timeout
from tests.support.busy import SHORT, Holder, record_digest


@pytest.fixture
def short_busy():
    set_busy_timeout(SHORT)  # before ``harness`` opens the database: its connections wait this long
    yield
    set_busy_timeout(BUSY_TIMEOUT)


async def test_a_busy_database_is_one_private_line_and_nothing_changes(short_busy, harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy")
    await h.settled()
    before = record_digest(h.db)
    busy = t("core.busy", "ru", seconds=f"{SHORT:g}")
    holder = Holder(h.db)
    try:
        joined = await (await fake.click(h.bob, h.lobby(table), prefix="j:join:")).text()
        started = await (await fake.click(h.alice, h.lobby(table), prefix="j:start:")).text()
        created = await (await fake.slash(h.carol, "game new", game="toy")).text()
        cancelled = await (await fake.slash(h.alice, "game cancel", table=table.id)).text()
    finally:
        holder.release()
    assert [joined, started, created, cancelled] == [busy] * 4
    assert record_digest(h.db) == before
    await h.join(h.bob, table)  # the lock gone, the same click works
    assert [s.user_id for s in await h.store.seats(table.id)][1:] == [f"discord:{h.bob.id}"]
