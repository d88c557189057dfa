"""Plumbing the cogs share: answering privately, refusing, moderator checks, finding the table meant.

Every handler acknowledges its interaction first (``defer``) whenever it will touch the database or run an
engine, so Discord's 3-second limit for the first response holds however long the work takes; ``say``
then sends the real answer as a followup.  A command or button begins with ``begin`` (acknowledge, the
asker's language) or ``begin_at_table`` (that, then the table meant, or the asker told why there is none).

Servers are kept apart: a table is only ever found from an interaction of its own server (``table_here``,
``pick_table``), and a table of another server is refused exactly like a table that does not exist, so
its number reveals nothing.  Moderator status is judged for the table's server (``is_moderator``).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import discord
from discord import app_commands

from bot.discord.citations import game_of, with_why
from bot.discord.host import Host
from bot.discord.render import clip, user_key
from bot.engine import Code, Rejection
from bot.i18n import t
from bot.render.text import game_title
from bot.storage.store import SeatRow, TableRow


OPEN = ("lobby", "active")
#: table ids, versions and seats are SQLite integers: anything outside this range names nothing
MAX_ID = 2 ** 63 - 1


def judge(interaction: discord.Interaction) -> Host:
    return interaction.client  # type: ignore[return-value]


def player_key(interaction: discord.Interaction) -> str:
    return user_key(interaction.user.id)


async def say(interaction: discord.Interaction, texts: str | Sequence[str], *,
              view: discord.ui.View | None = None, files: Sequence[discord.File] = ()) -> None:
    """Answer the person who asked, privately; several texts become several messages, the last one
    carrying ``view`` and ``files``."""
    texts = [texts] if isinstance(texts, str) else list(texts)
    for i, text in enumerate(texts):
        extra: dict = {"view": view} if view is not None and i == len(texts) - 1 else {}
        if files and i == len(texts) - 1:
            extra["files"] = list(files)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **extra)
        else:
            await interaction.response.send_message(text, ephemeral=True, **extra)


async def refuse(interaction: discord.Interaction, rejection: Rejection, locale: str, game: str | None = None
                 ) -> None:
    """The refusal, with this server's ruling notes on the rule it cites (bot/referee/disputes.py) and, when it
    cites one, the "Why?" button that opens the rule (bot/discord/citations.py); ``game``: the table's, for a
    refusal whose key is not a game's own (``core.reject.…`` citing that game's "§9")."""
    text = "✋ " + rejection.message(locale)
    if rejection.rule and interaction.guild_id is not None:
        notes = await judge(interaction).store.server_rulings(str(interaction.guild_id), rule=rejection.rule)
        text += "".join("\n" + t("disputes.evidence.note", locale, rule=n.rule, text=n.text) for n in notes)
    why = with_why(None, game_of(rejection.key, rejection.rule) or game, text, locale) if rejection.rule else None
    await say(interaction, text, view=why)


async def is_moderator(interaction: discord.Interaction, table: TableRow | None) -> bool:
    """Whether the member moderates ``table``'s server: Manage Server there, or the moderator role set for
    that server (or in the bot's settings).  A member of another server moderates nothing here, whatever
    their rights at home.  ``table`` None asks about the interaction's own server (``/mod``'s gate: its
    commands then reach tables of that server only)."""
    if interaction.guild_id is None or (table is not None and not same_server(table, interaction)):
        return False
    bot = judge(interaction)
    if not interaction.permissions.manage_guild:
        configured = {r for r in ((await bot.store.guild(str(interaction.guild_id)))["moderator_role"],
                                  bot.settings.moderator_role) if r}
        roles = getattr(interaction.user, "roles", [])
        if not any(str(role.id) in configured or role.name in configured for role in roles):
            return False
    await _seen_moderating(bot, interaction)
    return True



async def _seen_moderating(bot: Host, interaction: discord.Interaction) -> None:
    """Remember a member acting as a moderator of a server: without a notice channel, moderators are told of a
    new dispute by DM, and Discord does not list a role's members to this bot (bot/discord/moderators.py)."""
    seen = bot.__dict__.setdefault("moderators_seen", set())  # this process records each one once
    key = (str(interaction.guild_id), player_key(interaction))
    if key not in seen:
        await bot.store.saw_moderator(*key, at=discord.utils.utcnow().timestamp())
        seen.add(key)


def same_server(table: TableRow, interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and table.guild_id == str(interaction.guild_id)


def home_channel_id(interaction: discord.Interaction) -> int | None:
    """The text channel tables are announced in: this channel, or the parent of this thread (None: no channel,
    which Discord sends only for interactions outside one)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return interaction.channel_id


def _reject(key: str, **params: object) -> Rejection:
    return Rejection(Code.NOT_FOUND, key, params)


def _as_id(value: object) -> int | None:
    """A table number as given (an option, a button's id); None when it cannot name a table."""
    try:
        number = int(value)  # type: ignore[call-overload]  # any value: what int() refuses is caught here
    except (TypeError, ValueError):
        return None
    return number if 0 < number <= MAX_ID else None


async def table_here(interaction: discord.Interaction, table_id: object) -> TableRow | Rejection:
    """The table numbered ``table_id`` if it belongs to the interaction's server — or, for a click in the
    player's DMs (their control message), if the clicker sits at it; any other table gets the same answer
    as one that does not exist."""
    number = _as_id(table_id)
    bot = judge(interaction)
    table = await bot.store.get_table(number) if number is not None else None
    if table is not None and interaction.guild_id is None:
        return table if at_hand(interaction, table, await bot.store.seats(table.id)) else no_table(table_id)
    if table is None or not same_server(table, interaction):
        return no_table(table_id)
    return table


def at_hand(interaction: discord.Interaction, table: TableRow, seats: Sequence[SeatRow]) -> bool:
    """``table_here``'s test on a table already read: a table of the interaction's server, or for a click in
    the player's DMs, one they sit at."""
    if interaction.guild_id is None:
        return any(s.user_id == player_key(interaction) for s in seats)
    return same_server(table, interaction)


def no_table(table_id: object) -> Rejection:
    """What a table of another server, or none, is answered: the same words."""
    return _reject("core.reject.no_table", table=clip(str(table_id), 20))


async def pick_table(interaction: discord.Interaction, table_id: int | None,
                     statuses: Iterable[str] = OPEN) -> TableRow | Rejection:
    """The table a command means: the number given (a table of this server), else the table whose thread
    this is (whatever its state: the referee then says why it cannot), else the asker's only table with one
    of ``statuses`` in this channel."""
    bot = judge(interaction)
    statuses = tuple(statuses)
    if table_id is not None:
        return await table_here(interaction, table_id)
    in_thread = [tb for tb in await bot.store.find_tables(thread_id=str(interaction.channel_id), limit=1)
                 if same_server(tb, interaction)]
    if in_thread:
        return in_thread[0]
    here = [tb for tb in await bot.store.find_tables(status=statuses, channel_id=str(home_channel_id(interaction)),
                                                     user_id=player_key(interaction))
            if same_server(tb, interaction)]
    if len(here) == 1:
        return here[0]
    if not here:
        return _reject("discord.reject.no_table_here")
    return _reject("discord.reject.which_table", tables=", ".join(f"#{tb.id}" for tb in here[:10]))


async def begin(interaction: discord.Interaction, *, private: bool = True) -> str:
    """The first step of a command or button: the interaction acknowledged (privately, "thinking…", unless
    ``private=False``: a public answer, or a message edited in place), and the language to answer in."""
    if private:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    return await judge(interaction).locale_for(interaction)


async def begin_at_table(interaction: discord.Interaction, table_id: int | None, statuses: Iterable[str] = OPEN,
                         *, private: bool = True) -> tuple[TableRow | None, str]:
    """``begin``, then the table the command means (``pick_table``) and the language.  No table (None): the
    asker has been told why (``refuse``), and the command has nothing more to do."""
    locale = await begin(interaction, private=private)
    found = await pick_table(interaction, table_id, statuses)
    if isinstance(found, Rejection):
        await refuse(interaction, found, locale)
        return None, locale
    return found, locale


async def table_choices(interaction: discord.Interaction, current: str,
                        statuses: tuple[str, ...] = OPEN) -> list[app_commands.Choice[int]]:
    """Tables of this channel for a ``table`` option: number, game and players."""
    bot = judge(interaction)
    locale = await bot.locale_for(interaction)
    choices = []
    tables = await bot.store.find_tables(status=statuses, channel_id=str(home_channel_id(interaction)), limit=25)
    for table in tables:
        if not same_server(table, interaction):
            continue
        if current and not str(table.id).startswith(current.strip().lstrip("#")):
            continue
        seats = await bot.store.seats(table.id)
        status = t(f"core.status.{table.status}", locale)
        players = ", ".join(s.name for s in seats)
        label = f"#{table.id} {game_title(bot.games[table.game], locale)} · {status} · {players}"
        choices.append(app_commands.Choice(name=clip(label, 100), value=table.id))
    return choices
