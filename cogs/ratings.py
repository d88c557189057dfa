"""Ratings in Discord: ``/profile [player] [game]``, ``/leaderboard game [page]`` with buttons to page, and
``/my-profile visible`` (docs/ratings.md).  Answers are private (ephemeral) and short: a phone's width."""
from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.components import leaderboard_view
from bot.discord.interactions import begin, player_key, say
from bot.discord.locale import L
from bot.discord.render import named, user_key
from bot.i18n import t
from bot.ratings.outcomes import listed_games, rated_games
from bot.ratings.ratings import Ratings
from bot.ratings.render import board_text, game_name, profile_text
from bot.render.picture.rating import rating_history

GAMES = listed_games()
_GAME_CHOICES = [app_commands.Choice(name=L(f"{g}.title"), value=g) for g in GAMES]


class RatingsCog(commands.Cog, name="Ratings"):
    def __init__(self, bot: JudgeBot):
        self.bot = bot
        self.ratings = Ratings(bot.store)

    @app_commands.command(name=L("ratings.cmd.profile"), description=L("ratings.cmd.profile.desc"))
    @app_commands.guild_only()
    @app_commands.rename(player=L("ratings.param.player"), game=L("ratings.param.game"))
    @app_commands.describe(player=L("ratings.param.player.desc"), game=L("ratings.param.game.desc"))
    @app_commands.choices(game=_GAME_CHOICES)
    async def profile(self, interaction: discord.Interaction, player: discord.User | None = None,
                      game: app_commands.Choice[str] | None = None):
        locale = await begin(interaction)
        who = player or interaction.user
        key, own = user_key(who.id), who.id == interaction.user.id
        if not own and await self.ratings.hidden(key):
            return await say(interaction, t("ratings.profile.hidden", locale, name=named(who.display_name)))
        found = await self.ratings.profile(str(interaction.guild_id), key, game.value if game else None)
        text = profile_text(found, named(who.display_name), locale, front="discord", own=own)
        rated = [r for r in found.games if r.history]
        files = []
        if rated:  # the asked game's line, or the one with the most rated games
            shown = max(rated, key=lambda r: r.games)
            data = rating_history(game_name(shown.game, locale), [s for _, s in shown.history], locale)
            files.append(discord.File(io.BytesIO(data), filename=f"rating-{shown.game}.png",
                                      description=t("ratings.picture.title", locale, game=game_name(shown.game, locale),
                                                    n=len(shown.history))))
        await say(interaction, text, files=files)

    @app_commands.command(name=L("ratings.cmd.leaderboard"), description=L("ratings.cmd.leaderboard.desc"))
    @app_commands.guild_only()
    @app_commands.rename(game=L("ratings.param.game"), page=L("ratings.param.page"))
    @app_commands.describe(game=L("ratings.param.game.desc"), page=L("ratings.param.page.desc"))
    @app_commands.choices(game=_GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                          page: app_commands.Range[int, 1, 100_000] = 1):
        locale = await begin(interaction)
        text, view = await self._board(interaction, game.value, page, locale)
        await say(interaction, text, view=view)

    async def on_leaderboard_page(self, interaction: discord.Interaction, game_index: int, page: int) -> None:
        """◀ / ▶ under a leaderboard: the same private message shows the other page."""
        locale = await begin(interaction, private=False)  # the clicked message is edited in place
        if not 0 <= game_index < len(rated_games()) or interaction.guild_id is None:
            return await say(interaction, t("discord.unavailable", locale))
        text, view = await self._board(interaction, rated_games()[game_index], page, locale)
        await interaction.edit_original_response(content=text, view=view)

    async def _board(self, interaction: discord.Interaction, game: str, page: int,
                     locale: str) -> tuple[str, discord.ui.View | None]:
        if game not in rated_games():
            return t("ratings.board.unrated", locale, game=game_name(game, locale)), None
        board = await self.ratings.leaderboard(str(interaction.guild_id), game, page)
        names = await self.ratings.names([r.user_id for r in board.rows])
        shown = {u: named(n) for u, n in names.items()}
        return board_text(board, shown, locale), leaderboard_view(rated_games().index(game), board.page, board.pages,
                                                                 locale)

    @app_commands.command(name=L("ratings.cmd.privacy"), description=L("ratings.cmd.privacy.desc"))
    @app_commands.rename(visible=L("ratings.param.visible"))
    @app_commands.describe(visible=L("ratings.param.visible.desc"))
    async def privacy(self, interaction: discord.Interaction, visible: bool):
        locale = await begin(interaction)
        await self.ratings.set_hidden(player_key(interaction), not visible)
        await say(interaction, t("ratings.visibility_set." + ("shown" if visible else "hidden"), locale))


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(RatingsCog(bot))
