"""The outbox, delivered to Discord: table messages to the table's thread, private messages by DM.

Implements the ``Deliverer`` protocol of bot/referee/delivery.py.  Failures: rate limits (429) and most 5xx are
retried inside discord.py; other 5xx and network errors are transient here (the outbox retries them); any
other refusal is permanent, recorded in the outbox and listed by ``/mod failures``.

A table message (start, update, finish, cancellation) edits the table's **live message** to the table
as it is now (bot/discord/panels.py) and redraws the **control messages** in the players' DMs whose question
changed or that have private news; a player to whom the decision passes (asked something they were not asked
before) gets their control message posted anew instead — a plain post, never an interaction followup, opening
with "▶ your move — table, game: the move" and the public moves since their last decision, within a phone
screen (bot/discord/recap.py) — the new DM being their ping, and the old one deleted.  At a table's end each
player's own ``end`` message is a DM of its own (``_end``): their result, rating change and the table's page.
An out-of-turn window with a deadline is never a ping: it is shown in the control message,
edited (bot/discord/windows.py).  While a player plays live, edits and deletions go through the token of their
own latest click (bot/discord/grips.py), which Discord does not count against the rate limit, so that a
hand-over costs two rate-limited writes, the live message's edit and the new DM.  Without a living token (a
player answering hours later) the old control message is left rather than deleted by an ordinary call, and a
seat whose choices have not changed is not redrawn: still two writes (issue 35; docs/discord.md §5).  A short **move post** in the thread only for the end, a cancellation, a rollback and the ping
of a player whose DMs are closed; a ruling and a dispute (raised or decided) are posts of their own.  A
private message redraws its seat's control message.  An update followed by another pending one is left out:
the later one shows a newer table and posts everything since the last post.  The live message and control message ids, the version each shows and what it asks
are kept in the ``panels`` table.  Once the finish (or cancellation) is posted, the thread is archived; a
failure there is logged.

A closed DM (50007) is remembered per player (users.dm_closed): the player is told once in the table's
thread, without any private content, and is not sent DMs again until they join another table; "My move" and
"My hand" under the live message give them the same information.

What a crash between Discord taking something and the outbox recording it leads to, kind by kind (the outbox
row stays pending and the whole delivery is done again after the restart; bot/referee/delivery.py):

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
- **Edits** (the live message, a control message) redraw from the record as it is now: done twice they
  show the same.  A table message found already delivered (the live message's panel is at its version and
  its post went out) is not edited again, so a replayed result never edits inside an archived thread; a
  post goes before the edit, since a post reopens an archived thread and an edit there would be refused.
- **A control message** is posted with a nonce of its own (per player, table and version); a post through a
  player's token has no nonce, so after a failed attempt that may have reached Discord the DM is looked
  through first, as above.  The message it replaces is deleted once the new one is posted; if a crash or a
  refusal comes in between, it stays (its buttons, out of date, redraw it when clicked).
- **Archiving the thread** first reads the thread afresh and archives it only if it is not archived.
- **The lobby message** is redrawn from the table as it is: the same text again.
- **Pinning** the live message only where the bot has Pin Messages; pinning twice changes nothing.
- **Pictures** ride on those posts and edits (bot/discord/pictures.py): the live message carries the public
  picture of the table, a control message its player's hand picture; an edit replaces the picture with the
  current one, so an edit done twice shows the same.
- Nothing else is sent: no other attachments, reactions, or thread creation (threads are opened by
  ``/game new``, outside the outbox; a lobby that a crash left without its thread is cancelled at start-up,
  bot/discord/client.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Sequence

import aiohttp
import discord

from bot.discord import panels
from bot.discord.citations import with_why
from bot.discord.components import decide_view
from bot.discord.moderators import (notice_text, reach as moderator_reach, recipients as moderator_recipients,
                                    role_mention)
from bot.web.links import base_url, link_line, table_url
from bot.discord.host import Host
from bot.discord.pictures import Picture, TablePictures
from bot.discord.render import discord_user_id, display_names, mention
from bot.i18n import t
from bot.ratings.render import own_rating_line
from bot.referee.delivery import MAX_ATTEMPTS, DeliveryError, Skip
from bot.referee.disputes import disputed_move
from bot.referee.steps import END, MODERATORS
from bot.render.disputes import log_move_line
from bot.render.text import DISCORD_LIMIT, end_notice, render_message
from bot.storage.rows import known
from bot.storage.store import OutboxRow, SeatRow, TableRow
from bot.discord.control_messages import DM_CLOSED, LIVE, ControlMessages, Probe, base36, dm_user
from bot.discord.live_message import CLOSING_KINDS, LiveMessage, pinging


log = logging.getLogger("judge.discord.delivery")

UNKNOWN_MESSAGE = 10008
#: messages of a channel looked through for an earlier delivery of a message (one request's worth)
LOOK_BACK = 100
#: table messages that may carry turn buttons, and those that make the previous ones out of date
_TURN_KINDS = ("start", "update")
_SUPERSEDING_KINDS = (*_TURN_KINDS, *CLOSING_KINDS)
#: every kind of table message: the previous one bounds the search for an earlier delivery (a kind missing
#: here would only widen that search, back to an earlier message)
#: the referee's own posts (a ruling, a dispute raised or decided, a pause, a time-control notice): a message in the thread, the live message kept
_NOTICE_KINDS = ("ruling", "dispute", "clock", "upgrade")  # upgrade: a table this release cannot play
_TABLE_KINDS = (*_SUPERSEDING_KINDS, *_NOTICE_KINDS)


def nonce(table: TableRow, message: OutboxRow | Probe, part: str) -> str:
    """The nonce of one part (``0``, ``1``... for chunks, ``n0`` for the closed-DM notice) of an outbox
    message: the same at every attempt.  The outbox id alone would repeat if the database were replaced (and
    Discord would answer the new message with the old one), so a stamp of the table's creation time (ms,
    repeating every ~25 days) follows it.  Discord allows 25 characters: ids up to 13 digits fit."""
    stamp = int(table.created_at * 1000) % 36 ** 6
    return f"{message.id}.{part}.{base36(stamp)}"


class DiscordDeliverer(LiveMessage, ControlMessages):
    origins: tuple[str, ...] | None = ("discord",)

    def __init__(self, bot: Host):
        self.bot = bot
        self._left_over: set[int] | None = None  # outbox ids pending when this process began delivering
        self._wants: dict[str, str] = {}           # each player's ping setting, read per table message
        self._dm_closed: dict[str, bool] = {}      # and whether their DMs are closed (pinged in the thread)
        self.pictures = TablePictures()

    async def deliver(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        try:
            if message.target == "table":
                return await self._to_table(table, seats, message)
            await self._to_seat(table, seats, message)
            return None
        except (discord.DiscordServerError, aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise DeliveryError(f"transient: {exc}") from exc
        except discord.HTTPException as exc:
            raise DeliveryError(f"Discord refused: {exc.status} (code {exc.code})", permanent=True) from exc

    async def _maybe_delivered(self, message: OutboxRow | Probe) -> bool:
        """Whether an earlier attempt may have reached Discord: the row was pending when this process began
        delivering (a previous run may have sent it and died before recording it), or an attempt failed
        without Discord refusing it (a timeout, a 5xx: Discord may have taken it all the same)."""
        if self._left_over is None:
            self._left_over = await self.bot.store.pending_ids(max_attempts=MAX_ATTEMPTS, origins=self.origins)
        return message.attempts > 0 or message.id in self._left_over

    # ------------------------------------------------------------------ the table's thread
    async def _to_table(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        """One table message: the live message is edited to the table as it is now, a short move post goes
        out when the decision passes to someone new (their ping), and the control messages of the players
        whose decision changed are brought up to date.  An update followed by another pending one is left
        out: the later one shows a newer table and posts everything since the last post."""
        kind = message.kind
        if kind == MODERATORS:  # not in the thread: the server's notice channel, or its moderators' DMs
            return await self._to_moderators(table, seats, message)
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            raise Skip("the table has no Discord channel")
        if kind == "update" and await self.bot.store.later_pending(table.id, message.id):
            return None
        channel = self.bot.get_partial_messageable(int(channel_id))
        live = await self.bot.store.panel(table.id, LIVE)
        if kind in _NOTICE_KINDS:
            locale = await self.bot.table_locale(table)
            plain = self._plain(table, seats, message, locale)
            sent = await self.post_once(channel, [plain], table, message, discord.AllowedMentions.none(),
                                    view=with_why(None, table.game, plain, locale))
            if kind == "clock" and live is not None and table.status == "active":
                await self._redraw_live(channel, table, seats, live)  # a pause or a vacation moved the deadlines
            return sent
        if kind == "start" and live is not None:  # delivered before, recorded in the panels but not the outbox
            return live.message_id
        state = await self.bot.store.known_state(table.id)  # a table message past a notice is an active table's
        await self._load_users(seats)  # who wants which pings and whose DMs are closed, for the pings below
        about: dict[int, str] = {}
        if kind == "start" or live is None:
            sent, asked = await self._open_live(channel, table, seats, message, state)
        else:
            about = await self._about_pings(table, seats, message, state, live)
            sent, asked = await self._update_live(channel, table, seats, message, state, live)
        await self._refresh_controls(table, seats, state, ping={s.seat for s in asked} | set(about), about=about)
        if kind in CLOSING_KINDS:
            await self.bot.refresh_lobby(table.id)
            await self.bot.archive_thread(table.id)  # after the last word; never raises
        return sent

    async def _to_moderators(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        """A notice to the server's moderators (bot/discord/moderators.py): posted in the server's notice channel
        (the moderator role mentioned), else sent by DM to each moderator the bot knows there (none known: the
        server's owner); each post with a nonce of its own and looked for first after an attempt that may have
        reached Discord.  A dispute that reached nobody is told to its author, unless the answer to their
        ``/dispute`` said so already (``reach``: nobody to try)."""
        if table.guild_id is None:
            raise Skip("a table of no server")
        server = await self.bot.store.guild(table.guild_id)
        game, locale = self.bot.games[table.game], await self.bot.table_locale(table)
        dispute = message.payload.get("what") == "dispute"
        view = decide_view(message.payload["dispute"], locale) if dispute else None
        move_line = None
        if dispute:  # the move in words, as the log shows it to everyone
            row = await self.bot.store.dispute(int(message.payload["dispute"]))
            move = await disputed_move(self.bot.referee, table.id, row.version) if row is not None else None
            move_line = log_move_line(game, move, locale, display_names(seats)) if move is not None else None
        if server.get("notice_channel"):
            role = role_mention(server["moderator_role"] or self.bot.settings.moderator_role,
                                self.bot.get_guild(int(table.guild_id)))
            text = notice_text(game, table, seats, message.payload, locale, role=role, move_line=move_line)
            channel = self.bot.get_partial_messageable(int(server["notice_channel"]))
            pings = discord.AllowedMentions(users=False, everyone=False,
                                            roles=[discord.Object(int(role))] if role else False)
            return await self.post_once(channel, [text], table, message, pings, view=view, part="mc")
        tried = await moderator_reach(self.bot, table, seats)
        people = await moderator_recipients(self.bot, table, seats)
        text, last = notice_text(game, table, seats, message.payload, locale, move_line=move_line), None
        for uid in people:
            try:
                dm = await self.bot.create_dm(discord.Object(uid))
                last = await self.post_once(dm, [text], table, message, discord.AllowedMentions.none(),
                                            view=view, part=f"m{base36(uid % 36 ** 5)}.") or last
            except discord.HTTPException as exc:  # closed DMs, or no such user: the others are told all the same
                if exc.status >= 500:
                    raise
                log.info("a moderator of table %s cannot be sent a DM: %s", table.id, exc.code)
        if last is None:
            if dispute and tried != "nobody":
                await self._tell_author(table, message, locale)
            raise Skip("no notice channel set and no moderator of the server reached")
        return last

    async def _tell_author(self, table: TableRow, message: OutboxRow, locale: str) -> None:
        """No moderator was reached: the dispute's author hears so by DM (their DMs closed: in the thread,
        naming only the dispute's number, since its text may be private)."""
        uid = discord_user_id(str(message.payload.get("by") or ""))
        if uid is None:
            return
        text = t("disputes.moderators.nobody_after", locale, id=message.payload["dispute"])
        try:
            channel = await self.bot.create_dm(discord.Object(uid))
            await self.post_once(channel, [text], table, message, discord.AllowedMentions.none(), part="ma")
            return
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise
            log.info("the author of a dispute at table %s cannot be sent a DM: %s", table.id, exc.code)
        if table.thread_id:
            thread = self.bot.get_partial_messageable(int(table.thread_id))
            text = f"<@{uid}> {text}"
            await self.post_once(thread, [text], table, message, discord.AllowedMentions(users=[discord.Object(uid)]),
                                 part="mt")

    async def post_once(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                        message: OutboxRow | Probe, mentions: discord.AllowedMentions, *,
                        view: discord.ui.View | None = None, picture: Picture | None = None, part: str = "",
                        silent: bool = False, target: str = "table", again: bool | None = None) -> str | None:
        """A new message (its chunks ``texts``), posted once even when this delivery is done again (see above):
        where an earlier attempt may have reached Discord (``again``; by default ``_maybe_delivered``), the
        chunks it posted are looked for in ``channel`` after the table's previous message to ``target`` and only
        the missing ones are sent, each with its nonce (``part``); returns the id of the last."""
        if again is None:
            again = await self._maybe_delivered(message)
        # (a Probe is no outbox row, never pending before: nothing of it to look back for)
        found = await self._already_there(channel, texts, table, message, target) \
            if again and isinstance(message, OutboxRow) else []
        return await self._send_all(channel, texts, table, message, view, mentions, found, part=part, silent=silent,
                                    picture=picture)

    def _plain(self, table: TableRow, seats: list[SeatRow], message: OutboxRow, locale: str) -> str:
        """A message of the referee's own (a ruling, a cancellation) as it reads in Discord."""
        game = self.bot.games[table.game]
        text = render_message(game, message.kind, message.payload, names=display_names(seats), locale=locale,
                              table_id=table.id, board=False, front="discord")
        return text[:DISCORD_LIMIT]

    async def _load_users(self, seats: list[SeatRow]) -> None:
        users = {s.user_id: await self.bot.store.user(s.user_id) for s in seats if panels.human(s)}
        self._wants = {key: user.get("pings") or "turn" for key, user in users.items()}
        self._dm_closed = {key: bool(user["dm_closed"]) for key, user in users.items()}

    # ------------------------------------------------------------------ the players' control messages
    async def _to_seat(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> None:
        """Private news for one seat: its control message is brought up to date (or created)."""
        seat = seats[known(message.seat, f"the seat of outbox message {message.id}")]  # a seat's message has one
        if message.kind == END:  # a seat a bot took over is still its player's: they are told the end too
            return await self._end(table, seats, seat, message)
        if not panels.human(seat):
            raise Skip("not a Discord player")
        if message.kind == "reminder":
            return await self._remind(table, seats, seat, message)
        state = await self.bot.store.known_state(table.id)  # private news comes from a dealt table
        if not await self._refresh_control(table, seats, state, seat.seat, message=message):
            raise Skip("DMs closed")

    async def _end(self, table: TableRow, seats: list[SeatRow], seat: SeatRow, message: OutboxRow) -> None:
        """One player's own notice of the table's end, a DM of its own (a new DM: it notifies), posted once (a
        nonce, and the look-back after an attempt that may have reached Discord): their result, who won and
        why, their rating change at a rated table, the table's page.  A player whose DMs are closed was named
        in the end post in the thread instead (``_closed_dms``)."""
        if discord_user_id(seat.user_id) is None:
            raise Skip("not a Discord player")
        user = await self.bot.store.user(seat.user_id)
        if user["dm_closed"]:
            raise Skip("DMs closed: named in the end post")
        locale = user["locale"] or await self.bot.table_locale(table)
        text = await self.end_text(table, seats, seat, message.payload, locale)
        if not text:
            raise Skip("no outcome to tell")
        # the player whose own click ended the game sees the result where they clicked: theirs is sent silently
        # (no self-ping), everyone else's notifies
        last = await self.bot.store.action_at(table.id, message.payload.get("version", table.version))
        own = last is not None and last.seat == seat.seat and last.user_id == seat.user_id
        channel = await self.bot.create_dm(dm_user(seat))
        try:
            await self.post_once(channel, [text], table, message, discord.AllowedMentions.none(), target="seat",
                                 part=f"e{seat.seat}.", silent=own)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            await self.bot.store.set_user(seat.user_id, dm_closed=1)
            raise Skip("DMs closed") from exc

    async def end_text(self, table: TableRow, seats: list[SeatRow], seat: SeatRow, payload: dict, locale: str) -> str:
        """The text of ``seat``'s end notice (``payload``: its outbox message, filled from the record)."""
        outcome = (payload.get("view") or {}).get("outcome")
        if not outcome:
            return ""
        game = self.bot.games[table.game]
        lines = [end_notice(game, outcome, seat.seat, locale, display_names(seats), table.id,
                            taken=seat.is_bot and discord_user_id(seat.user_id) is not None)]
        rating = await own_rating_line(self.bot.store, table, seat.seat, locale)
        if rating:
            lines.append(rating)
        lines += link_line("web.link.table", table_url(base_url(self.bot.settings), table.id), locale)
        return "\n".join(lines)

    async def _closed_dms(self, seats: list[SeatRow]) -> list[SeatRow]:
        """The Discord players of ``seats`` whose DMs are closed (a seat a bot took over included): the end
        post names them, since their own end notice cannot reach them."""
        closed = []
        for seat in seats:
            if discord_user_id(seat.user_id) is not None and (await self.bot.store.user(seat.user_id))["dm_closed"]:
                closed.append(seat)
        return closed

    async def _remind(self, table: TableRow, seats: list[SeatRow], seat: SeatRow, message: OutboxRow) -> None:
        """A time-control reminder: a DM of its own (a new DM is the ping), posted once; a player whose DMs
        are closed is pinged in the table's thread instead."""
        user = await self.bot.store.user(seat.user_id)
        text = render_message(self.bot.games[table.game], "reminder", message.payload, names=display_names(seats),
                              locale=user["locale"] or await self.bot.table_locale(table), table_id=table.id,
                              front="discord")
        if not user["dm_closed"]:
            channel = await self.bot.create_dm(dm_user(seat))
            try:
                await self.post_once(channel, [text], table, message, discord.AllowedMentions.none(), target="seat",
                                     part=f"m{seat.seat}.")
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                await self.bot.store.set_user(seat.user_id, dm_closed=1)
        where = table.thread_id or table.channel_id
        if where is None:
            raise Skip("DMs closed and no thread")
        await self.post_once(self.bot.get_partial_messageable(int(where)), [f"{mention(seat)} {text}"], table, message,
                         pinging([seat]))

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
            await self.post_once(channel, texts, table, message,
                                 discord.AllowedMentions(users=[dm_user(seat)]),
                                 part="n", again=again)
        await self.bot.store.set_user(seat.user_id, dm_notice=1)
        log.info("DMs closed for a player of table %s; told them once in the thread", table.id)

    async def _send_all(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                        message: OutboxRow | Probe, view: discord.ui.View | None, mentions: discord.AllowedMentions,
                        found: Sequence[int] = (), *, part: str = "", silent: bool = False,
                        picture: Picture | None = None) -> str | None:
        """Send the chunks of one outbox message in order, the last with the buttons and the picture, but for
        the first ``found`` ones (an earlier attempt delivered them); returns the id of the last."""
        last = found[-1] if found else None
        for i in range(len(found), len(texts)):
            kwargs: dict[str, Any] = {"view": view} if i == len(texts) - 1 and view is not None else {}
            if i == len(texts) - 1 and picture is not None:
                kwargs["files"] = _files(picture)
            try:
                sent = await channel.send(texts[i], nonce=nonce(table, message, f"{part}{i}"),
                                          allowed_mentions=mentions, silent=silent, **kwargs)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:
                    raise
                # Discord: this nonce's message was posted by an earlier attempt and deleted since
                log.info("outbox message %s part %s%s was delivered and deleted since", message.id, part, i)
                continue
            last = sent.id
            if "files" in kwargs:
                self.pictures.carried(sent.id, picture)
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


def _files(picture: Picture | None) -> list[discord.File]:
    return [picture.file()] if picture is not None else []


