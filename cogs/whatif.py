"""A moderator's "what if" on Discord (bot/referee/whatif.py): another legal move tried at any stored step of a
table, on a scratch copy, played on by hand or by the bots, answered privately.

Three ways in: ``/whatif`` (a command of its own: ``/mod`` is at Discord's size limit for one command), the
"What if…" button under a dispute's evidence (the position right before the disputed move), and the same button
under a moderator's step of ``/table replay`` (``components.replay_view``, handled by ``on_open``).
Under each answer: the moves open at the scratch position (a select, a page at a time), one bot move, the bots to
the end.  Each answer's trial is kept in memory between clicks (the latest ``KEPT``; an earlier answer's buttons
play on from the position it showed), never written: the real table is untouched, and each step is a moderator's
look, refused to one seated at the table and logged (oversight.py).

Only moderators of the table's server get anything; everyone else is answered as if the table or dispute did not
exist (a click may come from a DM, where the server's moderators are asked of Discord, as the Evidence button is).
"""
from __future__ import annotations

import asyncio
import io
import itertools
import time
from collections import OrderedDict

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.client import JudgeBot
from bot.discord.components import trial_view
from bot.discord.interactions import begin, begin_at_table, is_moderator, pick_table, player_key, refuse, say, \
    table_choices
from bot.discord.locale import L
from bot.discord.moderators import is_server_moderator
from bot.discord.render import clip, code_blocks, pack
from bot.engine import Code, Rejection
from bot.i18n import t
from bot.referee import oversight, whatif as scratch
from bot.render.picture import picture
from bot.render.whatif import boards, end_lines, head_line, offer_labels, tried_lines
from bot.storage.store import TableRow

STATUSES = ("active", "finished", "cancelled")
KEPT = 64           # trials kept between clicks (the oldest forgotten first)
SHOWN_MOVES = 30    # moves of a trial shown in full; the earlier ones are counted
MOST_MESSAGES = 8   # private messages one answer takes at most (Bloodwood's twelve boards)


class WhatIf(commands.Cog):
    def __init__(self, bot: JudgeBot):
        self.bot = bot
        self.trials: OrderedDict[int, tuple[str, scratch.Trial]] = OrderedDict()
        # tokens unlike any an earlier run gave out: an old message's click finds no trial, never someone else's
        self._tokens = itertools.count(int(time.time() * 1000) % 10 ** 15)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await is_moderator(interaction, None)

    @app_commands.command(name=L("whatif.cmd.whatif"), description=L("whatif.cmd.whatif.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(table=L("discord.param.table"), move=L("whatif.param.move"),
                         action=L("whatif.param.action"), bots=L("whatif.param.bots"))
    @app_commands.describe(table=L("discord.param.table.desc"), move=L("whatif.param.move.desc"),
                           action=L("whatif.param.action.desc"), bots=L("whatif.param.bots.desc"))
    async def whatif(self, interaction: discord.Interaction, table: int,
                     move: app_commands.Range[int, 0] | None = None,
                     action: app_commands.Range[str, 1, 2000] | None = None,
                     bots: app_commands.Range[int, 0, 10_000] | None = None):
        found, locale = await begin_at_table(interaction, table, STATUSES)
        if found is None:
            return
        logged = {"moves": int(action is not None), "playout": "none" if bots is None else "bots", "steps": bots}
        trial = await scratch.open_trial(self.bot.referee, found.id, moderator=player_key(interaction), move=move,
                                        logged=logged)
        if isinstance(trial, Rejection):
            return await refuse(interaction, trial, locale)
        if action is not None:
            chosen = scratch.pick(trial, action)
            trial = scratch.play(trial, *chosen) if not isinstance(chosen, Rejection) else chosen
            if isinstance(trial, Rejection):
                return await refuse(interaction, trial, locale)
        if bots is not None:
            trial = await asyncio.to_thread(scratch.bots, trial, bots or None)  # the event loop keeps beating
        await self._show(interaction, self._keep(interaction, trial), trial, locale)

    @whatif.autocomplete("table")
    async def _tables(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current, STATUSES)

    @whatif.autocomplete("move")
    async def _moves(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The moves of the table's log, newest first, and 0, the start."""
        found = await pick_table(interaction, getattr(interaction.namespace, "table", None), STATUSES)
        if isinstance(found, Rejection):
            return []
        locale = await self.bot.locale_for(interaction)
        events = await self.bot.referee.history(found.id)
        seats = await self.bot.store.seats(found.id)
        listed = records.move_choices(self.bot.games[found.game], seats, events, locale, current, disputing=True)
        if "0".startswith(current.strip()) and len(listed) < 25:
            listed.append((f"0. {t('records.move.start', locale)}", 0))
        return [app_commands.Choice(name=label, value=number) for label, number in listed]

    @whatif.autocomplete("action")
    async def _actions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The legal moves at the chosen position, numbered as ``action`` reads them: hidden state (a seat's
        moves show its hand), so only for a moderator of the server not seated at the table."""
        found = await pick_table(interaction, getattr(interaction.namespace, "table", None), STATUSES)
        if isinstance(found, Rejection) or not await is_moderator(interaction, found) or \
                await oversight.is_seated(self.bot.referee, found.id, player_key(interaction)):
            return []
        move = getattr(interaction.namespace, t("whatif.param.move", "en"), None)  # options go by their names
        trial = await scratch.position(self.bot.referee, found.id, move=move if isinstance(move, int) else None)
        if isinstance(trial, Rejection) or trial.outcome is not None:
            return []
        locale = await self.bot.locale_for(interaction)
        wanted = current.strip().casefold()
        return [app_commands.Choice(name=clip(label, 100), value=str(n))
                for n, label in enumerate(offer_labels(trial, locale), 1) if wanted in label.casefold()][:25]

    # ------------------------------------------------------------------------------------------ the buttons
    async def on_open(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        """"What if…" at a stored step (a moderator's ``/table replay``): the position at ``version``."""
        locale = await begin(interaction)
        table = await self.bot.store.get_table(table_id)
        if not await self._moderates(interaction, table):
            return await refuse(interaction, Rejection(Code.NOT_FOUND, "core.reject.no_table",
                                                       {"table": table_id}), locale)
        await self._open(interaction, table_id, version, locale)

    async def on_dispute(self, interaction: discord.Interaction, dispute_id: int) -> None:
        """"What if…" under a dispute's evidence: the position right before the disputed move."""
        locale = await begin(interaction)
        found = await self.bot.store.dispute(dispute_id)
        table = await self.bot.store.get_table(found.table_id) if found is not None else None
        if found is None or table is None or not await self._moderates(interaction, table):
            return await refuse(interaction, Rejection(Code.NOT_FOUND, "disputes.reject.no_dispute",
                                                       {"dispute": dispute_id}), locale)
        await self._open(interaction, table.id, found.version - 1, locale)

    async def on_pick(self, interaction: discord.Interaction, token: int, index: int) -> None:
        """The next move of a trial, by hand."""
        locale = await begin(interaction)
        trial = await self._kept(interaction, token, locale)
        if trial is None:
            return
        listed = trial.offers()
        if not 0 <= index < len(listed):
            return await refuse(interaction, Rejection(Code.ILLEGAL, "core.reject.no_such_choice",
                                                       {"n": index + 1, "count": len(listed)}), locale)
        seat, action = listed[index]
        await self._step(interaction, trial, locale, seat=seat, action=action)

    async def on_bots(self, interaction: discord.Interaction, token: int, steps: int) -> None:
        """The bots play a trial on: one move, or (0) to the end."""
        locale = await begin(interaction)
        trial = await self._kept(interaction, token, locale)
        if trial is not None:
            await self._step(interaction, trial, locale, playout=True, steps=steps or None)

    async def on_page(self, interaction: discord.Interaction, token: int, page: int) -> None:
        """Another page of a trial's open moves (the same trial: nothing new is looked at)."""
        locale = await begin(interaction)
        trial = await self._kept(interaction, token, locale)
        if trial is not None and await oversight.is_seated(self.bot.referee, trial.table.id, player_key(interaction)):
            return await refuse(interaction, oversight.seated_refusal(trial.table.id), locale)  # seated since
        if trial is not None:
            labels = offer_labels(trial, locale)
            await say(interaction, t("whatif.offers", locale, n=len(labels)),
                      view=trial_view(token, labels, page, locale, over=trial.outcome is not None))

    # ------------------------------------------------------------------------------------------ helpers
    async def _moderates(self, interaction: discord.Interaction, table: TableRow | None) -> bool:
        """Whether the clicker moderates ``table``'s server (a click may come from a DM: asked of Discord)."""
        if table is None or table.guild_id is None:
            return False
        if interaction.guild_id is not None:
            return await is_moderator(interaction, table)
        return await is_server_moderator(self.bot, table.guild_id, player_key(interaction))

    async def _open(self, interaction: discord.Interaction, table_id: int, version: int, locale: str) -> None:
        trial = await scratch.open_trial(self.bot.referee, table_id, moderator=player_key(interaction),
                                        version=version)
        if isinstance(trial, Rejection):
            return await refuse(interaction, trial, locale)
        await self._show(interaction, self._keep(interaction, trial), trial, locale)

    def _keep(self, interaction: discord.Interaction, trial: scratch.Trial) -> int:
        token = next(self._tokens)
        self.trials[token] = (player_key(interaction), trial)
        while len(self.trials) > KEPT:
            self.trials.popitem(last=False)
        return token

    async def _kept(self, interaction: discord.Interaction, token: int, locale: str) -> scratch.Trial | None:
        """The trial behind a click, for the moderator who began it and who still moderates its table."""
        kept = self.trials.get(token)
        if kept is None or kept[0] != player_key(interaction) or not await self._moderates(interaction,
                                                                                            kept[1].table):
            await refuse(interaction, Rejection(Code.NOT_FOUND, "whatif.reject.expired"), locale)
            return None
        self.trials.move_to_end(token)
        return kept[1]

    async def _step(self, interaction: discord.Interaction, trial: scratch.Trial, locale: str, **step) -> None:
        made = await scratch.go_on(self.bot.referee, trial, moderator=player_key(interaction), **step)
        if isinstance(made, Rejection):
            return await refuse(interaction, made, locale)
        # a token of its own: an earlier answer's select still plays from the position that answer showed
        await self._show(interaction, self._keep(interaction, made), made, locale)

    async def _show(self, interaction: discord.Interaction, token: int, trial: scratch.Trial, locale: str) -> None:
        """The trial, privately: what was tried and how it stands, every seat's board, the public picture of the
        scratch position, and the moves open now under it."""
        blocks = ["\n".join([head_line(trial, locale), *tried_lines(trial, locale, most=SHOWN_MOVES),
                             *end_lines(trial, locale)])]
        for header, board in boards(trial, locale):
            blocks += [header, *code_blocks(board)]
        texts = pack(blocks)[:MOST_MESSAGES]
        names = trial.names
        png = await asyncio.to_thread(picture, trial.game.view(trial.state, None), locale, names)
        files = [discord.File(io.BytesIO(png), filename=f"whatif{trial.table.id}-{token}.png",
                              description=head_line(trial, locale)[:1000])] if png else []
        labels = offer_labels(trial, locale) if trial.outcome is None else []
        await say(interaction, texts, view=trial_view(token, labels, 0, locale, over=trial.outcome is not None),
                  files=files)


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(WhatIf(bot))
