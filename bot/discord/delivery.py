"""The outbox, delivered to Discord: table messages to the table's thread, private messages by DM.

Implements the ``Deliverer`` protocol of bot/delivery.py.  Failures: rate limits (429) and most 5xx are
retried inside discord.py; other 5xx and network errors are transient here (the outbox retries them); any
other refusal is permanent, recorded in the outbox and listed by ``/mod failures``.

A turn announcement carries buttons ("Act", "Show my hand"); once a newer announcement (or the table's end)
is posted, the previous one is edited to drop them, so only the newest message of a thread looks live.  The
previous one is found through the outbox (its Discord message id is the row's external_id).  That edit comes
after the new message is posted and is only cosmetic: when it fails it is logged and delivery goes on (an
old button is refused as stale anyway).  Likewise, once the finish (or cancellation) message of a table is
posted, its thread is archived, and a failure there is logged.

A closed DM (50007) is remembered per player (users.dm_closed): the player is told once in the table's
thread, without any private content, and is not sent DMs again until they join another table; the "Show my
hand" button gives them the same information.

What a crash between Discord taking something and the outbox recording it leads to, kind by kind (the outbox
row stays pending and the whole delivery is done again after the restart; bot/delivery.py):

- **Posts in the thread and DMs** (every chunk of every message, and the closed-DM notice) are sent with a
  nonce unique to the row and chunk (``nonce``) and ``enforce_nonce``, which discord.py sets whenever a nonce
  is given.  Discord's Create Message endpoint serves DM channels like any other, and for the same author and
  nonce within "the past few minutes" it returns the message it already has instead of posting another (or
  404 Unknown Message if that message was deleted since: counted as delivered, never re-posted).  Past that
  window Discord would post again; so a message that may already have reached Discord (pending when this
  process began delivering, or after a failed attempt that is not a refusal: a timeout, a 5xx) is first
  looked for in its channel (``_already_there``): the bot's messages after the previous message of the same
  table and target, up to 100 of them, compared by text, chunk by chunk.  What is found is not sent again,
  and only the missing chunks are.  Not covered: more than 100 messages posted in that channel in between,
  or a message that now renders differently (the server's language changed in between): then, past the
  window, it shows twice.
- **Removing the buttons of the previous turn message** sets it to no buttons: doing it twice shows the
  same.  After a possible earlier attempt it is skipped when the thread is archived (the earlier attempt got
  as far as archiving, so it had already done it; and an archived thread cannot be edited).
- **Archiving the thread** first reads the thread afresh and archives it only if it is not archived.
- **The lobby message** is redrawn from the table as it is: the same text again.
- Nothing else is sent: no attachments, pins, reactions, or thread creation (threads are opened by
  ``/game new``, outside the outbox; a lobby that a crash left without its thread is cancelled at start-up,
  bot/discord/client.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Sequence

import aiohttp
import discord

from bot.delivery import MAX_ATTEMPTS, DeliveryError, Skip
from bot.discord.components import turn_view
from bot.discord.render import discord_user_id, humans_to_act, mention, private_texts, table_texts
from bot.discord.host import Host
from bot.i18n import t
from bot.storage.store import OutboxRow, SeatRow, TableRow


log = logging.getLogger("judge.discord.delivery")

DM_CLOSED = 50007
UNKNOWN_MESSAGE = 10008
#: messages of a channel looked through for an earlier delivery of a message (one request's worth)
LOOK_BACK = 100
#: table messages after which the lobby message in the channel is updated (it shows the table's state)
_CLOSING_KINDS = ("finish", "cancelled")
#: table messages that may carry turn buttons, and those that make the previous ones out of date
_TURN_KINDS = ("start", "update")
_SUPERSEDING_KINDS = (*_TURN_KINDS, *_CLOSING_KINDS)
#: every kind of table message: the previous one bounds the search for an earlier delivery (a kind missing
#: here would only widen that search, back to an earlier message)
_TABLE_KINDS = (*_SUPERSEDING_KINDS, "ruling")
#: seconds the cosmetic edit of an old turn message may take before delivery moves on without it
RETIRE_TIMEOUT = 10.0


def nonce(table: TableRow, message: OutboxRow, part: str) -> str:
    """The nonce of one part (``0``, ``1``... for chunks, ``n0`` for the closed-DM notice) of an outbox
    message: the same at every attempt.  The outbox id alone would repeat if the database were replaced (and
    Discord would answer the new message with the old one), so a stamp of the table's creation time (ms,
    repeating every ~25 days) follows it.  Discord allows 25 characters: ids up to 13 digits fit."""
    stamp = int(table.created_at * 1000) % 36 ** 6
    return f"{message.id}.{part}.{_base36(stamp)}"


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


class DiscordDeliverer:
    origins = ("discord",)

    def __init__(self, bot: Host):
        self.bot = bot
        self._left_over: set[int] | None = None  # outbox ids pending when this process began delivering

    async def deliver(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        try:
            if message.target == "table":
                return await self._to_table(table, seats, message)
            return await self._to_seat(table, seats, message)
        except (discord.DiscordServerError, aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise DeliveryError(f"transient: {exc}") from exc
        except discord.HTTPException as exc:
            raise DeliveryError(f"Discord refused: {exc.status} (code {exc.code})", permanent=True) from exc

    async def _maybe_delivered(self, message: OutboxRow) -> bool:
        """Whether an earlier attempt may have reached Discord: the row was pending when this process began
        delivering (a previous run may have sent it and died before recording it), or an attempt failed
        without Discord refusing it (a timeout, a 5xx: Discord may have taken it all the same)."""
        if self._left_over is None:
            pending = await self.bot.store.pending_messages(limit=1_000_000, max_attempts=MAX_ATTEMPTS,
                                                            origins=self.origins)
            self._left_over = {m.id for m in pending}
        return message.attempts > 0 or message.id in self._left_over

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
        again = await self._maybe_delivered(message)
        found = await self._already_there(channel, texts, table, message, "table") if again else []
        sent = await self._send_all(channel, texts, table, message, buttons,
                                    discord.AllowedMentions(users=to_ping, everyone=False, roles=False), found)
        if previous is not None and not (again and await self._archived(int(channel_id))):
            await self._retire_previous(table, int(channel_id), previous, sent)
        if message.kind in _CLOSING_KINDS:
            await self.bot.refresh_lobby(table.id)
            await self.bot.archive_thread(table.id)  # after the last word; never raises
        return sent

    async def _after(self, table: TableRow, message: OutboxRow, target: str) -> discord.Object | None:
        """Where an earlier delivery of ``message`` would start in its channel: after the last message sent
        for the same table and target (messages are delivered in order, so nothing of the table came after
        that one but this), else after the lobby message a table's thread starts from."""
        kinds = _TABLE_KINDS if target == "table" else ("private",)
        last = await self.bot.store.last_sent(table.id, before=message.id, kinds=kinds, target=target)
        if last is not None and last.external_id is not None:
            return discord.Object(int(last.external_id))
        if target == "table" and table.thread_id is not None:
            return discord.Object(int(table.thread_id))
        return None

    async def _archived(self, channel_id: int) -> bool:
        """Whether the channel is an archived thread, read afresh (a cached thread may be out of date).  When
        it cannot be read, answers True: the cosmetic edit that asks is then left out."""
        try:
            channel = await asyncio.wait_for(self.bot.fetch_channel(channel_id), RETIRE_TIMEOUT)
        except Exception:
            return True
        return isinstance(channel, discord.Thread) and channel.archived

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
            if not user["dm_notice"]:  # not told yet: a crash may have come between remembering and telling
                await self._dms_closed(table, seat, user, message)
            raise Skip("DMs closed")
        locale = user["locale"] or await self.bot.table_locale(table)
        texts = private_texts(self.bot.games[table.game], table, seats, message.payload, locale)
        try:
            channel = await self.bot.create_dm(discord.Object(uid))
            again = await self._maybe_delivered(message)
            found = await self._already_there(channel, texts, table, message, "seat") if again else []
            return await self._send_all(channel, texts, table, message, None, discord.AllowedMentions.none(),
                                        found)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
        await self.bot.store.set_user(seat.user_id, dm_closed=1)
        await self._dms_closed(table, seat, user, message)
        raise Skip("DMs closed (50007)")

    async def _dms_closed(self, table: TableRow, seat: SeatRow, user: dict, message: OutboxRow) -> None:
        """Tell the player once, in the thread, where their hand is (not once the table is over: there is no
        hand left to play, and a post would reopen the archived thread; they are told at their next table).
        The notice is a part of ``message`` (its own nonce), so a crash before ``dm_notice`` is recorded does
        not post it twice either."""
        if user["dm_notice"] or table.status not in ("lobby", "active"):
            return
        channel_id = table.thread_id or table.channel_id
        if channel_id is not None:
            channel = self.bot.get_partial_messageable(int(channel_id))
            texts = [t("discord.dm.closed", await self.bot.table_locale(table), player=mention(seat))]
            # told before? (Discord's answer was remembered, the telling was not)
            again = await self._maybe_delivered(message) or bool(user["dm_closed"])
            found = await self._already_there(channel, texts, table, message, "table") if again else []
            await self._send_all(channel, texts, table, message, None,
                                 discord.AllowedMentions(users=[discord.Object(discord_user_id(seat.user_id))]),
                                 found, part="n")
        await self.bot.store.set_user(seat.user_id, dm_notice=1)
        log.info("DMs closed for a player of table %s; told them once in the thread", table.id)

    async def _send_all(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                        message: OutboxRow, view: discord.ui.View | None, mentions: discord.AllowedMentions,
                        found: Sequence[int] = (), *, part: str = "") -> str | None:
        """Send the chunks of one outbox message in order, the last with the buttons, but for the first
        ``found`` ones (an earlier attempt delivered them); returns the id of the last."""
        last = found[-1] if found else None
        for i in range(len(found), len(texts)):
            kwargs = {"view": view} if i == len(texts) - 1 and view is not None else {}
            try:
                sent = await channel.send(texts[i], nonce=nonce(table, message, f"{part}{i}"),
                                          allowed_mentions=mentions, **kwargs)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:
                    raise
                # Discord: this nonce's message was posted by an earlier attempt and deleted since
                log.info("outbox message %s part %s%s was delivered and deleted since", message.id, part, i)
                continue
            last = sent.id
        return str(last) if last is not None else None

    async def _already_there(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                             message: OutboxRow, target: str) -> list[int]:
        """The ids of the leading chunks of ``texts`` an earlier attempt posted in ``channel``: the bot's
        messages with those texts, in order (other people's in between), among the LOOK_BACK messages after
        the table's previous message to ``target`` (nothing else of the table can have come since)."""
        after = await self._after(table, message, target)
        me = self.bot.user.id if self.bot.user else None
        try:
            if after is not None:
                history = [m async for m in channel.history(after=after, limit=LOOK_BACK, oldest_first=True)]
            else:
                history = [m async for m in channel.history(limit=LOOK_BACK)][::-1]
        except discord.HTTPException as exc:  # unreadable: the nonce alone guards against a second post
            log.warning("could not read back channel %s for outbox message %s: %s", getattr(channel, "id", "?"),
                        message.id, exc.status)
            return []
        found: list[int] = []
        for posted in history:
            if len(found) == len(texts):
                break
            if posted.author.id == me and posted.content.strip() == texts[len(found)].strip():
                found.append(posted.id)
        return found


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
