"""Tournaments on Discord: ``/tournament new | start | standings | drop | cancel | organisers`` and the
buttons of a tournament's message (enter, leave, standings).

A group of its own: ``/mod`` is at Discord's size limit for one command.  The work is the director's
(bot/tournament/director.py) through the bot's desk (bot/discord/tournaments.py), which opens every round's
tables as threads (or forum posts) and tells the channel; the clock brings the results and the next rounds.

Who runs a tournament: its creator, the server's moderators, and the members of the server's organiser role
(``/tournament organisers``).  When a server names that role, only its members (and moderators) create
tournaments there; otherwise anyone may, and runs their own.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.components import tournament_view
from bot.discord.interactions import MAX_ID, begin, home_channel_id, is_moderator, player_key, refuse, say
from bot.discord.locale import L
from bot.discord.render import clip, user_key
from bot.discord.threads import TABLE_CHANNELS
from bot.discord.tournaments import heading, standings_block
from bot.engine import Code, Rejection
from bot.i18n import normalise_locale, t
from bot.render.picture.standings import standings_png
from bot.web.links import base_url, link_line, tournament_url
from bot.render.text import game_title
from bot.storage.tournaments import TournamentRow
from bot.tournament.director import FORMATS, MAX_ROUND_HOURS, MAX_ROUNDS
from bot.tournament.stages import group_letter
from cogs.lobby import parse_options

log = logging.getLogger("judge.discord.tournament")

OPEN = ("registration", "running")
_SETTING = re.compile(r"^\s*([\w-]+)\s*=\s*(\S+)\s*$")


STANDINGS_WITH_GROUPS = 1700  # the groups' blocks, with the heading and links, within a message's 2000


def parse_settings(text: str | None) -> dict[str, Any] | Rejection:
    """``name=value`` pairs of tournament settings: whole numbers, yes/no, or words (validated by the
    director)."""
    parsed = parse_options(text)
    if isinstance(parsed, Rejection):
        return parsed
    out: dict[str, Any] = {}
    for name, value in parsed.items():
        low = value.casefold()
        out[name] = (int(value) if value.isdigit() and len(value) < 10 else True if low in ("yes", "true", "on")
                     else False if low in ("no", "false", "off") else value)
    return out


def member_roles(interaction: discord.Interaction) -> list[str]:
    """The ids of the member's server roles, for a tournament's entry condition (T-23)."""
    return [str(r.id) for r in getattr(interaction.user, "roles", [])]


def _server_role(interaction: discord.Interaction, value: Any) -> bool:
    """A ``role=`` setting names a role of this server (typed as a mention, ``<@&id>``, or its id)."""
    digits = str(value).strip().removeprefix("<@&").removesuffix(">")
    return digits.isdigit() and interaction.guild is not None and interaction.guild.get_role(int(digits)) is not None


def _reject(key: str, code: str = Code.NOT_FOUND, **params: Any) -> Rejection:
    return Rejection(code, key, params)


class Tournament(commands.Cog):
    tournament = app_commands.Group(name=L("tournament.cmd.group"), description=L("tournament.cmd.group.desc"),
                                    guild_only=True)

    def __init__(self, bot: JudgeBot):
        self.bot = bot
        self.desk = bot.tournaments
        self.director = bot.tournaments.director

    # ------------------------------------------------------------------ who may
    async def _runs_events(self, interaction: discord.Interaction) -> bool:
        """A moderator of this server, or a member of its organiser role: runs any tournament here."""
        if await is_moderator(interaction, None):
            return True
        role = (await self.bot.store.guild(str(interaction.guild_id)))["organiser_role"]
        return bool(role) and any(str(r.id) == role for r in getattr(interaction.user, "roles", []))

    async def _find(self, interaction: discord.Interaction, number: int | None) -> TournamentRow | Rejection:
        """The tournament meant: the number given (of this server), else the one open in this channel."""
        if number is not None:
            found = await self.director.record.get(number) if 0 < number <= MAX_ID else None
            if found is None or found.guild_id != str(interaction.guild_id):
                return _reject("tournament.reject.no_tournament", tournament=number)
            return found
        here = str(home_channel_id(interaction))
        open_here = [tour for tour in await self.director.record.find(status=OPEN, guild_id=str(interaction.guild_id))
                     if here in (tour.channel_id, tour.message_id)]
        if len(open_here) == 1:
            return open_here[0]
        if not open_here:
            return _reject("tournament.reject.none_here")
        return _reject("tournament.reject.which", tournaments=", ".join(f"#{tour.id}" for tour in open_here[:10]))

    # ------------------------------------------------------------------ /tournament new
    @tournament.command(name=L("discord.cmd.new"), description=L("tournament.cmd.new.desc"))
    @app_commands.rename(game=L("discord.param.game"), format=L("tournament.param.format"),
                         rounds=L("tournament.param.rounds"), hours=L("tournament.param.hours"),
                         options=L("discord.param.options"),
                         settings=L("tournament.param.settings"), title=L("discord.param.title"),
                         channel=L("tournament.param.channel"))
    @app_commands.describe(game=L("discord.param.game.desc"), format=L("tournament.param.format.desc"),
                           rounds=L("tournament.param.rounds.desc"), hours=L("tournament.param.hours.desc"),
                           options=L("tournament.param.options.desc"), settings=L("tournament.param.settings.desc"),
                           title=L("discord.param.title.desc"), channel=L("tournament.param.channel.desc"))
    async def new(self, interaction: discord.Interaction, game: str, format: str,
                  rounds: app_commands.Range[int, 0, MAX_ROUNDS] = 0,
                  hours: app_commands.Range[int, 0, MAX_ROUND_HOURS] = 0,
                  options: str | None = None,
                  settings: str | None = None, title: app_commands.Range[str, 1, 80] | None = None,
                  channel: discord.TextChannel | discord.ForumChannel | None = None):
        locale = await begin(interaction)
        bot = self.bot
        role = (await bot.store.guild(str(interaction.guild_id)))["organiser_role"]
        if role and not await self._runs_events(interaction):
            return await refuse(interaction, _reject("tournament.reject.organisers_only", Code.FORBIDDEN), locale)
        chosen = bot.get_cog("Lobby").find_game(game)  # type: ignore[union-attr]
        if chosen is None:
            return await refuse(interaction, _reject("core.reject.unknown_game", game=clip(game, 40)), locale)
        table_options, extra = parse_options(options), parse_settings(settings)
        if isinstance(table_options, Rejection):
            return await refuse(interaction, table_options, locale)
        if isinstance(extra, Rejection):
            return await refuse(interaction, extra, locale)
        if extra.get("role") and not _server_role(interaction, extra["role"]):  # an entry condition (T-23)
            return await refuse(interaction, _reject("tournament.reject.entry_role_setting", Code.BAD_OPTIONS), locale)
        where = channel or await self.desk.channel(home_channel_id(interaction))
        if not isinstance(where, TABLE_CHANNELS) or where.guild.id != interaction.guild_id:
            return await say(interaction, t("tournament.reject.channel", locale))
        chosen_settings = {**extra, **{k: v for k, v in (("rounds", rounds), ("round_hours", hours)) if v}}
        made = await self.director.create(chosen.name, format.strip(), creator=player_key(interaction),
                                          settings=chosen_settings, options=table_options, title=title,
                                          locale=locale, guild_id=str(interaction.guild_id),
                                          channel_id=str(where.id))
        if isinstance(made, Rejection):
            return await refuse(interaction, made, locale)
        await self._remember_player(interaction, locale)
        posted = await self._post_message(made, where, locale)
        if posted is None:
            await self.director.record.finish(made.id, status="cancelled", now=bot.referee.now(),
                                              by=player_key(interaction), reason="no message")
            return await say(interaction, t("discord.reject.discord_failed", locale))
        await say(interaction, t("tournament.discord.created", locale, tournament=made.id, where=posted))

    async def _post_message(self, tour: TournamentRow, where: discord.TextChannel | discord.ForumChannel,
                            locale: str) -> str | None:
        """The tournament's message with its buttons (in a forum: a post of its own); its link, or None."""
        content = await self.desk.message_text(tour, locale)
        view = tournament_view(tour.id, tour.status, locale, tour.settings)
        assert view is not None  # only a new tournament is posted, and it takes entries: its buttons are there
        try:
            if isinstance(where, discord.ForumChannel):
                made = await where.create_thread(name=clip(heading(tour, locale, game_title(
                    self.bot.games[tour.game], locale)).replace("*", ""), 100), content=content, view=view)
                message_id, link = made.thread.id, f"<#{made.thread.id}>"
            else:
                message = await where.send(content, view=view)
                message_id, link = message.id, message.jump_url
        except discord.HTTPException as exc:
            log.warning("no message for tournament %s: %s %s", tour.id, exc.status, exc.code)
            return None
        await self.director.record.set_message(tour.id, str(message_id))
        return link

    @new.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.bot.get_cog("Lobby")._game_choices(interaction, current)  # type: ignore[union-attr]

    @new.autocomplete("format")
    async def _formats(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggested, not fixed choices: a command's fixed choices count against its 8000 characters in every
        language; an unknown format typed by hand is refused by the director with the list."""
        locale = await self.bot.locale_for(interaction)
        wanted = current.strip().casefold()
        return [app_commands.Choice(name=f"{t(f'tournament.format.{f}', locale)} ({f})", value=f) for f in FORMATS
                if wanted in f or wanted in t(f"tournament.format.{f}", locale).casefold()]

    # ------------------------------------------------------------------ running it
    @tournament.command(name=L("discord.cmd.start"), description=L("tournament.cmd.start.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"))
    async def start(self, interaction: discord.Interaction, number: int | None = None):
        locale = await begin(interaction)
        tour = await self._find(interaction, number)
        if isinstance(tour, Rejection):
            return await refuse(interaction, tour, locale)
        progress = await self.director.start(tour.id, by=player_key(interaction),
                                             moderator=await self._runs_events(interaction))
        if isinstance(progress, Rejection):
            return await refuse(interaction, progress, locale)
        await self.desk.announce(progress)
        await say(interaction, t("tournament.discord.started", locale, tournament=tour.id))

    @tournament.command(name=L("tournament.cmd.standings"), description=L("tournament.cmd.standings.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"))
    async def standings(self, interaction: discord.Interaction, number: int | None = None):
        await self._standings(interaction, number)

    async def _standings(self, interaction: discord.Interaction, number: int | None) -> None:
        locale = await begin(interaction)
        tour = await self._find(interaction, number)
        if isinstance(tour, Rejection):
            return await refuse(interaction, tour, locale)
        ranked = await self.director.standings(tour.id)
        if isinstance(ranked, Rejection):
            return await refuse(interaction, ranked, locale)
        rows = [r.as_dict() for r in ranked]
        head = heading(tour, locale, game_title(self.bot.games[tour.game], locale))
        status = t(f"tournament.status.{tour.status}", locale)
        files = []
        if rows:  # the picture beside the text (which says the same, for screen readers and text-only clients)
            title = " · ".join(part for part in (tour.title, f"#{tour.id}", game_title(self.bot.games[tour.game], locale),
                                                 t(f"tournament.format.{tour.format}", locale), status) if part)
            data = await asyncio.to_thread(standings_png, rows, tour.format, locale, title)
            files = [discord.File(io.BytesIO(data), filename=f"standings{tour.id}.png",
                                  description=t("tournament.picture.alt", locale, tournament=tour.id))]
        link = link_line("web.link.tournament", tournament_url(base_url(self.bot.settings), tour.id), locale)
        block = standings_block(rows, tour.format, locale)
        by_group = "\n".join(f"{t('tournament.stage.group', locale, group=group_letter(i))}\n"
                              f"{standings_block([r.as_dict() for r in g], tour.format, locale)}"
                              for i, g in enumerate(await self.director.group_standings(tour.id), start=1))
        if by_group and len(by_group) < STANDINGS_WITH_GROUPS:  # T-24: each group ranked inside it, when it fits
            block = by_group
        other = await self.director.stages(tour.id)
        if other:  # T-24: the other stage of a two-stage event
            link = [t("tournament.stage.of_next", locale, tournament=other["next"]) if "next" in other else
                    t("tournament.stage.of_first", locale, tournament=other["first"]), *link]
        await say(interaction, "\n".join([f"{head} · {status}", block, *link]), files=files)

    @tournament.command(name=L("tournament.cmd.drop"), description=L("tournament.cmd.drop.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"), player=L("tournament.param.player"),
                         reason=L("tournament.param.reason"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"), player=L("tournament.param.player.desc"),
                           reason=L("tournament.param.reason.desc"))
    async def drop(self, interaction: discord.Interaction, number: int | None = None,
                   player: discord.Member | None = None, reason: app_commands.Range[str, 1, 300] | None = None):
        locale = await begin(interaction)
        tour = await self._find(interaction, number)
        if isinstance(tour, Rejection):
            return await refuse(interaction, tour, locale)
        who = user_key(player.id) if player is not None else player_key(interaction)
        if who != player_key(interaction) and not reason:
            return await refuse(interaction, _reject("tournament.reject.reason_needed", Code.ILLEGAL), locale)
        left = await self.director.leave(tour.id, who, by=player_key(interaction), reason=reason,
                                         moderator=await self._runs_events(interaction))
        if isinstance(left, Rejection):
            return await refuse(interaction, left, locale)
        await self.desk.refresh(tour.id)
        await say(interaction, t("tournament.discord.dropped" if who == player_key(interaction)
                                 else "tournament.discord.removed", locale, tournament=tour.id,
                                 player=f"<@{player.id}>" if player else ""))

    @tournament.command(name=L("discord.cmd.cancel"), description=L("tournament.cmd.cancel.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"), reason=L("tournament.param.reason"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"), reason=L("tournament.param.reason.desc"))
    async def cancel(self, interaction: discord.Interaction, number: int | None = None,
                     reason: app_commands.Range[str, 1, 300] | None = None):
        locale = await begin(interaction)
        tour = await self._find(interaction, number)
        if isinstance(tour, Rejection):
            return await refuse(interaction, tour, locale)
        done = await self.director.cancel(tour.id, by=player_key(interaction), reason=reason,
                                          moderator=await self._runs_events(interaction))
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        await self.desk.refresh(tour.id)
        await say(interaction, t("tournament.discord.cancelled", locale, tournament=tour.id))

    @tournament.command(name=L("tournament.cmd.organisers"), description=L("tournament.cmd.organisers.desc"))
    @app_commands.rename(role=L("tournament.param.role"))
    @app_commands.describe(role=L("tournament.param.role.desc"))
    async def organisers(self, interaction: discord.Interaction, role: discord.Role | None = None):
        locale = await begin(interaction)
        if not await is_moderator(interaction, None):
            return await say(interaction, t("discord.forbidden", locale))
        await self.bot.store.set_guild(str(interaction.guild_id), organiser_role=str(role.id) if role else None)
        await say(interaction, t("tournament.discord.organisers", locale, role=f"<@&{role.id}>") if role
                  else t("tournament.discord.no_organisers", locale))

    @start.autocomplete("number")
    @standings.autocomplete("number")
    @drop.autocomplete("number")
    @cancel.autocomplete("number")
    async def _tournaments(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        locale = await self.bot.locale_for(interaction)
        found = await self.director.record.find(guild_id=str(interaction.guild_id), limit=25)
        return [app_commands.Choice(name=clip(f"{heading(tour, locale, game_title(self.bot.games[tour.game], locale))}"
                                              f" · {t(f'tournament.status.{tour.status}', locale)}", 100).replace("*", ""),
                                    value=tour.id)
                for tour in found if str(tour.id).startswith(current.strip().lstrip("#"))]

    # ------------------------------------------------------------------ the buttons
    async def _button_tournament(self, interaction: discord.Interaction, tournament_id: int
                                 ) -> tuple[TournamentRow, str] | None:
        locale = await begin(interaction)
        tour = await self._find(interaction, tournament_id)
        if isinstance(tour, Rejection):
            await refuse(interaction, tour, locale)
            return None
        return tour, locale

    async def on_enter(self, interaction: discord.Interaction, tournament_id: int) -> None:
        found = await self._button_tournament(interaction, tournament_id)
        if found is None:
            return
        tour, locale = found
        async with self.director.lock(tour.id):  # a late entry must not race the pairing of a round
            number = await self.director.join(tour.id, player_key(interaction), interaction.user.display_name,
                                              roles=member_roles(interaction))
        if isinstance(number, Rejection):
            return await refuse(interaction, number, locale)
        await self._remember_player(interaction, locale)
        await self.desk.refresh(tour.id)
        await say(interaction, t("tournament.discord.late" if tour.status == "running" else "tournament.discord.entered",
                                 locale, tournament=tour.id))

    async def on_withdraw(self, interaction: discord.Interaction, tournament_id: int) -> None:
        found = await self._button_tournament(interaction, tournament_id)
        if found is None:
            return
        tour, locale = found
        left = await self.director.leave(tour.id, player_key(interaction), by=player_key(interaction))
        if isinstance(left, Rejection):
            return await refuse(interaction, left, locale)
        await self.desk.refresh(tour.id)
        await say(interaction, t("tournament.discord.dropped", locale, tournament=tour.id))

    async def on_standings(self, interaction: discord.Interaction, tournament_id: int) -> None:
        await self._standings(interaction, tournament_id)

    async def _remember_player(self, interaction: discord.Interaction, locale: str) -> None:
        """The player's language for DMs, and a fresh chance for DMs (as a lobby's join does)."""
        await self.bot.store.set_user(player_key(interaction), dm_closed=0, dm_notice=0,
                                      locale=normalise_locale(str(interaction.locale), locale))


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Tournament(bot))
