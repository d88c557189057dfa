"""Pure game engines: the shared contract, the seeded random source, the registry, catalogue loading.
Nothing in this package imports discord or touches storage."""
from .contract import (
    PUBLIC, RECORD, Action, Applied, Code, Ctx, Game, Option, Outcome, Pending, Reject, Rejection, State,
    clone, visible_to,
)
from .registry import all_games, get_game, register

__all__ = [
    "PUBLIC", "RECORD", "Action", "Applied", "Code", "Ctx", "Game", "Option", "Outcome", "Pending", "Reject",
    "Rejection", "State", "all_games", "clone", "get_game", "register", "visible_to",
]
