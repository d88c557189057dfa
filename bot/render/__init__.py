"""What a table looks like, as text (text.py: messages and boards' frame; notices.py, disputes.py, standings.py)
and as pictures (picture/).  Pure functions of views and rows.  May import the games (their boards), bot.engine,
bot.i18n; nothing of storage's writers, the referee, tournaments or the front ends above it
(docs/architecture.md)."""
