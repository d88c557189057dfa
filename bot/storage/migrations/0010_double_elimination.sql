-- Double elimination (docs/tournaments.md, T-20): a fifth tournament format.  SQLite cannot change a CHECK
-- constraint in place, so the tournaments table is rebuilt with the same columns in the same order; the
-- foreign keys of entries, rounds, games and the log point at it by name and are checked at the commit
-- (defer_foreign_keys), when every tournament is back.

PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE tournaments_before AS SELECT * FROM tournaments;
DROP TABLE tournaments;
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    format      TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'elimination', 'double_elimination',
                                                   'multiseat')),
    status      TEXT    NOT NULL CHECK (status IN ('registration', 'running', 'finished', 'cancelled')),
    title       TEXT,
    creator     TEXT    NOT NULL,
    settings    TEXT    NOT NULL,             -- canonical JSON: rounds, points, deadlines, table size...
    options     TEXT    NOT NULL,             -- canonical JSON: the validated options of every table
    seed        TEXT    NOT NULL,             -- lots (pairing, tie-break) are drawn from it
    origin      TEXT    NOT NULL DEFAULT 'discord',
    locale      TEXT,
    guild_id    TEXT,
    channel_id  TEXT,                         -- where the round tables go (a text or a forum channel)
    message_id  TEXT,                         -- the registration message
    round       INTEGER NOT NULL DEFAULT 0,   -- the latest round paired
    created_at  REAL    NOT NULL,
    started_at  REAL,
    finished_at REAL
);
INSERT INTO tournaments SELECT * FROM tournaments_before;
DROP TABLE tournaments_before;
CREATE INDEX tournaments_by_status ON tournaments (status);
