"""What one call of the director changed, for a front end to announce (director.py, organiser.py)."""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage.tournaments import GameRow


@dataclass
class Progress:
    """What one call changed, for a front end to announce: games settled, rounds opened (with the tables
    started for them), the tournament finished."""

    tournament_id: int
    settled: list[GameRow] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    tables: list[int] = field(default_factory=list)
    finished: bool = False
    next_stage: Progress | None = None  # the second stage, started as the first ended (T-24)
    kept_pairings: list[int] = field(default_factory=list)  # a correction's later rounds whose pairings stand

    def __bool__(self) -> bool:
        return bool(self.settled or self.rounds or self.tables or self.finished)
