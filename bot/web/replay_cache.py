"""What the replay's pages and pictures are made of, kept per table version: a table's public record (its steps,
names and public view: bot/web/public.py) and the public view after each of its steps.

A replay step that was never asked for before then costs the page's template only, not reading and numbering the
whole log again (a 600-move table's log is tens of thousands of events); docs/performance.md has the figures.

Every entry is keyed by the table's *token* (its version, status and pause: ``public.table_token``), read before
the record is: a new move, a rollback, a pause or the end makes a new token, so an entry is never served for a
version it was not read at (a record read just after the token may be newer than it, never older).  Both stores
are LRUs bounded by their number of entries (``web.replay_cache`` in the config: the step views kept; the
records kept are a sixty-fourth of that, eight at least).
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Hashable, Mapping, TypeVar

from bot.process.lru import LRU
from .public import PublicTable

V = TypeVar("V")
#: the step views kept by default (a view is a few kilobytes to a few tens: about 20 MB at most)
DEFAULT_VIEWS = 1024


class ReplayCache:
    """Public records by table token, public step views by (token, step)."""

    def __init__(self, views: int = DEFAULT_VIEWS):
        self.views: LRU[Mapping[str, Any]] = LRU(views)
        self.tables: LRU[PublicTable] = LRU(max(8, views // 64))

    async def table(self, token: tuple[Any, ...],
                    load: Callable[[], Awaitable[PublicTable | None]]) -> PublicTable | None:
        """The table's public record at ``token``, read by ``load`` when it is not kept (None is not kept: a
        table the public may not see now may be one it sees a moment later)."""
        return await _through(self.tables, token, load)

    async def view(self, token: tuple[Any, ...], index: int,
                   load: Callable[[], Awaitable[Mapping[str, Any] | None]]) -> Mapping[str, Any] | None:
        """The public view after step ``index`` of the table at ``token``, read by ``load`` when not kept."""
        return await _through(self.views, (token, index), load)


async def _through(kept: LRU[V], key: Hashable, load: Callable[[], Awaitable[V | None]]) -> V | None:
    """``kept``'s value under ``key``, else what ``load`` reads, kept unless it is None."""
    found = kept.get(key)
    if found is None:
        loaded = await load()
        if loaded is None:
            return None
        found = kept.put(key, loaded)
    return found
