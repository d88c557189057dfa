"""Citations that open: a message that cites a rule — a refusal, a move or end post, a page of the log — carries a
"Почему?" / "Чому?" / "Why?" button (a menu when it cites several), answered privately with the rule's entry
(bot/rules) by the ``Rules`` cog.

The components survive a restart like every other (bot/discord/components.py): the custom_id carries the game and
the citation itself (``j:why:<game>:<citation>``; the menu ``j:whys:<game>``, its values the citations), never an
index into a catalogue that a new release could renumber.  Nothing about a hand or a hidden card is in a label:
a citation names a rule, and only one the message already shows.

This module imports nothing of interactions.py (which imports it for ``refuse``), so a click is routed here by
the cog's name, with its own last-resort answer.
"""
from __future__ import annotations

import logging
import re
from typing import Any, Protocol, Self, cast

import discord
from discord import ui
from discord.ext import commands

from bot.discord.render import clip
from bot.i18n import t
from bot.rules import GAMES, catalogue, find_cites
from bot.rules.catalogue import Entry

log = logging.getLogger("judge.discord.citations")

_GAME = "(" + "|".join(GAMES) + ")"
#: a citation in a custom_id: at most this long (``j:why:bloodwood:`` leaves 84 of Discord's 100)
CITE_MAX = 80
BUTTON_LABEL = 80
OPTION_LABEL = 100
MENU_SIZE = 25


class _WhyAnswerer(Protocol):
    """The ``Rules`` cog as this module sees it (named, not imported: the cog imports this module)."""

    async def on_why(self, interaction: discord.Interaction, game: str, cite: str) -> None: ...


async def _route(interaction: discord.Interaction, game: str, cite: str) -> None:
    client = interaction.client  # the bot's cogs, when it is one (always, outside a bare discord.Client)
    cog = client.get_cog("Rules") if isinstance(client, commands.Bot) else None
    try:
        if cog is not None:
            await cast(_WhyAnswerer, cog).on_why(interaction, game, cite)
            return
        text = t("discord.unavailable", str(interaction.locale))
    except Exception:
        log.exception("Rules.on_why failed on %s %s", game, cite)
        text = t("discord.internal", str(interaction.locale))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass


class WhyButton(ui.DynamicItem[ui.Button], template=rf"j:why:{_GAME}:(.{{1,{CITE_MAX}}})"):
    """"Why? §6" under a message citing one rule: the rule's entry, privately."""

    def __init__(self, game: str, cite: str, label: str | None = None):
        self.game, self.cite = game, cite
        super().__init__(ui.Button(label=clip(label or cite, BUTTON_LABEL), style=discord.ButtonStyle.secondary,
                                   emoji="📖", custom_id=f"j:why:{game}:{cite}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(match.group(1), match.group(2))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.game, self.cite)


class WhySelect(ui.DynamicItem[ui.Select], template=rf"j:whys:{_GAME}"):
    """"Why?" as a menu under a message citing several rules; the value is the citation."""

    def __init__(self, game: str, options: list[discord.SelectOption] | None = None, placeholder: str | None = None):
        self.game = game
        super().__init__(ui.Select(custom_id=f"j:whys:{game}", placeholder=placeholder,
                                   options=options or [discord.SelectOption(label="·", value="·")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(match.group(1))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await _route(interaction, self.game, values[0] if values else "")


def game_of(key: str | None, rule: str | None) -> str | None:
    """The game a refusal's citation belongs to: its message key's game (``bridges.reject.…``), else the game
    whose rulings carry that id (``CG-14``); None when neither tells (a citation of no game's rules)."""
    head = (key or "").split(".", 1)[0]
    if head in GAMES:
        return head
    if rule:
        for game in GAMES:
            entry = catalogue(game).find(rule)
            if entry is not None and entry.source == "ruling":
                return game
    return None


def why_items(game: str, entries: list[Entry], locale: str) -> list[ui.Item]:
    """One button for one citation, a menu for several (the first 25)."""
    entries = [e for e in entries if len(e.cite) <= CITE_MAX]
    if not entries:
        return []
    if len(entries) == 1:
        return [WhyButton(game, entries[0].cite, t("rules.button.why", locale, cite=entries[0].cite))]
    options = [discord.SelectOption(label=clip(f"{e.cite} — {e.title_in(locale)}", OPTION_LABEL), value=e.cite)
               for e in entries[:MENU_SIZE]]
    return [WhySelect(game, options, placeholder=t("rules.select.why", locale))]


def with_why(view: ui.View | None, game: str | None, text: str | list[str], locale: str) -> ui.View | None:
    """``view`` (or a new one) with the Why button or menu for the citations ``text`` shows; unchanged when it
    cites nothing this game's catalogue knows, or when the message has no room left for it."""
    if game not in GAMES:
        return view
    shown = "\n".join(text) if isinstance(text, list) else text
    items = why_items(game, find_cites(game, shown), locale)
    if not items:
        return view
    out = view if view is not None else ui.View(timeout=None)
    try:
        for item in items:
            out.add_item(item)
    except ValueError:  # a full message (five rows): the citation still reads in the text
        return view
    return out
