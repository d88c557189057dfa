"""The text a game's board is made of, shared by every game's render.py and by the render layer above:
the columns a line takes on a phone, wrapping and fitting lines to that width, lists of items wrapped or
clipped to a number of lines, a text cut short, and a board's line saying who owes a decision.

Pure functions of strings (and of the strings catalogue, bot/i18n): they live in the engine layer so that the
games may use them without importing anything above them (bot/render/ draws the games' boards)."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from bot.i18n import t

#: the widest line a board may have: what a phone shows in a Discord code block without wrapping it
PHONE_WIDTH = 40


# ---------------------------------------------------------------------------------------------- line width
_ZWJ, _VS16 = "\u200d", "\ufe0f"
# Symbols a phone may draw as a two-column emoji although Unicode calls them narrow (❄ ☀ ♦ ▶ ⚠ ...):
# counted as wide, so that a board fits whichever way the phone draws them.
_EMOJI_CAPABLE = ((0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF), (0x2900, 0x297F),
                  (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))


@lru_cache(maxsize=4096)
def _char_width(ch: str) -> int:
    code = ord(ch)
    if unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0x1F3FB <= code <= 0x1F3FF:  # marks, joiners, skin tones
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    if any(low <= code <= high for low, high in _EMOJI_CAPABLE) and (
            code >= 0x1F000 or unicodedata.category(ch) == "So"):
        return 2
    return 1


# characters that may not take exactly one column: combining marks and everything from U+1100 on
_SPECIAL = re.compile("[\u0300-\u036f\u0483-\u0489\u1100-\U0010ffff]")


def display_width(line: str) -> int:
    """The columns ``line`` takes on a phone: wide characters and emoji count 2, combining marks, variation
    selectors and joiners 0 (an emoji joined to the one before it by U+200D adds nothing), a narrow symbol
    followed by the emoji selector U+FE0F 2."""
    width = len(line)
    last_pos, last, joined, flag = -2, 1, False, False
    for m in _SPECIAL.finditer(line):
        ch, pos = m.group(), m.start()
        width -= 1  # counted below
        if pos != last_pos + 1:  # the character before is an ordinary one
            last, joined, flag = 1, False, False
        last_pos = pos
        if ch == _ZWJ:
            joined = True
            continue
        if ch == _VS16:
            if last == 1:
                width += 1
                last = 2
            continue
        if 0x1F1E6 <= ord(ch) <= 0x1F1FF:  # two regional indicators make one flag
            flag = not flag
            if not flag:
                continue
        else:
            flag = False
        w = _char_width(ch)
        if joined and w:
            joined = False
            continue
        width += w
        if w:
            last = w
    return width


def _is_special(ch: str) -> bool:
    return ch >= "\u1100" or "\u0300" <= ch <= "\u036f" or "\u0483" <= ch <= "\u0489"


def _fitting_end(text: str, start: int, room: int) -> int:
    """The end of the longest run ``text[start:end]`` at most ``room`` columns wide (``display_width``'s count,
    the run read as a line of its own): one pass that stops where the run is full, so cutting a long text into
    lines reads each character once instead of measuring every shorter head again."""
    width, last, joined, flag = 0, 1, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if not _is_special(ch):
            width += 1
            last, joined, flag = 1, False, False
        elif ch == _ZWJ:
            joined = True
        elif ch == _VS16:
            if last == 1:
                width += 1
                last = 2
        elif 0x1F1E6 <= ord(ch) <= 0x1F1FF and flag:  # the second of a flag's two regional indicators
            flag = False
        else:
            flag = 0x1F1E6 <= ord(ch) <= 0x1F1FF
            w = _char_width(ch)
            if joined and w:
                joined = False
            elif w:
                width += w
                last = w
        if width > room:
            return i
    return len(text)


def cut_to_width(text: str, width: int, hang: str, lines: list[str], current: str = "") -> str:
    """``current + text`` cut where a line of ``width`` columns is full (each piece at least one character):
    the full lines are appended to ``lines``, the ones after the first starting with ``hang``; the last,
    unfinished line is returned.  Linear in the text's length, however long a word is."""
    pos = 0
    while True:
        end = _fitting_end(text, pos, width - display_width(current))
        if end == len(text):
            return current + text[pos:]
        end = max(end, pos + 1)
        lines.append(current + text[pos:end])
        current, pos = hang, end


def wrap(line: str, width: int = PHONE_WIDTH, hang: str | None = None) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns.  Continuation lines start with
    ``hang`` (by default the line's own indentation and two spaces more).  Only a word wider than a whole
    line is cut.  Each word is measured once (a space resets display_width's count, so a line's width is
    the sum of its words' and spaces'): linear in the line's length."""
    if display_width(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip(" "))]
    hang = lead + "  " if hang is None else hang
    if display_width(hang) > width // 2:
        hang = "  "
    lines: list[str] = []
    current, used = lead, display_width(lead)
    for word in line[len(lead):].split(" "):
        if not word:
            continue
        word_width = display_width(word)
        if current.strip():
            if used + 1 + word_width <= width:
                current, used = f"{current} {word}", used + 1 + word_width
                continue
            lines.append(current)
            current = hang
        elif display_width(current + word) <= width:
            current += word
            used = display_width(current)
            continue
        current = cut_to_width(word, width, hang, lines, current)
        used = display_width(current)
    if current.strip():
        lines.append(current)
    return lines


def fit(lines: Iterable[str], width: int = PHONE_WIDTH) -> list[str]:
    """Every line (a line may hold several, split at "\\n") wrapped to ``width`` columns: a board's last step."""
    out: list[str] = []
    for text in lines:
        for line in str(text).split("\n"):
            out += wrap(line.rstrip(), width)
    return out


def wrap_items(head: str, items: Sequence[str], width: int = PHONE_WIDTH, hang: str = "  ",
               sep: str = ",") -> list[str]:
    """``head`` followed by ``items`` joined with ``sep``, broken between items where a line is full (an
    item is broken inside only when it alone is wider than a line).  Continuation lines start with ``hang``."""
    tokens = [item + sep if i < len(items) - 1 else item for i, item in enumerate(items)]
    lines: list[str] = []
    current, empty = head, True  # the line being built; whether it holds an item yet
    for token in tokens:
        joiner = "" if not current or current.endswith(" ") else " "
        if display_width(current + joiner + token) <= width:
            current, empty = current + joiner + token, False
            continue
        if not empty or current.strip():  # the line holds an item or a head: the item starts the next line
            lines.append(current.rstrip())
            current = hang
        # one line, unless the item alone is wider than a line (none, when it is only spaces)
        parts = wrap(current + token, width, hang) or [hang]
        lines += parts[:-1]
        current, empty = parts[-1], False
    if current.strip():
        lines.append(current.rstrip())
    return lines


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the cut marked with "…"."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ---------------------------------------------------------------------------------------------- isolation
#: FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE: a name between them is laid out on its own, so a
#: right-to-left name (or one that starts with digits) cannot reorder the text around it.  Both take no
#: column (display_width: format characters count 0), so boards stay aligned.
FSI, PDI = "\u2068", "\u2069"


def isolate(text: str) -> str:
    """``text`` isolated from the text around it (the front ends' helpers: bot/discord/render.py, bot/web)."""
    return f"{FSI}{text}{PDI}"


def shorten_name(name: str, limit: int) -> str:
    """A name cut like ``shorten``, its isolation kept: the limit counts the name, not the two marks."""
    if len(name) >= 2 and name[0] == FSI and name[-1] == PDI:
        return isolate(shorten(name[1:-1], limit))
    return shorten(name, limit)


def clip_items(head: str, items: Sequence[str], more: Callable[[int], str], max_lines: int,
               width: int = PHONE_WIDTH, hang: str = "  ", sep: str = ",") -> list[str]:
    """Like ``wrap_items``, but at most ``max_lines`` lines: the items that do not fit are left out and
    summarised by ``more(number left out)`` (e.g. "… ещё 5") at the end."""
    lines = wrap_items(head, items, width, hang, sep)
    if len(lines) <= max_lines:
        return lines
    for shown in range(len(items) - 1, -1, -1):
        lines = wrap_items(head, [*items[:shown], more(len(items) - shown)], width, hang, sep)
        if len(lines) <= max_lines:
            return lines
    return lines

def pending_lines(view: Mapping[str, Any], locale: str, names: Sequence[str], *,
                  label: Callable[[Mapping[str, Any]], str | None] | None = None,
                  detail: Callable[[Mapping[str, Any]], str | None] | None = None) -> list[str]:
    """A board's statement of who owes a decision now: one line per kind of decision ("⏳ Ход: Аня — бросок
    кубиков"), marked ➤ where the reader is the one asked.  ``label`` names a decision where the game can say
    more than its kind (an answer to a card, a declaration); ``detail`` adds what is asked.  A board states
    this once: its header and player list do not repeat it."""
    groups: dict[tuple[str, str | None, bool], list[int]] = {}
    me = view.get("seat")
    for p in view.get("to_act") or []:
        what = (label(p) if label else None) or t(f"core.pending.{p.get('kind') or 'turn'}", locale)
        extra = detail(p) if detail else None
        seats = groups.setdefault((what, extra, p["seat"] == me), [])
        if p["seat"] not in seats:
            seats.append(p["seat"])
    lines = []
    for (what, extra, mine), seats in groups.items():
        line = t("core.board.pending", locale, mark="➤" if mine else "⏳", what=what,
                 players=", ".join(names[s] for s in seats))
        lines.append(f"{line} — {extra}" if extra else line)
    return lines
