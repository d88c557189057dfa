"""The table pictures (bot/render/picture/) as Discord attachments: the public picture on the live table
message, a player's hand picture on their control message.  They ride on the calls that post or edit those
messages (an edit's ``attachments`` replaces the previous picture), never on calls of their own.

A picture is drawn from a view, so it shows what its viewer may see and nothing more; each distinct view of
a table version is drawn once (``Pictures``), in a worker thread, so that the gateway's heartbeat is not held
up.  Its alt text (the attachment's description) names what it shows; the message's text beside it says the
same in words, for screen readers and for clients that show no images.

Uploads are kept small (issue 35: at most 15 KB per decision; docs/discord.md §7): pictures go to Discord
as lossless WebP of a 256-colour palette (bot/engine/canvas.py ``webp``), and a picture a message carries
already is not uploaded again: ``TablePictures`` remembers, per message, the digest of the picture it carries
(``carried``), and an edit whose picture is the same leaves the message's attachment alone (``replacing``).  The
memory is the process's own: after a restart the first edit of each message uploads its picture once more."""
from __future__ import annotations

import asyncio
import hashlib
import io
from collections import OrderedDict
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


#: messages whose picture is remembered (the live and control messages of the open tables, and some to spare)
REMEMBERED = 4096


class TablePictures:
    def __init__(self) -> None:
        self._kept = Pictures(fmt="webp")
        self._carried: OrderedDict[int, str | None] = OrderedDict()  # message id -> digest of its picture

    async def get(self, game: Game, table: TableRow, seats: Sequence[SeatRow], state: dict, seat: int | None,
                  kind: str, locale: str) -> Picture | None:
        """The picture of ``state`` as ``seat`` (None: the public) sees it; None where the game draws none."""
        names = [s.name for s in seats]
        data = await asyncio.to_thread(self._kept.get, table.id, state["version"], seat, kind, locale, names,
                                       lambda: game.view(state, seat))
        if data is None:
            return None
        alt = t(f"picture.alt.{kind}", locale, game=game_title(game, locale), table=table.id)
        return Picture(data, filename(table.id, state["version"], kind, self._kept.fmt), alt)

    def replacing(self, message_id: int | str | None, picture: Picture | None) -> dict:
        """An edit's fields for its picture: none at all when the message carries this very picture already (an
        edit without ``attachments`` keeps the message's files, so nothing is uploaded), else its attachments
        become exactly this one, or none when there is no picture now (a hand played out: its previous picture
        goes rather than showing cards no longer held).  Once the edit is made, ``carried`` records it; until
        then what the message carries is not known (an edit that failed may have been made all the same)."""
        digest = _digest(picture)
        if message_id is not None and int(message_id) in self._carried and self._carried[int(message_id)] == digest:
            return {}
        self.forget(message_id)
        return {"attachments": [picture.file()] if picture is not None else []}

    def same(self, message_id: int | str | None, picture: Picture | None) -> bool | None:
        """Whether ``message_id`` carries ``picture`` already; None when what it carries is not known."""
        if message_id is None or int(message_id) not in self._carried:
            return None
        return self._carried[int(message_id)] == _digest(picture)

    def while_waiting(self, message_id: int | str | None, picture: Picture | None) -> Picture | None:
        """The hand picture for a control message redrawn while its player is asked nothing: the one it carries if
        the hand is unchanged, else none (the old one goes: it shows cards no longer held) rather than a new upload
        nobody needs until the player is asked something — the message that asks them carries it."""
        if message_id is not None and self._carried.get(int(message_id), "") == _digest(picture):
            return picture
        return None

    def carried(self, message_id: int | str | None, picture: Picture | None) -> None:
        """``message_id`` now carries ``picture`` (posted with it, or edited to it)."""
        if message_id is None:
            return
        self._carried[int(message_id)] = _digest(picture)
        self._carried.move_to_end(int(message_id))
        while len(self._carried) > REMEMBERED:
            self._carried.popitem(last=False)

    def forget(self, message_id: int | str | None) -> None:
        """What ``message_id`` carries is not known (an edit of it failed half-way, or it was deleted)."""
        if message_id is not None:
            self._carried.pop(int(message_id), None)


def _digest(picture: Picture | None) -> str | None:
    return hashlib.blake2b(picture.data, digest_size=16).hexdigest() if picture is not None else None
