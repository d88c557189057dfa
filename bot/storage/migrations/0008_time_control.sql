-- Time control and a moderator's pause (docs/tournaments.md "Time control", bot/referee/timecontrol.py).
--
-- A table's clock is wall time less the time it stood paused (paused_total): the engines are given that clock,
-- so a pause moves every running deadline on by its length without touching a state.  time_control is the
-- table's setting (JSON, NULL: none); seat_clocks holds, per seat, when its current decision began on the
-- table's clock, the reminders already enqueued for it, and its vacation.

ALTER TABLE tables ADD COLUMN time_control TEXT;
ALTER TABLE tables ADD COLUMN paused_at REAL;
ALTER TABLE tables ADD COLUMN paused_by TEXT;
ALTER TABLE tables ADD COLUMN paused_reason TEXT;
ALTER TABLE tables ADD COLUMN paused_total REAL NOT NULL DEFAULT 0;

CREATE TABLE seat_clocks (
    table_id   INTEGER NOT NULL REFERENCES tables(id),
    seat       INTEGER NOT NULL,
    since      REAL,                       -- the table's clock when the decision owed now began; NULL: owes none
    reminded   TEXT NOT NULL DEFAULT '[]', -- the reminders (seconds before the deadline) enqueued since then
    expired    INTEGER NOT NULL DEFAULT 0, -- the expiry was applied for this decision
    away_from  REAL,                       -- the latest vacation, on the table's clock
    away_until REAL,
    away_used  REAL NOT NULL DEFAULT 0,    -- seconds of the allowance taken
    PRIMARY KEY (table_id, seat)
);

-- the clock's own look-up: which timed tables changed since it last looked, or have something due
CREATE TABLE table_clocks (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    version  INTEGER,                      -- the table version the seat clocks were settled at
    next_at  REAL                          -- wall time of the next reminder or expiry; NULL: nothing running
);
CREATE INDEX table_clocks_next ON table_clocks(next_at);

-- A started table's seat may change in one way only: a bot takes it when its player's time ran out (the
-- expiry "zombie"); its number, user and name stay, so the game is still dealt for exactly its seats.
DROP TRIGGER seats_update_only_in_lobby;
CREATE TRIGGER seats_update_only_in_lobby BEFORE UPDATE ON seats
WHEN (SELECT status FROM tables WHERE id = OLD.table_id) IS NOT 'lobby'
 AND NOT (NEW.table_id = OLD.table_id AND NEW.seat = OLD.seat AND NEW.user_id IS OLD.user_id
          AND NEW.name IS OLD.name AND OLD.is_bot = 0 AND NEW.is_bot = 1)
BEGIN SELECT RAISE(ABORT, 'judge: seats change only in the lobby'); END;
