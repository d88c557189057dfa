"""A deadline as its reader should read it (issue 27): absolute *and* relative — "до 28 ноября, 14:00 (через 2 дня)"
— in every language.  The relative part alone read "Решить до через 10 секунд" ("decide by in 10 seconds").

In Discord both parts are Discord timestamps (``<t:UNIX:f>``: a short date and time, ``<t:UNIX:R>``: a relative
time; docs/discord.md "Deadlines"), which each client renders in its reader's own language and time zone.  The
terminal gets plain text in UTC, the month in the genitive where the language needs it.
"""
from __future__ import annotations

from datetime import datetime, timezone

from bot.i18n import t

#: each unit's seconds, smallest first: a unit is used while the rounded count is under the next one's size in it
#: (59 seconds, 59 minutes, 47 hours), then days
_UNITS = ((1, "second", 60), (60, "minute", 60), (3600, "hour", 48), (86400, "day", None))


def moment(at: float, locale: str, *, now: float | None = None) -> str:
    """The date and time of ``at`` in UTC as a sentence says it: "28 ноября, 14:00 UTC" (the year added when it is
    not ``now``'s)."""
    when = datetime.fromtimestamp(at, timezone.utc)
    year = f" {when.year}" if now is None or datetime.fromtimestamp(now, timezone.utc).year != when.year else ""
    return t("deadline.moment", locale, day=when.day, month=t(f"deadline.month.{when.month}", locale), year=year,
             time=when.strftime("%H:%M"))


def relative(at: float, now: float, locale: str) -> str:
    """How far ``at`` is from ``now``: "через 2 дня", "in 10 seconds", "3 години тому"."""
    left = at - now
    if abs(left) < 1:
        return t("deadline.now", locale)
    for size, unit, below in _UNITS:
        n = max(1, round(abs(left) / size))
        if below is None or n < below:
            return t(f"deadline.{'in' if left > 0 else 'ago'}", locale, amount=t(f"deadline.{unit}", locale, n=n))
    raise AssertionError("unreachable")


def deadline(at: float, locale: str, front: str, *, now: float | None = None) -> str:
    """The deadline ``at`` (wall time): "28 ноября, 14:00 UTC (через 2 дня)" at the terminal, from ``now``; in
    Discord the same as two timestamps, which each reader's client renders in their own time (``now`` unused)."""
    if front == "discord":
        return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"
    if now is None:
        raise ValueError("a deadline in plain text needs the time it is read at")
    return f"{moment(at, locale, now=now)} ({relative(at, now, locale)})"
