"""Which leader effects are in force: shared by scoring and the rules (kept apart to avoid an import cycle)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import catalogue


def leader_rule(state: dict[str, Any], leader_id: str) -> Mapping[str, Any]:
    return catalogue().leaders[leader_id].rule(state["variant"]) or {}


def blocked_by_white_flame(state: dict[str, Any], seat: int) -> bool:
    """Standard: an opponent holding the White Flame cancels every leader of ``seat`` for the whole game."""
    if state["variant"] != "standard":
        return False
    other = state["players"][1 - seat]["leaders"]
    return any(leader_rule(state, lid).get("ability") == "white_flame" for lid in other)


def passive(state: dict[str, Any], seat: int, ability: str) -> bool:
    """Is a passive (standard) leader ability of ``seat`` in force?"""
    if state["variant"] != "standard" or blocked_by_white_flame(state, seat):
        return False
    for lid in state["players"][seat]["leaders"]:
        rule = leader_rule(state, lid)
        if rule.get("passive") and rule["ability"] == ability:
            return True
    return False
