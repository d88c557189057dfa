"""The record on disk: SQLite (aiosqlite, WAL), numbered migrations, group commit, checkpoints; the tables, seats,
snapshots, events and the outbox (store.py) with its payloads filled from the record (outbox.py), seat clocks
(clocks.py) and tournaments (tournaments.py).  May import bot.engine (canonical JSON, the games through the
registry) and bot.i18n; nothing of the referee, rendering or Discord above it (docs/architecture.md)."""