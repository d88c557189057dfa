"""Raiders' rules versions (bot/engine/versions.py).  Still version 1: from the game's first commit (2026-11-24
05:37, 3d98622) to 2026-11-27 neither its stored state nor its options changed (``git log -p --
bot/games/raiders``; 1bbc046 changed only which moves the referee takes for a player, not what is stored), so
an unversioned Raiders state is already today's.  The first change to either raises ``rules_version`` to 2 with
its migration here.
"""
MIGRATIONS = ()
