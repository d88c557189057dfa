"""The referee's own notices at a table: a moderator's rollback, ruling or cancellation, a dispute raised or
decided (naming who did it and why), and where to check the revealed seed.  Shared by the terminal and Discord (bot/render/text.py).

People are named by their user key: a Discord user as a mention, which Discord shows as their name and
which notifies nobody unless the message allows that user (the bot allows no one by default); a terminal
user by name.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Mapping, Sequence

from bot.i18n import has, t
from bot.render.deadlines import deadline

DISCORD_PREFIX = "discord:"
TERMINAL_PREFIX = "cli:"
#: the front ends, for the one thing that differs in these notices: the command that checks a table
FRONTS = ("terminal", "discord")
#: the referee's markers on a moderator's step settling a dispute (bot/referee/disputes.py)
DISPUTE_EVENTS = ("amended", "upheld")


def person(user_key: str | None, locale: str) -> str:
    """Who acted, from their user key."""
    key = str(user_key or "")
    if key.startswith(DISCORD_PREFIX) and key[len(DISCORD_PREFIX):].isdigit():
        return f"<@{key[len(DISCORD_PREFIX):]}>"
    if key.startswith(TERMINAL_PREFIX) and len(key) > len(TERMINAL_PREFIX):
        return key[len(TERMINAL_PREFIX):]
    if is_referee(key):
        return t("notice.referee", locale)
    return key


def is_referee(user_key: str | None) -> bool:
    """The referee's own steps (a window preference's pass too), named in the reader's language."""
    return str(user_key or "") in ("", "system", "auto", "preference")


def _reason(text: Any) -> str:
    """A reason on one line (a notice is one line: a thread's short post may keep only its first)."""
    return " ".join(str(text).split()) if text else "—"


def paused_line(table: Any, locale: str, front: str, *, now: float | None = None) -> str:
    """Who paused the table, since when and why (bot/referee/moderation.py pause): the terminal's status and
    Discord's live message and /table status, in place of deadlines that each move on by the pause's length."""
    return t("core.paused", locale, who=person(table.paused_by, locale),
             when=deadline(table.paused_at, locale, front, now=now), reason=_reason(table.paused_reason))


def rollback_line(data: Mapping[str, Any], locale: str) -> str:
    """A rollback as the table hears of it: to which move, by whom, why.  A rollback recorded before moves
    were numbered names its version, as it did then."""
    if not isinstance(data.get("move"), int):
        return t("core.msg.rollback", locale, to=data.get("to"), reason=_reason(data.get("reason")))
    key = "notice.rollback_start" if data["move"] == 0 else "notice.rollback"
    return t(key, locale, move=data["move"], who=person(data.get("by"), locale), reason=_reason(data.get("reason")))


def ruling_line(payload: Mapping[str, Any], table_id: int, locale: str) -> str:
    if "by" not in payload:
        return t("core.msg.ruling", locale, table=table_id, text=payload["text"])
    return t("notice.ruling", locale, table=table_id, who=person(payload["by"], locale), text=payload["text"])


def cancelled_line(payload: Mapping[str, Any], table_id: int, locale: str) -> str:
    if "by" not in payload:
        return t("core.msg.cancelled", locale, table=table_id)
    who = person(payload["by"], locale)
    if payload.get("reason"):
        return t("notice.cancelled_reason", locale, table=table_id, who=who, reason=_reason(payload["reason"]))
    return t("notice.cancelled", locale, table=table_id, who=who)


def dispute_line(payload: Mapping[str, Any], locale: str) -> str:
    """A ``dispute`` message of the outbox: a dispute raised, or decided (with the server note it left)."""
    d = payload["dispute"]
    who = person(d.get("by"), locale)
    if d["event"] == "raised":
        if d.get("text") is None:
            return t("disputes.notice.raised_private", locale, who=who, move=d["move"], id=d["id"])
        return t("disputes.notice.raised", locale, who=who, move=d["move"], id=d["id"], text=d["text"])
    key = d["kind"] if d["kind"] in ("reject", "amend") else d.get("mode") or "rollback"
    line = t(f"disputes.notice.{key}", locale, id=d["id"], move=d["move"], who=who, reason=d["reason"])
    if d.get("note"):
        line += "\n" + t("disputes.notice.note", locale, rule=d["note"], text=d["reason"])
    return line


def dispute_event_line(event: Mapping[str, Any], locale: str) -> str:
    """The referee's marker on a moderator's step of a dispute (a correction, a game's own upholding step)."""
    d = event["data"]
    return t(f"disputes.ev.{event['kind']}", locale, who=person(d.get("by"), locale), id=d.get("dispute"))


def seed_line(seed: Any, table_id: int, locale: str, front: str = "terminal") -> str:
    """The revealed seed and how to check the table with it: at the terminal its command, in Discord the
    slash command."""
    key = "notice.seed_revealed_discord" if front == "discord" else "core.msg.seed_revealed"
    return t(key, locale, seed=seed, table=table_id)


def when(at: float, front: str) -> str:
    """A moment as its reader sees it: Discord timestamps, the date and time then how far off (each reader's own
    time zone and language), else UTC."""
    if front == "discord":
        return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def clock_line(payload: Mapping[str, Any], names: Sequence[str], locale: str, front: str) -> str:
    """A time-control or pause notice (bot/referee/timekeeper.py, bot/referee/moderation.py pause/resume)."""
    what = payload["what"]
    if what == "paused":
        return t("clock.notice.paused", locale, who=person(payload.get("by"), locale), reason=_reason(payload.get("reason")))
    if what == "resumed":  # a notice without "timed" (written before it was stored) claims no deadline
        key = "clock.notice.resumed" if payload.get("timed") else "clock.notice.resumed_untimed"
        return t(key, locale, who=person(payload.get("by"), locale), minutes=round((payload.get("paused") or 0) / 60))
    players = ", ".join(names[s] for s in payload.get("seats") or [] if 0 <= s < len(names))
    if what == "vacation":
        return t("clock.notice.vacation", locale, players=players, until=when(payload["until"], front))
    return t(f"clock.notice.{'zombie' if what == 'zombie' else 'expired'}", locale, players=players)


def clock_setting(time_control: Mapping[str, Any] | None, locale: str) -> str:
    """A table's time control in words, for its lobby and the terminal: "48 ч на решение; когда время выйдет,
    место займёт бот" (docs/tournaments.md "Time control"); "нет" without one."""
    if not time_control:
        return t("clock.setting.off", locale)
    return t("clock.setting.value", locale, hours=f"{time_control['move'] / 3600:g}",
             expiry=t(f"clock.setting.expiry.{time_control['expiry']}", locale))


def options_text(game_name: str, options: Mapping[str, Any], locale: str) -> str:
    """A table's options on one line, each by its localised label and value (what an upgrade shows)."""
    from bot.i18n import has

    parts = []
    for name, value in options.items():
        label = t(f"{game_name}.option.{name}", locale) if has(f"{game_name}.option.{name}") else name
        label = label.split(" (", 1)[0]
        if isinstance(value, bool):
            shown = t("discord.yes" if value else "discord.no", locale)
        elif has(f"{game_name}.option.{name}.{value}"):
            shown = t(f"{game_name}.option.{name}.{value}", locale).split(" (", 1)[0]
        else:
            shown = str(value)
        parts.append(f"{label}: {shown}")
    return "; ".join(parts)


def upgrade_line(data: Mapping[str, Any], game_name: str, locale: str, *, options: bool = True) -> str:
    """An upgrade step as the table hears of it (bot/referee/upgrade.py): the release, the rules versions and (in the
    announcement) the options the table now plays by and the fingerprint of the record before it."""
    lines = [t("upgrade.notice", locale, release=data.get("release") or "?", found=data.get("from"),
               to=data.get("to"))]
    if options and isinstance(data.get("options"), Mapping):
        lines.append(t("upgrade.options", locale, options=options_text(game_name, data["options"], locale)))
    if data.get("chain"):
        lines.append(t("upgrade.chain", locale, chain=str(data["chain"])[:16]))
    return "\n".join(lines)


def frozen_reason(frozen: Mapping[str, Any], *, detail: bool) -> tuple[str, dict[str, Any]]:
    """Why a table is frozen, as (key, params) (bot/referee/upgrade.py).  Its players (``detail`` False) get the
    reason without what it quotes from the record or an error (a key's name, an exception's words: the state
    holds hidden cards); a moderator gets it whole."""
    key = str(frozen.get("key") or "upgrade.cannot.error")
    if not has(key):
        return "upgrade.cannot.error", {}
    if not detail and has(key + ".players"):
        return key + ".players", {}
    return key, dict(frozen.get("params") or {})


def frozen_line(payload: Mapping[str, Any], table_id: int, locale: str, *, detail: bool = True) -> str:
    """The notice of a table this release cannot continue (bot/referee/upgrade.py): at the table without the
    detail (``detail`` False), in a moderator's list with it."""
    key, params = frozen_reason(payload, detail=detail)
    return t("upgrade.frozen", locale, table=table_id, why=t(key, locale, **params))


def versions_line(release: str | None, started: int | None, rules: int, locale: str) -> str:
    """What a table was started under and plays by now (``table status``, /table verify, a dispute's evidence)."""
    return t("upgrade.versions", locale, release=release or t("upgrade.unrecorded", locale),
             started=started if started is not None else 1, rules=rules)
