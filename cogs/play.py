"""Play: the buttons under table messages, the choices they open, ``/play`` for typing, ``/table ...``.

The turn message in a thread carries only generic buttons ("Act", "Show my hand").  "Act" answers the
clicking player privately with their seat's legal actions, labelled by the engine's ``describe_action``
(which shows only what that seat may know); each choice carries the table version it was offered at, so a
click after the table moved on is refused as stale, and two clicks racing for one decision apply once.
"""
from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.components import PAGE_SIZE, choices_view, page_count
from bot.discord.interactions import is_moderator, pick_table, player_key, refuse, say, table_choices, table_here
from bot.discord.locale import L
from bot.discord.render import board_texts, clip, log_texts
from bot.engine import Code, Rejection
from bot.i18n import has, t
from bot.render.text import game_title
from bot.service import Accepted, public_unchanged
from bot.terminal import parse_typed

#: an autocomplete value: the table version the list was made at, and the 1-based choice
_OFFERED = re.compile(r"^v(\d+):(\d+)$")
ALL_STATUSES = ("active", "finished", "cancelled")


def _stale() -> Rejection:
    return Rejection(Code.STALE, "core.reject.stale")


class Play(commands.Cog):
    table = app_commands.Group(name=L("discord.cmd.table"), description=L("discord.cmd.table.desc"),
                               guild_only=True)

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    # ------------------------------------------------------------------ the choices of one seat
    async def _offer(self, interaction: discord.Interaction, table_id: int, version: int, locale: str,
                     seat: int | None = None) -> tuple[int, list[str], str] | Rejection:
        """(seat, labels of its legal actions, prompt) if the clicker owes a decision at ``version``."""
        legal = await self.bot.referee.legal(table_id, player_key(interaction), seat=seat)
        if isinstance(legal, Rejection):
            return legal
        seat, current, actions = legal
        if current != version:
            return _stale()
        if not actions:
            return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")
        table = await self.bot.store.get_table(table_id)
        state = await self.bot.store.state(table_id)
        if state["version"] != version:
            return _stale()
        game = self.bot.games[table.game]
        names = await self._names(table_id)
        labels = [game.describe_action(state, seat, action, locale, names) for action in actions]
        pending = next((p for p in game.to_act(state) if p.seat == seat), None)
        if pending is None:  # the seat owes nothing: these are what it may do at any time (anytime_actions)
            prompt = t("discord.choices.anytime", locale)
        else:
            prompt = t(pending.prompt, locale) if pending.prompt and has(pending.prompt) else ""
        return seat, labels, prompt

    async def _names(self, table_id: int) -> list[str]:
        return [s.name for s in await self.bot.store.seats(table_id)]

    def _choices_message(self, table_id: int, version: int, seat: int, labels: list[str], prompt: str, page: int,
                         locale: str) -> tuple[str, discord.ui.View]:
        pages = page_count(len(labels))
        page = max(0, min(page, pages - 1))
        content = t("discord.choices.header", locale, table=table_id, prompt=prompt or t(
            "discord.turn.default_prompt", locale), n=len(labels))
        if pages > 1:
            content += "\n" + t("discord.choices.page", locale, page=page + 1, pages=pages, per=PAGE_SIZE)
        return content, choices_view(table_id, version, seat, labels, page, locale)

    async def _posted_version(self, table_id: int, version: int) -> int:
        """The version an "Act" button at ``version`` stands for: the current one when the table moved only
        in private since (nothing is posted for such a step, see service.messages_for), else its own."""
        table = await self.bot.store.get_table(table_id)
        if table is None or table.status != "active" or table.version <= version:
            return version
        then, now = await self.bot.store.state(table_id, version), await self.bot.store.state(table_id)
        if then is None or now is None or not public_unchanged(self.bot.games[table.game], then, now):
            return version
        return now["version"]

    # Every button handler looks the table up in the clicker's server first: a crafted click may name any table.
    async def on_act(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_for(interaction)
        table = await table_here(interaction, table_id)
        if isinstance(table, Rejection):
            return await refuse(interaction, table, locale)
        version = await self._posted_version(table_id, version)
        offer = await self._offer(interaction, table_id, version, locale)
        if isinstance(offer, Rejection):
            return await refuse(interaction, offer, locale)
        seat, labels, prompt = offer
        content, view = self._choices_message(table_id, version, seat, labels, prompt, 0, locale)
        await say(interaction, content, view=view)

    async def on_page(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                      page: int) -> None:
        await interaction.response.defer()
        locale = await self.bot.locale_for(interaction)
        table = await table_here(interaction, table_id)
        if isinstance(table, Rejection):
            return await self._close_choices(interaction, "✋ " + table.message(locale))
        offer = await self._offer(interaction, table_id, version, locale, seat)
        if isinstance(offer, Rejection):
            return await self._close_choices(interaction, "✋ " + offer.message(locale))
        seat, labels, prompt = offer
        content, view = self._choices_message(table_id, version, seat, labels, prompt, page, locale)
        await interaction.edit_original_response(content=content, view=view)

    async def on_choice(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                        index: int) -> None:
        await interaction.response.defer()
        locale = await self.bot.locale_for(interaction)
        table = await table_here(interaction, table_id)
        if isinstance(table, Rejection):
            return await self._close_choices(interaction, "✋ " + table.message(locale))
        result = await self._choose(interaction, table_id, version, seat, index, locale)
        if isinstance(result, Rejection):
            return await self._close_choices(interaction, "✋ " + result.message(locale))
        await self._close_choices(interaction, "✓ " + result)

    async def _choose(self, interaction: discord.Interaction, table_id: int, version: int, seat: int, index: int,
                      locale: str) -> str | Rejection:
        """Apply the ``index``-th legal action of ``seat`` at ``version``; returns its label."""
        legal = await self.bot.referee.legal(table_id, player_key(interaction), seat=seat)
        if isinstance(legal, Rejection):
            return legal
        _, current, actions = legal
        if current != version:
            return _stale()
        if not 0 <= index < len(actions):
            return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn") if not actions else \
                Rejection(Code.ILLEGAL, "core.reject.no_such_choice", {"n": index + 1, "count": len(actions)})
        return await self._act(interaction, table_id, version, seat, actions[index], locale)

    async def _act(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                   action: dict[str, Any], locale: str) -> str | Rejection:
        """Submit one action at ``version`` (refused as stale if the table moved) and let bots answer."""
        table = await self.bot.store.get_table(table_id)
        state = await self.bot.store.state(table_id, version)
        result = await self.bot.referee.act(table_id, player_key(interaction), action, expected_version=version,
                                            seat=seat)
        if isinstance(result, Rejection):
            return result
        assert isinstance(result, Accepted)
        self.bot.schedule_bots(table_id)
        try:
            return self.bot.games[table.game].describe_action(state, seat, action, locale,
                                                              await self._names(table_id))
        except Exception:  # a typed action the engine accepted but cannot label: the choice still stands
            return t("core.term.done", locale)

    @staticmethod
    async def _close_choices(interaction: discord.Interaction, text: str) -> None:
        """Replace a private list of choices by its outcome (the buttons go: they are spent)."""
        await interaction.edit_original_response(content=clip(text, 2000), view=None)

    # ------------------------------------------------------------------ seeing the table
    async def on_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await table_here(interaction, table_id)
        if isinstance(table, Rejection):
            return await refuse(interaction, table, await self.bot.locale_for(interaction))
        await self._show_hand(interaction, table_id)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await self.bot.locale_for(interaction)
        seen = await self.bot.referee.view(table_id, player_key(interaction))
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        view, seat = seen
        if seat is None:
            return await refuse(interaction, Rejection(Code.NOT_A_PLAYER, "core.reject.not_a_player"), locale)
        table = await self.bot.store.get_table(table_id)
        seats = await self.bot.store.seats(table_id)
        game = self.bot.games[table.game]
        header = t("discord.hand.header", locale, table=table.id, game=game_title(game, locale))
        await say(interaction, board_texts(game, seats, view, locale, header))

    @table.command(name=L("discord.cmd.hand"), description=L("discord.cmd.hand.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def hand(self, interaction: discord.Interaction, table: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await pick_table(interaction, table, ALL_STATUSES)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, await self.bot.locale_for(interaction))
        await self._show_hand(interaction, found.id)

    @table.command(name=L("discord.cmd.status"), description=L("discord.cmd.status.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def status(self, interaction: discord.Interaction, table: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_for(interaction)
        found = await pick_table(interaction, table, ALL_STATUSES)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        seen = await self.bot.referee.view(found.id, None)  # the public table, whoever asks
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        seats = await self.bot.store.seats(found.id)
        game = self.bot.games[found.game]
        header = t("discord.table_status.header", locale, table=found.id, game=game_title(game, locale))
        await say(interaction, board_texts(game, seats, seen[0], locale, header))

    @table.command(name=L("discord.cmd.log"), description=L("discord.cmd.log.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def log(self, interaction: discord.Interaction, table: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_for(interaction)
        found = await pick_table(interaction, table, ALL_STATUSES)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        events = await self.bot.referee.history(found.id, seat=None)  # public events only
        seats = await self.bot.store.seats(found.id)
        await say(interaction, log_texts(self.bot.games[found.game], found, seats, events, locale,
                                         versions=await is_moderator(interaction, found)))

    @hand.autocomplete("table")
    @status.autocomplete("table")
    @log.autocomplete("table")
    async def _any_table(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current, ALL_STATUSES)

    # ------------------------------------------------------------------ /play: typing an action
    @app_commands.command(name=L("discord.cmd.play"), description=L("discord.cmd.play.desc"))
    @app_commands.guild_only()
    @app_commands.rename(action=L("discord.param.action"), table=L("discord.param.table"))
    @app_commands.describe(action=L("discord.param.action.desc"), table=L("discord.param.table.desc"))
    async def play(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 1000],
                   table: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_for(interaction)
        found = await pick_table(interaction, table, ("active",))
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        state = await self.bot.store.state(found.id)
        seat = await self.bot.referee.resolve_seat(found.id, player_key(interaction), None, state)
        if isinstance(seat, Rejection):
            return await refuse(interaction, seat, locale)
        game = self.bot.games[found.game]
        names = await self._names(found.id)
        offered = _OFFERED.match(action.strip())
        if offered:  # picked from the autocomplete list: valid only at the version it was offered at
            if int(offered.group(1)) != state["version"]:
                return await refuse(interaction, _stale(), locale)
            chosen: Any = game.parse_action(state, seat, offered.group(2), names)
        else:
            chosen = parse_typed(game, state, seat, action, names)
        if isinstance(chosen, Rejection):
            return await refuse(interaction, chosen, locale)
        done = await self._act(interaction, found.id, state["version"], seat, chosen, locale)
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        await say(interaction, "✓ " + done)

    @play.autocomplete("action")
    async def _action_choices(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        found = await pick_table(interaction, getattr(interaction.namespace, "table", None), ("active",))
        if isinstance(found, Rejection):
            return []
        legal = await self.bot.referee.legal(found.id, player_key(interaction))
        if isinstance(legal, Rejection) or not legal[2]:
            return []
        seat, version, actions = legal
        state = await self.bot.store.state(found.id)
        if state["version"] != version:
            return []
        locale = await self.bot.locale_for(interaction)
        game = self.bot.games[found.game]
        names = await self._names(found.id)
        wanted = current.strip().casefold()
        choices = []
        for i, action in enumerate(actions, 1):
            label = f"{i}. {game.describe_action(state, seat, action, locale, names)}"
            if wanted and wanted not in label.casefold():
                continue
            choices.append(app_commands.Choice(name=clip(label, 100), value=f"v{version}:{i}"))
            if len(choices) == 25:
                break
        return choices


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Play(bot))
