"""The outbox, delivered to Discord: table messages to the table's thread, private messages by DM.

Implements the ``Deliverer`` protocol of bot/delivery.py.  Each chunk of a message is sent with the nonce
``<outbox id>.<chunk>`` and ``enforce_nonce`` (discord.py sets it whenever a nonce is given), so when the
bot dies between sending and marking a message sent, the re-send after the restart returns the message
Discord already has instead of posting it twice.

Failures: rate limits (429) and most 5xx are retried inside discord.py; other 5xx and network errors are
transient here (the outbox retries them); any other refusal is permanent, recorded in the outbox and listed
by ``/mod failures``.

A turn announcement carries buttons ("Act", "Show my hand"); once a newer announcement (or the table's end)
is posted, the previous one is edited to drop them, so only the newest message of a thread looks live.  The
previous one is found through the outbox (its Discord message id is the row's external_id).  That edit comes
after the new message is posted and is only cosmetic: repeating it after a crash is harmless, and when it
fails it is logged and delivery goes on (an old button is refused as stale anyway).  Likewise, once the
finish (or cancellation) message of a table is posted, its thread is archived, and a failure there is logged.

A closed DM (50007) is remembered per player (users.dm_closed): the player is told
once in the table's thread, without any private content, and is not sent DMs again until they join
another table; the "Show my hand" button gives them the same information.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.delivery import DeliveryError, Skip
from bot.discord_components import turn_view
from bot.discord_render import discord_user_id, humans_to_act, mention, private_texts, table_texts
from bot.i18n import t
from bot.storage.store import OutboxRow, SeatRow, TableRow

if TYPE_CHECKING:
    from bot.client import JudgeBot

log = logging.getLogger("judge.discord.delivery")

DM_CLOSED = 50007
#: table messages after which the lobby message in the channel is updated (it shows the table's state)
_CLOSING_KINDS = ("finish", "cancelled")
#: table messages that may carry turn buttons, and those that make the previous ones out of date
_TURN_KINDS = ("start", "update")
_SUPERSEDING_KINDS = (*_TURN_KINDS, *_CLOSING_KINDS)
#: seconds the cosmetic edit of an old turn message may take before delivery moves on without it
RETIRE_TIMEOUT = 10.0


class DiscordDeliverer:
    origins = ("discord",)

    def __init__(self, bot: "JudgeBot"):
        self.bot = bot

    async def deliver(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        try:
            if message.target == "table":
                return await self._to_table(table, seats, message)
            return await self._to_seat(table, seats, message)
        except (discord.DiscordServerError, aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise DeliveryError(f"transient: {exc}") from exc
        except discord.HTTPException as exc:
            raise DeliveryError(f"Discord refused: {exc.status} (code {exc.code})", permanent=True) from exc

    async def _to_table(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            raise Skip("the table has no Discord channel")
        game = self.bot.games[table.game]
        locale = await self.bot.table_locale(table)
        payload = message.payload
        texts = table_texts(game, table, seats, message.kind, payload, locale)
        view = payload.get("view")
        buttons = None
        if view is not None and message.kind in ("start", "update") and view.get("to_act"):
            buttons = turn_view(table.id, payload["version"], locale, act=bool(humans_to_act(view, seats)))
        previous = await self._previous_turn(table, message)
        to_ping = [discord.Object(uid) for s in newly_asked(view, seats, payload, previous)
                   if (uid := discord_user_id(s.user_id)) is not None]
        channel = self.bot.get_partial_messageable(int(channel_id))
        sent = await self._send_all(channel, texts, message.id, buttons,
                                    discord.AllowedMentions(users=to_ping, everyone=False, roles=False))
        if previous is not None:
            await self._retire_previous(table, int(channel_id), previous, sent)
        if message.kind in _CLOSING_KINDS:
            await self.bot.refresh_lobby(table.id)
            await self.bot.archive_thread(table.id)  # after the last word; never raises
        return sent

    async def _previous_turn(self, table: TableRow, message: OutboxRow) -> OutboxRow | None:
        """The turn announcement ``message`` supersedes (None if it supersedes none, e.g. a ruling)."""
        if message.kind not in _SUPERSEDING_KINDS:
            return None
        return await self.bot.store.last_sent(table.id, before=message.id, kinds=_TURN_KINDS)

    async def _retire_previous(self, table: TableRow, channel_id: int, previous: OutboxRow,
                               sent: str | None) -> None:
        """Drop the buttons of the previous turn announcement: the table has moved on.  Never raises: a
        failure here must not hold up delivery."""
        try:
            if previous.external_id is None or previous.external_id == sent:
                return
            old = self.bot.get_partial_messageable(channel_id).get_partial_message(int(previous.external_id))
            await asyncio.wait_for(old.edit(view=None), RETIRE_TIMEOUT)
        except Exception as exc:  # deleted message, missing access, Discord down: the old buttons stay
            status = getattr(exc, "status", None)
            log.warning("could not retire the buttons of an old turn message of table %s: %s%s", table.id,
                        type(exc).__name__, f" {status}" if status else "")

    async def _to_seat(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        seat = seats[message.seat]
        uid = None if seat.is_bot else discord_user_id(seat.user_id)
        if uid is None:
            raise Skip("not a Discord player")
        user = await self.bot.store.user(seat.user_id)
        if user["dm_closed"]:
            raise Skip("DMs closed")
        locale = user["locale"] or await self.bot.table_locale(table)
        texts = private_texts(self.bot.games[table.game], table, seats, message.payload, locale)
        try:
            channel = await self.bot.create_dm(discord.Object(uid))
            return await self._send_all(channel, texts, message.id, None, discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
        await self._dms_closed(table, seat, user, message.id)
        raise Skip("DMs closed (50007)")

    async def _dms_closed(self, table: TableRow, seat: SeatRow, user: dict, outbox_id: int) -> None:
        """Remember the closed DMs and tell the player once, in the thread, where their hand is (not once the
        table is over: there is no hand left to play, and a post would reopen the archived thread; they are
        told at their next table)."""
        await self.bot.store.set_user(seat.user_id, dm_closed=1)
        if user["dm_notice"] or table.status not in ("lobby", "active"):
            return
        channel_id = table.thread_id or table.channel_id
        if channel_id is not None:
            locale = await self.bot.table_locale(table)
            uid = discord_user_id(seat.user_id)
            await self.bot.get_partial_messageable(int(channel_id)).send(
                t("discord.dm.closed", locale, player=mention(seat)),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(uid)]),
                nonce=f"{outbox_id}.dm")
        await self.bot.store.set_user(seat.user_id, dm_notice=1)
        log.info("DMs closed for a player of table %s; told them once in the thread", table.id)

    @staticmethod
    async def _send_all(channel: discord.abc.Messageable, texts: list[str], outbox_id: int,
                        view: discord.ui.View | None, mentions: discord.AllowedMentions) -> str:
        """Send the chunks of one outbox message in order; the last carries the buttons."""
        last = None
        for i, text in enumerate(texts):
            is_last = i == len(texts) - 1
            kwargs = {"view": view} if is_last and view is not None else {}
            last = await channel.send(text, nonce=f"{outbox_id}.{i}", allowed_mentions=mentions, **kwargs)
        return str(last.id) if last is not None else None


def newly_asked(view: dict | None, seats: list[SeatRow], payload: dict, previous: OutboxRow | None) -> list[SeatRow]:
    """The Discord players to notify: those owing a decision that the previous turn announcement did not
    already ask of them.  Everyone owed is still named in the message; only a new ask pings, so a player
    waiting on a simultaneous decision (mulligans, the Leshy) is not pinged again each time another acts.
    After a rollback, or with nothing to compare with, everyone owed is pinged."""
    if view is None:
        return []
    owed = humans_to_act(view, seats)
    before = previous.payload.get("view") if previous is not None else None
    if before is None or payload.get("rollback"):
        return owed
    asked = {(p["seat"], p.get("prompt")) for p in before.get("to_act") or []}
    prompts = {p["seat"]: p.get("prompt") for p in view.get("to_act") or []}
    return [s for s in owed if (s.seat, prompts.get(s.seat)) not in asked]
