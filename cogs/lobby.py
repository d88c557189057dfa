"""The lobby: ``/game new | start | cancel | list`` and the buttons of a table's lobby message.

A table is announced by a lobby message in the channel; the table's thread is started from that message
(so the thread has the message's id, which is how the lobby message is found again).  ``/game new`` typed in
a Forum channel's post opens the table as a post of that forum, its lobby message the post's first message
(bot/discord/threads.py).  Several tables may share a channel, and a player may sit at several tables.
"""
from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.components import lobby_view
from bot.discord.interactions import (OPEN, begin, begin_at_table, home_channel_id, is_moderator, player_key, refuse,
                                      same_server, say, table_choices)
from bot.discord.locale import L
from bot.discord.moderators import ask_for_channel
from bot.discord.render import clip, lobby_text, options_text, pack, table_line
from bot.discord.threads import TABLE_CHANNELS, open_thread, tag_names
from bot.engine import Code, Game, Rejection
from bot.engine.pace import CORRESPONDENCE, PACES
from bot.i18n import normalise_locale, t
from bot.referee import moderation
from bot.render.notices import when
from bot.render.text import game_title

_OPTION = re.compile(r"^\s*([\w-]+)\s*=\s*(\S+)\s*$")

log = logging.getLogger("judge.discord.lobby")


def parse_options(text: str | None) -> dict[str, str] | Rejection:
    """``name=value`` pairs separated by spaces, commas or semicolons; values are validated by the game."""
    options: dict[str, str] = {}
    for token in re.split(r"[\s,;]+", (text or "").strip()):
        if not token:
            continue
        m = _OPTION.match(token)
        if m is None:
            return Rejection(Code.BAD_OPTIONS, "discord.reject.option_syntax", {"text": clip(token, 50)})
        options[m.group(1)] = m.group(2)
    return options


def table_pace(game: Game, options: dict[str, str], pace: str | None) -> dict[str, str] | Rejection:
    """The options of a table opened in Discord with its pace: the one chosen (the command's ``pace``, or
    ``pace=`` among the options: both only when they agree), else correspondence — players in Discord are seldom
    at the table at the same moment (bot/engine/pace.py)."""
    if not any(o.name == "pace" for o in game.options):
        return options
    typed = options.get("pace")
    if pace is not None and typed is not None and typed != pace:
        return Rejection(Code.BAD_OPTIONS, "discord.reject.two_paces", {"typed": clip(typed, 20), "chosen": pace})
    return {**options, "pace": typed or pace or CORRESPONDENCE}


def option_suggestions(game: Game, typed: str, locale: str) -> list[app_commands.Choice[str]]:
    """Completions for the last ``name=value`` being typed, keeping what was typed before it."""
    head, _, last = typed.rpartition(" ")
    head = f"{head} " if head else ""
    earlier = parse_options(head)
    given = set() if isinstance(earlier, Rejection) else set(earlier)
    choices = []
    for opt in game.options:
        if opt.name in given:
            continue
        values = (list(opt.choices) if opt.kind == "choice" else ["yes", "no"] if opt.kind == "bool"
                  else [str(opt.default)])
        for value in values:
            entry = f"{opt.name}={value}"
            if last and not entry.startswith(last):
                continue
            label = t(f"{game.name}.option.{opt.name}", locale)
            choices.append(app_commands.Choice(name=clip(f"{entry} — {label}", 100), value=clip(head + entry, 100)))
    return choices[:25]


class Lobby(commands.Cog):
    game = app_commands.Group(name=L("discord.cmd.game"), description=L("discord.cmd.game.desc"), guild_only=True)

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    def find_game(self, text: str) -> Game | None:
        wanted = text.strip().casefold()
        for name, game in self.bot.games.items():
            if wanted == name or wanted in (game_title(game, loc).casefold() for loc in ("ru", "uk", "en")):
                return game
        return None

    @game.command(name=L("clock.cmd.vacation"), description=L("clock.cmd.vacation.desc"))
    @app_commands.rename(days=L("clock.param.days"), table=L("discord.param.table"))
    @app_commands.describe(days=L("clock.param.days.desc"), table=L("discord.param.table.desc"))
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[float, 0.1, 60.0],
                       table: int | None = None):
        """Days off the clock of a timed table, from the player's allowance; the table is told."""
        found, locale = await begin_at_table(interaction, table)
        if found is None:
            return
        until = await self.bot.referee.timekeeper.vacation(found.id, player_key(interaction), days)
        if isinstance(until, Rejection):
            return await refuse(interaction, until, locale)
        await say(interaction, t("clock.vacation", locale, table=found.id, until=when(until, "discord")))

    # ------------------------------------------------------------------ /game new
    @game.command(name=L("discord.cmd.new"), description=L("discord.cmd.new.desc"))
    @app_commands.rename(game=L("discord.param.game"), options=L("discord.param.options"),
                         bots=L("discord.param.bots"), title=L("discord.param.title"), pace=L("discord.param.pace"))
    @app_commands.describe(game=L("discord.param.game.desc"), options=L("discord.param.options.desc"),
                           bots=L("discord.param.bots.desc"), title=L("discord.param.title.desc"),
                           pace=L("discord.param.pace.desc"))
    @app_commands.choices(pace=[app_commands.Choice(name=L(f"discord.pace.choice.{value}"), value=value)
                                 for value in PACES])
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  bots: app_commands.Range[int, 0, 11] = 0, title: app_commands.Range[str, 1, 80] | None = None,
                  pace: str | None = None):
        locale = await begin(interaction)
        bot = self.bot
        chosen = self.find_game(game)
        if chosen is None:
            return await refuse(interaction, Rejection(Code.NOT_FOUND, "core.reject.unknown_game", {"game": game}),
                                locale)
        parsed = parse_options(options)
        if isinstance(parsed, Rejection):
            return await refuse(interaction, parsed, locale)
        with_pace = table_pace(chosen, parsed, pace)
        if isinstance(with_pace, Rejection):
            return await refuse(interaction, with_pace, locale)
        parent_id = home_channel_id(interaction)
        parent = None if parent_id is None else bot.get_channel(parent_id) or await bot.fetch_channel(parent_id)
        if not isinstance(parent, TABLE_CHANNELS) or parent.guild.id != interaction.guild_id:
            return await say(interaction, t("discord.reject.text_channel_only", locale))
        me = player_key(interaction)
        table = await bot.referee.create_table(
            chosen.name, creator=me, creator_name=interaction.user.display_name, options=with_pace, origin="discord",
            title=title, locale=locale, guild_id=str(interaction.guild_id), channel_id=str(parent_id))
        if isinstance(table, Rejection):
            return await refuse(interaction, table, locale)
        await self._remember_player(interaction, locale)
        for _ in range(bots):
            if isinstance(await self._add_bot(table.id, locale), Rejection):
                break
        thread = await self._open_thread(table.id, parent, chosen, title, locale)
        if isinstance(thread, str):
            await bot.referee.cancel(table.id, me, reason="no thread")
            return await say(interaction, t(thread, locale))
        created = t("discord.lobby.created", locale, table=table.id, thread=f"<#{thread.id}>")
        # a server's first table, no moderators' channel: the opener asked to set one, or else its owner
        ask = await ask_for_channel(bot, str(interaction.guild_id), await is_moderator(interaction, None), locale)
        await say(interaction, created + (f"\n\n{ask}" if ask else ""))

    async def _open_thread(self, table_id: int, channel: discord.TextChannel | discord.ForumChannel, game: Game,
                           title: str | None, locale: str) -> discord.Thread | str:
        """Post the lobby message and start the table's thread from it (in a Forum channel: a post, tagged
        with the game and "open"); an i18n key if Discord refused."""
        table = await self.bot.store.get_table(table_id)
        assert table is not None  # made just before, by the caller
        seats = await self.bot.store.seats(table_id)
        try:
            thread = await open_thread(channel, name=f"#{table_id} {title or game_title(game, locale)}",
                                       content=lobby_text(game, table, seats, locale),
                                       view=lobby_view(table_id, locale), tags=tag_names(game, "open"))
        except discord.HTTPException as exc:
            log.warning("no lobby or thread for table %s: %s %s", table_id, exc.status, exc.code)
            return "discord.reject.no_thread" if isinstance(exc, discord.Forbidden) else "discord.reject.discord_failed"
        await self.bot.store.set_table_fields(table_id, thread_id=str(thread.id))
        return thread

    @new.autocomplete("game")
    async def _game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = await self.bot.locale_for(interaction)
        wanted = current.strip().casefold()
        choices = []
        for name, game in self.bot.games.items():
            label = f"{game_title(game, locale)} ({game.min_seats}–{game.max_seats})"
            if wanted in label.casefold() or wanted in name:
                choices.append(app_commands.Choice(name=clip(label, 100), value=name))
        return choices[:25]

    @new.autocomplete("options")
    async def _option_choices(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        game = self.find_game(str(getattr(interaction.namespace, "game", "") or ""))
        if game is None:
            return []
        return option_suggestions(game, current, await self.bot.locale_for(interaction))

    # ------------------------------------------------------------------ /game start | cancel | list
    @game.command(name=L("discord.cmd.start"), description=L("discord.cmd.start.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def start(self, interaction: discord.Interaction, table: int | None = None):
        await self._start(interaction, table, from_button=False)

    @game.command(name=L("discord.cmd.cancel"), description=L("discord.cmd.cancel.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def cancel(self, interaction: discord.Interaction, table: int | None = None):
        found, locale = await begin_at_table(interaction, table)
        if found is None:
            return
        me = player_key(interaction)
        if me != found.creator and await is_moderator(interaction, found):  # not at a table they play at
            done = await moderation.cancel(self.bot.referee, found.id, moderator=me, reason=None)
        else:
            done = await self.bot.referee.cancel(found.id, me)
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        await self.bot.refresh_lobby(found.id)
        await say(interaction, t("core.msg.cancelled", locale, table=found.id))
        if found.status == "lobby":  # no closing message goes to its thread: archive it here, after the answer
            await self.bot.archive_thread(found.id)

    @game.command(name=L("discord.cmd.list"), description=L("discord.cmd.list.desc"))
    async def list_tables(self, interaction: discord.Interaction):
        locale = await begin(interaction)
        here = await self.bot.store.find_tables(status=OPEN, channel_id=str(home_channel_id(interaction)), limit=30)
        tables = [tb for tb in here if same_server(tb, interaction)]
        if not tables:
            return await say(interaction, t("discord.list.empty", locale))
        lines = [t("discord.list.header", locale)]
        for table in tables:
            lines.append(table_line(self.bot.games[table.game], table, await self.bot.store.seats(table.id), locale))
        await say(interaction, pack(lines)[:3])

    @start.autocomplete("table")
    @cancel.autocomplete("table")
    async def _table_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current)

    # ------------------------------------------------------------------ lobby buttons
    # Each looks the table up in the clicker's server first: a crafted click may name any table.
    async def on_join(self, interaction: discord.Interaction, table_id: int) -> None:
        table, locale = await begin_at_table(interaction, table_id, private=False)
        if table is None:
            return
        seat = await self.bot.referee.join(table_id, player_key(interaction), interaction.user.display_name)
        if isinstance(seat, Rejection):
            return await refuse(interaction, seat, locale)
        await self._remember_player(interaction, locale)
        await self.bot.refresh_lobby(table_id, interaction)

    async def on_leave(self, interaction: discord.Interaction, table_id: int) -> None:
        table, locale = await begin_at_table(interaction, table_id, private=False)
        if table is None:
            return
        left = await self.bot.referee.leave(table_id, player_key(interaction))
        if isinstance(left, Rejection):
            return await refuse(interaction, left, locale)
        await self.bot.refresh_lobby(table_id, interaction)

    async def on_add_bot(self, interaction: discord.Interaction, table_id: int) -> None:
        table, locale = await begin_at_table(interaction, table_id, private=False)
        if table is None:
            return
        if table.creator != player_key(interaction) and not await is_moderator(interaction, table):
            return await refuse(interaction, Rejection(Code.FORBIDDEN, "discord.reject.creator_only"), locale)
        added = await self._add_bot(table_id, locale)
        if isinstance(added, Rejection):
            return await refuse(interaction, added, locale)
        await self.bot.refresh_lobby(table_id, interaction)

    async def on_start(self, interaction: discord.Interaction, table_id: int) -> None:
        await self._start(interaction, table_id, from_button=True)

    async def on_options(self, interaction: discord.Interaction, table_id: int) -> None:
        """Every option of the table, privately: the lobby message shows only those that differ."""
        table, locale = await begin_at_table(interaction, table_id)
        if table is None:
            return
        await say(interaction, options_text(self.bot.games[table.game], table, locale))

    # ------------------------------------------------------------------ shared steps
    async def _start(self, interaction: discord.Interaction, table_id: int | None, *, from_button: bool) -> None:
        found, locale = await begin_at_table(interaction, table_id, ("lobby",), private=not from_button)
        if found is None:
            return
        started = await self.bot.referee.start(found.id, player_key(interaction),
                                               moderator=await is_moderator(interaction, found))
        if isinstance(started, Rejection):
            return await refuse(interaction, started, locale)
        self.bot.schedule_bots(found.id)
        await self.bot.refresh_lobby(found.id, interaction if from_button else None)
        if not from_button:
            await say(interaction, t("discord.lobby.started_reply", locale, table=found.id,
                                     thread=f"<#{found.thread_id}>" if found.thread_id else "—"))

    async def _add_bot(self, table_id: int, locale: str) -> int | Rejection:
        seats = await self.bot.store.seats(table_id)
        number = sum(s.is_bot for s in seats) + 1
        return await self.bot.referee.add_bot(table_id, name=t("core.term.bot_name", locale, n=number))

    async def _remember_player(self, interaction: discord.Interaction, locale: str) -> None:
        """The player's language for DMs, and a fresh chance for DMs (they may have opened them since)."""
        await self.bot.store.set_user(player_key(interaction), dm_closed=0, dm_notice=0,
                                      locale=normalise_locale(str(interaction.locale), locale))


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Lobby(bot))
