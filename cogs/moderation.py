"""Moderators' commands: failed deliveries, cancelling any table, hidden state, rollback and rulings.

Moderators are members with Manage Server, or with the moderator role set by ``/settings moderator-role``
(or ``moderator_role`` in the bot's settings).  Everything here answers privately; what a moderator does to
a table (rollback, ruling, cancellation) is announced in its thread, naming them and their reason.

Discord hides ``/mod`` from members without Manage Server (``default_permissions``), but that is only the
default a server may change (Server Settings → Integrations), and it knows nothing of the moderator role:
the check that counts is ``interaction_check``, at every use.
"""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.client import JudgeBot
from bot.discord.interactions import (begin, begin_at_table, is_moderator, pick_table, player_key, refuse, say,
                                      table_choices)
from bot.discord.locale import L
from bot.discord.render import board_texts, clip, named, pack
from bot.engine import Rejection
from bot.i18n import t
from bot.referee import moderation, oversight

ALL_STATUSES = ("lobby", "active", "finished", "cancelled")


class Moderation(commands.Cog):
    mod = app_commands.Group(name=L("discord.cmd.mod"), description=L("discord.cmd.mod.desc"), guild_only=True,
                             default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # of this server; every command below reaches only tables of this server (pick_table)
        return await is_moderator(interaction, None)

    @mod.command(name=L("discord.cmd.failures"), description=L("discord.cmd.failures.desc"))
    async def failures(self, interaction: discord.Interaction):
        locale = await begin(interaction)
        lines = []
        for message_id, table_id, error in await self.bot.store.failed_messages(limit=50):
            table = await self.bot.store.get_table(table_id)
            if table is not None and table.guild_id == str(interaction.guild_id):
                lines.append(t("discord.mod.failure", locale, message=message_id, table=table_id,
                               error=clip(error or "?", 200)))
        from bot.render.notices import frozen_line
        from bot.referee.upgrade import frozen_tables
        for table in await frozen_tables(self.bot.store):  # tables this release cannot play
            if table.guild_id == str(interaction.guild_id) and table.frozen is not None:  # always set on these
                lines.append(frozen_line(table.frozen, table.id, locale))
        if not lines:
            return await say(interaction, t("core.term.no_failures", locale))
        await say(interaction, pack([t("discord.mod.failures_header", locale), *lines])[:3])

    @mod.command(name=L("discord.cmd.cancel"), description=L("discord.cmd.mod_cancel.desc"))
    @app_commands.rename(table=L("discord.param.table"), reason=L("discord.param.reason"))
    @app_commands.describe(table=L("discord.param.table.desc"), reason=L("moderation.param.reason.desc"))
    async def cancel(self, interaction: discord.Interaction, table: int, reason: app_commands.Range[str, 1, 300]):
        found, locale = await begin_at_table(interaction, table)
        if found is None:
            return
        # refused at a table where the moderator plays (bot/referee/oversight.py)
        done = await moderation.cancel(self.bot.referee, found.id, moderator=player_key(interaction), reason=reason)
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        await self.bot.refresh_lobby(found.id)
        await say(interaction, t("core.msg.cancelled", locale, table=found.id))
        if found.status == "lobby":  # no closing message goes to its thread: archive it here, after the answer
            await self.bot.archive_thread(found.id)

    @mod.command(name=L("discord.cmd.hidden"), description=L("discord.cmd.hidden.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def hidden(self, interaction: discord.Interaction, table: int):
        """Every seat's view, privately to the moderator: what each player knows, hence everything hidden."""
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        # refused to a moderator seated there, and logged (bot/referee/oversight.py)
        seen = await oversight.hidden_state(self.bot.referee, found.id, moderator=player_key(interaction))
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        _, seats, state = seen
        game = self.bot.games[found.game]
        texts = []
        for seat in seats:
            header = t("discord.mod.seat_header", locale, table=found.id, seat=seat.seat + 1, name=named(seat.name))
            texts += board_texts(game, seats, game.view(state, seat.seat), locale, header)
        await say(interaction, pack(texts)[:10])

    @mod.command(name=L("discord.cmd.rollback"), description=L("moderation.cmd.rollback.desc"))
    @app_commands.rename(table=L("discord.param.table"), move=L("moderation.param.move"),
                         reason=L("discord.param.reason"), reopen=L("discord.param.reopen"))
    @app_commands.describe(table=L("discord.param.table.desc"), move=L("moderation.param.move.desc"),
                           reason=L("moderation.param.reason.desc"), reopen=L("discord.param.reopen.desc"))
    async def rollback(self, interaction: discord.Interaction, table: int, move: app_commands.Range[int, 0],
                       reason: app_commands.Range[str, 1, 300], reopen: bool = False):
        """Back to the position right after a move of the public log (bot/referee/moves.py); the moves after it stay
        in the log, struck out.  The versions are for the terminal's operator (``python -m bot mod``)."""
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        result = await moderation.rollback(self.bot.referee, found.id, move=move, moderator=player_key(interaction),
                                           reason=reason, reopen=reopen)
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        self.bot.schedule_bots(found.id)
        if found.status == "finished":  # the game is on again: the lobby message says so
            await self.bot.refresh_lobby(found.id)
        data = result.events[0]["data"]
        await say(interaction, t("moderation.rolled_back", locale, table=found.id, move=data["move"], to=data["to"],
                                 version=result.version))

    @mod.command(name=L("discord.cmd.ruling"), description=L("discord.cmd.ruling.desc"))
    @app_commands.rename(table=L("discord.param.table"), text=L("discord.param.text"))
    @app_commands.describe(table=L("discord.param.table.desc"), text=L("discord.param.text.desc"))
    async def ruling(self, interaction: discord.Interaction, table: int, text: app_commands.Range[str, 1, 1500]):
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        result = await moderation.ruling(self.bot.referee, found.id, moderator=player_key(interaction), text=text)
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        await say(interaction, t("core.term.done", locale))

    @rollback.autocomplete("move")
    async def _moves(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The moves of the chosen table's log a rollback may return to, newest first."""
        found = await pick_table(interaction, getattr(interaction.namespace, "table", None), ALL_STATUSES)
        if isinstance(found, Rejection) or found.status == "lobby":
            return []
        locale = await self.bot.locale_for(interaction)
        events = await self.bot.referee.history(found.id)
        seats = await self.bot.store.seats(found.id)
        return [app_commands.Choice(name=label, value=number) for label, number in
                records.move_choices(self.bot.games[found.game], seats, events, locale, current)]

    @cancel.autocomplete("table")
    @hidden.autocomplete("table")
    @rollback.autocomplete("table")
    @ruling.autocomplete("table")
    async def _tables(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current, ALL_STATUSES)


class Pause(commands.Cog):
    """``/pause`` and ``/resume``: a moderator stops a table and lets it play on (bot/referee/moderation.py).  Commands of
    their own because ``/mod`` and ``/disputes`` are at Discord's size limit for one command; hidden and checked
    like ``/mod``."""

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await is_moderator(interaction, None)

    @app_commands.command(name=L("clock.cmd.pause"), description=L("clock.cmd.pause.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(table=L("discord.param.table"), reason=L("discord.param.reason"))
    @app_commands.describe(table=L("discord.param.table.desc"), reason=L("moderation.param.reason.desc"))
    async def pause(self, interaction: discord.Interaction, table: int, reason: app_commands.Range[str, 1, 300]):
        await self._clock(interaction, table, moderation.pause, reason, "clock.paused")

    @app_commands.command(name=L("clock.cmd.resume"), description=L("clock.cmd.resume.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def resume(self, interaction: discord.Interaction, table: int):
        await self._clock(interaction, table, moderation.resume, None, "clock.resumed")

    async def _clock(self, interaction: discord.Interaction, table: int, step, reason: str | None, done: str):
        """A pause or its end: the table's thread is told (through the outbox), the moderator privately."""
        found, locale = await begin_at_table(interaction, table)
        if found is None:
            return
        result = await step(self.bot.referee, found.id, moderator=player_key(interaction), reason=reason)
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        if done == "clock.resumed":  # deadlines moved on only where one runs (a time control, the game's timer)
            after = await self.bot.store.get_table(found.id)
            if after is not None and after.time_control is None and after.next_deadline is None:
                done = "clock.resumed_untimed"
        await say(interaction, t(done, locale, table=found.id))


class ServerSettings(commands.Cog):
    settings = app_commands.Group(name=L("discord.cmd.settings"), description=L("discord.cmd.settings.desc"),
                                  guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return interaction.permissions.manage_guild

    @settings.command(name=L("discord.cmd.language"), description=L("discord.cmd.language.desc"))
    @app_commands.rename(language=L("discord.param.language"))
    @app_commands.describe(language=L("discord.param.language.desc"))
    @app_commands.choices(language=[
        app_commands.Choice(name=L("discord.language.ru"), value="ru"),
        app_commands.Choice(name=L("discord.language.uk"), value="uk"),
        app_commands.Choice(name=L("discord.language.en"), value="en"),
        app_commands.Choice(name=L("discord.language.auto"), value="auto"),
    ])
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]):
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = None if language.value == "auto" else language.value
        assert interaction.guild_id is not None  # the settings group is guild_only: Discord sends it from a server
        await self.bot.set_guild_locale(interaction.guild_id, chosen)
        locale = await self.bot.locale_for(interaction)
        await say(interaction, t("discord.settings.language_set", locale,
                                 language=t(f"discord.language.{language.value}", locale)))

    @settings.command(name=L("discord.cmd.moderator_role"), description=L("discord.cmd.moderator_role.desc"))
    @app_commands.rename(role=L("discord.param.role"))
    @app_commands.describe(role=L("discord.param.role.desc"))
    async def moderator_role(self, interaction: discord.Interaction, role: discord.Role | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.store.set_guild(str(interaction.guild_id), moderator_role=str(role.id) if role else None)
        locale = await self.bot.locale_for(interaction)
        await say(interaction, t("discord.settings.role_set", locale, role=role.mention if role else "—"))

    @settings.command(name=L("discord.cmd.notice_channel"), description=L("discord.cmd.notice_channel.desc"))
    @app_commands.rename(channel=L("discord.param.notice_channel"))
    @app_commands.describe(channel=L("discord.param.notice_channel.desc"))
    async def notice_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None):
        """Where the server's moderators are told of a new dispute or a stopped table (bot/discord/moderators.py);
        none: by DM to the moderators the bot has seen at work here."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.store.set_guild(str(interaction.guild_id), notice_channel=str(channel.id) if channel else None)
        locale = await self.bot.locale_for(interaction)
        await say(interaction, t("discord.settings.notice_set", locale, channel=channel.mention) if channel
                  else t("discord.settings.notice_cleared", locale))

    @settings.command(name=L("discord.cmd.public_pages"), description=L("discord.cmd.public_pages.desc"))
    @app_commands.rename(show=L("discord.param.public_pages"))
    @app_commands.describe(show=L("discord.param.public_pages.desc"))
    @app_commands.choices(show=[app_commands.Choice(name=L(f"discord.public_pages.{v}"), value=v) for v in ("on", "off")])
    async def public_pages(self, interaction: discord.Interaction, show: app_commands.Choice[str]):
        """Whether the server's tables and tournaments are on the public pages (bot/web; docs/web.md): off, every
        page of theirs answers as for an id that never existed."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.store.set_guild(str(interaction.guild_id), public=int(show.value == "on"))
        locale = await self.bot.locale_for(interaction)
        await say(interaction, t(f"discord.settings.public_{show.value}", locale))


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Moderation(bot))
    await bot.add_cog(ServerSettings(bot))
    await bot.add_cog(Pause(bot))
