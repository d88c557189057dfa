"""WAL checkpoints off the path of a move.

SQLite folds its write-ahead log back into the database file (a checkpoint, with the file's only fsyncs under
synchronous=NORMAL) inside whichever commit finds the log past ``wal_autocheckpoint`` pages: with the default
1,000 pages, one action in some 150 waited 3–5 ms for it (the referee's p99).  A thread of its own, with its
own connection, runs a PASSIVE checkpoint whenever enough new pages were committed, which never blocks the
writer; the writer's own automatic checkpoint stays as a backstop at a larger size, so the log stays bounded
(and does, should this thread be gone).  Durability is unchanged: a commit is in the log either way.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("judge.storage")

#: the writer's own automatic checkpoint (pages of 4 KB).  The log is rewound only when a write begins with
#: every page checkpointed, which rarely happens while the thread checkpoints beside a busy writer; at this
#: size the writer checkpoints what is left (most of it copied already) and the log starts over: it stays
#: under about 16 MB, and one action in some 300 of a lone busy table waits for that (a few ms).
BACKSTOP_PAGES = 4_000
#: recorded actions between two background checkpoints (an action writes some 15 pages of log)
EVERY_COMMITS = 100


class Checkpointer:
    def __init__(self, path: str | Path, *, every: int = EVERY_COMMITS):
        self._path, self._every = str(path), every
        self._commits = 0
        self._wake = threading.Event()
        self._stop = False
        self.checkpoints = 0           # completed checkpoints (for tests and benchmarks)
        self._thread = threading.Thread(target=self._run, name="judge-checkpoint", daemon=True)
        self._thread.start()

    def committed(self, count: int = 1) -> None:
        """Called after commits (from any thread): wakes the checkpoint every ``every`` of them."""
        self._commits += count
        if self._commits >= self._every:
            self._commits = 0
            self._wake.set()

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            log.exception("checkpoint thread: cannot open %s; the writer checkpoints alone", self._path)
            return
        try:
            db.execute("PRAGMA busy_timeout = 1000")
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stop:
                    return
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error:  # busy or the disk: the next round (or the writer's backstop) tries again
                    log.warning("background checkpoint of %s failed", self._path, exc_info=True)
        finally:
            db.close()
