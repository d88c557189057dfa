"""The read model of a click: everything answering one player's click needs, as one value read in one trip
(bot/storage/clicks.py) — the table, its seats, its state, the clicking seat, the version, that seat's legal
choices, whether a click drawn at an older version still counts, and what its control message is redrawn from.
Built by ``Referee.turn``; the click itself is still applied by ``Referee.act`` (under the table's lock, on the
stored table)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Rejection
from bot.storage.clocks import SeatClock
from bot.storage.store import Panel, SeatRow, TableRow


@dataclass(frozen=True)
class TurnView:
    table: TableRow
    seats: list[SeatRow]
    state: dict[str, Any] | None
    seat: int | None                   # the clicking seat (None when ``unseen`` says why not)
    unseen: Rejection | None           # why the clicker's control message cannot be drawn (not a player...)
    refused: Rejection | None          # why the clicker may not act now (over, paused...), as ``Referee.legal``
    choices: list[dict[str, Any]]      # the seat's legal choices now (none when refused)
    still: bool                        # a click drawn at the version asked for offers these same choices
    panel: Panel | None                # the seat's control message as recorded
    live: Panel | None                 # the table's live message
    news: list[dict[str, Any]]         # the seat's events (public and its own) since ``panel`` showed the table
    clocks: dict[int, SeatClock]       # a timed table's seat clocks (its deadlines as shown)

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seen(self) -> tuple[dict[str, Any], int]:
        """The state and the clicking seat, where the clicker sees the table (``unseen`` is None, as it is
        whenever ``refused`` is): a dealt table and one of their seats, both known."""
        if self.state is None or self.seat is None:
            raise LookupError(f"table {self.table.id}: the clicker does not see it ({self.unseen})")
        return self.state, self.seat
