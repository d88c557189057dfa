"""Disputes on Discord (bot/referee/disputes.py).  Players: ``/dispute`` a move of the table (in its thread, by the
move's number in the log) and ``/rulings``, the ruling notes this server's moderators left.  Moderators:
``/disputes queue | evidence | decide``, a group of its own because ``/mod`` is at Discord's size limit for
one command (8000 characters with every translation).  Answers are private; the table hears of a dispute
and its decision in its thread, through the outbox.

Like ``/mod``, the moderators' group is hidden by default from members without Manage Server, and checked at
every use (``interaction_check``); a dispute of another server is answered as one that does not exist."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.client import JudgeBot
from bot.discord.components import (DECIDE_CORRECTION, DECIDE_FORM, DECIDE_REASON, DECIDE_RULE, DECISIONS, decide_form,
                                    form_values, whatif_dispute_view)
from bot.discord.interactions import begin, begin_at_table, is_moderator, pick_table, player_key, refuse, say
from bot.discord.locale import L
from bot.discord.moderators import is_server_moderator, reach
from bot.discord.render import clip, pack
from bot.engine import Code, Rejection
from bot.i18n import t
from bot.referee import disputes, oversight
from bot.render.disputes import evidence_texts, queue_lines, rulings_lines
from bot.render.text import game_title
from bot.storage.store import DisputeRow


class Disputes(commands.Cog):
    def __init__(self, bot: JudgeBot):
        self.bot = bot

    @app_commands.command(name=L("disputes.cmd.dispute"), description=L("disputes.cmd.dispute.desc"))
    @app_commands.guild_only()
    @app_commands.rename(move=L("moderation.param.move"), text=L("disputes.param.text"),
                         private=L("disputes.param.private"), table=L("discord.param.table"))
    @app_commands.describe(move=L("disputes.param.move.desc"), text=L("disputes.param.text.desc"),
                           private=L("disputes.param.private.desc"), table=L("discord.param.table.desc"))
    async def dispute(self, interaction: discord.Interaction, move: app_commands.Range[int, 1],
                      text: app_commands.Range[str, 1, disputes.TEXT_MAX], private: bool = False,
                      table: int | None = None):
        found, locale = await begin_at_table(interaction, table)
        if found is None:
            return
        raised = await disputes.raise_dispute(self.bot.referee, found.id, player_key(interaction), move=move,
                                              text=text, private=private)
        if isinstance(raised, Rejection):
            return await refuse(interaction, raised, locale)
        # the truth about who hears of it: the notice channel, moderators' DMs, or nobody at all
        told = await reach(self.bot, found, await self.bot.store.seats(found.id))
        await say(interaction, t(f"disputes.raised_{told}", locale, id=raised.id, move=raised.move))

    @dispute.autocomplete("move")
    async def _moves(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The moves of the table's public log, newest first (what every player sees in the log)."""
        found = await pick_table(interaction, getattr(interaction.namespace, "table", None))
        if isinstance(found, Rejection) or found.status != "active":
            return []
        locale = await self.bot.locale_for(interaction)
        events = await self.bot.referee.history(found.id)
        seats = await self.bot.store.seats(found.id)
        return [app_commands.Choice(name=label, value=number) for label, number in
                records.move_choices(self.bot.games[found.game], seats, events, locale, current, disputing=True)]

    @app_commands.command(name=L("disputes.cmd.rulings"), description=L("disputes.cmd.rulings.desc"))
    @app_commands.guild_only()
    async def rulings(self, interaction: discord.Interaction):
        locale = await begin(interaction)
        notes = await disputes.rulings(self.bot.referee, str(interaction.guild_id))
        await say(interaction, pack(rulings_lines(notes, locale))[:5])


class DisputeModeration(commands.Cog):
    group = app_commands.Group(name=L("disputes.cmd.disputes"), description=L("disputes.cmd.disputes.desc"),
                               guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await is_moderator(interaction, None)

    @group.command(name=L("disputes.cmd.queue"), description=L("disputes.cmd.queue.desc"))
    async def open_disputes(self, interaction: discord.Interaction):
        """The server's open disputes, oldest first, each with a link to its table's thread."""
        locale = await begin(interaction)
        found = await self._readable(interaction, await self.bot.store.disputes(
            guild_id=str(interaction.guild_id), status="open", limit=50), locale)
        tables = {}
        for d in found:  # a dispute's table is never deleted: the check only tells the type checker so
            if (table := await self.bot.store.get_table(d.table_id)) is not None:
                tables[d.table_id] = table
        games = {tid: game_title(self.bot.games[tb.game], locale) for tid, tb in tables.items()}
        where = {tid: f"<#{tb.thread_id}>" for tid, tb in tables.items() if tb.thread_id}
        await say(interaction, pack(queue_lines(found, games, locale, where=where))[:3])

    @group.command(name=L("disputes.cmd.evidence"), description=L("disputes.cmd.evidence.desc"))
    @app_commands.rename(dispute=L("disputes.param.dispute"), seat=L("disputes.param.seat"))
    @app_commands.describe(dispute=L("disputes.param.dispute.desc"), seat=L("disputes.param.seat.desc"))
    async def evidence(self, interaction: discord.Interaction, dispute: app_commands.Range[int, 1],
                       seat: app_commands.Range[int, 1, 100] | None = None):
        """Everything about the disputed move, privately: hidden parts included, and the table before and after
        it as one seat (or a spectator) saw it."""
        locale = await begin(interaction)
        found = await self._dispute_here(interaction, dispute)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        ev = await oversight.evidence(self.bot.referee, found.id, moderator=player_key(interaction))
        if isinstance(ev, Rejection):  # a moderator seated at the table (bot/referee/oversight.py)
            return await refuse(interaction, ev, locale)
        viewer = seat - 1 if seat is not None and seat <= len(ev.names) else None
        await say(interaction, pack(evidence_texts(ev, locale, seat=viewer))[:6],
                  view=whatif_dispute_view(found.id, locale, deciding=found.status == "open"))

    @group.command(name=L("disputes.cmd.decide"), description=L("disputes.cmd.decide.desc"))
    @app_commands.rename(dispute=L("disputes.param.dispute"), decision=L("disputes.param.decision"),
                         reason=L("discord.param.reason"), correction=L("disputes.param.correction"),
                         rule=L("disputes.param.rule"), reopen=L("discord.param.reopen"))
    @app_commands.describe(dispute=L("disputes.param.dispute.desc"), decision=L("disputes.param.decision.desc"),
                           reason=L("moderation.param.reason.desc"), correction=L("disputes.param.correction.desc"),
                           rule=L("disputes.param.rule.desc"), reopen=L("discord.param.reopen.desc"))
    @app_commands.choices(decision=[app_commands.Choice(name=L(f"disputes.decision.{kind}"), value=kind)
                                    for kind in disputes.KINDS])
    async def decide(self, interaction: discord.Interaction, dispute: app_commands.Range[int, 1],
                     decision: app_commands.Choice[str], reason: app_commands.Range[str, 1, 300],
                     correction: app_commands.Range[str, 1, 2000] | None = None,
                     rule: app_commands.Range[str, 1, disputes.RULE_MAX] | None = None, reopen: bool = False):
        locale = await begin(interaction)
        found = await self._dispute_here(interaction, dispute)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        await self._decide(interaction, found, decision.value, reason, correction, rule, reopen, locale)

    async def _decide(self, interaction: discord.Interaction, found: DisputeRow, kind: str, reason: str,
                      correction: str | None, rule: str | None, reopen: bool, locale: str) -> None:
        """A decision, from ``/disputes decide`` or a notice's button and its form: the same referee calls,
        so the same refusals and the same record."""
        action: dict[str, Any] | None = None
        if correction is not None:
            parsed = await disputes.parse_correction(self.bot.referee, found.id, correction,
                                                     moderator=player_key(interaction))
            if isinstance(parsed, Rejection):
                return await refuse(interaction, parsed, locale)
            action = parsed
        done = await disputes.decide(self.bot.referee, found.id, moderator=player_key(interaction),
                                     kind=kind, reason=reason, correction=action, reopen=reopen,
                                     note_rule=rule)
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale)
        if (done.decision or {}).get("steps"):
            self.bot.schedule_bots(done.table_id)
            await self.bot.refresh_lobby(done.table_id)  # a finished table reopened says so there
        await say(interaction, t("disputes.decided", locale, id=done.id,
                                 status=t(f"disputes.status.{done.status}", locale)))

    async def _notice_dispute(self, interaction: discord.Interaction, dispute_id: int) -> DisputeRow | Rejection:
        """The dispute a notice's button names, for a moderator of its server (the click may come from the notice
        channel or a DM); anyone else gets the answer of a dispute that does not exist."""
        found = await self.bot.store.dispute(dispute_id)
        if found is None:
            return Rejection(Code.NOT_FOUND, "disputes.reject.no_dispute", {"dispute": dispute_id})
        table = await self.bot.store.get_table(found.table_id)
        if interaction.guild_id is not None:
            allowed = table is not None and await is_moderator(interaction, table)
        else:
            allowed = table is not None and table.guild_id is not None and \
                await is_server_moderator(self.bot, table.guild_id, player_key(interaction))
        if not allowed:
            return Rejection(Code.NOT_FOUND, "disputes.reject.no_dispute", {"dispute": dispute_id})
        return found

    async def on_decide_button(self, interaction: discord.Interaction, dispute_id: int, decision: int) -> None:
        """Uphold / Reject / Amend under a notice: the form for the reason, to a moderator who may decide; a form
        must be the first answer, so the checks here read only what the bot holds (and, from a DM, one member)."""
        locale = await self.bot.locale_for(interaction)
        if not 0 <= decision < len(DECISIONS):  # a forged id
            return await refuse(interaction, Rejection(Code.MALFORMED, "disputes.reject.bad_kind",
                                                       {"kind": str(decision)}), locale)
        found = await self._notice_dispute(interaction, dispute_id)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        if await oversight.is_seated(self.bot.referee, found.table_id, player_key(interaction)):
            return await refuse(interaction, Rejection(Code.FORBIDDEN, "disputes.reject.own_table",
                                                       {"table": found.table_id}), locale)
        if found.status != "open":
            return await refuse(interaction, Rejection(Code.ILLEGAL, "disputes.reject.decided",
                                                       {"dispute": found.id, "status": found.status}), locale)
        await interaction.response.send_modal(decide_form(found.id, decision, locale))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A decision form sent back: judged again (rights may have changed since it opened), then decided."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})  # one of discord.py's TypedDicts, read as plain JSON
        match = DECIDE_FORM.fullmatch(str(data.get("custom_id")))
        if match is None:
            return
        dispute_id, decision = int(match.group(1)), int(match.group(2))
        locale = await begin(interaction)
        fields = form_values(interaction)
        found = await self._notice_dispute(interaction, dispute_id)
        if isinstance(found, Rejection):
            return await refuse(interaction, found, locale)
        if not 0 <= decision < len(DECISIONS):
            return await refuse(interaction, Rejection(Code.MALFORMED, "disputes.reject.bad_kind",
                                                       {"kind": str(decision)}), locale)
        kind = DECISIONS[decision]
        correction = (fields.get(DECIDE_CORRECTION) or "").strip() or None if kind == "amend" else None
        rule = (fields.get(DECIDE_RULE) or "").strip() or None
        await self._decide(interaction, found, kind, fields.get(DECIDE_REASON) or "", correction, rule, False, locale)

    async def on_evidence(self, interaction: discord.Interaction, dispute_id: int) -> None:
        """The Evidence button under a moderators' notice (bot/discord/moderators.py): what ``/disputes
        evidence`` shows, to a moderator of the dispute's server, judged there (the click may come from a DM)."""
        locale = await begin(interaction)
        found = await self._notice_dispute(interaction, dispute_id)
        if isinstance(found, Rejection):  # answered as a dispute that does not exist: its number reveals nothing
            return await refuse(interaction, found, locale)
        ev = await oversight.evidence(self.bot.referee, found.id, moderator=player_key(interaction))
        if isinstance(ev, Rejection):  # a moderator seated at the table (bot/referee/oversight.py)
            return await refuse(interaction, ev, locale)
        await say(interaction, pack(evidence_texts(ev, locale, seat=None))[:6],
                  view=whatif_dispute_view(found.id, locale, deciding=found.status == "open"))  # "What if…" from right before the move

    async def _dispute_here(self, interaction: discord.Interaction, dispute_id: int) -> DisputeRow | Rejection:
        """The dispute numbered ``dispute_id`` if its table is of this server; any other gets the answer of one
        that does not exist, so its number reveals nothing."""
        found = await self.bot.store.dispute(dispute_id)
        table = await self.bot.store.get_table(found.table_id) if found is not None else None
        if found is None or table is None or table.guild_id != str(interaction.guild_id):
            return Rejection(Code.NOT_FOUND, "disputes.reject.no_dispute", {"dispute": dispute_id})
        return found

    async def _readable(self, interaction: discord.Interaction, found: list[DisputeRow],
                        locale: str) -> list[DisputeRow]:
        """The disputes as this moderator may read them: another player's private text at a table where they
        play is not theirs to read (bot/referee/oversight.py ``withheld``)."""
        hidden = await oversight.withheld(self.bot.referee, found, player_key(interaction))
        return [replace(d, text=t("disputes.queue.withheld", locale)) if d.id in hidden else d for d in found]

    @evidence.autocomplete("dispute")
    @decide.autocomplete("dispute")
    async def _open_disputes(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        locale = await self.bot.locale_for(interaction)
        found = await self._readable(interaction, await self.bot.store.disputes(
            guild_id=str(interaction.guild_id), status="open", limit=100), locale)
        games = {}
        for d in found:  # a dispute's table is never deleted: the check only tells the type checker so
            if (table := await self.bot.store.get_table(d.table_id)) is not None:
                games[d.table_id] = game_title(self.bot.games[table.game], locale)
        lines = queue_lines(found, games, locale)[1:] if found else []
        return [app_commands.Choice(name=clip(line, 100), value=d.id) for d, line in zip(found, lines)
                if str(d.id).startswith(current.strip().lstrip("#№"))][:25]

    @decide.autocomplete("correction")
    async def _corrections(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """What the disputed move's seat could have done instead, numbered as ``parse_correction`` reads them."""
        found = await self._dispute_here(interaction, getattr(interaction.namespace, "dispute", 0) or 0)
        if isinstance(found, Rejection) or await oversight.is_seated(self.bot.referee, found.table_id,
                                                                     player_key(interaction)):
            return []  # the alternatives are hidden state: not for a moderator playing at that table
        locale = await self.bot.locale_for(interaction)
        ev = await disputes.evidence(self.bot.referee, found.id)
        if isinstance(ev, Rejection):
            return []
        labels = [f"{i}. {ev.game.describe_action(ev.before, ev.seat, a, locale, ev.names)}"
                  for i, a in enumerate(ev.corrections, 1)]
        wanted = current.strip().casefold()
        return [app_commands.Choice(name=clip(label, 100), value=str(i)) for i, label in enumerate(labels, 1)
                if wanted in label.casefold()][:25]


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Disputes(bot))
    await bot.add_cog(DisputeModeration(bot))
