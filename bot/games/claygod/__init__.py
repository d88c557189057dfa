"""Clay God: Cards (Глиняный БОГ: Карты), shared/rules/claygod.md: two mages, seven dice each, 74 spells."""
from bot.engine import register

from .game import GAME, ClayGod

register(GAME)

__all__ = ["GAME", "ClayGod"]
