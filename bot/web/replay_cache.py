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

from collections import OrderedDict
from typing import Any, Awaitable, Callable, Generic, Hashable, Mapping, TypeVar

from .public import PublicTable

V = TypeVar("V")
#: the step views kept by default (a view is a few kilobytes to a few tens: about 20 MB at most)
DEFAULT_VIEWS = 1024


class LRU(Generic[V]):
    """Values by key, the least recently used dropped past ``size`` entries; ``hits`` and ``misses`` counted."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError("an LRU keeps one entry at least")
        self.size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> V | None:
        found = self._kept.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept.move_to_end(key)
        return found

    def put(self, key: Hashable, value: V) -> V:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value


class ReplayCache:
    """Public records by table token, public step views by (token, step)."""

    def __init__(self, views: int = DEFAULT_VIEWS):
        self.views: LRU[Mapping[str, Any]] = LRU(views)
        self.tables: LRU[PublicTable] = LRU(max(8, views // 64))

    async def table(self, token: tuple[Any, ...],
                    load: Callable[[], Awaitable[PublicTable | None]]) -> PublicTable | None:
        """The table's public record at ``token``, read by ``load`` when it is not kept (None is not kept: a
        table the public may not see now may be one it sees a moment later)."""
        found = self.tables.get(token)
        if found is None:
            loaded = await load()
            if loaded is None:
                return None
            found = self.tables.put(token, loaded)
        return found

    async def view(self, token: tuple[Any, ...], index: int,
                   load: Callable[[], Awaitable[Mapping[str, Any] | None]]) -> Mapping[str, Any] | None:
        """The public view after step ``index`` of the table at ``token``, read by ``load`` when not kept."""
        key = (token, index)
        found = self.views.get(key)
        if found is None:
            loaded = await load()
            if loaded is None:
                return None
            found = self.views.put(key, loaded)
        return found
