"""A typed action, as a player types it at the terminal or in a Discord message: JSON, a number from the list,
or a label; checked for fields no action of its type has before the referee ever sees it."""
from __future__ import annotations

import json
from typing import Any, Sequence

from bot.engine import Code, Rejection


def parse_typed(game: Any, state: dict[str, Any], seat: int, text: str,
                names: Sequence[str] = ()) -> dict[str, Any] | Rejection:
    """A typed action: JSON (``{"type": ...}``), a number from the list, or a label."""
    text = text.strip()
    if text.startswith("{"):
        try:
            action = json.loads(text)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested past the parser's depth
            return Rejection(Code.MALFORMED, "core.reject.malformed")
        return action if _plausible(game, state, seat, action) else Rejection(Code.MALFORMED, "core.reject.malformed")
    return game.parse_action(state, seat, text, names)


def _plausible(game: Any, state: dict[str, Any], seat: int, action: Any) -> bool:
    """A typed JSON action names only fields that an action of its type has: the engines ignore unknown
    fields, and the record must not keep what the referee never read.  (Fields a listed action spells out
    may be left to their defaults, as engines allow; whether the move is legal is the referee's call.)"""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return isinstance(action, dict)  # the referee refuses it with the precise reason
    if action == {"type": "timeout"}:
        return True
    fields = [set(a) for a in game.choices(state, seat) if a.get("type") == action["type"]]
    return not fields or any(set(action) <= known for known in fields)
