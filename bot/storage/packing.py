"""Snapshots and outbox payloads as stored: canonical JSON, zstd-compressed unless small; every form
older releases wrote still reads."""
from __future__ import annotations

import threading
import zlib
from typing import Any

import zstandard

from bot.engine.canonical import dumps_bytes, loads

#: Below this many bytes a payload is stored as its text: a zstd frame adds about 13 bytes of header, so
#: under ~100 bytes it is as long as the text or longer, and up to here it saves a few bytes at best, for
#: a compression on writing and a decompression on reading.  The lean outbox payloads (~60 bytes) are so.
SMALL_PAYLOAD = 128
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_zstd = threading.local()  # zstandard's (de)compressor objects are not for concurrent use: one per thread
# (the database thread and the event loop's both pack and unpack); zstandard.compress() would make a new
# compressor on every call, which costs more than the compression.


def pack_state(state: dict[str, Any]) -> bytes | str:
    """A snapshot (or an outbox payload) as stored: its canonical JSON, zstd-compressed at level 1 (states
    compress about threefold, and a table keeps one per action and a few messages per action); a small one
    (``SMALL_PAYLOAD``) as its text.  ``unpack_state`` returns the exact canonical text, so byte-for-byte
    checks hold.  zstd level 1 compresses in about half the time of zlib level 1 (which older releases
    wrote, and which still reads) to about the same size, and decompresses faster too."""
    text = dumps_bytes(state)
    if len(text) < SMALL_PAYLOAD:
        return text.decode()
    try:
        compressor = _zstd.compressor
    except AttributeError:
        compressor = _zstd.compressor = zstandard.ZstdCompressor(level=1)
    return compressor.compress(text)


def unpack_state(stored: bytes | str) -> str:
    """The canonical text of a stored snapshot or payload, in any of the forms releases wrote: text (small
    payloads; every row of the oldest releases), a zlib stream (first byte 0x78) or a zstd frame."""
    raw = _unpacked(stored)
    return raw if isinstance(raw, str) else raw.decode()


def load_packed(stored: bytes | str) -> Any:
    """A stored snapshot or payload as the value it encodes (its UTF-8 bytes parsed without a str between)."""
    return loads(_unpacked(stored))


def _unpacked(stored: bytes | str) -> bytes | str:
    if isinstance(stored, str):
        return stored
    if stored[:4] == _ZSTD_MAGIC:
        try:
            decompressor = _zstd.decompressor
        except AttributeError:
            decompressor = _zstd.decompressor = zstandard.ZstdDecompressor()
        return decompressor.decompress(stored)
    return zlib.decompress(stored)
