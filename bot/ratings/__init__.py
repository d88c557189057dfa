"""Ratings per player, per game, per server, derived from the record with openskill (docs/ratings.md).

model.py     the openskill model, its fixed parameters and the displayed figure
outcomes.py  a finished table's outcome as openskill teams and ranks, or why it is not rated
derive.py    the finished tables read from the record, replayed in finish order into the cache tables
ratings.py   what front ends ask: sync, a table's changes, a profile, the leaderboard, rebuild
"""
