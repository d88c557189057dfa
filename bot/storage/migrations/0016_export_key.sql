-- The key of the pseudonymous player ids in a tournament's public export (bot/tournament/audit.py,
-- docs/tournaments.md "The auditor's export"): an HMAC of the user id under this key, so an id is the same in
-- every export of this database and cannot be turned back into a Discord id without the key, which never leaves
-- the database.  Drawn once, here.
CREATE TABLE export_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB    NOT NULL
);
INSERT INTO export_key (id, key) VALUES (1, randomblob(32));
