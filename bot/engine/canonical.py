"""Canonical JSON: the one byte form in which states, actions and events are stored and compared."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def loads(text: str) -> Any:
    return json.loads(text)


def digest(obj: Any) -> str:
    return hashlib.sha256(dumps(obj).encode()).hexdigest()
