"""Pictures of a table (PNG), drawn from a *view*: a picture can show only what its viewer may already know.

``picture(view, locale, names, kind)``: ``table`` is the whole table as the view's seat (or, for seat None,
the public) sees it, with that seat's hand below where the game has one; ``hand`` is the seat's own hand
alone (None where the game has no hand, the seat holds no card, or the view is the public's).  Every picture
is laid out for a phone (bot/engine/canvas.py: 400 units wide, no text under ``SMALLEST`` units); ``drawing``
gives the canvas itself, whose ``legibility()`` says how small its smallest text is at a phone's display width.
Each game draws its own (``Game.picture``, in bot/games/<game>/picture.py, on a ``Canvas``), where its facts say
it does (``GameFacts.pictures``); this package draws what is no game's (standings, brackets, ratings).
``Pictures`` keeps the pictures of the latest table versions, so that a change of the table draws each distinct
view once.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Any, Callable, Mapping, Sequence

from PIL import Image

from bot.engine import get_game
from bot.engine.canvas import Canvas, png, webp
from bot.process.lru import LRU

#: the bound every picture keeps (Discord takes up to 10 MiB; a phone should not wait for one)
MAX_BYTES = 300_000
KINDS = ("table", "hand")


def supported(game: str) -> bool:
    """Whether the game ``game`` (its name) draws pictures."""
    try:
        return get_game(game).facts.pictures
    except KeyError:
        return False


def drawing(view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str = "table") -> Canvas | None:
    """The canvas ``view`` is drawn on, or None when there is no such picture (no hand, an unknown game)."""
    if kind not in KINDS or not supported(view["game"]):
        return None
    canvas: Canvas | None = get_game(view["game"]).picture(view, locale, names, kind)
    return canvas


def picture(view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str = "table",
            fmt: str = "png") -> bytes | None:
    """The PNG (or, ``fmt`` "webp", the lossless WebP Discord is sent) of ``view``, or None when there is no
    such picture (no hand, an unknown game)."""
    canvas = drawing(view, locale, names, kind)
    if canvas is None:
        return None
    return _file(canvas.cropped(), fmt)


def _file(image: Image.Image, fmt: str) -> bytes:
    """The drawn ``image`` (a canvas cropped) as a file of ``fmt``: "webp", else PNG."""
    return webp(image) if fmt == "webp" else png(image)


def filename(table_id: int, version: int, kind: str, fmt: str = "png") -> str:
    """The attachment's name: Discord shows it, and a new name per version makes clients load the new one."""
    return f"table{table_id}-v{version}-{kind}.{fmt}"


class Pictures:
    """The pictures of recent table versions by (table, version, viewer, kind, locale, names): every viewer
    of one table version gets the same bytes, drawn once.  Safe to share between threads (the Discord layer
    draws in worker threads).

    A drawing that comes out pixel for pixel like one encoded lately (a hand no move changed, a table whose
    move changed nothing drawn: more than half the pictures of a Clay God game) is not encoded again, its bytes
    are reused: encoding is most of a picture's cost (about 30 ms of 45 for Discord's WebP), telling two
    drawings apart about 2 ms.  The bytes are the same either way (an encoder gives the same file for the same
    pixels)."""

    def __init__(self, size: int = 64, fmt: str = "png", encoded: int = 256):
        self.fmt = fmt  # "png" (the web pages, the terminal) or "webp" (Discord's attachments)
        self._kept: LRU[tuple[bytes | None]] = LRU(size)  # (the picture,): None is a miss, a (None,) no picture
        self._encoded: LRU[bytes] = LRU(encoded)  # pixels' digest -> their file
        self._lock = threading.Lock()

    def get(self, table_id: int, version: int, seat: int | None, kind: str, locale: str, names: Sequence[str],
            view: Callable[[], Mapping[str, Any]]) -> bytes | None:
        """The picture, drawn from ``view()`` (called only when it is not kept)."""
        key = (table_id, version, seat, kind, locale, tuple(names))
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None:
            return kept[0]
        made = self._encode(drawing(view(), locale, names, kind))  # outside the lock: two views draw at once
        with self._lock:
            self._kept.put(key, (made,))
        return made

    def _encode(self, canvas: Canvas | None) -> bytes | None:
        """``canvas``'s file (what ``picture`` gives), encoded only when these pixels were not encoded lately."""
        if canvas is None:
            return None
        image = canvas.cropped()
        pixels = hashlib.blake2b(image.tobytes(), digest_size=16)
        pixels.update(f"{image.mode} {image.width}x{image.height}".encode())
        digest = pixels.digest()
        with self._lock:
            found = self._encoded.get(digest)
        if found is not None:
            return found
        data = _file(image, self.fmt)
        with self._lock:
            self._encoded.put(digest, data)
        return data
