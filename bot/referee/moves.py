"""Public move numbers: the moves players see, numbered 1, 2, 3 … as the public log shows them.

A table's *version* counts every recorded action, the private ones too (a card exchanged in a secret
mulligan, a faction picked in secret), so a version number tells how often someone acted in secret.  A
*move* is an action that produced at least one public event; its number counts only such actions.  Every
function here reads the public events alone (``public``), so whatever private steps happened between two
moves, and however many, the numbers are the same.

A moderator's rollback (the referee's own ``rollback`` event, ``data.to`` = the version returned to) is not
a move.  It returns the table to the position right after some move N; the moves after N are *undone*: the
log keeps them, marked, and the next move is numbered N + 1 again (as on a corrected score sheet).  Only
moves still in play (not undone) can be named by number, so a number names one move at a time.

Pure functions over event dicts with ``version``, ``kind``, ``to`` and ``data`` (``Referee.history``).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

ROLLBACK = "rollback"
#: the referee's own step bringing the table to a new release's rules (bot/referee/upgrade.py): not a move
UPGRADE = "upgrade"


def public(event: Mapping[str, Any]) -> bool:
    return event.get("to") is None


def is_rollback(event: Mapping[str, Any]) -> bool:
    return event.get("kind") == ROLLBACK and public(event)


@dataclass(frozen=True)
class Move:
    number: int
    version: int                      # the table version right after this move
    before: "Move | None" = None      # the move it followed (the previous move in play at the time)


@dataclass
class Entry:
    """One step of the log: the events of one version, as the given events show it.

    ``kind``: "setup" (version 0, the deal), "move", "rollback", "upgrade" (bot/referee/upgrade.py), or "private" (a step
    with no public event: only in a seat's or a moderator's history).  ``number``: a move's number; for a
    rollback, the move it returned to (0: the start).  ``undone``: a later rollback returned the table to
    before this step."""

    version: int
    kind: str
    number: int | None
    events: list[dict[str, Any]] = field(default_factory=list)
    undone: bool = False


class Moves:
    """The public moves of a table's history (see the module docstring)."""

    def __init__(self, events: Iterable[Mapping[str, Any]]):
        by_version: dict[int, list[dict[str, Any]]] = {}
        for event in events:
            by_version.setdefault(int(event["version"]), []).append(dict(event))
        self._checkpoints: list[int] = [0]            # versions, ascending, after which the line changed
        self._tails: list[Move | None] = [None]       # the last move in play after each checkpoint
        self._rollbacks: dict[int, int] = {}          # rollback version -> version returned to
        self.entries: list[Entry] = []
        tail: Move | None = None
        for version in sorted(by_version):
            evs = by_version[version]
            shown = [e for e in evs if public(e)]
            rollback = next((e for e in shown if is_rollback(e)), None)
            if rollback is not None:
                target = _version(rollback)
                tail = self.tail_at(target) if target is not None and 0 <= target < version else tail
                self._rollbacks[version] = target if target is not None else version - 1
                entry = Entry(version, "rollback", tail.number if tail else 0, evs)
            elif version == 0:
                entry = Entry(0, "setup", None, evs)
            elif any(e.get("kind") == UPGRADE for e in shown):
                entry = Entry(version, "upgrade", None, evs)
            elif shown:
                tail = Move((tail.number if tail else 0) + 1, version, tail)
                entry = Entry(version, "move", tail.number, evs)
            else:
                entry = Entry(version, "private", None, evs)
            self.entries.append(entry)
            if entry.kind in ("rollback", "move"):
                self._checkpoints.append(version)
                self._tails.append(tail)
        self.tail = tail
        live = self._in_play(max(by_version, default=0))
        for entry in self.entries:
            entry.undone = entry.kind in ("move", "private") and entry.version not in live

    # ------------------------------------------------------------------ reading
    def tail_at(self, version: int) -> Move | None:
        """The last move in play right after ``version`` (None: no move yet)."""
        i = bisect.bisect_right(self._checkpoints, version) - 1
        return self._tails[max(i, 0)]

    def number_at(self, version: int) -> int:
        """How many moves were in play right after ``version``: the number of the move the table stood
        after (0 before the first move)."""
        tail = self.tail_at(version)
        return tail.number if tail else 0

    @property
    def latest(self) -> int:
        """The number of the last move in play."""
        return self.tail.number if self.tail else 0

    def in_play(self) -> list[Move]:
        """The moves in play now, first to last."""
        moves, move = [], self.tail
        while move is not None:
            moves.append(move)
            move = move.before
        return moves[::-1]

    def version_of(self, number: int) -> int | None:
        """The table version right after move ``number`` in play (0: the start, before any move); None when
        no move in play has that number."""
        if number == 0:
            return 0
        move = self.tail
        while move is not None and move.number > number:
            move = move.before
        return move.version if move is not None and move.number == number else None

    def undone_versions(self) -> set[int]:
        return {e.version for e in self.entries if e.undone}

    def _in_play(self, last: int) -> set[int]:
        """The versions whose state the table's current state descends from (a rollback jumps to the
        version it returned to; any other version follows the one before it)."""
        seen: set[int] = set()
        version = last
        while version > 0:
            target = self._rollbacks.get(version)
            if target is not None:
                version = target
                continue
            seen.add(version)
            version -= 1
        return seen


def _version(event: Mapping[str, Any]) -> int | None:
    to = (event.get("data") or {}).get("to")
    return to if isinstance(to, int) and not isinstance(to, bool) else None
