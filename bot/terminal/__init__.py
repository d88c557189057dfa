"""The terminal front end, ``python -m bot``: everything a Discord user can do, from a shell.  cli.py builds the
parser and runs a command; one module per command family (play.py: demo, play, scenario; records.py: export,
verify, replay, picture; tables.py; moderation.py; disputes.py; tournaments.py) and their shared helpers
(common.py); session.py prints a table's messages and runs the play loop and the demo; scenario.py runs a
scenario file.

May import every layer below it (the referee, tournaments, rendering, storage, engines, bot.process,
bot.i18n) and bot.discord, to start the bot (``run``); nothing of cogs/ (docs/architecture.md).
"""
