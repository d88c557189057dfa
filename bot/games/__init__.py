"""Game engines.  Each module listed here registers one game when imported."""

GAME_MODULES: tuple[str, ...] = (
    "bot.games.gwent",
    "bot.games.bloodwood",
    "bot.games.claygod",
    "bot.games.bridges",
    "bot.games.raiders",
)
