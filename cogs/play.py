"""Play: the buttons of the live table message and of the players' control messages, ``/play`` for typing,
``/table ...``.

A choice is one click in the player's control message (in their DMs, or the private copy "My move" opens);
it is labelled by the engine's ``describe_action`` (which shows only what that seat may know) and carries the
table version it was offered at: two clicks racing for one decision apply once, and a click the table has
since overtaken redraws the message with the current choices.  The clicked message is always redrawn in
place: what was done, and what the player has now.
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.client import JudgeBot
from bot.discord.components import choices_view, confirm_view
from bot.discord.citations import with_why
from bot.discord.components import log_view
from bot.discord.control_messages import Control, draw, news_lines
from bot.discord.interactions import (at_hand, begin, begin_at_table, is_moderator, no_table, pick_table, player_key,
                                      refuse, say, table_choices)
from bot.discord.locale import L
from bot.engine.board_text import shorten
from bot.discord.render import board_texts, clip
from bot.engine import Code, Rejection
from bot.i18n import t
from bot.referee import oversight
from bot.referee.service import Accepted
from bot.referee.turns import TurnView
from bot.referee.typed import parse_typed
from bot.referee.windowprefs import describe as preference_text
from bot.render.notices import paused_line
from bot.render.text import game_title
from bot.storage.db import Busy
from bot.storage.store import TableRow

if TYPE_CHECKING:
    from cogs.replay import Replay

log = logging.getLogger("judge.discord.play")
#: an autocomplete value: the table version the list was made at, and the 1-based choice
_OFFERED = re.compile(r"^v(\d+):(\d+)$")
ALL_STATUSES = ("active", "finished", "cancelled")


def _stale() -> Rejection:
    return Rejection(Code.STALE, "core.reject.stale")


def _chosen(turn: TurnView, index: int) -> dict[str, Any] | Rejection:
    """The ``index``-th choice of the clicking seat.  A click made at an older version still counts when the
    seat's choices are exactly what they were then (another player's move or a private step since changed
    nothing for it); otherwise it is stale."""
    if turn.refused is not None:
        return turn.refused
    if not turn.still:
        return _stale()
    if not 0 <= index < len(turn.choices):
        return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn") if not turn.choices else \
            Rejection(Code.ILLEGAL, "core.reject.no_such_choice", {"n": index + 1, "count": len(turn.choices)})
    return turn.choices[index]


class Play(commands.Cog):
    table = app_commands.Group(name=L("discord.cmd.table"), description=L("discord.cmd.table.desc"),
                               guild_only=True)

    def __init__(self, bot: JudgeBot):
        self.bot = bot

    # ------------------------------------------------------------------ the choices of one seat
    async def _turn(self, interaction: discord.Interaction, table_id: int, *, seat: int | None = None,
                    at: int | None = None) -> TurnView | Rejection:
        """The click's read model (bot/referee/turns.py), read in one trip, for a table of the clicker's server
        (or, for a click in their DMs, one they sit at): a crafted click may name any table."""
        turn = await self.bot.referee.turn(table_id, player_key(interaction), seat=seat, at=at)
        if turn is None or not at_hand(interaction, turn.table, turn.seats):
            return no_table(table_id)
        return turn

    async def _control(self, interaction: discord.Interaction, turn: TurnView, locale: str, *,
                       note: str | None = None) -> Control | Rejection:
        """The clicking player's control message as ``turn`` shows the table, with what is new for them since
        the message they clicked showed it (drawn by bot/discord/control_messages.py, as the deliverer draws it),
        the clicked message recorded as showing it."""
        self.bot.grips.keep(player_key(interaction), interaction)  # a DM click's token redraws their messages
        if turn.unseen is not None:  # frozen, not dealt, not their seat
            return turn.unseen
        (state, seat), table, panel = turn.seen(), turn.table, turn.panel
        mine = panel if panel is not None and interaction.message is not None \
            and str(interaction.message.id) == panel.message_id else None
        news = await news_lines(self.bot, table, turn.seats, seat, turn.news) if mine is not None else []
        drawn = await draw(self.bot, self.bot.deliverer.pictures, table, turn.seats, state, seat, locale,
                           live=turn.live, clocks=turn.clocks, news=news, note=note)
        if mine is not None:  # the DM control message itself: record what it shows now, so delivery does not redraw it
            try:
                await self.bot.store.set_panel(table.id, seat, channel_id=mine.channel_id,
                                               message_id=mine.message_id, version=turn.version, shows=drawn.shows)
            except Busy:  # after a move that is stored: not worth a "nothing recorded"; delivery redraws it later
                log.warning("table %s: the control message's record waits, the database is busy", table.id)
        return drawn

    async def _redraw(self, interaction: discord.Interaction, turn: TurnView | Rejection, locale: str, *,
                      note: str | None = None) -> None:
        """The clicked message redrawn in place as ``turn`` shows the table."""
        drawn = turn if isinstance(turn, Rejection) else await self._control(interaction, turn, locale, note=note)
        if isinstance(drawn, Rejection):
            return await self._close_choices(interaction, "✋ " + drawn.message(locale))
        picture = drawn.picture
        # the picture replaced too where it changed (it showed the hand before the click); an unchanged one is not
        # uploaded again, nor a changed one while the player is asked nothing (bot/discord/pictures.py)
        shown = self.bot.deliverer.pictures
        clicked = interaction.message.id if interaction.message is not None else None
        fields = {}
        if picture is not None:  # (a game drawing no picture leaves the message's as it is)
            picture = picture if drawn.owes else shown.while_waiting(clicked, picture)
            fields = shown.replacing(clicked, picture)
        await interaction.edit_original_response(content=drawn.content, view=drawn.view, **fields)
        if fields or picture is not None:
            shown.carried(clicked, picture)

    # Every button handler looks the table up in the clicker's server first: a crafted click may name any table.
    async def on_act(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        """"My move" under the live message: the control message, privately (for a player without one in
        their DMs, or away from them)."""
        table, locale = await begin_at_table(interaction, table_id)
        if table is None:
            return
        if table.status != "active":
            return await refuse(interaction, Rejection(Code.GAME_OVER, "core.reject.game_over"), locale)
        turn = await self._turn(interaction, table_id)
        drawn = turn if isinstance(turn, Rejection) else await self._control(interaction, turn, locale)
        if isinstance(drawn, Rejection):
            return await refuse(interaction, drawn, locale)
        await say(interaction, drawn.content, view=drawn.view,
                  files=[drawn.picture.file()] if drawn.picture is not None else [])

    async def on_page(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                      page: int) -> None:
        """A page of the flat list, for a decision too large for grouped menus."""
        locale = await begin(interaction, private=False)
        turn = await self._turn(interaction, table_id, seat=seat, at=version)
        if isinstance(turn, Rejection):
            return await self._close_choices(interaction, "✋ " + turn.message(locale))
        if turn.refused is not None:
            return await self._close_choices(interaction, "✋ " + turn.refused.message(locale), turn.table.game,
                                             locale)
        if not turn.still:  # paged at an older version, and the list is no longer the same
            return await self._redraw(interaction, turn, locale, note=t("discord.control.moved_on", locale))
        game, (state, seat) = self.bot.games[turn.table.game], turn.seen()
        labels = [game.describe_action(state, seat, a, locale, turn.names) for a in turn.choices]
        await interaction.edit_original_response(view=choices_view(table_id, turn.version, seat, labels, page,
                                                                   locale))

    async def on_choice(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                        index: int) -> None:
        await self._decide(interaction, table_id, version, seat, index, confirmed=False)

    async def on_confirm(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                         index: int) -> None:
        await self._decide(interaction, table_id, version, seat, index, confirmed=True)

    async def on_back(self, interaction: discord.Interaction, table_id: int, version: int, seat: int) -> None:
        locale = await begin(interaction, private=False)
        await self._redraw(interaction, await self._turn(interaction, table_id, seat=seat), locale)

    async def on_pass_windows(self, interaction: discord.Interaction, table_id: int, version: int, seat: int
                              ) -> None:
        """"Pass until the turn ends": this window passed, and every other window of the turn passed by the
        referee for the player as it opens (bot/referee/standing.py); the clicked message redrawn in place."""
        locale = await begin(interaction, private=False)
        turn = await self._turn(interaction, table_id, seat=seat)
        if isinstance(turn, Rejection):
            return await self._close_choices(interaction, "✋ " + turn.message(locale))
        result = await self.bot.referee.pass_windows(table_id, player_key(interaction), seat=seat, seen_at=version)
        if isinstance(result, Rejection):
            note = t("discord.control.moved_on", locale) if result.code == Code.STALE else \
                "✋ " + result.message(locale)
        else:
            self.bot.schedule_bots(table_id)
            note = t("discord.control.passed_windows", locale)
        await self._redraw(interaction, await self._turn(interaction, table_id, seat=seat), locale, note=note)

    async def _decide(self, interaction: discord.Interaction, table_id: int, version: int, seat: int, index: int,
                      *, confirmed: bool) -> None:
        """A click on a choice: a final action asks for a confirmation first; otherwise the action is applied
        and the clicked message is redrawn in place with what the player has now (no "✓" stubs left).  Two
        reads: the table as the click found it, and as the move left it."""
        locale = await begin(interaction, private=False)
        turn = await self._turn(interaction, table_id, seat=seat, at=version)
        if isinstance(turn, Rejection):
            return await self._close_choices(interaction, "✋ " + turn.message(locale))
        action = _chosen(turn, index)
        if isinstance(action, Rejection):  # nothing moved by this click: the message redrawn from what was read
            note = t("discord.control.moved_on", locale) if action.code == Code.STALE else \
                "✋ " + action.message(locale)
            return await self._redraw(interaction, turn, locale, note=note)
        game, (state, seat) = self.bot.games[turn.table.game], turn.seen()  # (a choice: the turn is not refused)
        label = game.describe_action(state, seat, action, locale, turn.names)  # the one label of the click
        if game.confirm(state, seat, action) and not confirmed:
            await interaction.edit_original_response(
                content=t("discord.control.confirm", locale, label=label),
                view=confirm_view(table_id, turn.version, seat, index, locale))
            return
        result = await self._act(interaction, table_id, turn.version, seat, action)
        if isinstance(result, Rejection):  # another click won the race for this decision: show what is now
            note = t("discord.control.moved_on", locale) if result.code == Code.STALE else \
                "✋ " + result.message(locale)
        else:
            note = t("discord.control.done", locale, label=label)
        await self._redraw(interaction, await self._turn(interaction, table_id, seat=seat), locale, note=note)

    async def _act(self, interaction: discord.Interaction, table_id: int, version: int, seat: int,
                   action: dict[str, Any]) -> Accepted | Rejection:
        """Submit one action at ``version`` (refused as stale if the table moved) and let bots answer."""
        result = await self.bot.referee.act(table_id, player_key(interaction), action, expected_version=version,
                                            seat=seat)
        if isinstance(result, Accepted):
            self.bot.schedule_bots(table_id)
        return result

    @staticmethod
    async def _close_choices(interaction: discord.Interaction, text: str, game: str | None = None,
                             locale: str = "ru") -> None:
        """Replace a private list of choices by a refusal (the buttons go: they name nothing valid; only a Why
        button stays when the refusal cites a rule of ``game``)."""
        text = shorten(text, 2000)  # lines kept
        await interaction.edit_original_response(content=text, view=with_why(None, game, text, locale))

    async def on_full(self, interaction: discord.Interaction, table_id: int) -> None:
        """The complete public board (long lists in full), privately."""
        table, locale = await begin_at_table(interaction, table_id)
        if table is None:
            return
        seen = await self.bot.referee.view(table_id, None)
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        seats = await self.bot.store.seats(table_id)
        game = self.bot.games[table.game]
        header = t("discord.table_status.header", locale, table=table.id, game=game_title(game, locale))
        await say(interaction, board_texts(game, seats, seen[0], locale, header, full=True))

    # ------------------------------------------------------------------ seeing the table
    async def on_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        table, _ = await begin_at_table(interaction, table_id)
        if table is None:
            return
        await self._show_hand(interaction, table_id)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await self.bot.locale_for(interaction)
        seen = await self.bot.referee.view(table_id, player_key(interaction))
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        view, seat = seen
        if seat is None:
            return await refuse(interaction, Rejection(Code.NOT_A_PLAYER, "core.reject.not_a_player"), locale)
        table = await self.bot.store.known_table(table_id)  # the referee has just shown it
        seats = await self.bot.store.seats(table_id)
        game = self.bot.games[table.game]
        header = t("discord.hand.header", locale, table=table.id, game=game_title(game, locale))
        await say(interaction, board_texts(game, seats, view, locale, header))

    @table.command(name=L("discord.cmd.hand"), description=L("discord.cmd.hand.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def hand(self, interaction: discord.Interaction, table: int | None = None):
        found, _ = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        await self._show_hand(interaction, found.id)

    @table.command(name=L("discord.cmd.status"), description=L("discord.cmd.status.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def status(self, interaction: discord.Interaction, table: int | None = None):
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        seen = await self.bot.referee.view(found.id, None)  # the public table, whoever asks
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        seats = await self.bot.store.seats(found.id)
        game = self.bot.games[found.game]
        header = t("discord.table_status.header", locale, table=found.id, game=game_title(game, locale))
        if found.paused_at is not None:  # a paused table takes no move: said before its board
            header += "\n" + paused_line(found, locale, "discord")
        await say(interaction, board_texts(game, seats, seen[0], locale, header))

    @table.command(name=L("discord.cmd.picture"), description=L("discord.cmd.picture.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def picture(self, interaction: discord.Interaction, table: int | None = None):
        """The table as a picture, privately: as the asker's seat sees it (their hand below), else the public
        table; the board's text beside it."""
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        seen = await self.bot.referee.view(found.id, player_key(interaction))
        if isinstance(seen, Rejection):
            return await refuse(interaction, seen, locale)
        seat = seen[1]
        state = await self.bot.store.known_state(found.id)  # the referee has just shown it: it was dealt
        seats = await self.bot.store.seats(found.id)
        game = self.bot.games[found.game]
        drawn = await self.bot.deliverer.pictures.get(game, found, seats, state, seat, "table", locale)
        header = t("discord.table_status.header", locale, table=found.id, game=game_title(game, locale))
        await say(interaction, board_texts(game, seats, game.view(state, seat), locale, header),
                  files=[drawn.file()] if drawn is not None else [])

    @table.command(name=L("discord.cmd.log"), description=L("discord.cmd.log.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def log(self, interaction: discord.Interaction, table: int | None = None):
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        text, page, pages = await self._log_page(interaction, found, None, locale)
        await say(interaction, text, view=with_why(log_view(found.id, page, pages, locale), found.game, text, locale))

    async def _log_page(self, interaction: discord.Interaction, table: TableRow, page: int | None,
                        locale: str) -> tuple[str, int, int]:
        """A page of the public log; the versions (which count secret actions) only for a moderator of the
        table's server who does not play at it (bot/referee/oversight.py)."""
        events = await self.bot.referee.history(table.id, seat=None)  # public events only
        seats = await self.bot.store.seats(table.id)
        return records.log_page(self.bot.games[table.game], table, seats, events, locale, page=page,
                                versions=await self._moderating(interaction, table))

    async def _moderating(self, interaction: discord.Interaction, table: TableRow) -> bool:
        """A moderator of the table's server who does not play at it: a seated one is a player there, and the
        versions and action counts a moderator reads count its secret actions (bot/referee/oversight.py)."""
        return not await oversight.is_seated(self.bot.referee, table.id, player_key(interaction)) \
            and await is_moderator(interaction, table)

    async def on_log_page(self, interaction: discord.Interaction, table_id: int, page: int) -> None:
        """Earlier / Later under a page of the log: the same private message shows the other page."""
        table, locale = await begin_at_table(interaction, table_id, private=False)
        if table is None:
            return
        text, page, pages = await self._log_page(interaction, table, page, locale)
        await interaction.edit_original_response(content=text, view=with_why(log_view(table.id, page, pages, locale),
                                                                              table.game, text, locale))

    @table.command(name=L("records.cmd.verify"), description=L("records.cmd.verify.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def verify(self, interaction: discord.Interaction, table: int | None = None):
        """The check of ``python -m bot verify``, privately: anyone for an ended table (its seed is public),
        only a moderator for a running one."""
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        await say(interaction, await records.verify_text(self.bot.store, self.bot.games[found.game], found, locale,
                                                         moderator=await self._moderating(interaction, found)))

    @verify.autocomplete("table")
    async def _verify_table(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current, ALL_STATUSES)

    @table.command(name=L("replay.cmd"), description=L("replay.cmd.desc"))
    @app_commands.rename(table=L("discord.param.table"))
    @app_commands.describe(table=L("discord.param.table.desc"))
    async def replay(self, interaction: discord.Interaction, table: int | None = None):
        """The table step by step, privately, as the asker may see it (cogs/replay.py)."""
        found, locale = await begin_at_table(interaction, table, ALL_STATUSES)
        if found is None:
            return
        cog = self.bot.get_cog("Replay")
        if cog is None:  # loaded with every cog (bot/discord/client.py)
            raise RuntimeError("the Replay cog is not loaded")
        # a cast, not isinstance: discord.py loads each extension as a module of its own
        await cast("Replay", cog).open(interaction, found, locale)

    @table.command(name=L("discord.cmd.pings"), description=L("discord.cmd.pings.desc"))
    @app_commands.rename(when=L("discord.param.when"))
    @app_commands.describe(when=L("discord.param.when.desc"))
    @app_commands.choices(when=[app_commands.Choice(name=L(f"discord.pings.choice.{value}"), value=value)
                                for value in ("turn", "every", "never")])
    async def pings(self, interaction: discord.Interaction, when: str):
        """When this player is pinged, at every table: a decision passing to them (default), every new
        decision, or never (the live message and their DMs still show everything)."""
        locale = await begin(interaction)
        if when not in ("turn", "every", "never"):  # a value Discord would not send (a crafted interaction)
            return await say(interaction, t("discord.reject.bad_value", locale))
        await self.bot.store.set_user(player_key(interaction), pings=when)
        await say(interaction, t("discord.pings.set", locale, when=t(f"discord.pings.{when}", locale)))

    @table.command(name=L("windows.cmd"), description=L("windows.cmd.desc"))
    @app_commands.rename(mode=L("windows.param.mode"), hours=L("windows.param.hours"), table=L("windows.param.table"))
    @app_commands.describe(mode=L("windows.param.mode.desc"), hours=L("windows.param.hours.desc"),
                           table=L("windows.param.table.desc"))
    @app_commands.choices(mode=[app_commands.Choice(name=L(f"windows.choice.{value}"), value=value)
                                for value in ("ask", "after", "held")])
    async def windows(self, interaction: discord.Interaction, mode: str,
                      hours: app_commands.Range[float, 0, 168] | None = None, table: int | None = None):
        """How this player's out-of-turn windows are answered for them, at every table or at one
        (bot/referee/windowprefs.py)."""
        locale = await begin(interaction)
        result = await self.bot.referee.set_window_preference(player_key(interaction), mode, hours, table_id=table)
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        await say(interaction, preference_text(result, table, locale))

    @hand.autocomplete("table")
    @status.autocomplete("table")
    @windows.autocomplete("table")
    @log.autocomplete("table")
    @replay.autocomplete("table")
    async def _any_table(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await table_choices(interaction, current, ALL_STATUSES)

    # ------------------------------------------------------------------ /play: typing an action
    @app_commands.command(name=L("discord.cmd.play"), description=L("discord.cmd.play.desc"))
    @app_commands.guild_only()
    @app_commands.rename(action=L("discord.param.action"), table=L("discord.param.table"))
    @app_commands.describe(action=L("discord.param.action.desc"), table=L("discord.param.table.desc"))
    async def play(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 1000],
                   table: int | None = None):
        found, locale = await begin_at_table(interaction, table, ("active",))
        if found is None:
            return
        state = await self.bot.store.known_state(found.id)  # an active table was dealt
        seat = await self.bot.referee.resolve_seat(found.id, player_key(interaction), None, state)
        if isinstance(seat, Rejection):
            return await refuse(interaction, seat, locale)
        game = self.bot.games[found.game]
        names = [s.name for s in await self.bot.store.seats(found.id)]
        offered = _OFFERED.match(action.strip())
        if offered:  # picked from the autocomplete list: valid only at the version it was offered at
            if int(offered.group(1)) != state["version"]:
                return await refuse(interaction, _stale(), locale)
            chosen: Any = game.parse_action(state, seat, offered.group(2), names)
        else:
            chosen = parse_typed(game, state, seat, action, names)
        if isinstance(chosen, Rejection):
            return await refuse(interaction, chosen, locale, found.game)
        done = await self._act(interaction, found.id, state["version"], seat, chosen)
        if isinstance(done, Rejection):
            return await refuse(interaction, done, locale, found.game)
        try:
            label = game.describe_action(state, seat, chosen, locale, names)
        except Exception:  # a typed action the engine accepted but cannot label: the choice still stands
            label = t("core.term.done", locale)
        await say(interaction, "✓ " + label)

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
        state = await self.bot.store.known_state(found.id)  # legal choices: an active table, dealt
        if state["version"] != version:
            return []
        locale = await self.bot.locale_for(interaction)
        game = self.bot.games[found.game]
        names = [s.name for s in await self.bot.store.seats(found.id)]
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
