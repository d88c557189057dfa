-- The previous message of a table (to retire the buttons of a superseded turn message) is looked up by
-- table, target and status; without this index that query scans every table's sent messages.
CREATE INDEX outbox_by_table ON outbox (table_id, target, status, id);
