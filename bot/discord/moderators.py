"""Telling a server's moderators: a new dispute, a table frozen until a moderator decides (issue 27, item 6).

Where a server set a notice channel (``/settings notice-channel``, ``python -m bot server``), the notice is posted
there, mentioning the moderator role when one is set (that mention is the role's members' notification).
Without a channel it goes by DM to the server's moderators the bot knows: Discord lists a role's members to a bot
only with the privileged Server Members intent, which this bot does not ask for (docs/discord.md §1), so the
bot keeps the members it has seen act as moderators there (``guild_moderators``, recorded by ``is_moderator``)
and asks Discord afresh, member by member (Get Guild Member, not privileged), whether each still is one.  When
it knows none, the server's owner is told (``Guild.owner_id`` comes with the server, no intent needed).  A
moderator seated at the table is left out of the DMs: they may not decide it, and a private dispute's text is
not theirs to read.  Whom a notice can reach is said truthfully: to the dispute's author when it is raised
(``reach``), and by DM when the delivery reached nobody after all; and the first table opened on a server
without a channel asks for one (``ask_for_channel``).

Each notice is an outbox row of its own (kind ``moderators``, bot/referee/steps.py), delivered with the same
guarantee as the table's posts (bot/discord/delivery.py): every post carries a nonce of the row and recipient,
and after an attempt that may have reached Discord the channel is looked through first, so a crash neither
loses nor doubles a notice.
"""
from __future__ import annotations

import logging
from typing import Any, Mapping, Sequence

import discord

from bot.discord.render import discord_user_id, display_names, user_key
from bot.engine import Game
from bot.i18n import t
from bot.render.text import game_title
from bot.storage.store import SeatRow, TableRow

log = logging.getLogger("judge.discord.moderators")


def notice_text(game: Game, table: TableRow, seats: Sequence[SeatRow], payload: Mapping[str, Any], locale: str,
                *, role: str | None = None, move_line: str | None = None) -> str:
    """The notice as moderators read it: what happened, at which table (a link to its thread), the disputed move
    in words as the log shows it (``move_line``: public, so fit for a channel), who disputes it, and how to decide
    (the buttons under it, or the commands)."""
    where = f"<#{table.thread_id}>" if table.thread_id else f"№{table.id}"
    head = f"<@&{role}> " if role else ""
    title = game_title(game, locale)
    if payload["what"] == "dispute":
        by = next((n for s, n in zip(seats, display_names(seats)) if s.user_id == payload.get("by")), "?")
        text = t("disputes.moderators.raised", locale, id=payload["dispute"], table=table.id, game=title,
                 where=where, who=by, move=payload["move"])
        if move_line:
            text += "\n" + t("disputes.moderators.move", locale, line=move_line)
        said = payload.get("text")
        text += "\n" + (t("disputes.moderators.text", locale, text=said) if said is not None
                        else t("disputes.moderators.private", locale))
        text += "\n" + t("disputes.moderators.decide", locale, id=payload["dispute"])
    else:
        why = t(str(payload.get("key") or "upgrade.cannot.error"), locale, **(payload.get("params") or {}))
        text = t("disputes.moderators.frozen", locale, table=table.id, game=title, where=where, why=why)
    return head + text


async def is_server_moderator(bot: Any, guild_id: str | None, user: str) -> bool:
    """Whether ``user`` (a user key) moderates the server now, asked of Discord (Manage Server, the owner, or the
    moderator role of the server or of the bot's settings); False when Discord does not know them there."""
    uid = discord_user_id(user)
    guild = bot.get_guild(int(guild_id)) if guild_id and guild_id.isdigit() else None
    if uid is None or guild is None:
        return False
    try:
        member = await guild.fetch_member(uid)
    except discord.HTTPException:
        return False
    if member.id == guild.owner_id or member.guild_permissions.manage_guild:
        return True
    configured = {r for r in ((await bot.store.guild(guild_id))["moderator_role"], bot.settings.moderator_role) if r}
    return any(str(role.id) in configured or role.name in configured for role in member.roles)


async def recipients(bot: Any, table: TableRow, seats: Sequence[SeatRow]) -> list[int]:
    """The Discord ids a notice goes to by DM: the moderators seen acting on the table's server who moderate it
    still, not seated at the table; none known, the server's owner unless seated."""
    seated = {s.user_id for s in seats}
    found = []
    for user in await bot.store.known_moderators(table.guild_id):
        uid = discord_user_id(user)
        if user not in seated and uid is not None and await is_server_moderator(bot, table.guild_id, user):
            found.append(uid)
    owner = _owner(bot, table.guild_id)
    if not found and owner is not None and user_key(owner) not in seated:
        found.append(owner)
    return found


def _owner(bot: Any, guild_id: str | None) -> int | None:
    """The server's owner: sent with the server itself (GUILD_CREATE), without the Server Members intent."""
    guild = bot.get_guild(int(guild_id)) if guild_id and guild_id.isdigit() else None
    return guild.owner_id if guild is not None else None


async def reach(bot: Any, table: TableRow, seats: Sequence[SeatRow]) -> str:
    """Where a notice of this table would go, asked of nothing but what the bot holds (the answer to a dispute
    must not wait on Discord): "channel", "dm" (a moderator seen at work there or the owner, not seated) or
    "nobody"."""
    if table.guild_id is None:
        return "nobody"
    if (await bot.store.guild(table.guild_id)).get("notice_channel"):
        return "channel"
    seated = {s.user_id for s in seats}
    owner = _owner(bot, table.guild_id)
    known = [u for u in await bot.store.known_moderators(table.guild_id) if u not in seated]
    return "dm" if known or (owner is not None and user_key(owner) not in seated) else "nobody"


async def ask_for_channel(bot: Any, guild_id: str, opener_moderates: bool, locale: str) -> str | None:
    """On a server's first table, when it has no notice channel: the request to set one.  Returned as a line for
    the opener's own answer when they may set it (no extra request to Discord); otherwise sent to the owner by
    DM once, and None."""
    if (await bot.store.guild(guild_id)).get("notice_channel") or await bot.store.guild_table_count(guild_id) != 1:
        return None
    if opener_moderates:
        return t("disputes.moderators.ask_channel", locale)
    owner = _owner(bot, guild_id)
    if owner is None:
        return None
    try:
        dm = await bot.create_dm(discord.Object(owner))
        guild = bot.get_guild(int(guild_id))
        await dm.send(t("disputes.moderators.ask_owner", locale, server=guild.name if guild else guild_id),
                      allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:  # the owner's DMs are closed: the first dispute will say so
        log.info("the owner of server %s cannot be asked for a notice channel: %s", guild_id, exc.code)
    return None


def role_mention(role: str | None, guild: discord.Guild | None) -> str | None:
    """The moderator role as a mention: set by id (``/settings``), or by name in the bot's settings."""
    if not role:
        return None
    if role.isdigit():
        return role
    found = discord.utils.get(guild.roles, name=role) if guild is not None else None
    return str(found.id) if found is not None else None
