"""Which games exist.  A game module registers its engine instance with ``register``; the list of game
modules to import is ``GAME_MODULES`` below (names, imported on first use), so that adding a game is one line
there and the engine layer imports nothing of the games above it."""
from __future__ import annotations

import importlib
from contextlib import contextmanager
from typing import Iterator

from .contract import CITE_GLOSSES, Game

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
    CITE_GLOSSES[game.name] = game.cite_text
    return game


def unregister(name: str) -> None:
    """Take a game out of the registry (a game a test defined, registered for that test alone)."""
    _load()  # a game of GAME_MODULES taken out stays out: loading later must not bring it back
    _GAMES.pop(name, None)
    CITE_GLOSSES.pop(name, None)


@contextmanager
def registered(game: Game) -> Iterator[Game]:
    """``game`` registered while the block runs, taken out after (a game defined only in a test)."""
    _load()
    if game.name in _GAMES:
        raise ValueError(f"a game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    CITE_GLOSSES[game.name] = game.cite_text
    try:
        yield game
    finally:
        _GAMES.pop(game.name, None)
        CITE_GLOSSES.pop(game.name, None)


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
