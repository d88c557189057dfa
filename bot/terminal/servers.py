"""``python -m bot server GUILD [--moderator-role ROLE] [--notice-channel CHANNEL] [--organiser-role ROLE]
[--public on|off]``: a Discord server's settings from the terminal, as ``/settings`` sets them (``-`` clears one);
without an option, the settings are shown.  ``--public off`` takes the server's tables and tournaments off the
public pages (docs/web.md).  The notice channel is where the server's moderators are told of a new dispute or a
stopped table (bot/discord/moderators.py); ``python -m bot mod dispute`` lists the open disputes."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.i18n import t
from bot.storage.store import Store
from bot.terminal.common import EXIT_OK, UsageError

FIELDS = {"moderator_role": "--moderator-role", "notice_channel": "--notice-channel",
          "organiser_role": "--organiser-role"}


def add_parser(sub: Any) -> None:
    s = sub.add_parser("server", help="a Discord server's settings: moderator role, moderators' notice channel")
    s.add_argument("guild", help="the server's id")
    s.add_argument("--moderator-role", help="the role (id or name) whose members moderate tables; - clears it")
    s.add_argument("--notice-channel", help="the channel id where moderators are told of new disputes and "
                                            "stopped tables (else by DM to the moderators); - clears it")
    s.add_argument("--organiser-role", help="the role whose members run tournaments; - clears it")
    s.add_argument("--public", choices=("on", "off"),
                   help="whether the server's tables and tournaments are on the public pages (on by default)")
    s.set_defaults(func=cmd_server)


async def cmd_server(args: argparse.Namespace, settings: Any) -> int:
    locale = args.locale or settings.locale
    guild = args.guild.strip()
    if not guild.isdigit() or len(guild) > 20:
        raise UsageError(t("core.cli.server_id", locale, value=guild[:40]))
    changes: dict[str, str | None] = {}
    for field in FIELDS:
        value = getattr(args, field)
        if value is None:
            continue
        value = value.strip()
        if field == "notice_channel" and value != "-" and (not value.isdigit() or len(value) > 20):
            raise UsageError(t("core.cli.channel_id", locale, value=value[:40]))
        changes[field] = None if value in ("-", "") else value[:100]
    fields: dict[str, Any] = dict(changes)
    if args.public is not None:
        fields["public"] = int(args.public == "on")
    store = await Store.open(settings.database)
    try:
        if fields:
            await store.set_guild(guild, **fields)
        row = await store.guild(guild)
    finally:
        await store.close()
    for field in FIELDS:
        sys.stdout.write(t(f"core.cli.server.{field}", locale, value=row.get(field) or "—") + "\n")
    sys.stdout.write(t(f"core.cli.server.public.{'on' if row.get('public', 1) else 'off'}", locale) + "\n")
    return EXIT_OK
