-- A move is disputed once per player (bot/referee/disputes.py): held by the database, not only by a read before
-- the write, so that a repeat raised by one process while another settles the first cannot get in.  The key is
-- the move's table version (public move numbers are reused after a rollback; versions never are).
--
-- A database of an older release may already hold such repeats (the race this closes).  They are kept — the
-- record never loses a complaint or its decision — marked ``repeat_of`` the first one's id, and left out of the
-- constraint; no new row may be marked so (the triggers below).
ALTER TABLE disputes ADD COLUMN repeat_of INTEGER REFERENCES disputes (id);

UPDATE disputes SET repeat_of = (
    SELECT MIN(first.id) FROM disputes AS first
     WHERE first.table_id = disputes.table_id AND first.user_id = disputes.user_id AND first.version = disputes.version)
 WHERE id > (
    SELECT MIN(first.id) FROM disputes AS first
     WHERE first.table_id = disputes.table_id AND first.user_id = disputes.user_id AND first.version = disputes.version);

CREATE UNIQUE INDEX disputes_once ON disputes (table_id, user_id, version) WHERE repeat_of IS NULL;

CREATE TRIGGER disputes_no_new_repeat BEFORE INSERT ON disputes WHEN NEW.repeat_of IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'judge: a move is disputed once per player');
END;

CREATE TRIGGER disputes_repeat_fixed BEFORE UPDATE OF repeat_of ON disputes
BEGIN
    SELECT RAISE(ABORT, 'judge: a move is disputed once per player');
END;
