-- The messages a front end keeps editing for a table: its live table message (seat -1) and each player's
-- private control message (seat >= 0).  ``version`` is the table version the message shows; for the live
-- message ``posted`` is the version up to which the thread has had its short move posts, ``shows`` who was
-- asked in it (JSON: [[seat, kind, prompt], ...]).
CREATE TABLE panels (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    seat       INTEGER NOT NULL,
    channel_id TEXT    NOT NULL,
    message_id TEXT    NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0,
    posted     INTEGER NOT NULL DEFAULT 0,
    shows      TEXT    NOT NULL DEFAULT '',    -- what a control message asks (kind and prompt), '' if nothing
    PRIMARY KEY (table_id, seat)
);

-- A referee setting of the table, not a game option: take a decision that has a single legal move at once.
ALTER TABLE tables ADD COLUMN auto_forced INTEGER NOT NULL DEFAULT 1 CHECK (auto_forced IN (0, 1));

-- When a player wants to be pinged: 'turn' (when a decision becomes theirs), 'every' (every new decision,
-- never right after their own click), 'never'.
ALTER TABLE users ADD COLUMN pings TEXT NOT NULL DEFAULT 'turn' CHECK (pings IN ('turn', 'every', 'never'));
