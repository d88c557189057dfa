-- How a player's out-of-turn windows are answered for them (issue 35, docs/discord.md "Window preferences"): a
-- referee setting of the player's, not game state.  table_id 0: the player's own default at every table; a row
-- for a table overrides it there.  mode: 'ask' (asked, as before), 'after' (the referee passes for them
-- ``hours`` after a window asks them, plus a delay drawn from the table's secret seed), 'held' (as 'after',
-- and a window they hold no answer to is neither shown nor pinged to them).
CREATE TABLE window_preferences (
    user_id  TEXT    NOT NULL,
    table_id INTEGER NOT NULL DEFAULT 0,
    mode     TEXT    NOT NULL CHECK (mode IN ('ask', 'after', 'held')),
    hours    REAL,
    PRIMARY KEY (user_id, table_id)
);
