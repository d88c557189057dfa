"""The rules at hand in Discord (docs/discord.md "Rules and citations"): ``/rules game [query]`` — the game's guide
by section, any citation the referee prints (``§1.6``, ``Козыри``, ``CG-14``) or the entries a word is found in —
and the answer to a "Why?" click under a message that cites a rule (bot/discord/citations.py).  Every answer is
private and fits one message; with ``web.base_url`` set it links the rule on the public rules page."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.citations import why_items
from bot.discord.client import JudgeBot
from bot.discord.interactions import begin, say
from bot.discord.locale import L
from bot.discord.render import clip
from bot.rules import GAMES, catalogue, lookup
from bot.rules.catalogue import normalise
from bot.rules.text import DISCORD_LIMIT, guide_text, lookup_text
from bot.web.links import base_url

_GAME_CHOICES = [app_commands.Choice(name=L(f"{g}.title"), value=g) for g in GAMES]
#: a query as typed: longer names no citation and no word of the rules
QUERY_MAX = 100
AUTOCOMPLETE = 25


class RulesCog(commands.Cog, name="Rules"):
    def __init__(self, bot: JudgeBot):
        self.bot = bot
        for game in GAMES:  # read and validated at start-up: a broken rules file stops the bot, not a click
            catalogue(game)

    @app_commands.command(name=L("rules.cmd.rules"), description=L("rules.cmd.rules.desc"))
    @app_commands.rename(game=L("rules.param.game"), query=L("rules.param.query"))
    @app_commands.describe(game=L("rules.param.game.desc"), query=L("rules.param.query.desc"))
    @app_commands.choices(game=_GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                    query: app_commands.Range[str, 1, QUERY_MAX] | None = None):
        locale = await begin(interaction)
        if query is None or not query.strip():
            return await say(interaction, guide_text(catalogue(game.value), locale, limit=DISCORD_LIMIT))
        found = lookup(game.value, query)
        text = lookup_text(found, locale, limit=DISCORD_LIMIT, base_url=self._links(), angled=True)
        # a word's matches, or the nearest to an unknown citation, open from a menu under the answer
        listed = list(found.matches or found.nearest)
        items = why_items(game.value, listed, locale) if found.entry is None and listed else []
        view = None
        if items:
            view = discord.ui.View(timeout=None)
            for item in items:
                view.add_item(item)
        await say(interaction, text, view=view)

    @rules.autocomplete("query")
    async def query_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Citations of the chosen game: those starting with what is typed first, then those holding it."""
        game = getattr(interaction.namespace, "game", None)
        if game not in GAMES:
            return []
        locale = await self.bot.locale_for(interaction)
        typed = normalise(current) if current.strip() else ""
        entries = catalogue(game).entries
        first = [e for e in entries if normalise(e.cite).startswith(typed)]
        then = [e for e in entries if e not in first and typed and typed in normalise(e.title_in(locale))]
        return [app_commands.Choice(name=clip(f"{e.cite} — {e.title_in(locale)}", 100), value=e.cite)
                for e in (first + then)[:AUTOCOMPLETE]]

    async def on_why(self, interaction: discord.Interaction, game: str, cite: str) -> None:
        """A "Why?" click (or a pick in its menu): the cited rule, privately."""
        locale = await begin(interaction)
        found = lookup(game, cite)
        await say(interaction, lookup_text(found, locale, limit=DISCORD_LIMIT, base_url=self._links(), angled=True))

    def _links(self) -> str | None:
        return base_url(self.bot.settings)


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(RulesCog(bot))
