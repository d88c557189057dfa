"""What the referee says, formatted for Discord: pure functions from views and payloads to message texts.

Every function returns a list of texts, each within Discord's 2000 characters.  Boards go into code blocks
(engines align them with spaces); players are named (markdown escaped), and mentioned only where they are
called to act or listed in a lobby.
Visibility is decided before this module (bot/referee/steps.py messages_for and the engine's views): it formats only
what it is given, so a public text is built from public data only.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from discord.utils import escape_markdown

from bot.engine import Game
from bot.engine.board_text import isolate
from bot.engine.pace import PACES
from bot.i18n import has, t
from bot.render.notices import clock_setting
from bot.render.text import DISCORD_LIMIT, game_title, outcome_line, split_text
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


def named(text: str) -> str:
    """A name or a title in a message's formatted text: its markdown shown as typed, and isolated (U+2068 …
    U+2069) so that a right-to-left name cannot reorder the words around it.  Every name a message shows
    goes through here (or ``plain_names`` in a code block)."""
    return isolate(escape_markdown(text))


def mention(seat: SeatRow) -> str:
    uid = None if seat.is_bot else discord_user_id(seat.user_id)
    return f"<@{uid}>" if uid is not None else named(seat.name)


def mentions(seats: Sequence[SeatRow]) -> list[str]:
    return [mention(s) for s in seats]


def plain_names(seats: Sequence[SeatRow]) -> list[str]:
    """Names as typed, isolated (for code blocks, where nothing is formatted; the marks take no column)."""
    return [isolate(s.name) for s in seats]


def display_names(seats: Sequence[SeatRow]) -> list[str]:
    """Names safe in formatted text: Discord markdown in a display name shows as typed; isolated."""
    return [named(s.name) for s in seats]


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
def board_texts(game: Game, seats: Sequence[SeatRow], view: Mapping[str, Any], locale: str, header: str, *,
                full: bool = False) -> list[str]:
    """A board as one viewer may see it (the public table, or a player's hand), for a private reply;
    ``full`` lists long piles and rows in full instead of counting them."""
    blocks = [header]
    board = game.render_view(view, locale, plain_names(seats), full=True) if full else \
        game.render_view(view, locale, plain_names(seats))
    blocks += code_blocks(board)
    if view.get("outcome"):  # (the board itself says who must act, once)
        blocks.append(outcome_line(game, view["outcome"], locale, display_names(seats)))
    return pack(blocks)


def _short(text: str, limit: int = 40) -> str:
    """An option's label or value for the lobby's one line: without its explanation in brackets, clipped."""
    head = text.split(" (", 1)[0].strip() or text
    return clip(head, limit)


def _defaults(game: Game, options: Mapping[str, Any], clock: float | None) -> dict[str, Any]:
    """Each option's default at the table's pace: a correspondence table's real-time rules in their correspondence
    form (bot/engine/pace.py) are its defaults, not changes."""
    try:
        return game.validate_options({"pace": options["pace"]} if "pace" in options else {}, clock=clock)
    except Exception:  # noqa: BLE001 - a pace this release refuses: the plain defaults
        return {opt.name: opt.default for opt in game.options}


def option_summary(game: Game, options: Mapping[str, Any], locale: str, *, changed_only: bool = False,
                   auto_forced: bool = True, dispute_window: str = "next_move",
                   rated: bool = True, clock: float | None = None) -> list[tuple[str, str, bool]]:
    """The table's options as (label, value, differs from the default at the table's pace), localised;
    ``changed_only`` keeps those that differ.  The referee's own settings ``auto_forced`` and ``dispute_window``
    come last.  ``clock``: the table's per-decision clock in seconds, which a correspondence default may follow."""
    rows = []
    defaults = _defaults(game, options, clock)
    for opt in game.options:
        value = options.get(opt.name, opt.default)
        label = t(f"{game.name}.option.{opt.name}", locale) if has(f"{game.name}.option.{opt.name}") else opt.name
        shown = str(value)
        if opt.kind == "choice" and has(f"{game.name}.option.{opt.name}.{value}"):
            shown = t(f"{game.name}.option.{opt.name}.{value}", locale)
        elif opt.kind == "bool":
            shown = t("discord.yes" if value else "discord.no", locale)
        rows.append((label, shown, value != defaults.get(opt.name, opt.default)))
    rows.append((t("lobby.setting.auto_forced", locale), t("discord.yes" if auto_forced else "discord.no", locale),
                 not auto_forced))
    window = t(f"disputes.window.{dispute_window}", locale) if dispute_window in ("next_move", "off") \
        else t("disputes.window.moves", locale, n=dispute_window)
    rows.append((t("disputes.window", locale), window, dispute_window != "next_move"))
    rows.append((t("ratings.setting.rated", locale), t("discord.yes" if rated else "discord.no", locale), not rated))
    return [row for row in rows if row[2] or not changed_only]


def options_text(game: Game, table: TableRow, locale: str) -> str:
    """Every option of a table, for the lobby's "All options" button: what differs from the default in bold."""
    rows = option_summary(game, table.options, locale, auto_forced=table.auto_forced,
                          dispute_window=table.dispute_window, rated=table.rated,
                          clock=table.time_control["move"] if table.time_control else None)
    lines = [t("lobby.options.header", locale, game=game_title(game, locale), table=table.id)]
    lines += [f"• **{label}: {value}**" if changed else f"• {label}: {value}" for label, value, changed in rows]
    lines.append(f"• {t('clock.setting', locale)}: {clock_setting(table.time_control, locale)}")  # a referee setting
    if any(changed for _, _, changed in rows):
        lines.append(t("lobby.options.changed", locale))
    return pack(lines)[0]


def pace_label(options: Mapping[str, Any], locale: str) -> str:
    """" · ✉️ по переписке" / " · ⚡ вживую": the table's pace (bot/engine/pace.py), for its lobby line and live
    message; nothing for a game without one."""
    pace = options.get("pace")
    return f" · {t(f'core.pace.{pace}', locale)}" if pace in PACES else ""


def lobby_text(game: Game, table: TableRow, seats: Sequence[SeatRow], locale: str) -> str:
    """The table's lobby message in the channel: one short line (game, table, seats taken of the most, the
    options that differ from the default), who sits, and, once it is not open any more, its state.  Every
    option is behind the "All options" button."""
    changed = option_summary(game, table.options, locale, changed_only=True, auto_forced=table.auto_forced,
                             dispute_window=table.dispute_window, rated=table.rated,
                             clock=table.time_control["move"] if table.time_control else None)
    paced = t(f"{game.name}.option.pace", locale)  # always shown, first (pace_label), never again among the rest
    # the table's clock beside its pace, also the default one: whoever joins sees how long each decision may take
    timed = ""
    if table.time_control:
        hours = f"{table.time_control['move'] / 3600:g}"
        timed = f" · {t('clock.setting.short', locale, hours=hours)}"
    options = pace_label(table.options, locale) + timed + "".join(
        f" · {_short(label)}: {_short(value)}" for label, value, _ in changed if label != paced)
    title = f" · {named(table.title)}" if table.title else ""
    lines = [t("lobby.line", locale, game=game_title(game, locale), table=table.id, title=title, n=len(seats),
               max=game.max_seats, options=options),
             t("lobby.seated", locale, players=", ".join(mentions(seats)) or "—")]
    if table.status != "lobby":
        thread = f"<#{table.thread_id}>" if table.thread_id else "—"
        status_key = {"active": "discord.lobby.started", "finished": "discord.lobby.finished",
                      "cancelled": "discord.lobby.cancelled"}[table.status]
        lines.append(t(status_key, locale, thread=thread, table=table.id))
    return pack(lines)[0]


def table_line(game: Game, table: TableRow, seats: Sequence[SeatRow], locale: str) -> str:
    """One line of /game list: number, game, state, seats taken of the most, who, and the thread."""
    where = f" · <#{table.thread_id}>" if table.thread_id else ""
    status = t(f"core.status.{table.status}", locale)
    return (f"**#{table.id}** {game_title(game, locale)} · {status} · {len(seats)}/{game.max_seats}: "
            f"{', '.join(mentions(seats)) or '—'}{where}")
