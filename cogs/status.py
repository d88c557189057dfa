"""``/judge status``: an admin's view of the bot on this server (Manage Server), in the server's language — the
release, the uptime, the server's open tables by game and state, its messages still to deliver, the last backup's
age, and its tables that are stopped (frozen) or have messages that failed for good.  Counts and table numbers
only: nobody is named.  The operator's view of the whole process is /healthz and /metrics (docs/operations.md)."""
from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.interactions import begin, say
from bot.discord.locale import L
from bot.i18n import normalise_locale, t
from bot.process.config import release
from bot.process.metrics import METRICS
from bot.storage.operations import failed_tables, figures
from bot.storage.upgrades import frozen_tables

STATES = ("lobby", "active", "paused", "frozen")


def span(seconds: float, locale: str) -> str:
    """A duration in short units: ``2 d 3 h``, ``5 h 12 min``, ``7 min``."""
    minutes = max(0, int(seconds // 60))
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    d, h, m = (t(f"ops.unit.{u}", locale) for u in "dhm")
    if days:
        return f"{days} {d} {hours} {h}"
    if hours:
        return f"{hours} {h} {mins} {m}"
    return f"{mins} {m}"


def numbers(ids: list[int]) -> str:
    shown = ", ".join(f"#{i}" for i in ids[:20])
    return shown + (" …" if len(ids) > 20 else "")


class Status(commands.Cog):
    judge = app_commands.Group(name=L("ops.cmd.judge"), description=L("ops.cmd.judge.desc"), guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # the default permission is only a default a server may change: Manage Server is checked at every use
        return interaction.permissions.manage_guild

    @judge.command(name=L("ops.cmd.status"), description=L("ops.cmd.status.desc"))
    async def status(self, interaction: discord.Interaction):
        await begin(interaction)
        guild = str(interaction.guild_id)
        locale = await self.bot.guild_locale(guild) or normalise_locale(
            str(interaction.guild_locale) if interaction.guild_locale else None, self.bot.settings.locale)
        await say(interaction, "\n".join(await self.lines(guild, locale)))

    async def lines(self, guild: str, locale: str) -> list[str]:
        store = self.bot.store
        now = time.time()
        found = await figures(store, now=now, backup_folder=self.bot.settings.backups.folder, guild_id=guild)
        lines = [t("ops.status.header", locale, release=release(), uptime=span(now - METRICS.started, locale))]
        by_game: dict[str, list[str]] = {}
        for (game, state), count in sorted(found.open_tables.items(), key=lambda kv: (kv[0][0], STATES.index(
                kv[0][1]) if kv[0][1] in STATES else 9)):
            by_game.setdefault(game, []).append(f"{t(f'ops.status.state.{state}', locale)} {count}")
        if by_game:
            tables = "; ".join(f"{t(f'{game}.title', locale)} — {', '.join(parts)}" for game, parts in by_game.items())
            lines.append(t("ops.status.tables", locale, tables=tables))
        else:
            lines.append(t("ops.status.no_tables", locale))
        lines.append(t("ops.status.outbox", locale, count=found.outbox_pending,
                       age=span(found.outbox_oldest_age, locale)) if found.outbox_pending
                     else t("ops.status.outbox_empty", locale))
        lines.append(t("ops.status.backup", locale, age=span(found.last_backup_age, locale))
                     if found.last_backup_age is not None else t("ops.status.no_backup", locale))
        frozen = [table.id for table in await frozen_tables(store, guild)]
        failed = await failed_tables(store, guild)
        if frozen:
            lines.append(t("ops.status.frozen", locale, tables=numbers(frozen)))
        if failed:
            lines.append(t("ops.status.failed", locale, tables=numbers(failed)))
        if not frozen and not failed:
            lines.append(t("ops.status.all_well", locale))
        return lines


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Status(bot))
