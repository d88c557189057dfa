"""Raiders (Рейдеры), shared/rules/raiders.txt: two decks, captures, guards, trumps and шняги played by
everyone in an interrupt window until all pass.  The cards are a deck file (data/raiders/decks/)."""
from bot.engine import register

from .game import GAME, Raiders

register(GAME)

__all__ = ["GAME", "Raiders"]
