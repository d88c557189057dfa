-- Tournaments (docs/tournaments.md): entries, rounds, the games of each round and the organiser's record.
-- A round's games are written in one transaction with the round, before any table exists; each game then
-- gets its table (table_id), found again by its title if a crash came between creating it and recording it.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    format      TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'elimination', 'multiseat')),
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
CREATE INDEX tournaments_by_status ON tournaments (status);

CREATE TABLE entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    is_bot        INTEGER NOT NULL DEFAULT 0,
    number        INTEGER NOT NULL,           -- order of entry, 1..n: the pairing number
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dropped', 'removed')),
    joined_round  INTEGER NOT NULL DEFAULT 0, -- 0 before the start, else the round already paired at entry
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    number        INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('playing', 'finished')),
    deadline      REAL,                       -- when unfinished tables are settled (NULL: no deadline)
    created_at    REAL    NOT NULL,
    finished_at   REAL,
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX rounds_by_deadline ON rounds (status, deadline);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,           -- 1, 2, ... in the round
    kind          TEXT    NOT NULL CHECK (kind IN ('table', 'bye', 'late')),
    players       TEXT    NOT NULL,           -- JSON list of user ids in seat order
    table_id      INTEGER REFERENCES tables (id),
    points        TEXT,                       -- JSON {user_id: points} once settled, NULL while playing
    result        TEXT,                       -- how it was settled: played | draw | forfeit | cancelled | bye | late | adjusted
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_games_by_table ON tournament_games (table_id);

CREATE TABLE tournament_log (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    by            TEXT    NOT NULL,
    action        TEXT    NOT NULL,           -- adjust | remove | drop | repair | cancel | expire ...
    reason        TEXT,
    data          TEXT,
    at            REAL    NOT NULL
);
