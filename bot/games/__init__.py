"""Game engines, one package per game (the list the registry imports: bot/engine/registry.py GAME_MODULES).
Pure: a game imports only bot.engine, bot.i18n and its own modules — no storage, no rendering layer, no Discord,
randomness only from the state's RNG (docs/architecture.md)."""
