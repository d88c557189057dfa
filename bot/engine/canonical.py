"""Canonical JSON: the one byte form in which states, actions and events are stored and compared.

The canonical form is, and stays, exactly what ``json.dumps(obj, sort_keys=True, separators=(",", ":"),
ensure_ascii=False, allow_nan=False)`` writes: replay and ``verify`` compare stored snapshots (and their
SHA-256 digests) byte for byte, so a record written by any release must keep reproducing.

Why orjson at all: speed.  Every accepted action encodes its new state here (issue 18), and orjson writes
the same JSON five to nine times faster than ``json.dumps``.  It is only used where it provably writes
the same bytes; anything it could write differently, or would accept where ``json.dumps`` refuses, goes
to the ``json.dumps`` call itself, which then behaves exactly as before (the same output, or the same
TypeError / ValueError).  The cases, each checked by tests/engine/test_canonical.py:

- orjson refuses ints beyond 64 bits, dict keys that are not str, lone surrogates, subclasses of the
  builtin types, dataclasses and datetimes (passed through to a ``default`` that refuses) and nesting
  beyond its depth: all go to ``json.dumps``;
- orjson writes NaN and ±inf as ``null`` and serializes enum members and UUIDs, where ``json.dumps``
  refuses them: ``marshal.dumps`` (a walk in C, about twice orjson's time, still far below json.dumps's)
  refuses every object that is not exactly a builtin type, and NaN/inf are found in its bytes;
- floats: orjson and ``repr`` differ only where ``repr`` uses an exponent (magnitude below 1e-4 or from
  1e16 on: repr writes 1e-05 and 1e-07, orjson 0.00001 and 1e-7); such a float shows in orjson's output as
  ``0.0000`` or an exponent ``e-``/``e+``, which are looked for with single-byte searches (a regex costs more
  than orjson itself).  A match inside a string is a false alarm that only costs time.

``loads`` likewise: orjson.loads where it returns what ``json.loads`` returns (it refuses NaN/Infinity
literals and lone surrogates, and turns ints beyond 64 bits into floats, so a text with a run of 19 or more
digits is left to ``json.loads``).
"""
from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any

import orjson

_ORJSON_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                   | orjson.OPT_PASSTHROUGH_SUBCLASS)
_FLOAT_MARKS = (0x67, 0xE7)  # marshal's binary float ("g"), without and with its reference flag
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_INT = b"0" * 19  # 2**63 has 19 digits: a shorter run of digits is an int orjson reads exactly


def _json_dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _refuse(obj: Any) -> Any:
    raise TypeError(f"{type(obj).__name__} is left to json.dumps")


def _non_finite(walk: bytes) -> bool:
    """Is there a NaN or an infinity among the floats of ``marshal.dumps(obj, 4)``?  A float is a marker byte
    and 8 little-endian bytes; NaN and ±inf have every exponent bit set, so their last two bytes are
    [F0-FF] and 7F or FF.  Those last bytes are rare, so they are searched for and their context checked."""
    for last in (b"\x7f", b"\xff"):
        at = walk.find(last, 8)
        while at != -1:
            if walk[at - 1] >= 0xF0 and walk[at - 8] in _FLOAT_MARKS:
                return True
            at = walk.find(last, at + 1)
    return False


def _float_may_differ(out: bytes) -> bool:
    """May orjson's ``out`` hold a float that ``repr`` writes with an exponent (and so differently)?  orjson
    writes such a float as ``0.0000…`` or with an exponent ``e-N`` / ``e+N``; "+" appears in its output only
    there, "." and "-" are rare in states (a few times each), so every occurrence is looked at."""
    if b"+" in out:
        return True
    at = out.find(b"-")
    while at != -1:
        if at and out[at - 1] in b"eE":
            return True
        at = out.find(b"-", at + 1)
    at = out.find(b".")
    while at != -1:
        if out.startswith(b"0000", at + 1):
            return True
        at = out.find(b".", at + 1)
    return False


def _fast(obj: Any) -> bytes | None:
    """orjson's bytes when they are provably json.dumps's, else None."""
    try:
        out = orjson.dumps(obj, default=_refuse, option=_ORJSON_OPTIONS)
        walk = marshal.dumps(obj, 4)
    except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError; marshal refuses with ValueError
        return None
    if _non_finite(walk) or _float_may_differ(out):
        return None
    return out


def dumps(obj: Any) -> str:
    out = _fast(obj)
    return _json_dumps(obj) if out is None else out.decode()


def dumps_bytes(obj: Any) -> bytes:
    """``dumps(obj).encode()`` (UTF-8), without the detour through str on the fast path."""
    out = _fast(obj)
    return _json_dumps(obj).encode() if out is None else out


def loads(text: str | bytes | bytearray) -> Any:
    if isinstance(text, (str, bytes, bytearray)):
        try:
            raw = text.encode() if isinstance(text, str) else text
            if _LONG_INT not in raw.translate(_DIGITS_TO_ZERO):
                return orjson.loads(raw)
        except ValueError:  # orjson.JSONDecodeError, or a str with a lone surrogate that cannot be UTF-8
            pass
    return json.loads(text)


def digest(obj: Any) -> str:
    return hashlib.sha256(dumps_bytes(obj)).hexdigest()
