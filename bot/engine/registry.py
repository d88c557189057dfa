"""Which games exist.  A game module registers its engine instance with ``register``; the list of game
modules to import is ``GAME_MODULES`` below (names, imported on first use), so that adding a game is one line
there and the engine layer imports nothing of the games above it."""
from __future__ import annotations

import importlib

from .contract import Game

GAME_MODULES: tuple[str, ...] = (
    "bot.games.gwent",
    "bot.games.bloodwood",
    "bot.games.claygod",
    "bot.games.bridges",
    "bot.games.raiders",
)

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
