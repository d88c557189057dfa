"""Ratings per player, per game, per server, derived from the record with openskill (docs/ratings.md).

model.py     the openskill model, its fixed parameters and the displayed figure
outcomes.py  a finished table's outcome as openskill teams and ranks, or why it is not rated
derive.py    the finished tables read from the record, replayed in finish order into the cache tables
ratings.py   what front ends ask: sync, a table's changes, a profile, the leaderboard, rebuild
render.py    all of it as short text lines; seeding.py: a tournament's seeding by rating

May import storage, games (Bloodwood's roles), engine and i18n: it reads the record and never rules a table, so
nothing of the referee.  The tournament director (seeding), the Discord machinery and the front ends import it.
"""
