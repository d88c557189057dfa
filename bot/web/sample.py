"""Tournaments of bot players, played to the end through the director and the referee like any other: what
``python -m bot demo`` leaves for the public pages to show, and what their tests and benchmark read."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import Rejection
from bot.referee.service import Referee


async def bot_tournament(referee: Referee, game: str, fmt: str, players: int, *, title: str | None = None,
                         settings: Mapping[str, Any] | None = None, names: list[str] | None = None,
                         guild_id: str | None = None, locale: str | None = None, rounds_to_play: int | None = None,
                         creator: str = "cli:demo") -> int:
    """Create a tournament, enter ``players`` bot players (named from ``names`` first), start it and let the
    bots play until it ends (or ``rounds_to_play`` rounds are paired); returns its number."""
    from bot.tournament.director import Director

    director = Director(referee)
    made = await director.create(game, fmt, creator=creator, settings=dict(settings or {}), title=title,
                                 origin="demo", locale=locale, guild_id=guild_id)
    if isinstance(made, Rejection):
        raise ValueError(made.message("en"))
    for i in range(players):
        name = names[i] if names and i < len(names) else f"Bot {i + 1}"
        joined = await director.join(made.id, f"bot:t{made.id}:{i + 1}", name, is_bot=True)
        if isinstance(joined, Rejection):
            raise ValueError(joined.message("en"))
    progress = await director.start(made.id, by=creator)
    if isinstance(progress, Rejection):
        raise ValueError(progress.message("en"))
    tables = list(progress.tables)
    while tables:
        for table_id in tables:
            await referee.drive_bots(table_id)
        progress = await director.sync(made.id)
        tour = await director.record.get(made.id)
        if tour is None or tour.status != "running" or (rounds_to_play is not None and tour.round >= rounds_to_play):
            break
        tables = [g.table_id for g in await director.record.games(made.id, tour.round) if g.table_id and not g.settled]
    return made.id
