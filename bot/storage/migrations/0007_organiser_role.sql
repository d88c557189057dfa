-- Tournaments on Discord (docs/tournaments.md): a server's organiser role, whose members create and run
-- tournaments there (moderators always may).

ALTER TABLE guilds ADD COLUMN organiser_role TEXT;
