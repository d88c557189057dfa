"""The garbage collector's settings for a process that serves tables (the Discord bot, the benchmarks).

CPython collects its youngest objects every 700 allocations and, every so often, walks everything alive.  A
referee allocates thousands of objects per action (each new state is a fresh tree of dicts and lists), and
keeps the states of up to ``Referee.LIVE_TABLES`` tables alive, so with those defaults the collector walked
the kept states again and again: a third of the time of 1,000 tables moving at once (docs/performance.md).
States are JSON-shaped trees, which hold no reference cycles; the collector is only needed for the rare
cycle (a traceback, an asyncio task), so it may run far less often.
"""
from __future__ import annotations

import gc

#: allocations between two collections of the youngest objects (CPython: 700), and how many collections of
#: one generation make one of the next (CPython: 10 and 10)
THRESHOLDS = (50_000, 20, 20)


def for_serving() -> None:
    """Collect what start-up left, keep what it built (modules, catalogues, translations) out of every later
    walk, and collect less often from then on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
