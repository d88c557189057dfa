"""WAL checkpoints run on their own thread (bot/storage/checkpoint.py): the record reaches the database file
without a move waiting for it, and the writer keeps its own automatic checkpoint only as a backstop."""
import asyncio
import shutil
import sqlite3
import time
from contextlib import closing

from bot.referee.service import Referee
from bot.storage.checkpoint import BACKSTOP_PAGES, EVERY_COMMITS
from bot.storage.store import Store


async def test_the_record_reaches_the_database_file_by_the_checkpoint_thread(tmp_path):
    path = tmp_path / "j.db"
    store = await Store.open(path)
    try:
        async with store.conn.execute("PRAGMA wal_autocheckpoint") as cur:
            assert (await cur.fetchone())[0] == BACKSTOP_PAGES   # far past what the thread lets the log reach
        referee = Referee(store)
        lobby = await referee.create_table("claygod", creator="u:b", creator_name="B", join=False)
        await referee.add_bot(lobby.id)
        await referee.add_bot(lobby.id)
        await referee.start(lobby.id, "u:b", seed="ckpt")
        moved = await referee.drive_bots(lobby.id)
        assert moved >= EVERY_COMMITS
        deadline = time.monotonic() + 10
        while store.checkpoints.checkpoints == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert store.checkpoints.checkpoints >= 1
        # the database file alone (no log beside it) already holds actions: they were checkpointed
        shutil.copy(path, tmp_path / "file-only.db")
        with closing(sqlite3.connect(tmp_path / "file-only.db")) as db:
            (count,) = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (lobby.id,)).fetchone()
        assert count > 0
    finally:
        await store.close()
    assert not store.checkpoints._thread.is_alive()
