"""The table pictures (bot/render/picture/) as Discord attachments: the public picture on the live table
message, a player's hand picture on their control message.  They ride on the calls that post or edit those
messages (an edit's ``attachments`` replaces the previous picture), never on calls of their own.

A picture is drawn from a view, so it shows what its viewer may see and nothing more; each distinct view of
a table version is drawn once (``Pictures``), in a worker thread, so that the gateway's heartbeat is not held
up.  Its alt text (the attachment's description) names what it shows; the message's text beside it says the
same in words, for screen readers and for clients that show no images."""
from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Sequence

import discord

from bot.engine import Game
from bot.i18n import t
from bot.render.picture import Pictures, filename
from bot.render.text import game_title
from bot.storage.store import SeatRow, TableRow


@dataclass(frozen=True)
class Picture:
    data: bytes
    name: str
    description: str

    def file(self) -> discord.File:
        """A new attachment each time: discord.py closes a file once its request is done (a retry, or the
        ordinary call after a refused token, needs another)."""
        return discord.File(io.BytesIO(self.data), filename=self.name, description=self.description)


class TablePictures:
    def __init__(self) -> None:
        self._kept = Pictures()

    async def get(self, game: Game, table: TableRow, seats: Sequence[SeatRow], state: dict, seat: int | None,
                  kind: str, locale: str) -> Picture | None:
        """The picture of ``state`` as ``seat`` (None: the public) sees it; None where the game draws none."""
        names = [s.name for s in seats]
        data = await asyncio.to_thread(self._kept.get, table.id, state["version"], seat, kind, locale, names,
                                       lambda: game.view(state, seat))
        if data is None:
            return None
        alt = t(f"picture.alt.{kind}", locale, game=game_title(game, locale), table=table.id)
        return Picture(data, filename(table.id, state["version"], kind), alt)
