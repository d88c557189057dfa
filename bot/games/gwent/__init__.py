"""Gwent, the forum version with a judge (shared/rules/gwent-forum.txt): standard and HardGwent."""
from bot.engine import register

from .game import GAME, Gwent

register(GAME)

__all__ = ["GAME", "Gwent"]
