"""Attendance on Discord: the buttons of a tournament's message to check in before round 1 and to ask for a
bye in the next round (docs/tournaments.md, T-19).  No slash commands: a button is what a player looks for on
the tournament's message, and ``/tournament`` is at Discord's size limit for one command.
"""
from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.interactions import player_key, refuse, say
from bot.engine import Rejection
from bot.i18n import t
from cogs.tournament import member_roles


class Attendance(commands.Cog):
    def __init__(self, bot: JudgeBot):
        self.bot = bot
        self.desk = bot.tournaments
        self.director = bot.tournaments.director

    async def _tournament(self, interaction: discord.Interaction, tournament_id: int):
        return await self.bot.get_cog("Tournament")._button_tournament(interaction, tournament_id)  # type: ignore

    async def on_check_in(self, interaction: discord.Interaction, tournament_id: int) -> None:
        found = await self._tournament(interaction, tournament_id)
        if found is None:
            return
        tour, locale = found
        done = await self.director.check_in(tour.id, player_key(interaction), roles=member_roles(interaction))
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        await self.desk.refresh(tour.id)
        await say(interaction, t("tournament.discord.checked_in", locale, tournament=tour.id))

    async def on_bye(self, interaction: discord.Interaction, tournament_id: int) -> None:
        found = await self._tournament(interaction, tournament_id)
        if found is None:
            return
        tour, locale = found
        done = await self.director.request_bye(tour.id, player_key(interaction))
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        asked, number = done
        points = "½" if tour.settings.get("requested_bye", "draw") == "draw" else "0"
        await say(interaction, t("tournament.discord.bye_asked" if asked else "tournament.discord.bye_taken_back",
                                 locale, round=number, points=points))


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Attendance(bot))
