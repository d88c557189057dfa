"""Judge: a Discord bot that referees tabletop games.

``RELEASE`` names this release of the project.  Every table records the release it was started under (and
each game's rules version, ``Game.rules_version``): raise it when a release is cut (docs/operations.md,
"Upgrading a running bot").  It is a constant, not ``git describe``, so that a copy installed from a tarball
without ``.git`` records the same name.
"""

RELEASE = "2026.11.27"


def release() -> str:
    """The release this code is (what a table started now records)."""
    return RELEASE
