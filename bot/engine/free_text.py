"""Free text that people give the referee (player names, table titles, reasons, rulings), made safe to store
and to print anywhere: a terminal, a Discord message, an export.

Taken out: terminal escape sequences, control characters, invisible format characters (zero-width spaces,
bidirectional overrides that reorder the text around them) and unassigned code points; the text is put in
Unicode NFC form, its white space collapsed and its length bounded.  Applied where the text enters the
referee (service, disputes, moderation, the director), so every front end stores and shows the same thing, and again where the
storage layer reads it back (``stored_name``, ``stored_title``, ``stored_text``): a record written by a release
that cleaned less, or nothing, still shows no control character and no name longer than its limit.  (The
engine layer holds this so that storage, below the referee, may use it.)
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


# ---------------------------------------------------------------------------------------------- read back
def _clean_already(text: str, limit: int, keep_newlines: bool) -> bool:
    """Whether ``text`` is as the cleaning leaves it, cheaply: within its limit and nothing to take out
    (``isprintable`` is False for every category the cleaning drops, and for white space but the plain space;
    an empty or blank text is left to the cleaning, which gives the fallback)."""
    if len(text) > limit or not text.strip() or text != text.strip() or "  " in text or \
            not unicodedata.is_normalized("NFC", text):
        return False
    if text.isprintable():
        return True
    return keep_newlines and text.replace("\n", "").isprintable() and text.count("\n") < TEXT_LINES and \
        " \n" not in text and "\n " not in text and "\n\n\n" not in text


def _head(text: str, limit: int) -> str:
    """As much of a long ``text`` as its cleaned form's first ``limit`` characters need: heads four times
    longer each time until one keeps well over ``limit`` characters, so reading back a name of 10,000
    characters cleans a few hundred.  (Only the tail of a head can clean differently from the whole text: a
    space, an escape sequence or a composed character cut at its end.)"""
    size = 4 * limit + 64
    while size < len(text):
        head = text[:size]
        if len(" ".join(_visible(head, keep_newlines=False).split())) > limit + 16:
            return head
        size *= 4
    return text


def stored_name(text: str | None, *, limit: int = NAME_MAX) -> str:
    """A seat's or an entrant's name as read from the record: cleaned and cut as ``clean_name`` does, whatever
    release wrote it (a name written before names were cleaned may be 10,000 characters long)."""
    text = "" if text is None else str(text)
    return text if _clean_already(text, limit, False) else clean_name(_head(text, limit), limit=limit)


def stored_title(text: str | None, *, limit: int = TITLE_MAX) -> str | None:
    """A table's or a tournament's title as read from the record (None: it has none)."""
    if text is None:
        return None
    text = str(text)
    return text if _clean_already(text, limit, False) else \
        clean_name(_head(text, limit), limit=limit, fallback="") or None


def stored_text(text: str | None, *, limit: int = TEXT_MAX) -> str | None:
    """A reason, a ruling or a dispute's text as read from the record."""
    if text is None:
        return None
    text = str(text)
    return text if _clean_already(text, limit, True) else clean_text(_head(text, limit), limit=limit)
