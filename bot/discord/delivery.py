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
import json
import logging
from typing import Sequence

import aiohttp
import discord

from bot.discord import panels, windows
from bot.discord.citations import with_why
from bot.discord.components import decide_view, live_view, replay_open_view
from bot.discord.moderators import (notice_text, reach as moderator_reach, recipients as moderator_recipients,
                                    role_mention)
from bot.web.links import base_url, link_line, table_url
from bot.discord.control import render_control
from bot.discord.host import Host
from bot.discord.pictures import Picture, TablePictures
from bot.discord.recap import Recap
from bot.discord.render import code_blocks, discord_user_id, display_names, mention, plain_names
from bot.engine import Game
from bot.engine.pace import corresponding
from bot.engine.versions import CannotMigrate, readable
from bot.i18n import t
from bot.ratings.render import own_rating_line, rating_line
from bot.referee.delivery import MAX_ATTEMPTS, DeliveryError, Skip
from bot.referee.disputes import disputed_move
from bot.referee.moves import Moves
from bot.referee.service import AUTO
from bot.referee.steps import END, MODERATORS, SYSTEM
from bot.referee import windowprefs
from bot.referee.windowprefs import PREFERENCE
from bot.referee.timecontrol import with_deadlines
from bot.render.disputes import log_move_line
from bot.render.notices import options_text
from bot.render.text import DISCORD_LIMIT, end_notice, game_title, outcome_line, render_message
from bot.storage.clocks import Clocks
from bot.storage.store import OutboxRow, Panel, SeatRow, TableRow


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
#: the referee's own posts (a ruling, a dispute raised or decided, a pause, a time-control notice): a message in the thread, the live message kept
_NOTICE_KINDS = ("ruling", "dispute", "clock", "upgrade")  # upgrade: a table this release cannot play
_TABLE_KINDS = (*_SUPERSEDING_KINDS, *_NOTICE_KINDS)
#: seconds a cosmetic request (pinning the live message) may take before delivery moves on without it
RETIRE_TIMEOUT = 10.0
#: the seat number under which the live table message is kept among the panels
LIVE = -1
#: versions looked back for the live message's last lines
RECENT_VERSIONS = 30
#: round or day ends posted at most in one delivery (bots playing fast through several: the latest ones)
MILESTONES_SHOWN = 3


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

    async def _maybe_delivered(self, message: OutboxRow) -> bool:
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
            sent = await self._post(channel, [plain], table, message, discord.AllowedMentions.none(),
                                    view=with_why(None, table.game, plain, locale))
            if kind == "clock" and live is not None and table.status == "active":
                await self._redraw_live(channel, table, seats, live)  # a pause or a vacation moved the deadlines
            return sent
        if kind == "start" and live is not None:  # delivered before, recorded in the panels but not the outbox
            return live.message_id
        state = await self.bot.store.state(table.id)
        await self._load_users(seats)  # who wants which pings and whose DMs are closed, for the pings below
        about: dict[int, str] = {}
        if kind == "start" or live is None:
            sent, asked = await self._open_live(channel, table, seats, message, state)
        else:
            about = await self._about_pings(table, seats, message, state, live)
            sent, asked = await self._update_live(channel, table, seats, message, state, live)
        await self._refresh_controls(table, seats, state, ping={s.seat for s in asked} | set(about), about=about)
        if kind in _CLOSING_KINDS:
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
        again = await self._maybe_delivered(message)
        if server.get("notice_channel"):
            role = role_mention(server["moderator_role"] or self.bot.settings.moderator_role,
                                self.bot.get_guild(int(table.guild_id)))
            text = notice_text(game, table, seats, message.payload, locale, role=role, move_line=move_line)
            channel = self.bot.get_partial_messageable(int(server["notice_channel"]))
            found = await self._already_there(channel, [text], table, message, "table") if again else []
            pings = discord.AllowedMentions(users=False, everyone=False,
                                            roles=[discord.Object(int(role))] if role else False)
            return await self._send_all(channel, [text], table, message, view, pings, found, part="mc")
        tried = await moderator_reach(self.bot, table, seats)
        people = await moderator_recipients(self.bot, table, seats)
        text, last = notice_text(game, table, seats, message.payload, locale, move_line=move_line), None
        for uid in people:
            try:
                channel = await self.bot.create_dm(discord.Object(uid))
                found = await self._already_there(channel, [text], table, message, "table") if again else []
                last = await self._send_all(channel, [text], table, message, view, discord.AllowedMentions.none(),
                                            found, part=f"m{_base36(uid % 36 ** 5)}.") or last
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
        again = await self._maybe_delivered(message)
        try:
            channel = await self.bot.create_dm(discord.Object(uid))
            found = await self._already_there(channel, [text], table, message, "table") if again else []
            await self._send_all(channel, [text], table, message, None, discord.AllowedMentions.none(), found,
                                 part="ma")
            return
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise
            log.info("the author of a dispute at table %s cannot be sent a DM: %s", table.id, exc.code)
        if table.thread_id:
            channel = self.bot.get_partial_messageable(int(table.thread_id))
            text = f"<@{uid}> {text}"
            found = await self._already_there(channel, [text], table, message, "table") if again else []
            await self._send_all(channel, [text], table, message, None,
                                 discord.AllowedMentions(users=[discord.Object(uid)]), found, part="mt")

    async def _post(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                    message: OutboxRow, mentions: discord.AllowedMentions, *,
                    view: discord.ui.View | None = None, picture: Picture | None = None) -> str | None:
        """A new message in the thread, posted once even when this delivery is done again (see above)."""
        again = await self._maybe_delivered(message)
        found = await self._already_there(channel, texts, table, message, "table") if again else []
        return await self._send_all(channel, texts, table, message, view, mentions, found, picture=picture)

    def _plain(self, table: TableRow, seats: list[SeatRow], message: OutboxRow, locale: str) -> str:
        """A message of the referee's own (a ruling, a cancellation) as it reads in Discord."""
        game = self.bot.games[table.game]
        text = render_message(game, message.kind, message.payload, names=display_names(seats), locale=locale,
                              table_id=table.id, board=False, front="discord")
        return text[:DISCORD_LIMIT]

    async def _view_and_recent(self, table: TableRow, seats: list[SeatRow], state: dict, locale: str
                               ) -> tuple[dict, list[str]]:
        game = self.bot.games[table.game]
        view = await with_deadlines(Clocks(self.bot.store), table, game.view(state, None))
        events = await self.bot.referee.history(table.id, since=max(0, state["version"] - RECENT_VERSIONS))
        if state.get("outcome") is not None:  # the outcome line under the board says it: not the game's own too
            events = [e for e in events if e["kind"] != "game_over"]
        # numbered as the log numbers them, undone moves struck out (one numbering everywhere)
        moves = Moves(await self.bot.store.public_steps(table.id))
        return view, panels.numbered_lines(game, events, seats, locale, moves)[-panels.RECENT_LINES:]

    def _live_components(self, table: TableRow, state: dict, locale: str) -> discord.ui.View:
        playing = state.get("outcome") is None and table.status == "active"
        return live_view(table.id, state["version"], locale, playing=playing)

    async def _open_live(self, channel: discord.PartialMessageable, table: TableRow, seats: list[SeatRow],
                         message: OutboxRow, state: dict) -> tuple[str | None, list[SeatRow]]:
        """The start of play: the live message is posted and pinned where the bot may pin.  Whoever must decide
        first is pinged as at every later turn, by their control message, which opens with "▶ Your move" (issue
        35: a player away from the channel learns it from the DM's first line); the live message mentions only
        a player whose DMs are closed.  Returns the players to ping in their DMs."""
        game = self.bot.games[table.game]
        locale = await self.bot.table_locale(table)
        view, recent = await self._view_and_recent(table, seats, state, locale)
        # whoever clicked Start is in the thread already: not pinged right after their own click
        starter = {s.seat for s in seats if s.user_id == message.payload.get("started_by")}
        asked = [s for s in self._ping(seats, view, None, by=None) if s.seat not in starter]
        ping = [s.seat for s in asked if self._dm_closed.get(s.user_id)]
        # the start's own lines (players, the deal's public facts) all stand under the first board; the seed's
        # hash is in the footer
        opening = recent
        if message.kind == "start":
            opening = [t("core.msg.start", locale, game=game_title(game, locale), table=table.id,
                         players=", ".join(display_names(seats))),
                       *([t("core.msg.stacked", locale)] if message.payload.get("stacked") else []),
                       *panels.public_lines(game, message.payload.get("events") or [], seats, locale)]
        text = panels.live_text(game, table, seats, view, opening, locale, ping=ping, seed_hash=table.seed_hash,
                                recent_lines=12, link=table_url(base_url(self.bot.settings), table.id))
        picture = await self.pictures.get(game, table, seats, state, None, "table", locale)
        sent = await self._post(channel, [text], table, message, _pinging([seats[s] for s in ping]),
                                view=with_why(self._live_components(table, state, locale), table.game, text, locale),
                                picture=picture)
        if sent is not None:
            await self.bot.store.set_panel(table.id, LIVE, channel_id=str(channel.id), message_id=sent,
                                           version=state["version"], posted=state["version"],
                                           shows=_shows(view, None))
            await self._pin(int(channel.id), int(sent), table)
        return sent, [s for s in asked if s.seat not in ping]

    async def _update_live(self, channel: discord.PartialMessageable, table: TableRow, seats: list[SeatRow],
                           message: OutboxRow, state: dict, live: Panel) -> tuple[str | None, list[SeatRow]]:
        """The live message edited to the table as it is; a post in the thread only for what closes or changes
        the game's course (the end, a cancellation, a rollback) and for the ping of a player whose DMs are
        closed.  Returns what was posted (else the live message) and the players to ping in their DMs: their
        control message is posted anew there, with their choices."""
        if message.kind != "cancelled" and live.version >= state["version"] and live.posted >= message.version:
            # delivered before (the crash came after the live message, the post and the panel were written):
            # the live message shows this table already, and an edit now could reach an archived thread
            return live.message_id, []
        game = self.bot.games[table.game]
        locale = await self.bot.table_locale(table)
        view, recent = await self._view_and_recent(table, seats, state, locale)
        # after a rollback the restored decisions are asked anew: everyone owing one is pinged
        # (and after an upgrade, bot/referee/upgrade.py)
        anew = message.payload.get("rollback") or message.payload.get("upgrade")
        before = [] if anew or not live.shows else json.loads(live.shows)
        # a forced move the referee took (a roll opening a turn) is nobody's click: its seat may be pinged
        by = None if message.payload.get("auto") else message.payload.get("by")
        asked = self._ping(seats, view, before, by=by)
        in_thread = [s for s in asked if self._dm_closed.get(s.user_id)]
        finished = view.get("outcome") is not None or message.kind in _CLOSING_KINDS
        seed = message.payload.get("seed") if finished else None
        live_text = panels.live_text(game, table, seats, view, recent, locale, seed=seed, seed_hash=table.seed_hash,
                                     link=table_url(base_url(self.bot.settings), table.id))
        rating = await rating_line(self.bot.store, table, display_names(seats), locale) \
            if message.kind == "finish" and view.get("outcome") is not None else ""
        live_text += rating  # each player's change, on the live message and in the closing post
        if message.kind == "cancelled":
            live_text += "\n" + t("core.msg.cancelled", locale, table=table.id)
        # a finished table's live message keeps one button, its replay (nothing to play any more), and "Why?"
        # for what its lines cite
        components = replay_open_view(table.id, locale) if finished else self._live_components(table, state, locale)
        components = with_why(components, table.game, live_text, locale)
        if not anew:  # a round's or a day's end since the live message last showed the table: its own post
            await self._milestones(channel, game, table, seats, message, live, state, locale)
        post = None
        if message.kind == "cancelled":  # who cancelled, and the seed now public: the closing word
            plain = self._plain(table, seats, message, locale)
            post = await self._post(channel, [plain], table, message, discord.AllowedMentions.none(),
                                    view=with_why(None, table.game, plain, locale))
        elif in_thread or finished or anew:
            # what happened since the live message last showed the table (a rollback's own line among it)
            events = await self.bot.referee.history(table.id, since=max(live.posted, live.version) + 1)
            lines = panels.public_lines(game, events, seats, locale)
            if message.payload.get("upgrade"):  # the options the upgraded table plays by now
                lines.append(t("upgrade.options", locale, options=options_text(
                    game.name, message.payload["upgrade"].get("options") or {}, locale)))
            calls: list[str] = []
            if finished:  # what the last step showed (roles revealed...), whole, and the result once (not the
                # game's own closing line besides, nor a count of earlier lines: the moves are the live message's
                # and the log's), then the seed that checks the whole game
                last = [e for e in events if e["version"] == state["version"] and e["kind"] != "game_over"]
                result = outcome_line(game, view["outcome"], locale, display_names(seats)) + rating
                if seed:
                    calls.append(t("discord.live.seed_revealed", locale, seed=seed, table=table.id))
                calls += link_line("web.link.table", table_url(base_url(self.bot.settings), table.id), locale)
                closed = await self._closed_dms(seats)
                if closed:  # their own end notice cannot reach them (closed DMs): told here, by mention
                    calls.append("🏁 " + ", ".join(f"<@{discord_user_id(s.user_id)}>" for s in closed))
                    in_thread = [*in_thread, *(s for s in closed if s not in in_thread)]
                text = panels.end_post(panels.public_lines(game, last, seats, locale), result, calls)
            else:
                if asked:
                    calls = panels.asked_lines(view, seats, locale, ping=[s.seat for s in in_thread])
                text = panels.move_post(lines, calls, locale)
            post = await self._post(channel, [text], table, message, _pinging(in_thread),
                                    view=with_why(replay_open_view(table.id, locale) if finished else None,
                                                  table.game, text, locale))  # its replay, "Why?" for what it cites
        # edited after the post: a post reopens an archived thread (a rollback of a finished table), an edit
        # would be refused there
        old = channel.get_partial_message(int(live.message_id))
        picture = await self.pictures.get(game, table, seats, state, None, "table", locale)
        if self._picture_waits(table, view, before, live, picture, finished or bool(anew)):
            picture = None  # the message keeps the picture it has: its text says so
            live_text = _with_line(live_text, t("picture.behind", locale))
            pictured = {}
        else:
            pictured = self.pictures.replacing(live.message_id, picture)  # an unchanged picture not sent again
        await old.edit(content=live_text, view=components, allowed_mentions=discord.AllowedMentions.none(),
                       **pictured)
        if picture is not None or pictured:
            self.pictures.carried(live.message_id, picture)
        await self.bot.store.set_panel(table.id, LIVE, channel_id=live.channel_id, message_id=live.message_id,
                                       version=state["version"],
                                       posted=state["version"] if post is not None else None,
                                       shows=windows.live_shows(view, json.loads(live.shows or "[]")))
        return post or live.message_id, [s for s in asked if s not in in_thread]

    def _picture_waits(self, table: TableRow, view: dict, before: list, live: Panel, picture: Picture | None,
                       turning: bool) -> bool:
        """Whether the live message keeps its older picture this time: at a correspondence table, while the same
        seats are asked as when it last showed the table (a turn going on), a changed picture waits for the
        decision to pass — the moment the players are pinged and look (issue 35: at most 15 KB uploaded per
        decision; a table picture is 7–15 KB).  Never at the end, after a rollback, at a live table, or when
        what the message carries is not known (after a restart: uploaded once more)."""
        if turning or not corresponding(table.options or {}) or picture is None \
                or self.pictures.same(live.message_id, picture) is not False:
            return False
        return {p["seat"] for p in view.get("to_act") or []} == {p[0] for p in before}

    async def _milestones(self, channel: discord.PartialMessageable, game: Game, table: TableRow,
                          seats: list[SeatRow], message: OutboxRow, live: Panel, state: dict, locale: str) -> None:
        """The forum judge's rhythm: at each round's or day's end (``Game.milestone``) since the live message last
        showed the table, a short post of that event's line and the public table as it stood then (never the
        last step of a finished game: the end post says it).  Each with a nonce of its own (part ``r<version>``)
        and looked for first after an attempt that may have reached Discord, like every post."""
        marks = [(e, game.milestone(e)) for e in await self.bot.referee.history(table.id, since=live.version + 1)]
        marks = [(e, when) for e, when in marks if when in ("before", "after")
                 and not (state.get("outcome") is not None and e["version"] == state["version"])]
        for event, when in marks[-MILESTONES_SHOWN:]:
            at = event["version"] - 1 if when == "before" else event["version"]
            then = await self.bot.store.state(table.id, at)
            try:  # a snapshot written before an upgrade: shown as today's rules read it
                then = readable(game, then) if then is not None else None
            except CannotMigrate:
                then = None
            if then is None:
                continue
            # the table as it stood, nobody asked anything in it (that was then, and the live message says now)
            board = code_blocks(game.render_view({**game.view(then, None), "to_act": []}, locale, plain_names(seats)))
            line = panels.public_lines(game, [event], seats, locale)
            text = panels.milestone_post(line[0] if line else "", board[0] if board else "")
            found = await self._already_there(channel, [text], table, message, "table") \
                if await self._maybe_delivered(message) else []
            await self._send_all(channel, [text], table, message, with_why(None, table.game, text, locale),
                                 discord.AllowedMentions.none(), found, part=f"r{_base36(event['version'])}.")

    async def _redraw_live(self, channel: discord.PartialMessageable, table: TableRow, seats: list[SeatRow],
                           live: Panel) -> None:
        """The live message's text drawn again for the same state (its deadlines changed, nothing else)."""
        game, locale = self.bot.games[table.game], await self.bot.table_locale(table)
        view, recent = await self._view_and_recent(table, seats, await self.bot.store.state(table.id), locale)
        text = panels.live_text(game, table, seats, view, recent, locale, seed_hash=table.seed_hash)
        await channel.get_partial_message(int(live.message_id)).edit(content=text,
                                                                     allowed_mentions=discord.AllowedMentions.none())

    def _ping(self, seats: list[SeatRow], view: dict, before: list | None, *, by: int | None) -> list[SeatRow]:
        """The Discord players to ping now: those asked something they were not asked in the live message
        before (a turn that begins), never the player whose own click led here, never for an out-of-turn
        window (bot/discord/windows.py: it is shown in the control message, edited); and only as each player
        wants it (users.pings: every decision / turn start / never — looked up by the caller through
        ``_load_users``)."""
        result = []
        for pending in windows.pingable(view, before):
            seat = seats[pending["seat"]]
            if not panels.human(seat) or pending["seat"] == by or seat in result:
                continue
            wants = self._wants.get(seat.user_id, "turn")
            if (wants == "turn" and pending["new_turn"]) or (wants == "every" and pending["new_ask"]):
                result.append(seat)
        return result

    async def _about_pings(self, table: TableRow, seats: list[SeatRow], message: OutboxRow, state: dict,
                           live: Panel) -> dict[int, str]:
        """Seat -> the first line of its ping, for each Discord player a window just opened is about (issue 35,
        bot/discord/windows.py ``about_pings``): what happened and until when, in their language.  Once per
        window: the live message's stored asks remember whom it told.  Not the player whose own click opened
        it, nor one who wants no pings or whose DMs are closed."""
        if message.kind != "update" or message.payload.get("rollback") or message.payload.get("upgrade") \
                or state.get("outcome") is not None:
            return {}
        game = self.bot.games[table.game]
        view = await with_deadlines(Clocks(self.bot.store), table, game.view(state, None))
        due = windows.about_pings(view, json.loads(live.shows) if live.shows else [])
        by = None if message.payload.get("auto") else message.payload.get("by")
        due = {s: d for s, d in due.items() if s != by and panels.human(seats[s])
               and self._wants.get(seats[s].user_id, "turn") != "never" and not self._dm_closed.get(seats[s].user_id)}
        if not due:
            return {}
        events = await self.bot.referee.history(table.id, since=live.version + 1)
        headlines = {}
        for seat, until in due.items():
            locale = (await self.bot.store.user(seats[seat].user_id))["locale"] or await self.bot.table_locale(table)
            lines = panels.public_lines(game, events, seats, locale)
            headlines[seat] = windows.about_line(game, table.id, lines[0] if lines else "", until, locale)
        return headlines

    async def _load_users(self, seats: list[SeatRow]) -> None:
        users = {s.user_id: await self.bot.store.user(s.user_id) for s in seats if panels.human(s)}
        self._wants = {key: user.get("pings") or "turn" for key, user in users.items()}
        self._dm_closed = {key: bool(user["dm_closed"]) for key, user in users.items()}

    async def _pin(self, channel_id: int, message_id: int, table: TableRow) -> None:
        """Pin the live message where the bot may (Pin Messages); pinning is cosmetic: never raises."""
        channel = self.bot.get_channel(channel_id)
        try:
            me = channel.guild.me if channel is not None and channel.guild is not None else None
            if me is None or not channel.permissions_for(me).pin_messages:
                return
            await asyncio.wait_for(self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).pin(),
                                   RETIRE_TIMEOUT)
        except Exception as exc:
            log.warning("could not pin the live message of table %s: %s", table.id, type(exc).__name__)

    # ------------------------------------------------------------------ the players' control messages
    async def _to_seat(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> None:
        """Private news for one seat: its control message is brought up to date (or created)."""
        seat = seats[message.seat]
        if message.kind == END:  # a seat a bot took over is still its player's: they are told the end too
            return await self._end(table, seats, seat, message)
        if not panels.human(seat):
            raise Skip("not a Discord player")
        if message.kind == "reminder":
            return await self._remind(table, seats, seat, message)
        state = await self.bot.store.state(table.id)
        if not await self._refresh_control(table, seats, state, message.seat, message=message):
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
        channel = await self.bot.create_dm(discord.Object(discord_user_id(seat.user_id)))
        found = await self._already_there(channel, [text], table, message, "seat") \
            if await self._maybe_delivered(message) else []
        try:
            await self._send_all(channel, [text], table, message, None, discord.AllowedMentions.none(), found,
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
            channel = await self.bot.create_dm(discord.Object(discord_user_id(seat.user_id)))
            found = await self._already_there(channel, [text], table, message, "seat") \
                if await self._maybe_delivered(message) else []
            try:
                await self._send_all(channel, [text], table, message, None, discord.AllowedMentions.none(), found,
                                     part=f"m{seat.seat}.")
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                await self.bot.store.set_user(seat.user_id, dm_closed=1)
        where = table.thread_id or table.channel_id
        if where is None:
            raise Skip("DMs closed and no thread")
        await self._post(self.bot.get_partial_messageable(int(where)), [f"{mention(seat)} {text}"], table, message,
                         _pinging([seat]))

    async def _refresh_controls(self, table: TableRow, seats: list[SeatRow], state: dict, *,
                                ping: set[int] = frozenset(), about: dict[int, str] | None = None) -> None:
        """Every human seat whose control message no longer says what is asked of it (or that has news) gets it
        redrawn; the seats in ``ping`` get it posted anew (a new DM notifies: their ping); the others are left
        alone (a write is an API call).  ``about``: the first line of the ping of a seat a window is about."""
        for seat in seats:
            if panels.human(seat):
                await self._refresh_control(table, seats, state, seat.seat, message=None, ping=seat.seat in ping,
                                            headline=(about or {}).get(seat.seat))

    async def _refresh_control(self, table: TableRow, seats: list[SeatRow], state: dict, seat: int, *,
                               message: OutboxRow | None, ping: bool = False, headline: str | None = None) -> bool:
        """Bring one seat's control message up to the current state; False when that player's DMs are closed
        (they use "My move" under the live message)."""
        row = seats[seat]
        user = await self.bot.store.user(row.user_id)
        if user["dm_closed"]:
            if not user["dm_notice"] and message is not None:
                await self._dms_closed(table, row, user, message)
            return False
        panel = await self.bot.store.panel(table.id, seat)
        game = self.bot.games[table.game]
        shows = control_shows(game, state, seat)
        if panel is not None and panel.version >= state["version"]:
            return True
        news = await self.news(table, seats, seat, panel, state)
        owes = any(p.seat == seat for p in game.to_act(state))
        if panel is not None and panel.shows == shows and not news and not owes and state.get("outcome") is None \
                and table.status == "active":
            return True  # still waiting, nothing new: no edit (a seat that owes gets its current choices)
        if panel is not None and owes and not ping and panel.shows == shows and not news \
                and state.get("outcome") is None and table.status == "active" \
                and await self._same_choices(table, state, seat, panel):
            # its buttons still apply (a click made at an older version counts when the seat's choices are the same:
            # cogs/play.py): without a living token a redraw would be a rate-limited call per window's pass
            return True
        if panel is not None and not ping and not news and await self._window_unshown(table, row, game, state):
            return True  # asked only by a window it cannot answer, and it asked to be spared those
        locale = user["locale"] or await self.bot.table_locale(table)
        recap = await self.recap(table, seats, seat, locale) if ping else None
        content, view = await render_control(self.bot, table, seats, state, seat, locale, news=news, recap=recap)
        if headline:  # a window about this seat: what happened and until when, its first line
            content = windows.with_headline(headline, content)
        picture = await self.pictures.get(game, table, seats, state, seat, "hand", locale)
        try:
            if panel is None or ping:
                channel_id, message_id = await self._post_control(table, row, panel, content, view,
                                                                  message or _Probe(table.id, state["version"], seat),
                                                                  again=message is not None and
                                                                  await self._maybe_delivered(message),
                                                                  silent=not ping, picture=picture)
                if panel is not None and message_id != panel.message_id:
                    await self._delete_control(row, panel)  # one control message per table in the DMs
            else:
                shown = picture if owes else self.pictures.while_waiting(panel.message_id, picture)
                await self._edit_control(row, panel, content, view, shown)
                channel_id, message_id = panel.channel_id, panel.message_id
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            await self.bot.store.set_user(row.user_id, dm_closed=1)
            if message is not None:
                await self._dms_closed(table, row, user, message)
            return False
        except discord.NotFound:  # the player deleted the control message: a new one next time
            await self.bot.store.forget_panel(table.id, seat)
            return True
        if message_id is not None:
            await self.bot.store.set_panel(table.id, seat, channel_id=channel_id, message_id=message_id,
                                           version=state["version"], shows=shows)
        return True

    async def _same_choices(self, table: TableRow, state: dict, seat: int, panel: Panel) -> bool:
        """Whether ``seat`` is asked now exactly what its control message (drawn at ``panel.version``) asks: the same
        decision (kind, prompt, deadline: a window that closed and a new one alike would differ in its deadline)
        and the same choices."""
        then = await self.bot.store.state(table.id, panel.version)
        game = self.bot.games[table.game]

        def asked(s: dict) -> list:
            return [p for p in game.to_act(s) if p.seat == seat]
        try:
            return then is not None and asked(then) == asked(state) and game.choices(then, seat) == game.choices(state, seat)
        except Exception:  # noqa: BLE001 - a snapshot an upgrade left unreadable: drawn anew
            return False

    async def _window_unshown(self, table: TableRow, row: SeatRow, game: Game, state: dict) -> bool:
        """Whether the seat is asked only by windows and holds no answer to them, and its player's window
        preference is ``held`` (bot/referee/windowprefs.py): its control message is left as it was.  Its own
        DMs only: the preference passes for it at the same moment whatever it holds."""
        asks = [p for p in game.to_act(state) if p.seat == row.seat]
        if not asks or any(p.kind != "reaction" for p in asks) or state.get("outcome") is not None:
            return False
        mode = (await self.bot.store.window_preferences(table.id, [row.user_id])).get(row.user_id, ("ask",))[0]
        return mode == "held" and not windowprefs.holds_answer(game, state, row.seat)

    async def _post_control(self, table: TableRow, row: SeatRow, panel: Panel | None, content: str,
                            view: discord.ui.View | None, message: OutboxRow | _Probe, *, again: bool,
                            silent: bool, picture: Picture | None = None) -> tuple[str, str | None]:
        """A new control message in the player's DMs: (channel id, message id).  An ordinary post with a
        nonce, never an interaction's followup: Discord marks a message created through an interaction token
        with the interaction it answers (``interaction_metadata``: the clicked message's id, and on a followup
        the original response's), which clients draw as a reply to the clicked message, and that message is
        deleted right after ("Original message was deleted" on every ping; docs/discord.md).  First looked for
        when an earlier attempt may have posted it."""
        channel = await self.bot.create_dm(discord.Object(discord_user_id(row.user_id)))
        part = f"c{row.seat}." if panel is None else f"r{row.seat}."
        found = await self._already_there(channel, [content], table, message, "seat") if again else []
        sent = await self._send_all(channel, [content], table, message, view, discord.AllowedMentions.none(),
                                    found, part=part, silent=silent, picture=picture)
        return str(channel.id), sent

    async def _edit_control(self, row: SeatRow, panel: Panel, content: str, view: discord.ui.View | None,
                            picture: Picture | None = None) -> None:
        fields = {"content": content, "view": view, "allowed_mentions": discord.AllowedMentions.none()}
        # an unchanged picture is not sent again (each call its own file: a file is closed once sent)
        if not await self.bot.grips.use(row.user_id, lambda grip: grip.edit(
                int(panel.message_id), **fields, **self.pictures.replacing(panel.message_id, picture))):
            old = self.bot.get_partial_messageable(int(panel.channel_id)).get_partial_message(int(panel.message_id))
            await old.edit(**fields, **self.pictures.replacing(panel.message_id, picture))
        self.pictures.carried(panel.message_id, picture)

    async def _delete_control(self, row: SeatRow, panel: Panel) -> None:
        """The control message a new one replaces, deleted through the player's living token (live play); without
        one (a player who answers hours later: correspondence) it stays, as it was last drawn — a deletion would
        be a third rate-limited call for the decision, beside the live message's edit and this ping (issue 35).
        Its buttons, out of date, redraw it when clicked.  A failure never fails the delivery."""
        try:
            await self.bot.grips.use(row.user_id, lambda grip: grip.delete(int(panel.message_id)))
        except (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            log.info("an old control message of a table stays in a player's DMs: %s", type(exc).__name__)
        self.pictures.forget(panel.message_id)

    async def recap(self, table: TableRow, seats: list[SeatRow], seat: int, locale: str) -> Recap:
        """The public moves since ``seat``'s own last decision (a step the referee took for it is none), as the
        control message that pings the player opens with, and the move that gave it to them: the first public
        line of the latest step among them."""
        last = await self.bot.store.last_decision(table.id, seat, not_by=(AUTO, SYSTEM, PREFERENCE))
        events = await self.bot.referee.history(table.id, since=(last or 0) + 1)
        game = self.bot.games[table.game]
        lines = panels.public_lines(game, events, seats, locale)
        move = fallback = None
        # the latest step someone else chose (not the referee's own step that followed it: a turn's opening roll,
        # "Ход 4: Alice"), else the latest public step whatever took it (a clock's expiry)
        for version in sorted({e["version"] for e in events if e.get("to") is None}, reverse=True):
            step = panels.public_lines(game, [e for e in events if e["version"] == version], seats, locale)
            if not step:
                continue
            fallback = fallback or step[0]
            action = await self.bot.store.action_at(table.id, version)
            if action is not None and action.user_id not in (AUTO, SYSTEM, PREFERENCE) and action.seat != seat:
                move = step[0]
                break
        return Recap(move or fallback, lines, table_url(base_url(self.bot.settings), table.id))

    async def news(self, table: TableRow, seats: list[SeatRow], seat: int, panel: Panel | None,
                   state: dict) -> list[str]:
        """The private lines of ``seat`` since its control message last showed the table."""
        since = panel.version + 1 if panel is not None else 0
        events = await self.bot.referee.history(table.id, seat=seat, since=since)
        locale = await self.bot.table_locale(table)
        return panels.private_lines(self.bot.games[table.game], events, seat, seats, locale)

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
            found = await self._already_there(channel, texts, table, message, "table") if again else []
            await self._send_all(channel, texts, table, message, None,
                                 discord.AllowedMentions(users=[discord.Object(discord_user_id(seat.user_id))]),
                                 found, part="n")
        await self.bot.store.set_user(seat.user_id, dm_notice=1)
        log.info("DMs closed for a player of table %s; told them once in the thread", table.id)

    async def _send_all(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                        message: OutboxRow, view: discord.ui.View | None, mentions: discord.AllowedMentions,
                        found: Sequence[int] = (), *, part: str = "", silent: bool = False,
                        picture: Picture | None = None) -> str | None:
        """Send the chunks of one outbox message in order, the last with the buttons and the picture, but for
        the first ``found`` ones (an earlier attempt delivered them); returns the id of the last."""
        last = found[-1] if found else None
        for i in range(len(found), len(texts)):
            kwargs = {"view": view} if i == len(texts) - 1 and view is not None else {}
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


def _with_line(text: str, line: str) -> str:
    """``text`` with ``line`` under it, where it fits in a message."""
    return f"{text}\n{line}" if len(text) + 1 + len(line) <= DISCORD_LIMIT else text


def _pinging(people: Sequence[SeatRow]) -> discord.AllowedMentions:
    """Mentions that notify exactly ``people`` (and nobody else a text may name)."""
    return discord.AllowedMentions(users=[discord.Object(discord_user_id(s.user_id)) for s in people],
                                   everyone=False, roles=False)


class _Probe:
    """Stands for an outbox row when a control message is created outside one (its nonce and look-back)."""

    def __init__(self, table_id: int, version: int, seat: int):
        # an id no outbox row has, unique per table and version (it is the start of the message's nonce)
        self.id = f"t{_base36(table_id)}v{_base36(version)}"
        self.table_id, self.version, self.seat, self.attempts = table_id, version, seat, 0


def _shows(view: dict, seat: int | None) -> str:
    """Who is asked what in ``view`` (seat, kind, prompt), as stored with a live or control message."""
    return json.dumps(sorted([p["seat"], p.get("kind"), p.get("prompt")] for p in view.get("to_act") or []
                             if seat is None or p["seat"] == seat))


def control_shows(game: Game, state: dict, seat: int) -> str:
    return _shows(game.view(state, None), seat)
