-- Disputes (bot/referee/disputes.py): a player names a move by its public number and says what is wrong; a moderator
-- upholds, rejects or amends it with a reason.  The moderator's steps on the table (a rollback, a correction,
-- a game's own settlement) are ordinary actions of seat -1 in ``actions``, so replay and verification see them;
-- this table ties the complaint to the decision and to the versions those steps produced.
CREATE TABLE disputes (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    user_id    TEXT    NOT NULL,                 -- who raised it
    seat       INTEGER NOT NULL,                 -- their seat (the first, for a hot-seat player)
    move       INTEGER NOT NULL CHECK (move >= 1), -- the public move number disputed
    version    INTEGER NOT NULL,                 -- the table version that move produced
    text       TEXT    NOT NULL,
    private    INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),  -- the table is not told the text
    status     TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'rejected', 'amended')),
    raised_at  REAL    NOT NULL,
    moderator  TEXT,
    reason     TEXT,
    decision   TEXT,                             -- canonical JSON: how it was settled (mode, versions, correction)
    decided_at REAL
);
CREATE INDEX disputes_by_table ON disputes (table_id, status);
CREATE INDEX disputes_open ON disputes (status, id);

-- How long after a move it may be disputed: 'next_move' (until the disputing player's next move, the Raiders
-- rule book's «до следующего хода»), 'off', or a number of moves as text ('3').
ALTER TABLE tables ADD COLUMN dispute_window TEXT NOT NULL DEFAULT 'next_move';

-- A moderator's ruling that outlives its table: "GW-11 on this server: ...", shown whenever the rule is cited
-- there again.  guild_id '' holds the notes of tables with no server (the terminal).
CREATE TABLE server_rulings (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT    NOT NULL,
    rule       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    moderator  TEXT    NOT NULL,
    dispute_id INTEGER REFERENCES disputes (id),
    at         REAL    NOT NULL
);
CREATE INDEX server_rulings_by_rule ON server_rulings (guild_id, rule);
