"""A bounded cache, least recently used out first: the public pages' rendered bodies and their ETags
(bot/web/app.py), the replay's records and step views (bot/web/replay_cache.py), the pictures drawn and encoded
(bot/render/picture/)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

V = TypeVar("V")


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
