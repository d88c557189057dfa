"""Replay: a table stepped through in one private message (``/table replay``, in cogs/play.py; the Replay button of
a finished table), ⏮ ◀ ▶ ⏭, a form to go to a move, and for a moderator whose view the picture shows.

What each viewer may see, and the message itself, are bot/discord/replay.py's.  A click's custom_id carries
the stepper's state (table, viewer kind, perspective, step), so it works after a restart; the rights it asks for
are judged again at every click (``replay.allowed``): a forged id gets a refusal, never another seat's hand.
"""
from __future__ import annotations

from typing import Any, Callable

import discord
from discord.ext import commands

from bot.discord import replay
from bot.discord.client import JudgeBot
from bot.discord.components import (REPLAY_FIRST, REPLAY_GOTO, REPLAY_GOTO_FIELD, REPLAY_GOTO_FORM, REPLAY_LAST,
                                    REPLAY_NEXT, REPLAY_PREVIOUS, replay_goto_form, replay_view)
from bot.discord.interactions import begin, begin_at_table, refuse, say, table_here
from bot.engine import Code, Rejection
from bot.engine.board_text import shorten
from bot.i18n import t
from bot.referee.replay import started
from bot.render.text import DISCORD_LIMIT
from bot.storage.store import TableRow

ALL_STATUSES = ("active", "finished", "cancelled")


class Replay(commands.Cog):
    def __init__(self, bot: JudgeBot):
        self.bot = bot

    # ------------------------------------------------------------------ opening
    async def open(self, interaction: discord.Interaction, table: TableRow, locale: str) -> None:
        """The replay at its last step, privately, as the asker may see it (the interaction acknowledged)."""
        if not started(table):
            return await refuse(interaction, Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table.id}),
                                locale)
        viewer = await replay.default_viewer(self.bot, interaction, table)
        found = await replay.load(self.bot, table, viewer)
        drawn = await self._drawn(interaction, table, found, viewer, replay.last_step(found), locale)
        if isinstance(drawn, Rejection):
            return await refuse(interaction, drawn, locale)
        content, view, files = drawn
        await say(interaction, content, view=view, files=files)

    async def on_open(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Replay button under a finished table's end post and live message."""
        table, locale = await begin_at_table(interaction, table_id, ALL_STATUSES)
        if table is not None:
            await self.open(interaction, table, locale)

    # ------------------------------------------------------------------ stepping
    async def on_step(self, interaction: discord.Interaction, table_id: int, kind: int, persp: int, step: int,
                      button: int) -> None:
        if button == REPLAY_GOTO:  # a form must be the first answer: the move it names is judged when it comes back
            locale = await self.bot.locale_for(interaction)
            await interaction.response.send_modal(replay_goto_form(table_id, kind, persp, step, locale))
            return
        moves = {REPLAY_FIRST: lambda found: 0, REPLAY_PREVIOUS: lambda found: step - 1,
                 REPLAY_NEXT: lambda found: step + 1, REPLAY_LAST: replay.last_step}
        if button not in moves:  # no such button: a forged id
            return await self._stepped(interaction, table_id, kind, persp, None)
        await self._stepped(interaction, table_id, kind, persp, lambda found, locale: (moves[button](found), None))

    async def on_perspective(self, interaction: discord.Interaction, table_id: int, kind: int, step: int,
                             persp: int) -> None:
        """A moderator's choice of whose view the picture shows (the step kept)."""
        await self._stepped(interaction, table_id, kind, persp, lambda found, locale: (step, None))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The answer of the "go to move" form: the step of that move, or the same step with why not."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})  # one of discord.py's TypedDicts, read as plain JSON
        match = REPLAY_GOTO_FORM.fullmatch(str(data.get("custom_id")))
        if match is None:
            return
        if interaction.message is None:  # a form Discord never sent (ours open from the replay's message)
            await interaction.response.send_message(
                t("discord.reject.unknown_component", await self.bot.locale_for(interaction)), ephemeral=True)
            return
        table_id, kind, persp, step = (int(n) for n in match.groups())
        typed = _field(interaction.data, REPLAY_GOTO_FIELD).strip().lstrip("#№").strip()
        number = int(typed) if typed.isdigit() else None

        def target(found: Any, locale: str) -> tuple[int, str | None]:
            at = found.step_of_move(number) if number is not None else None
            if at is not None:
                return at, None
            return step, "✋ " + t("replay.goto.no_such_move", locale, move=shorten(typed, 12) or "—",
                                   latest=found.latest_move)

        await self._stepped(interaction, table_id, kind, persp, target)

    async def _stepped(self, interaction: discord.Interaction, table_id: int, kind: int, persp: int,
                       target: Callable[[Any, str], tuple[int, str | None]] | None) -> None:
        """The clicked message redrawn in place at the step ``target(replay, locale)`` names (with a note, if it
        gives one), or replaced by a refusal when the clicker may not see that replay (``target`` None: a forged
        click)."""
        locale = await begin(interaction, private=False)
        table = await table_here(interaction, table_id)
        if isinstance(table, Rejection):
            return await self._closed(interaction, table, locale)
        if target is None:
            return await self._closed(interaction, replay.not_yours(), locale)
        if not started(table):
            return await self._closed(interaction, Rejection(Code.ILLEGAL, "core.reject.not_started",
                                                             {"table": table.id}), locale)
        viewer = await replay.allowed(self.bot, interaction, table, kind, persp)
        if isinstance(viewer, Rejection):
            return await self._closed(interaction, viewer, locale)
        found = await replay.load(self.bot, table, viewer)
        step, note = target(found, locale)
        drawn = await self._drawn(interaction, table, found, viewer, max(0, min(step, replay.last_step(found))),
                                  locale, note=note)
        if isinstance(drawn, Rejection):
            return await self._closed(interaction, drawn, locale)
        content, view, files = drawn
        await interaction.edit_original_response(content=content, view=view, attachments=files)

    async def _drawn(self, interaction: discord.Interaction, table: TableRow, found: Any, viewer: replay.Viewer,
                     step: int, locale: str, *, note: str | None = None
                     ) -> tuple[str, discord.ui.View, list[discord.File]] | Rejection:
        message = await replay.step_message(self.bot, interaction, table, found, viewer, step, locale, note=note)
        if isinstance(message, Rejection):
            return message
        content, picture = message
        seats = await self.bot.store.seats(table.id)
        view = replay_view(table.id, viewer.kind, viewer.persp, step, len(found.entries), locale,
                           replay.perspectives(viewer, seats, locale),
                           whatif=found.entries[step].version if viewer.kind == replay.MODERATOR else None)
        return content, view, [picture.file()] if picture is not None else []

    @staticmethod
    async def _closed(interaction: discord.Interaction, rejection: Rejection, locale: str) -> None:
        """The replay's message replaced by a refusal: its buttons go, as they name nothing its clicker may see."""
        await interaction.edit_original_response(content=shorten("✋ " + rejection.message(locale), DISCORD_LIMIT),
                                                 view=None, attachments=[])


def _field(data: Any, custom_id: str) -> str:
    """The value typed in a form's field (inside action rows, or labels, as Discord nests them)."""
    stack = list((data or {}).get("components") or [])
    while stack:
        item = stack.pop(0)
        if not isinstance(item, dict):
            continue
        if item.get("custom_id") == custom_id and isinstance(item.get("value"), str):
            return item["value"]
        stack += item.get("components") or []
        if isinstance(item.get("component"), dict):
            stack.append(item["component"])
    return ""


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Replay(bot))
