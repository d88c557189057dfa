"""Languages on Discord: localised slash command names and descriptions, and the language of a reply.

Command strings are ``locale_str`` values carrying an i18n key; Discord gets the English text as the
default and Russian / Ukrainian as localisations.  No English localisation: it would repeat the default,
which Discord shows to every locale without one, and count twice (en-US, en-GB) against a command's 8000
characters.  Replies follow the server's
override if a moderator set one, else the language of the person's Discord client.
"""
from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import has, normalise_locale, t

_OURS = {
    discord.Locale.russian: "ru",
    discord.Locale.ukrainian: "uk",
}


def L(key: str) -> app_commands.locale_str:
    """A localisable command string (name, description, choice) for the i18n ``key``."""
    return app_commands.locale_str(t(key, "en"), key=key)


class JudgeTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        ours = _OURS.get(locale)
        if key is None or ours is None or not has(key):
            return None
        return t(key, ours)


def reply_locale(discord_locale: discord.Locale | str | None, override: str | None, fallback: str) -> str:
    """The language to answer in: the server's override, else the user's client language if we speak it."""
    if override:
        return override
    return normalise_locale(str(discord_locale) if discord_locale else None, fallback)
