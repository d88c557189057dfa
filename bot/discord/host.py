"""What the Discord modules need from the running bot, as a protocol, so that they depend on this small
interface and not on bot/discord/client.py (which imports them: no import circle).  ``JudgeBot`` implements
it; it is also a ``discord.Client``, whose methods (``get_partial_messageable``, ``fetch_channel``,
``create_dm``...) the delivery uses."""
from __future__ import annotations

from typing import Any, Mapping, Protocol

import discord

from bot.discord.grips import Grips
from bot.engine import Game
from bot.process.config import Settings
from bot.referee.service import Referee
from bot.storage.store import Store, TableRow


class Channels(Protocol):
    """The ``discord.Client`` methods that find a channel or a server by its id, or open a DM."""

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


class Host(Channels, Protocol):
    store: Store
    referee: Referee
    settings: Settings
    games: Mapping[str, Game]
    grips: Grips

    @property
    def user(self) -> Any: ...  # read-only: discord.Client's property

    async def locale_for(self, interaction: discord.Interaction) -> str: ...

    async def table_locale(self, table: TableRow) -> str: ...

    async def refresh_lobby(self, table_id: int) -> None: ...

    async def archive_thread(self, table_id: int) -> None: ...

    async def guild_locale(self, guild_id: int | str | None) -> str | None: ...

    def schedule_bots(self, table_id: int) -> None: ...
