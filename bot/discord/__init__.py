"""The Discord front end: thin over the referee service.

    locale        slash-command translations and the reply language
    render        text for Discord (lobby, table messages, private messages), within Discord's limits
    host          the protocol the modules below need from the running bot
    interactions  answering and refusing, finding the table an interaction means, moderator status
    components    persistent buttons and selects (restart-proof dynamic items)
    delivery      the outbox deliverer: posts, edits, DMs, archiving; idempotent on re-delivery
    client        the bot itself (JudgeBot), its start-up, clock and delivery worker; run_bot

Dependencies run down this list (client imports the rest, nothing imports client but cogs/ and the entry
point), so there is no import circle.  The slash commands live in cogs/.

May import the referee, tournaments, rendering, storage, the engines, bot.process and bot.i18n; nothing of the
terminal front end or of cogs/ (docs/architecture.md).
"""
