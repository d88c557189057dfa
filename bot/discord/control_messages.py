"""The players' control messages in their DMs (bot/discord/delivery.py says when they are posted, edited or left):
``draw`` is the one place a control message is drawn, for the deliverer and for the Play cog's answer to a
click alike; ``ControlMessages`` keeps each seat's message in the DMs up to date, a part of ``DiscordDeliverer``,
which owns the outbox and the posting."""
from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, AbstractSet, Any, Mapping, Sequence

import aiohttp
import discord

from bot.discord import panels, windows
from bot.discord.citations import with_why
from bot.web.links import base_url, table_url
from bot.discord.control import render_control
from bot.discord.host import Host
from bot.discord.pictures import Picture, TablePictures
from bot.discord.recap import Recap
from bot.discord.render import discord_user_id
from bot.engine import Game
from bot.referee.delivery import Skip
from bot.referee.service import AUTO
from bot.referee.steps import SYSTEM
from bot.referee import windowprefs
from bot.referee.windowprefs import PREFERENCE
from bot.storage.clocks import Clocks, SeatClock
from bot.storage.store import OutboxRow, Panel, SeatRow, Store, TableRow



log = logging.getLogger("judge.discord.delivery")

DM_CLOSED = 50007
#: the seat number under which the live table message is kept among the panels
LIVE = -1


def dm_user(seat: SeatRow) -> discord.Object:
    """The Discord user a DM to ``seat`` goes to: only a Discord player's seat is sent one (a bot's or a terminal
    player's has no DMs to send to)."""
    uid = discord_user_id(seat.user_id)
    if uid is None:
        raise Skip("not a Discord player")
    return discord.Object(uid)


def base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


@dataclass(frozen=True)
class Control:
    """A seat's control message as drawn now."""
    content: str
    view: discord.ui.View | None
    picture: Picture | None      # its hand picture (None where the game draws none)
    owes: bool                   # the seat is asked something now
    shows: str                   # what it asks, as recorded with the message (``control_shows``)


async def draw(host: Host, pictures: TablePictures, table: TableRow, seats: Sequence[SeatRow], state: dict,
               seat: int, locale: str, *, live: Panel | None, clocks: Mapping[int, SeatClock],
               news: Sequence[str] = (), note: str | None = None, recap: Recap | None = None,
               headline: str | None = None) -> Control:
    """The control message of ``seat`` at ``state`` (the table's latest), the one place it is drawn: for the
    deliverer, and for the Play cog's answer to a click (from the click's read model, bot/referee/turns.py).
    ``news``: the seat's private lines since the message last showed the table (``news_lines``); ``note``: what the click did, with
    the Why button for a rule it cites; ``headline``: the first line of a window's ping."""
    game = host.games[table.game]
    content, view = render_control(host, table, seats, state, seat, locale, live=live, clocks=clocks, news=news,
                                   note=note, recap=recap)
    if headline:  # a window about this seat: what happened and until when, its first line
        content = windows.with_headline(headline, content)
    if note:  # a refusal's "(см. §9)" opens: the Why button beside the choices (bot/discord/citations.py)
        view = with_why(view, table.game, note, locale)
    picture = await pictures.get(game, table, seats, state, seat, "hand", locale)
    return Control(content, view, picture, any(p.seat == seat for p in game.to_act(state)),
                   control_shows(game, state, seat))


async def news_lines(host: Host, table: TableRow, seats: Sequence[SeatRow], seat: int, events: Sequence[dict]
                     ) -> list[str]:
    """``seat``'s lines of ``events`` (those it may see), in the table's language, as its control message shows
    what is new for it."""
    return panels.private_lines(host.games[table.game], events, seat, seats, await host.table_locale(table))


class DeliveryPart:
    """What the parts of ``DiscordDeliverer`` (the live message, the control messages) share with it: its state,
    and its posting, declared here for the type checker and defined in bot/discord/delivery.py."""

    bot: Host
    pictures: TablePictures
    _wants: dict[str, str]
    _dm_closed: dict[str, bool]

    if TYPE_CHECKING:  # the deliverer's own methods (a declaration only: at run time the deliverer's are found)
        async def post_once(self, channel: discord.abc.Messageable, texts: Sequence[str], table: TableRow,
                            message: OutboxRow | Probe, mentions: discord.AllowedMentions, *,
                            view: discord.ui.View | None = None, picture: Picture | None = None, part: str = "",
                            silent: bool = False, target: str = "table", again: bool | None = None
                            ) -> str | None: ...

        async def _maybe_delivered(self, message: OutboxRow | Probe) -> bool: ...

        async def _dms_closed(self, table: TableRow, seat: SeatRow, user: dict, message: OutboxRow) -> None: ...

        def _plain(self, table: TableRow, seats: list[SeatRow], message: OutboxRow, locale: str) -> str: ...

        async def _closed_dms(self, seats: list[SeatRow]) -> list[SeatRow]: ...


class ControlMessages(DeliveryPart):
    """The control messages' part of ``DiscordDeliverer`` (a mixin: it shares the deliverer's state and posting)."""

    async def _refresh_controls(self, table: TableRow, seats: list[SeatRow], state: dict, *,
                                ping: AbstractSet[int] = frozenset(), about: dict[int, str] | None = None) -> None:
        """Every human seat whose control message no longer says what is asked of it (or that has news) gets it
        redrawn; the seats in ``ping`` get it posted anew (a new DM notifies: their ping); the others are left
        alone (a write is an API call).  ``about``: the first line of the ping of a seat a window is about."""
        reads = _Reads()  # read once for every seat of this delivery
        for seat in seats:
            if panels.human(seat):
                await self._refresh_control(table, seats, state, seat.seat, message=None, ping=seat.seat in ping,
                                            headline=(about or {}).get(seat.seat), reads=reads)

    async def _refresh_control(self, table: TableRow, seats: list[SeatRow], state: dict, seat: int, *,
                               message: OutboxRow | None, ping: bool = False, headline: str | None = None,
                               reads: _Reads | None = None) -> bool:
        """Bring one seat's control message up to the current state; False when that player's DMs are closed
        (they use "My move" under the live message)."""
        row = seats[seat]
        reads = reads or _Reads()
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
        news = await self.news(table, seats, seat, panel)
        owes = any(p.seat == seat for p in game.to_act(state))
        if panel is not None and panel.shows == shows and not news and not owes and state.get("outcome") is None \
                and table.status == "active":
            return True  # still waiting, nothing new: no edit (a seat that owes gets its current choices)
        if panel is not None and owes and not ping and panel.shows == shows and not news \
                and state.get("outcome") is None and table.status == "active" \
                and await self._same_choices(table, state, seat, panel, reads):
            # its buttons still apply (a click made at an older version counts when the seat's choices are the same:
            # cogs/play.py): without a living token a redraw would be a rate-limited call per window's pass
            return True
        if panel is not None and not ping and not news \
                and await self._window_unshown(table, seats, row, game, state, reads):
            return True  # asked only by a window it cannot answer, and it asked to be spared those
        locale = user["locale"] or await self.bot.table_locale(table)
        recap = await self.recap(table, seats, seat, locale) if ping else None
        drawn = await draw(self.bot, self.pictures, table, seats, state, seat, locale,
                           live=await self.bot.store.panel(table.id, LIVE), clocks=await deadlines(self.bot.store, table),
                           news=news, recap=recap, headline=headline)
        content, view, picture = drawn.content, drawn.view, drawn.picture
        try:
            if panel is None or ping:
                channel_id, message_id = await self._post_control(table, row, panel, content, view,
                                                                  message or Probe(table.id, state["version"], seat),
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

    async def _same_choices(self, table: TableRow, state: dict, seat: int, panel: Panel, reads: _Reads) -> bool:
        """Whether ``seat`` is asked now exactly what its control message (drawn at ``panel.version``) asks: the same
        decision (kind, prompt, deadline: a window that closed and a new one alike would differ in its deadline)
        and the same choices."""
        if panel.version not in reads.states:  # seats whose messages show one version: one read for them all
            reads.states[panel.version] = await self.bot.store.state(table.id, panel.version)
        then = reads.states[panel.version]
        game = self.bot.games[table.game]

        def asked(s: dict) -> list:
            return [p for p in game.to_act(s) if p.seat == seat]
        try:
            return then is not None and asked(then) == asked(state) and game.choices(then, seat) == game.choices(state, seat)
        except Exception:  # noqa: BLE001 - a snapshot an upgrade left unreadable: drawn anew
            return False

    async def _window_unshown(self, table: TableRow, seats: Sequence[SeatRow], row: SeatRow, game: Game, state: dict,
                              reads: _Reads) -> bool:
        """Whether the seat is asked only by windows and holds no answer to them, and its player's window
        preference is ``held`` (bot/referee/windowprefs.py): its control message is left as it was.  Its own
        DMs only: the preference passes for it at the same moment whatever it holds."""
        asks = [p for p in game.to_act(state) if p.seat == row.seat]
        if not asks or any(p.kind != "reaction" for p in asks) or state.get("outcome") is not None:
            return False
        if reads.preferences is None:  # every player's at once, the first time a seat needs one
            reads.preferences = await self.bot.store.window_preferences(
                table.id, sorted({s.user_id for s in seats if panels.human(s)}))
        mode = reads.preferences.get(row.user_id, ("ask",))[0]
        return mode == "held" and not windowprefs.holds_answer(game, state, row.seat)

    async def _post_control(self, table: TableRow, row: SeatRow, panel: Panel | None, content: str,
                            view: discord.ui.View | None, message: OutboxRow | Probe, *, again: bool,
                            silent: bool, picture: Picture | None = None) -> tuple[str, str | None]:
        """A new control message in the player's DMs: (channel id, message id).  An ordinary post with a
        nonce, never an interaction's followup: Discord marks a message created through an interaction token
        with the interaction it answers (``interaction_metadata``: the clicked message's id, and on a followup
        the original response's), which clients draw as a reply to the clicked message, and that message is
        deleted right after ("Original message was deleted" on every ping; docs/discord.md).  First looked for
        when an earlier attempt may have posted it."""
        channel = await self.bot.create_dm(dm_user(row))
        part = f"c{row.seat}." if panel is None else f"r{row.seat}."
        sent = await self.post_once(channel, [content], table, message, discord.AllowedMentions.none(), view=view,
                                    target="seat", again=again,
                                    part=part, silent=silent, picture=picture)
        return str(channel.id), sent

    async def _edit_control(self, row: SeatRow, panel: Panel, content: str, view: discord.ui.View | None,
                            picture: Picture | None = None) -> None:
        fields: dict[str, Any] = {"content": content, "view": view, "allowed_mentions": discord.AllowedMentions.none()}
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

    async def news(self, table: TableRow, seats: Sequence[SeatRow], seat: int, panel: Panel | None) -> list[str]:
        """The private lines of ``seat`` since its control message last showed the table."""
        since = panel.version + 1 if panel is not None else 0
        return await news_lines(self.bot, table, seats, seat, await self.bot.referee.history(table.id, seat=seat,
                                                                                              since=since))


class _Reads:
    """What one delivery reads once for every seat's control message: the states the messages were drawn at (by
    version) and the players' window preferences."""

    def __init__(self) -> None:
        self.states: dict[int, dict | None] = {}
        self.preferences: dict[str, tuple[str, float | None]] | None = None


class Probe:
    """Stands for an outbox row when a control message is created outside one (its nonce and look-back)."""

    def __init__(self, table_id: int, version: int, seat: int):
        # an id no outbox row has, unique per table and version (it is the start of the message's nonce)
        self.id = f"t{base36(table_id)}v{base36(version)}"
        self.table_id, self.version, self.seat, self.attempts = table_id, version, seat, 0


async def deadlines(store: Store, table: TableRow) -> dict[int, SeatClock]:
    """A timed table's seat clocks, which its deadlines are shown by (none read for any other table)."""
    return await Clocks(store).seat_clocks(table.id) if table.time_control else {}


def shows(view: dict, seat: int | None) -> str:
    """Who is asked what in ``view`` (seat, kind, prompt), as stored with a live or control message."""
    return json.dumps(sorted([p["seat"], p.get("kind"), p.get("prompt")] for p in view.get("to_act") or []
                             if seat is None or p["seat"] == seat))


def control_shows(game: Game, state: dict, seat: int) -> str:
    return shows(game.view(state, None), seat)

