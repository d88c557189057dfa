-- Upgrades (docs/operations.md "Upgrading a running bot", bot/engine/versions.py, bot/referee/upgrade.py).
--
-- release        the project's release that started the table (bot.process.config.RELEASE); NULL: started before this
--                migration, by a release that did not record it
-- started_rules  the game's rules version the table was started under; NULL: before this migration (version 1)
-- rules_version  the rules version of the table's latest state (of its options, for a lobby): 1 for every row
--                written before this migration; an upgrade step moves it on
-- frozen         JSON, NULL unless this release cannot play the table (a state no migration brings forward):
--                why, for the players' and moderators' message; actions are refused while it is set
ALTER TABLE tables ADD COLUMN release TEXT;
ALTER TABLE tables ADD COLUMN started_rules INTEGER;
ALTER TABLE tables ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tables ADD COLUMN frozen TEXT;
