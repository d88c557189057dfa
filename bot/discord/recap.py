"""What a player missed, as the control message that pings them says it (issue 27: "the ping says what
happened"; issue 35: "the ping says the news first").

A ping opens with one line that says it is the player's move, at which table, and the move that gave it to
them ("▶ Ваш ход — стол №12, Гвинт: Bob: пас."), then the public moves since their last decision, each line
whole, oldest first.  Its prose (everything outside the board's code block) fits one phone screen:
``SCREEN_ROWS`` rows of ``SCREEN_COLUMNS`` columns, each line counted as the rows it wraps to
(bot/engine/board_text.py ``wrap``).  Where the recap would not fit, the newest lines are kept whole and the
earlier ones are counted with a link to the whole log (the table's public page where the bot serves one, else
the ``/table log`` command)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from bot.engine.board_text import PHONE_WIDTH, shorten, wrap
from bot.i18n import t

SCREEN_ROWS = 20               # rows of a phone screen the ping's prose may take (the board follows below it)
SCREEN_COLUMNS = PHONE_WIDTH   # columns of one row (a phone in portrait: what a code block shows unwrapped)
RECAP = "▸ "

# what Discord draws in place of markup: a link by its label, a timestamp as its text (at its widest), bold bare
_LINK = re.compile(r"\[([^\]]*)\]\(<?[^)\s]+>?\)")
_STAMP_FULL = re.compile(r"<t:\d+:f>")
_STAMP_OTHER = re.compile(r"<t:\d+(?::[tTdDFR])?>")
_MENTION = re.compile(r"<[@#][!&]?\d+>")


@dataclass(frozen=True)
class Recap:
    """The news a ping opens with: ``move``, the first public line of the step that gave the player the move
    (None when no public step did: a rollback, an upgrade); ``lines``, every public line since their last
    decision, oldest first; ``log_url``, the table's public page (None where the bot serves none)."""
    move: str | None = None
    lines: Sequence[str] = field(default_factory=tuple)
    log_url: str | None = None


def shown(text: str) -> str:
    """``text`` as Discord shows it, for counting its rows: markup replaced by what it draws."""
    text = _LINK.sub(r"\1", text).replace("**", "")
    text = _STAMP_FULL.sub("28 сентября 2026 г., 14:00", text)   # the widest a date with its time reads
    text = _STAMP_OTHER.sub("через 12 часов", text)
    return _MENTION.sub("@Somebody", text)


def rows(text: str) -> int:
    """The rows ``text`` takes on a phone screen, outside code blocks (a code block's own lines are not counted:
    the board follows the prose and is at most ``PHONE_WIDTH`` wide)."""
    count, fenced = 0, False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            count += max(1, len(wrap(shown(line), SCREEN_COLUMNS)))
    return count


def headline(game_title: str, table_id: int, move: str | None, locale: str) -> str:
    """The ping's first line: the player's move, the table, and the move that gave it to them."""
    if move:
        return t("discord.ping.first_move", locale, table=table_id, game=game_title, move=move)
    return t("discord.ping.first", locale, table=table_id, game=game_title)


def recap_lines(lines: Sequence[str], locale: str, log_url: str | None = None, *, room: int = SCREEN_ROWS
                ) -> list[str]:
    """``lines`` (public event lines, oldest first) as the recap shows them within ``room`` rows: each line
    whole, the newest kept, the earlier ones counted on a first line with the way to the whole log.  Only a
    newest line that alone is longer than the room is cut (to the room: a ping never scrolls past a screen)."""
    lines = [line for line in lines if line.strip()]
    out = [RECAP + line for line in lines]
    if sum(rows(line) for line in out) <= room:
        return out
    kept: list[str] = []
    for i in range(len(out) - 1, -1, -1):
        more = _more(i, locale, log_url)
        if rows(more) + sum(rows(line) for line in [out[i], *kept]) > room:
            break
        kept.insert(0, out[i])
    if not kept and out:  # the newest line alone is longer than the room
        more = _more(len(out) - 1, locale, log_url)
        kept = [_cut_to_rows(out[-1], max(1, room - rows(more)))]
    return [_more(len(out) - len(kept), locale, log_url), *kept]


def _more(n: int, locale: str, log_url: str | None) -> str:
    if log_url:
        return t("discord.recap.more_link", locale, n=n, url=f"<{log_url}>")
    return t("discord.recap.more", locale, n=n)


def _cut_to_rows(line: str, room: int) -> str:
    limit = len(line)
    while limit > 1 and rows(line) > room:
        limit = max(1, limit - SCREEN_COLUMNS // 2)
        line = shorten(line, limit)
    return line
