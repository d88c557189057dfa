"""Pure game engines' common ground: the shared contract, the seeded random source, the registry, catalogue
loading, canonical JSON, the text a board is made of (board_text.py).  May import bot.i18n and bot.process only
(docs/architecture.md): nothing of the games (the registry names them), storage, the referee or Discord."""
from .contract import (PUBLIC, RATING_KINDS, RECORD, Action, Applied, Code, Ctx, Game, GameFacts, Option, Outcome,
                       Pending, Reject, Rejection, State, clone, visible_to)
from .registry import all_games, get_game, register

__all__ = [
    "PUBLIC", "RATING_KINDS", "RECORD", "Action", "Applied", "Code", "Ctx", "Game", "GameFacts", "Option", "Outcome",
    "Pending", "Reject", "Rejection", "State", "all_games", "clone", "get_game", "register", "visible_to",
]
