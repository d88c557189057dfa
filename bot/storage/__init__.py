"""The record on disk: SQLite (aiosqlite, WAL), numbered migrations, group commit, checkpoints.  Every query of
the bot lives here (tests/storage/test_storage_door.py); the layers above call these public, typed functions.
``Store`` (store.py) is one façade over its queries by job: tables, seats and the game record (tables.py),
disputes (disputes.py), the outbox's rows, stored lean (outbox.py), people and servers (people.py), over one
machinery (base.py), with the rows (rows.py), their packing (packing.py) and a step's rows (steprows.py) beside
it.  Beside the store: seat clocks (clocks.py), tournaments (tournaments.py), ratings (ratings.py), upgrades
(upgrades.py), an audit's facts (audit.py), the operator's figures (operations.py), backups (backup.py).  May import bot.engine (canonical JSON, the games through the
registry) and bot.i18n; nothing of the referee, rendering or Discord above it (docs/architecture.md)."""
