"""The table's own random source, carried inside the state.

Why not ``random.Random``: its ``shuffle``/``randrange`` are allowed to change between Python versions, and
a referee must re-run a finished table years later and get the same dice.  This generator is a counter
mode over SHA-256: draw number *n* is ``sha256(seed ":" n)``.  It is slow next to Mersenne Twister
(about a microsecond a draw) and that does not matter at table speed.

The state lives in a plain dict, ``{"seed": str, "n": int, "stack": {tag: [values...]}}``, so it is
JSON-serialisable and part of every snapshot.  ``stack`` lets a moderator or a scenario force the next
results drawn under a tag (stacked dice): forced values are used first, in order, and are validated
against the requested range.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any, MutableMapping, MutableSequence, Sequence, TypeVar, cast

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


def new_seed() -> str:
    """A fresh secret seed: 128 bits, hex."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The public hash of a secret seed, published when a table starts.

    Domain-separated from the draws so the commitment never equals any draw's hash.
    """
    return hashlib.sha256(f"judge-seed-commitment:{seed}".encode()).hexdigest()


def rng_state(seed: str) -> dict[str, Any]:
    return {"seed": seed, "n": 0, "stack": {}}


class StackError(ValueError):
    """A stacked (forced) value does not fit the draw it was used for."""


class Rng:
    """A view over ``state["rng"]``; every draw advances the stored counter."""

    def __init__(self, data: MutableMapping[str, Any]):
        self._d = data

    @property
    def draws(self) -> int:
        return cast("int", self._d["n"])

    def _word(self) -> int:
        n = self._d["n"]
        self._d["n"] = n + 1
        digest = hashlib.sha256(f"{self._d['seed']}:{n}".encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def _below(self, bound: int) -> int:
        """Uniform integer in [0, bound) by rejection, so there is no modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (_MASK64 + 1) - ((_MASK64 + 1) % bound)
        while True:
            w = self._word()
            if w < limit:
                return w % bound

    def _forced(self, tag: str) -> Any | None:
        stack = self._d.get("stack") or {}
        queue = stack.get(tag)
        if not queue:
            return None
        value = queue.pop(0)
        if not queue:
            del stack[tag]
        if value is None:  # would read as "nothing stacked" and silently fall back to the generator
            raise StackError(f"a stacked value for {tag!r} is empty (null)")
        return value

    def push(self, tag: str, values: Sequence[Any]) -> None:
        """Force the next draws under ``tag`` (stacked dice / stacked orders)."""
        self._d.setdefault("stack", {}).setdefault(tag, []).extend(values)

    def randint(self, lo: int, hi: int, tag: str) -> int:
        """Integer in [lo, hi], both inclusive."""
        forced = self._forced(tag)
        if forced is not None:
            if not isinstance(forced, int) or not lo <= forced <= hi:
                raise StackError(f"stacked value {forced!r} for {tag!r} is outside {lo}..{hi}")
            return forced
        return lo + self._below(hi - lo + 1)

    def choice(self, seq: Sequence[T], tag: str) -> T:
        if not seq:
            raise ValueError("choice from an empty sequence")
        forced = self._forced(tag)
        if forced is not None:
            if forced not in seq:
                raise StackError(f"stacked choice {forced!r} for {tag!r} is not among the options")
            return cast(T, forced)  # the stacked JSON value, just found equal to one of ``seq``
        return seq[self._below(len(seq))]

    def shuffle(self, items: MutableSequence[T], tag: str) -> None:
        """Fisher-Yates in place.  A stacked value for ``tag`` is a full order (a permutation of items)."""
        forced = self._forced(tag)
        if forced is not None:
            if not isinstance(forced, list) or sorted(map(repr, forced)) != sorted(map(repr, items)):
                raise StackError(f"stacked order for {tag!r} is not a permutation of the items")
            items[:] = list(forced)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]
