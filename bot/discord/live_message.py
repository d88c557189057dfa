"""The live table message in the table's thread (bot/discord/delivery.py says what it is and when it changes):
posted at the start, edited to the table as it is at every update, with the round's or day's milestones posted
beside it, and whom each update pings.  A part of ``DiscordDeliverer``, which owns the outbox and the posting."""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Sequence

import discord

from bot.discord import panels, windows
from bot.discord.citations import with_why
from bot.discord.components import live_view, replay_open_view
from bot.web.links import base_url, link_line, table_url
from bot.discord.control_messages import LIVE, DeliveryPart, base36, shows
from bot.discord.pictures import Picture
from bot.discord.render import code_blocks, discord_user_id, display_names, plain_names
from bot.engine import Game
from bot.engine.pace import corresponding
from bot.engine.versions import CannotMigrate, readable
from bot.i18n import t
from bot.ratings.render import rating_line
from bot.referee.moves import Moves
from bot.referee.timecontrol import with_deadlines
from bot.render.notices import options_text
from bot.render.text import DISCORD_LIMIT, game_title, outcome_line
from bot.storage.clocks import Clocks
from bot.storage.store import OutboxRow, Panel, SeatRow, TableRow



log = logging.getLogger("judge.discord.delivery")

#: table messages after which the lobby message in the channel is updated (it shows the table's state)
CLOSING_KINDS = ("finish", "cancelled")
#: seconds a cosmetic request (pinning the live message) may take before delivery moves on without it
RETIRE_TIMEOUT = 10.0
#: versions looked back for the live message's last lines
RECENT_VERSIONS = 30
#: round or day ends posted at most in one delivery (bots playing fast through several: the latest ones)
MILESTONES_SHOWN = 3


class LiveMessage(DeliveryPart):
    """The live message's part of ``DiscordDeliverer`` (a mixin: it shares the deliverer's state and posting)."""

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
        sent = await self.post_once(channel, [text], table, message, pinging([seats[s] for s in ping]),
                                view=with_why(self._live_components(table, state, locale), table.game, text, locale),
                                picture=picture)
        if sent is not None:
            await self.bot.store.set_panel(table.id, LIVE, channel_id=str(channel.id), message_id=sent,
                                           version=state["version"], posted=state["version"],
                                           shows=shows(view, None))
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
        finished = view.get("outcome") is not None or message.kind in CLOSING_KINDS
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
        components: discord.ui.View | None = (replay_open_view(table.id, locale) if finished
                                              else self._live_components(table, state, locale))
        components = with_why(components, table.game, live_text, locale)
        if not anew:  # a round's or a day's end since the live message last showed the table: its own post
            await self._milestones(channel, game, table, seats, message, live, state, locale)
        post = None
        if message.kind == "cancelled":  # who cancelled, and the seed now public: the closing word
            plain = self._plain(table, seats, message, locale)
            post = await self.post_once(channel, [plain], table, message, discord.AllowedMentions.none(),
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
            post = await self.post_once(channel, [text], table, message, pinging(in_thread),
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
            await self.post_once(channel, [text], table, message, discord.AllowedMentions.none(),
                                 view=with_why(None, table.game, text, locale), part=f"r{base36(event['version'])}.")

    async def _redraw_live(self, channel: discord.PartialMessageable, table: TableRow, seats: list[SeatRow],
                           live: Panel) -> None:
        """The live message's text drawn again for the same state (its deadlines changed, nothing else)."""
        game, locale = self.bot.games[table.game], await self.bot.table_locale(table)
        view, recent = await self._view_and_recent(table, seats, await self.bot.store.known_state(table.id), locale)
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


def _with_line(text: str, line: str) -> str:
    """``text`` with ``line`` under it, where it fits in a message."""
    return f"{text}\n{line}" if len(text) + 1 + len(line) <= DISCORD_LIMIT else text


def pinging(people: Sequence[SeatRow]) -> discord.AllowedMentions:
    """Mentions that notify exactly ``people`` (and nobody else a text may name)."""
    return discord.AllowedMentions(users=[discord.Object(uid) for s in people
                                          if (uid := discord_user_id(s.user_id)) is not None],
                                   everyone=False, roles=False)


