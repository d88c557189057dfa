"""The Discord slash commands, one cog per family (lobby, play, moderation, disputes, tournament), each command
begun by bot/discord/interactions.py ``begin``.  The top of the Discord side: may import bot.discord and every
layer below it; nothing imports a cog (the client loads them by name; docs/architecture.md)."""
