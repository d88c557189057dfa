"""Time control for async play (docs/tournaments.md, "Time control"): the rules, as pure functions.

A table's time control is a referee setting given with its options (like ``auto_forced``): ``clock`` (the
time each decision may take: ``48h``, ``2d``, ``90m``; a bare number is hours), ``clock_expiry`` (what a
passed deadline does: ``forfeit``, ``zombie`` — a bot takes the seat — or ``moderator``), ``clock_remind``
(reminders before the deadline, ``24h,1h`` by default; ``off``) and ``vacation`` (the days each player may
take off the clock).  Stored as the table's ``time_control`` (seconds).

A table at correspondence pace (bot/engine/pace.py) that names no ``clock`` gets the default one (``defaulted``:
``DEFAULT_CLOCK`` per decision, a bot taking the seat when it runs out), written into what the table or the
tournament stores when it is created, so that a table or a tournament created before the default keeps none.

Every time here is on the *table's clock*: wall time less the seconds the table stood paused by a moderator
(``TableRow.paused_total``).  The engines are given that clock too, so a pause moves every deadline on by
its length, theirs and this one alike, and the record stays a plain re-run.  ``wall`` turns it back.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from bot.engine import Code, Rejection, clone
from bot.engine.pace import CORRESPONDENCE
from bot.storage.clocks import Clocks, SeatClock
from bot.storage.store import TableRow

SETTINGS = ("clock", "clock_expiry", "clock_remind", "vacation")
EXPIRY = ("forfeit", "zombie", "moderator")
DEFAULT_REMIND = (24 * 3600, 3600)
SHORTEST, LONGEST = 60, 30 * 86400          # a clock from one minute to thirty days per decision
MOST_VACATION_DAYS = 60
MOST_REMINDERS = 5
_UNITS = {"m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([mhd]?)\s*$")


#: a correspondence table's clock when none is given (docs/tournaments.md TC-7): two days per decision —
#: Lichess's correspondence offers 1–14 days per move, BGA's turn-based play counts moves per day with a bank
#: of days; a player who reads their DMs once a day at varying hours may miss one look and still be in time
DEFAULT_CLOCK = "48h"
#: what the default clock's passing does: a bot takes the seat and the game goes on (BGA's zombie), so that
#: nobody loses a casual game, nor does a whole table end, because one player stopped looking
DEFAULT_EXPIRY = "zombie"


def defaulted(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as a new table or tournament takes them: at correspondence pace without ``clock``, the default
    clock (its expiry ``zombie`` unless ``clock_expiry`` is given; ``clock=off`` keeps none).  Called where a
    table or a tournament is created, never where stored options are read back, so older ones keep no clock."""
    out = dict(options)
    if str(out.get("pace", "")).strip().lower() != CORRESPONDENCE or "clock" in out:
        return out
    out["clock"] = DEFAULT_CLOCK
    out.setdefault("clock_expiry", DEFAULT_EXPIRY)
    return out


def duration(raw: Any) -> float | None:
    """Seconds from ``48h`` / ``2d`` / ``90m`` / ``12`` (hours), or None when it is none of these."""
    if isinstance(raw, bool):
        return None
    found = _DURATION.match(str(raw).lower())
    if found is None:
        return None
    return float(found.group(1)) * _UNITS[found.group(2) or "h"]


def _bad(name: str, value: Any) -> Rejection:
    return Rejection(Code.BAD_OPTIONS, "clock.reject.bad_setting", {"name": name, "value": str(value)[:40]})


def parse(options: dict[str, Any]) -> dict[str, Any] | None | Rejection:
    """Take the time-control settings out of ``options`` (in place): the table's ``time_control``, None when
    it has no clock, or the refusal of a bad value."""
    raw = {k: options.pop(k) for k in SETTINGS if k in options}
    if str(raw.get("clock", "off")).strip().lower() in ("off", "0", "none", ""):
        return None if set(raw) <= {"clock"} else Rejection(Code.BAD_OPTIONS, "clock.reject.no_clock", {})
    move = duration(raw["clock"])
    if move is None or not SHORTEST <= move <= LONGEST:
        return _bad("clock", raw["clock"])
    expiry = str(raw.get("clock_expiry", "forfeit")).strip().lower()
    if expiry not in EXPIRY:
        return _bad("clock_expiry", raw.get("clock_expiry"))
    remind_raw = str(raw.get("clock_remind", "")).strip().lower()
    if remind_raw in ("off", "none"):
        remind: list[float] = []
    elif remind_raw:
        parsed = [duration(part) for part in remind_raw.split(",")]
        remind = [r for r in parsed if r is not None]
        if len(parsed) > MOST_REMINDERS or len(remind) < len(parsed) \
                or any(not SHORTEST <= r < LONGEST for r in remind):
            return _bad("clock_remind", raw["clock_remind"])
    else:
        remind = list(DEFAULT_REMIND)
    try:
        days = float(raw.get("vacation", 0))
    except (TypeError, ValueError):
        return _bad("vacation", raw.get("vacation"))
    if isinstance(raw.get("vacation"), bool) or not 0 <= days <= MOST_VACATION_DAYS:
        return _bad("vacation", raw.get("vacation"))
    return {"move": move, "expiry": expiry, "remind": sorted(set(remind), reverse=True), "vacation": days * 86400}


def table_clock(table: TableRow, now: float) -> float:
    """The table's clock at wall time ``now`` (standing still while the table is paused)."""
    return round((table.paused_at if table.paused_at is not None else now) - table.paused_total, 3)


def wall(table: TableRow, at: float) -> float:
    """Wall time of ``at`` on the table's clock (as the table is now: a later pause moves it on again)."""
    return at + table.paused_total


def deadline(tc: Mapping[str, Any], clock: SeatClock) -> float | None:
    """When the seat's current decision runs out, on the table's clock: its time from when it began, plus the
    part of its vacation that falls after that (a vacation stops the clock)."""
    if clock.since is None:
        return None
    extra = 0.0
    # a vacation stores its start and end together
    if clock.away_from is not None and clock.away_until is not None and clock.away_until > clock.since:
        extra = clock.away_until - max(clock.away_from, clock.since)
    return clock.since + tc["move"] + extra


def reminders_due(tc: Mapping[str, Any], clock: SeatClock) -> list[tuple[float, float]]:
    """(when, seconds before the deadline) of the reminders still to send for the current decision; one whose
    time came before the decision began is never sent (a clock shorter than the reminder)."""
    due = deadline(tc, clock)
    if due is None or clock.expired:
        return []
    return [(due - r, r) for r in tc["remind"] if r not in clock.reminded and due - r > clock.since]


def forfeit(state: dict[str, Any], seats: list[int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state after ``seats`` lost on time: the game over, every other seat winning (the same rule as a
    tournament round's deadline, T-6).  A moderator's step of the record (bot/referee/moderation.py), so a re-run
    reproduces it."""
    new = clone(state)
    new["version"] = state["version"] + 1
    winners = [s for s in range(state["seats"]) if s not in seats]
    new["outcome"] = {"winners": winners, "reason": "clock.outcome.forfeit", "params": {"seats": sorted(seats)}}
    return new, [{"kind": "clock_forfeit", "to": None, "data": {"seats": sorted(seats)}}]


def shown(table: TableRow, view: dict[str, Any], clocks: Mapping[int, SeatClock]) -> dict[str, Any]:
    """``view`` with each asked seat's deadline in wall time, as a reader's clock shows it: the engine's own and
    the time control's, whichever comes first; none while the table is paused (nothing runs)."""
    pending = view.get("to_act")
    if not pending:
        return view
    out = []
    for p in pending:
        times = [] if table.paused_at is not None else [
            *([wall(table, p["deadline"])] if p.get("deadline") else []),
            *([wall(table, d)] if table.time_control and p["seat"] in clocks
              and (d := deadline(table.time_control, clocks[p["seat"]])) is not None else [])]
        out.append({**p, "deadline": min(times) if times else None})
    return {**view, "to_act": out}


async def with_deadlines(clocks: Clocks, table: TableRow, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with its deadlines as a reader's clock shows them (``shown``), the seat clocks read from the
    record; a table with neither a time control nor a pause is shown as it is, without reading anything."""
    if table.time_control is None and not table.paused_total and table.paused_at is None:
        return view
    return shown(table, view, await clocks.seat_clocks(table.id) if table.time_control else {})
