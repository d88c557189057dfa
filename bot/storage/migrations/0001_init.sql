-- The record of every table.  Append-only where it matters: actions, snapshots and events are never
-- updated; a moderator's rollback appends a moderation row and new actions, it does not rewrite history.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options       TEXT    NOT NULL,            -- canonical JSON, validated options
    seed          TEXT,                        -- secret until the table ends
    seed_hash     TEXT,                        -- published at start
    stack         TEXT,                        -- canonical JSON of a moderator's stacking, NULL if none
    version       INTEGER NOT NULL DEFAULT 0,
    next_deadline REAL,                        -- earliest pending deadline, for the timeout clock
    origin        TEXT    NOT NULL DEFAULT 'discord',  -- discord | terminal | demo
    creator       TEXT    NOT NULL,
    title         TEXT,
    locale        TEXT,
    guild_id      TEXT,
    channel_id    TEXT,
    thread_id     TEXT,
    outcome       TEXT,                        -- canonical JSON when finished
    created_at    REAL    NOT NULL,
    started_at    REAL,
    finished_at   REAL
);
CREATE INDEX tables_by_status ON tables (status, next_deadline);
CREATE INDEX tables_by_channel ON tables (channel_id, status);
CREATE INDEX tables_by_thread ON tables (thread_id);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seat      INTEGER NOT NULL,
    user_id   TEXT    NOT NULL,                -- "discord:<id>", "cli:<name>", "bot:<n>"
    name      TEXT    NOT NULL,
    is_bot    INTEGER NOT NULL DEFAULT 0,
    joined_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    version  INTEGER NOT NULL,                 -- the table version this action produced (1, 2, ...)
    seat     INTEGER NOT NULL,
    user_id  TEXT    NOT NULL,                 -- who clicked; "system" for timeouts
    action   TEXT    NOT NULL,                 -- canonical JSON
    at       REAL    NOT NULL,                 -- the "now" the engine applied it at
    PRIMARY KEY (table_id, version)
);

CREATE TABLE snapshots (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    version  INTEGER NOT NULL,                 -- 0 = the initial state
    state    TEXT    NOT NULL,                 -- canonical JSON
    PRIMARY KEY (table_id, version)
);

CREATE TABLE events (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    version    INTEGER NOT NULL,
    idx        INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    visible_to TEXT,                           -- NULL = public, else JSON list of seats ([] = record only)
    data       TEXT    NOT NULL,
    PRIMARY KEY (table_id, version, idx)
);

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    version     INTEGER NOT NULL,
    target      TEXT    NOT NULL CHECK (target IN ('table', 'seat')),
    seat        INTEGER,
    kind        TEXT    NOT NULL,              -- start | update | private | finish | notice
    payload     TEXT    NOT NULL,              -- canonical JSON, rendered per locale at delivery
    status      TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    external_id TEXT,                          -- e.g. the Discord message id once sent
    created_at  REAL    NOT NULL,
    sent_at     REAL
);
CREATE INDEX outbox_pending ON outbox (status, id);

CREATE TABLE moderation (
    id        INTEGER PRIMARY KEY,
    table_id  INTEGER REFERENCES tables (id),
    moderator TEXT    NOT NULL,
    action    TEXT    NOT NULL,
    reason    TEXT,
    data      TEXT,
    at        REAL    NOT NULL
);

CREATE TABLE users (
    user_id   TEXT PRIMARY KEY,
    locale    TEXT,
    dm_closed INTEGER NOT NULL DEFAULT 0,      -- Discord said 50007: do not try DMs again until reopened
    dm_notice INTEGER NOT NULL DEFAULT 0       -- the player has been told once
);

CREATE TABLE guilds (
    guild_id       TEXT PRIMARY KEY,
    locale         TEXT,
    moderator_role TEXT
);
