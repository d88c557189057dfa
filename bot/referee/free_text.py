"""Free text that people give the referee (player names, table titles, reasons, rulings), made safe to store
and to print anywhere: a terminal, a Discord message, an export.

Taken out: terminal escape sequences, control characters, invisible format characters (zero-width spaces,
bidirectional overrides that reorder the text around them) and unassigned code points; the text is put in
Unicode NFC form, its white space collapsed and its length bounded.  Applied once, where the text enters
the referee, so every front end stores and shows the same thing.
"""
from __future__ import annotations

import re
import unicodedata

from bot.engine.board_text import shorten

NAME_MAX = 32      # Discord's own limit for a display name
TITLE_MAX = 80
TEXT_MAX = 1000    # a reason or a ruling: a paragraph, shown in one message
TEXT_LINES = 12

_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def _visible(text: str, keep_newlines: bool) -> str:
    text = unicodedata.normalize("NFC", _ESCAPES.sub("", text))
    out = []
    for ch in text:
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif ch.isspace():
            out.append(" ")
        elif unicodedata.category(ch) not in _DROPPED:
            out.append(ch)
    return "".join(out)



def clean_name(text: object, *, limit: int = NAME_MAX, fallback: str = "?") -> str:
    """One line, single spaces, at most ``limit`` characters; ``fallback`` when nothing visible is left."""
    cleaned = " ".join(_visible(str(text), keep_newlines=False).split())
    return shorten(cleaned, limit) or fallback


def clean_text(text: object | None, *, limit: int = TEXT_MAX) -> str | None:
    """A paragraph: lines kept (at most TEXT_LINES, blank runs folded), spaces collapsed, bounded; None when
    nothing visible is left."""
    if text is None:
        return None
    lines = [" ".join(line.split()) for line in _visible(str(text), keep_newlines=True).split("\n")]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    cleaned = "\n".join(kept[:TEXT_LINES]).strip()
    return shorten(cleaned, limit) or None
