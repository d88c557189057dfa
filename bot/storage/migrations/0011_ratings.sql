-- Ratings (bot/ratings/, docs/ratings.md).  The record stays the only truth: the rows below are a cache derived
-- from the finished tables, recomputed in finish order from the earliest finish a change touched.
--
-- rated: a referee setting of the table (not a game option): 1 rated (the default), 0 casual.  Whether a rated
-- table really counts is decided when ratings are derived (a bot seat, a hot-seat player, no move: never).
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

-- A player may hide their profile from others; the leaderboard then leaves them out.
ALTER TABLE users ADD COLUMN profile_hidden INTEGER NOT NULL DEFAULT 0 CHECK (profile_hidden IN (0, 1));

-- One row per player of a rated finished table: the rating before and after it.  Derived; rebuilt at will.
CREATE TABLE rating_results (
    table_id     INTEGER NOT NULL,
    user_id      TEXT    NOT NULL,
    scope        TEXT    NOT NULL,             -- the Discord server, '' for the terminal's own
    game         TEXT    NOT NULL,
    finished_at  REAL    NOT NULL,
    seat         INTEGER NOT NULL,
    place        INTEGER NOT NULL,             -- 1 = won (or shared the first place)
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL,             -- rated games of this player in this game and scope, this one counted
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX rating_results_by_player ON rating_results (scope, game, user_id, finished_at, table_id);
CREATE INDEX rating_results_by_finish ON rating_results (finished_at, table_id);

-- Each player's rating now: the latest of their rating_results rows, kept for the leaderboard.
CREATE TABLE ratings (
    scope    TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    user_id  TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    shown    INTEGER NOT NULL,                 -- the displayed figure (bot/ratings/model.py)
    games    INTEGER NOT NULL,
    PRIMARY KEY (scope, game, user_id)
);
CREATE INDEX ratings_board ON ratings (scope, game, shown DESC);

-- Where the cache stops being true: every finish at or after dirty_from must be derived again (NULL: none).
-- Triggers below move it back whenever the record changes a finished table; model names the parameters the
-- cached figures were computed with (another model means deriving everything again).
CREATE TABLE rating_sync (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    dirty_from REAL,
    model      TEXT
);
INSERT INTO rating_sync (id, dirty_from, model) VALUES (1, -1e300, NULL);

-- A table finished, reopened by a rollback, settled again by a dispute, cancelled after its end, or set casual:
-- from the earlier of its old and new finish.
CREATE TRIGGER ratings_table_changed AFTER UPDATE OF status, outcome, finished_at, rated ON tables
WHEN OLD.status = 'finished' OR NEW.status = 'finished'
BEGIN
    UPDATE rating_sync SET dirty_from = min(
        coalesce(dirty_from, 1e300),
        coalesce(CASE WHEN OLD.status = 'finished' THEN OLD.finished_at END, 1e300),
        coalesce(CASE WHEN NEW.status = 'finished' THEN NEW.finished_at END, 1e300)) WHERE id = 1;
END;

-- A tournament game's result corrected by its organiser: from that table's finish.
CREATE TRIGGER ratings_tournament_game_changed AFTER UPDATE OF points, result, table_id ON tournament_games
BEGIN
    UPDATE rating_sync SET dirty_from = min(coalesce(dirty_from, 1e300), coalesce((SELECT finished_at FROM tables
        WHERE id IN (OLD.table_id, NEW.table_id) AND status = 'finished' ORDER BY finished_at LIMIT 1), 1e300))
    WHERE id = 1;
END;

-- A tournament's settings changed (its organiser switched rating off or on): from its first finished table.
CREATE TRIGGER ratings_tournament_changed AFTER UPDATE OF settings ON tournaments
BEGIN
    UPDATE rating_sync SET dirty_from = min(coalesce(dirty_from, 1e300), coalesce((SELECT min(t.finished_at)
        FROM tournament_games g JOIN tables t ON t.id = g.table_id
        WHERE g.tournament_id = NEW.id AND t.status = 'finished'), 1e300)) WHERE id = 1;
END;

-- the finished tables in finish order, from a point on (what a sync reads)
CREATE INDEX tables_by_finish ON tables (status, finished_at);
