"""Free text as the referee takes it: the cleaning and the limits live in the engine layer
(bot/engine/free_text.py), where the storage layer also applies them to what it reads back."""
from bot.engine.free_text import NAME_MAX, TEXT_LINES, TEXT_MAX, TITLE_MAX, clean_name, clean_text

__all__ = ["NAME_MAX", "TEXT_LINES", "TEXT_MAX", "TITLE_MAX", "clean_name", "clean_text"]
