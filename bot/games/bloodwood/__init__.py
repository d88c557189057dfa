"""Bloodwood (shared/rules/bloodwood.txt): vampires against werewolves, 5-12 players, hidden roles."""
from bot.engine import register

from .game import GAME, Bloodwood

register(GAME)

__all__ = ["GAME", "Bloodwood"]
