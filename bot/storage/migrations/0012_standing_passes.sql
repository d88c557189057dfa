-- A player's standing pass of every out-of-turn window of one turn (issue 27, docs/discord.md "Windows cost
-- nothing"): a referee setting per seat, not game state.  While the table's turn is ``turn`` (the game's
-- Game.turn_key, canonical JSON), the referee answers each window asked of the seat with the game's pass,
-- recorded as the seat's own action; a later turn asks the seat again.
CREATE TABLE standing_passes (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat     INTEGER NOT NULL,
    turn     TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
