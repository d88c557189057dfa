-- Moderators are told of a new dispute and of a frozen table (docs/discord.md, "Moderators are told").
-- notice_channel: the channel of a server where those notices are posted (the moderator role mentioned);
-- without one, they go by DM to the moderators the bot has seen act there (guild_moderators): Discord does not
-- list a role's members to a bot without the privileged Server Members intent, which the bot does not ask for.
ALTER TABLE guilds ADD COLUMN notice_channel TEXT;

CREATE TABLE guild_moderators (
    guild_id TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    seen_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
