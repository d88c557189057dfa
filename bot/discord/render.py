"""What the referee says, formatted for Discord: pure functions from views and payloads to message texts.

Every function returns a list of texts, each within Discord's 2000 characters.  Boards go into code blocks
(engines align them with spaces); players are named (markdown escaped), and mentioned only where they are
called to act or listed in a lobby.
Visibility is decided before this module (service.messages_for and the engine's views): it formats only
what it is given, so a public text is built from public data only.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from discord.utils import escape_markdown

from bot.engine import Game
from bot.i18n import has, t
from bot.render.text import (DISCORD_LIMIT, event_lines, game_title, outcome_line, render_message, split_text,
                             turn_line)
from bot.storage.store import SeatRow, TableRow

DISCORD_PREFIX = "discord:"
FENCE = "```"


# ---------------------------------------------------------------------------------------------- people
def discord_user_id(user_key: str) -> int | None:
    """The Discord id behind a seat's user key ("discord:<id>"), None for bots and terminal players."""
    if user_key.startswith(DISCORD_PREFIX) and user_key[len(DISCORD_PREFIX):].isdigit():
        return int(user_key[len(DISCORD_PREFIX):])
    return None


def user_key(user_id: int) -> str:
    return f"{DISCORD_PREFIX}{user_id}"


def mention(seat: SeatRow) -> str:
    uid = None if seat.is_bot else discord_user_id(seat.user_id)
    return f"<@{uid}>" if uid is not None else escape_markdown(seat.name)


def mentions(seats: Sequence[SeatRow]) -> list[str]:
    return [mention(s) for s in seats]


def plain_names(seats: Sequence[SeatRow]) -> list[str]:
    """Names as typed (for code blocks, where nothing is formatted)."""
    return [s.name for s in seats]


def display_names(seats: Sequence[SeatRow]) -> list[str]:
    """Names safe in formatted text: Discord markdown in a display name shows as typed."""
    return [escape_markdown(s.name) for s in seats]


def humans_to_act(view: Mapping[str, Any], seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats that owe a decision now and are Discord players (bots need no prompt)."""
    owed = sorted({p["seat"] for p in view.get("to_act") or []})
    return [seats[s] for s in owed if not seats[s].is_bot and discord_user_id(seats[s].user_id) is not None]


# ---------------------------------------------------------------------------------------------- layout
def code_blocks(text: str) -> list[str]:
    """``text`` in code blocks of at most 2000 characters each (a fence inside is defused)."""
    body = text.replace(FENCE, "ˋˋˋ")
    room = DISCORD_LIMIT - 2 * len(FENCE) - 2
    return [f"{FENCE}\n{chunk}\n{FENCE}" for chunk in split_text(body, room) if chunk.strip()]


def pack(blocks: Iterable[str]) -> list[str]:
    """Join blocks with line breaks into as few messages of at most 2000 characters as possible; a block
    never straddles two messages unless it alone is too long (then it is split on line boundaries)."""
    messages: list[str] = []
    current = ""
    for block in blocks:
        if not block:
            continue
        pieces = [block] if len(block) <= DISCORD_LIMIT else split_text(block)
        for piece in pieces:
            candidate = f"{current}\n{piece}" if current else piece
            if len(candidate) <= DISCORD_LIMIT:
                current = candidate
            else:
                messages.append(current)
                current = piece
    if current:
        messages.append(current)
    return messages


def clip(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters (button labels, select options)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------- messages
def prompt_lines(view: Mapping[str, Any], seats: Sequence[SeatRow], locale: str) -> list[str]:
    """A call to act for each Discord player who owes a decision, with what is asked of them."""
    prompts = {p["seat"]: p.get("prompt") for p in view.get("to_act") or []}
    lines = []
    for seat in humans_to_act(view, seats):
        key = prompts.get(seat.seat)
        asked = t(key, locale) if key and has(key) else t("discord.turn.default_prompt", locale)
        lines.append(t("discord.turn.prompt", locale, player=mention(seat), prompt=asked))
    return lines


def table_texts(game: Game, table: TableRow, seats: Sequence[SeatRow], kind: str, payload: Mapping[str, Any],
                locale: str) -> list[str]:
    """A message for the table's thread: public events, the public board, and who must act."""
    text = render_message(game, kind, payload, names=display_names(seats), locale=locale, table_id=table.id,
                          board=False)
    blocks = [text]
    view = payload.get("view")
    if view is not None and kind in ("start", "update", "finish"):
        blocks += code_blocks(game.render_view(view, locale, plain_names(seats)))
        if kind != "finish":
            blocks += prompt_lines(view, seats, locale)
    return pack(blocks)


def private_texts(game: Game, table: TableRow, seats: Sequence[SeatRow], payload: Mapping[str, Any],
                  locale: str) -> list[str]:
    """A direct message to one seat: its private events and its own view of the table."""
    header = t("discord.dm.header", locale, table=table.id, game=game_title(game, locale))
    text = render_message(game, "private", payload, names=display_names(seats), locale=locale,
                          table_id=table.id, board=False)
    blocks = [header, text]
    if payload.get("view") is not None:
        blocks += code_blocks(game.render_view(payload["view"], locale, plain_names(seats)))
    return pack(blocks)


def board_texts(game: Game, seats: Sequence[SeatRow], view: Mapping[str, Any], locale: str, header: str) -> list[str]:
    """A board as one viewer may see it (the public table, or a player's hand), for a private reply."""
    blocks = [header]
    blocks += code_blocks(game.render_view(view, locale, plain_names(seats)))
    if view.get("outcome"):
        blocks.append(outcome_line(game, view["outcome"], locale, display_names(seats)))
    elif turn := turn_line(view, locale, display_names(seats)):
        blocks.append(turn)
    return pack(blocks)


def log_texts(game: Game, table: TableRow, seats: Sequence[SeatRow], events: Sequence[Mapping[str, Any]],
              locale: str, *, versions: bool = False) -> str:
    """The latest lines of a table's history that fit in one message.  The table versions (what a moderator
    rolls back to) only with ``versions``: they count every action, the private ones too, so the gaps
    between them would tell a player how often another acted in secret (e.g. cards exchanged in a mulligan)."""
    header = t("discord.log.header", locale, table=table.id, game=game_title(game, locale))
    lines = []
    for event in events:
        for line in event_lines(game, [event], locale, display_names(seats)):
            lines.append(f"`{event['version']:>3}` {line}" if versions else f"• {line}")
    if not lines:
        lines = [t("discord.log.empty", locale)]
    room = DISCORD_LIMIT - len(header) - 10
    kept: list[str] = []
    for line in reversed(lines):
        room -= len(line) + 1
        if room < 0:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join([header, *reversed(kept)])


def option_summary(game: Game, options: Mapping[str, Any], locale: str) -> str:
    parts = []
    for opt in game.options:
        value = options.get(opt.name, opt.default)
        label = t(f"{game.name}.option.{opt.name}", locale) if has(f"{game.name}.option.{opt.name}") else opt.name
        shown = value
        if opt.kind == "choice" and has(f"{game.name}.option.{opt.name}.{value}"):
            shown = t(f"{game.name}.option.{opt.name}.{value}", locale)
        elif opt.kind == "bool":
            shown = t("discord.yes" if value else "discord.no", locale)
        parts.append(f"{label}: {shown}")
    return "; ".join(parts)


def lobby_text(game: Game, table: TableRow, seats: Sequence[SeatRow], locale: str) -> str:
    """The table's lobby message in the channel: who sits, the options, and the state of the table."""
    lines = [t("discord.lobby.title", locale, game=game_title(game, locale), table=table.id)]
    if table.title:
        lines.append(f"**{escape_markdown(table.title)}**")
    lines.append(t("discord.lobby.players", locale, n=len(seats), min=game.min_seats, max=game.max_seats,
                   players=", ".join(mentions(seats)) or "—"))
    if game.options:
        lines.append(t("discord.lobby.options", locale, options=option_summary(game, table.options, locale)))
    thread = f"<#{table.thread_id}>" if table.thread_id else "—"
    status_key = {"lobby": "discord.lobby.open", "active": "discord.lobby.started",
                  "finished": "discord.lobby.finished", "cancelled": "discord.lobby.cancelled"}[table.status]
    lines.append(t(status_key, locale, thread=thread, table=table.id))
    return pack(lines)[0]


def table_line(game: Game, table: TableRow, seats: Sequence[SeatRow], locale: str) -> str:
    """One line of /game list."""
    where = f" · <#{table.thread_id}>" if table.thread_id else ""
    status = t(f"core.status.{table.status}", locale)
    return (f"**#{table.id}** {game_title(game, locale)} · {status} · {len(seats)}/{game.max_seats}: "
            f"{', '.join(mentions(seats)) or '—'}{where}")
