"""Tournaments: the director (rounds, tables through the referee, deadlines), pairing and standings.  May import
the referee (bot.referee), rendering, storage, the engines and bot.i18n; nothing of the front ends (the terminal's
``tournament`` command is bot/terminal/tournaments.py, Discord's bot/discord/tournaments.py; docs/architecture.md)."""
