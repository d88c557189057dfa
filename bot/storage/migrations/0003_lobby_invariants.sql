-- Lobby invariants kept by the database itself, so that any number of processes sharing the file keep them
-- (the referee checks them too, inside its write transaction, to answer with a clear message).
-- Triggers rather than unique indexes: an index would refuse to build on a database that already holds a
-- duplicate from before this migration, and that database must still open.

-- A seat row changes only while its table is in the lobby: a started game was dealt for exactly its seats.
CREATE TRIGGER seats_insert_only_in_lobby BEFORE INSERT ON seats
WHEN (SELECT status FROM tables WHERE id = NEW.table_id) IS NOT 'lobby'
BEGIN SELECT RAISE(ABORT, 'judge: seats change only in the lobby'); END;

CREATE TRIGGER seats_delete_only_in_lobby BEFORE DELETE ON seats
WHEN (SELECT status FROM tables WHERE id = OLD.table_id) IS NOT 'lobby'
BEGIN SELECT RAISE(ABORT, 'judge: seats change only in the lobby'); END;

CREATE TRIGGER seats_update_only_in_lobby BEFORE UPDATE ON seats
WHEN (SELECT status FROM tables WHERE id = OLD.table_id) IS NOT 'lobby'
BEGIN SELECT RAISE(ABORT, 'judge: seats change only in the lobby'); END;

-- The most seats the game takes, copied from the engine when the table is created (NULL on older rows).
ALTER TABLE tables ADD COLUMN max_seats INTEGER CHECK (max_seats IS NULL OR max_seats >= 1);

CREATE TRIGGER seats_not_over_max BEFORE INSERT ON seats
WHEN (SELECT COUNT(*) FROM seats WHERE table_id = NEW.table_id)
     >= COALESCE((SELECT max_seats FROM tables WHERE id = NEW.table_id), 1000000)
BEGIN SELECT RAISE(ABORT, 'judge: the table is full'); END;

-- One seat per person, but for the extra seats of a hot-seat game at one terminal (marked hotseat = 1).
ALTER TABLE seats ADD COLUMN hotseat INTEGER NOT NULL DEFAULT 0 CHECK (hotseat IN (0, 1));

CREATE TRIGGER seats_one_per_user BEFORE INSERT ON seats
WHEN NEW.hotseat = 0 AND EXISTS (SELECT 1 FROM seats WHERE table_id = NEW.table_id AND user_id = NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'judge: already seated at this table'); END;

-- Seat numbers run 0..n-1 without gaps when a seat is added.
CREATE TRIGGER seats_numbered_in_order BEFORE INSERT ON seats
WHEN NEW.seat != (SELECT COUNT(*) FROM seats WHERE table_id = NEW.table_id)
BEGIN SELECT RAISE(ABORT, 'judge: seats are numbered in order'); END;

-- A game that started has its seats: the status leaves the lobby only with at least one seat.
CREATE TRIGGER tables_start_with_seats BEFORE UPDATE OF status ON tables
WHEN OLD.status = 'lobby' AND NEW.status = 'active'
     AND NOT EXISTS (SELECT 1 FROM seats WHERE table_id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'judge: a table starts only with seats'); END;

-- Who is open where, for the per-user and per-server limits on open tables.
CREATE INDEX tables_by_creator ON tables (creator, status);
CREATE INDEX tables_by_guild ON tables (guild_id, status);
