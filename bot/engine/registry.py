"""Which games exist.  A game module registers its engine instance with ``register``; the list of game
modules to import lives in bot/games/__init__.py so that adding a game is one line there."""
from __future__ import annotations

import importlib

from .contract import Game

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    if game.name in _GAMES and type(_GAMES[game.name]) is not type(game):
        raise ValueError(f"two games registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    from bot.games import GAME_MODULES

    for module in GAME_MODULES:
        importlib.import_module(module)
    _loaded = True


def get_game(name: str) -> Game:
    """The registered engine for ``name``; KeyError for an unknown game."""
    _load()
    return _GAMES[name]


def all_games() -> dict[str, Game]:
    _load()
    return dict(sorted(_GAMES.items()))
