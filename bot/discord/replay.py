"""The replay of a table in Discord (``/table replay``, the Replay button): one private message, edited in place
step by step, with the picture of the table at that step.

Who sees what is decided here at every click, never read from the message: a custom_id can be forged.  A
viewer is one of three kinds: the public (the public events, the public picture), a player (their own seat's
events and hand besides, as they were at that step), or a moderator who does not play at the table (every event
with the raw actions, the picture as any seat saw it, each step a logged look: bot/referee/oversight.py).  The
lines of a step are ``python -m bot replay N [--seat S | --moderator]``'s for that step (bot/referee/replay.py),
in a code block; the picture is ``python -m bot picture N --version V [--seat S]``'s.  Steps are counted, not
versioned: a version counts the secret steps too, so only a moderator reads it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from discord.utils import escape_markdown

from bot.discord.interactions import is_moderator, player_key
from bot.discord.pictures import Picture
from bot.discord.render import FENCE, code_blocks
from bot.engine import Code, Rejection
from bot.engine.board_text import shorten
from bot.engine.versions import CannotMigrate, readable
from bot.i18n import t
from bot.referee import oversight, replay as replays
from bot.referee.replay import Replay
from bot.render.text import DISCORD_LIMIT, game_title
from bot.storage.store import SeatRow, TableRow

PUBLIC, PLAYER, MODERATOR = 0, 1, 2


@dataclass(frozen=True)
class Viewer:
    kind: int
    seat: int | None    # whose view the picture shows: a player's own seat, a moderator's choice; None the public

    @property
    def persp(self) -> int:
        """The seat as a custom_id carries it: seat + 1, 0 for the public."""
        return 0 if self.seat is None else self.seat + 1


def not_yours() -> Rejection:
    return Rejection(Code.FORBIDDEN, "replay.reject.not_yours")


async def default_viewer(bot: Any, interaction: Any, table: TableRow) -> Viewer:
    """Who the asker is at this table: a player (their seat; of several, the one that acts), else a moderator of
    its server, else the public."""
    if await oversight.is_seated(bot.referee, table.id, player_key(interaction)):
        seat = await bot.referee.resolve_seat(table.id, player_key(interaction))
        return Viewer(PLAYER, seat)
    if await is_moderator(interaction, table):
        return Viewer(MODERATOR, None)
    return Viewer(PUBLIC, None)


async def allowed(bot: Any, interaction: Any, table: TableRow, kind: int, persp: int) -> Viewer | Rejection:
    """The viewer a click asks to be (``kind``, ``persp`` from its custom_id), if the clicker may be it now."""
    seats = await bot.store.seats(table.id)
    mine = [s.seat for s in seats if s.user_id == player_key(interaction)]
    if kind == PUBLIC and persp == 0:
        return Viewer(PUBLIC, None)
    if kind == PLAYER:
        return Viewer(PLAYER, persp - 1) if persp - 1 in mine else not_yours()
    if kind == MODERATOR and 0 <= persp <= len(seats):
        # a moderator playing here is a player at this table: the one check of bot/referee/oversight.py
        if await oversight.is_seated(bot.referee, table.id, player_key(interaction)):
            return oversight.seated_refusal(table.id)
        if not await is_moderator(interaction, table):
            return not_yours()
        return Viewer(MODERATOR, None if persp == 0 else persp - 1)
    return not_yours()


async def load(bot: Any, table: TableRow, viewer: Viewer) -> Replay:
    return await replays.load(bot.referee, table, seat=viewer.seat if viewer.kind == PLAYER else None,
                              moderator=viewer.kind == MODERATOR)


def perspectives(viewer: Viewer, seats: Sequence[SeatRow], locale: str) -> list[str]:
    """What a moderator may choose the picture to show: the public's view, then each seat's."""
    if viewer.kind != MODERATOR:
        return []
    return [t("replay.as.public", locale), *(t("replay.as.seat", locale, name=s.name) for s in seats)]


def _who(viewer: Viewer, seats: Sequence[SeatRow], locale: str) -> str:
    name = escape_markdown(seats[viewer.seat].name) if viewer.seat is not None else None
    if viewer.kind == PUBLIC:
        return t("replay.viewer.public", locale)
    if viewer.kind == PLAYER:
        return t("replay.viewer.player", locale, name=name)
    return t("replay.viewer.moderator", locale,
             who=t("replay.as.seat", locale, name=name) if name else t("replay.as.public", locale))


async def step_message(bot: Any, interaction: Any, table: TableRow, replay: Replay, viewer: Viewer, step: int,
                       locale: str, *, note: str | None = None) -> tuple[str, Picture | None] | Rejection:
    """The private message at ``step``: what it shows, and the picture of the table then.  A moderator's look is
    logged here, step by step, and refused to one who has since sat down at the table."""
    entry = replay.entries[step]
    if viewer.kind == MODERATOR:
        refused = await oversight.may_look(bot.referee, table.id, player_key(interaction), "replay",
                                           {"version": entry.version, "seat": viewer.seat})
        if refused is not None:
            return refused
    game, seats = replay.game, await bot.store.seats(table.id)
    state = await bot.store.state(table.id, entry.version)
    try:  # a step written before an upgrade: drawn as today's rules read it (python -m bot picture does the same)
        state = readable(game, state) if state is not None else None
    except CannotMigrate:
        state = None
    picture = None
    if state is not None:
        drawn = await bot.deliverer.pictures.get(game, table, seats, state, viewer.seat, "table", locale)
        # named by the step, not the version: a version counts the secret steps too
        picture = Picture(drawn.data, f"table{table.id}-replay{step}.{drawn.name.rsplit('.', 1)[-1]}",
                          drawn.description) if drawn else None
    head = t("replay.head", locale, game=game_title(game, locale), table=table.id, step=step + 1,
             steps=len(replay.entries), viewer=_who(viewer, seats, locale))
    blocks = [head, *([note] if note else [])]
    room = DISCORD_LIMIT - len("\n".join(blocks)) - 2 * len(FENCE) - 3
    # the step's lines as the terminal prints them: a code block keeps them as they are (names as typed)
    lines = shorten("\n".join(replay.lines(entry, locale)).replace(FENCE, "ˋˋˋ"), room)
    blocks.append(f"{FENCE}\n{lines}\n{FENCE}")
    if state is not None:  # the board in words beside the picture, where it fits
        board = code_blocks(game.render_view(game.view(state, viewer.seat), locale, [s.name for s in seats]))
        if len(board) == 1 and len("\n".join([*blocks, board[0]])) <= DISCORD_LIMIT:
            blocks.append(board[0])
    return "\n".join(blocks), picture


def last_step(replay: Replay) -> int:
    return max(0, len(replay.entries) - 1)
