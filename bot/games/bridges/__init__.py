"""Bridges: Soul (shared/rules/bridges.md): a co-operative boss fight for 1+ players; the referee plays the bosses."""
from bot.engine import register

from .game import GAME, Bridges

register(GAME)

__all__ = ["GAME", "Bridges"]
