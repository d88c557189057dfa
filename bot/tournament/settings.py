"""A tournament's settings (docs/tournaments.md): the formats, the defaults, and their validation.

Pure functions of the game's declared seats and the organiser's raw settings: no storage, no clock.  The
director (director.py) checks an event's settings here when it is created and when a second stage is made.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.engine import Code, Reject, get_game
from bot.engine.free_text import clean_name
from bot.storage.tournaments import TournamentRow

from . import entry, stages
from .brackets import rounds as double_rounds
from .places import WITHDRAWAL
from .seeding import METHODS as SEEDING
from .standings import ALLOWED_TIEBREAKS, TIEBREAK_RULES, Points

FORMATS = ("swiss", "round_robin", "elimination", "double_elimination", "multiseat")
DUEL_FORMATS = ("swiss", "round_robin", "elimination", "double_elimination")
BRACKETS = ("elimination", "double_elimination")
EXPIRY = ("forfeit", "moderator")
MAX_ROUNDS = 20
MAX_PLAYERS = 1000
MAX_ROUND_HOURS = 60 * 24
#: which settings a tournament takes, with their defaults (rounds 0: chosen at the start from the field)
DEFAULTS: dict[str, Any] = {"rounds": 0, "table_size": 0, "round_hours": 0, "expiry": "forfeit",
                            "late_entry": True, "bye": "win", "max_players": 0, "registration_hours": 0,
                            "check_in": False, "requested_byes": 1, "requested_bye": "draw", "withdraw_after": 0,
                            "third_place": False, "reset": True, "seeding": "rating", "tiebreaks": "",
                            "place_points": "", "best_of": 1,
                            "withdrawal": "annul", "tiebreak_rules": "classic",  # T-4a, T-5a
                            "stage2": "", "advance": 0, "groups": 0,  # two-stage events (T-24: stages.py)
                            "rated": True,  # rated: the tables count for ratings (docs/ratings.md)
                            **entry.DEFAULTS}  # entry conditions (T-23): none by default


def _tiebreak_list(fmt: str, raw: Any) -> list[str]:
    """The organiser's tie-break order (T-21): names from the format's own list, each once; empty: the
    format's default order."""
    if raw in ("", None, []):
        return []
    names = [n.strip() for n in (raw if isinstance(raw, list) else str(raw).split(",")) if n.strip()]
    allowed = ALLOWED_TIEBREAKS[fmt]
    if not names or len(set(names)) != len(names) or any(n not in allowed for n in names):
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="tiebreaks", choices=", ".join(allowed))
    return names


def _place_points(fmt: str, raw: Any, seats: int) -> list[float]:
    """Multi-seat place points (T-21): ``4,2,1,0`` — the points of the 1st, 2nd … place, not rising."""
    if raw in ("", None, []):
        return []
    if fmt != "multiseat":
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="place_points")
    try:
        values = [float(v) for v in (raw if isinstance(raw, list) else str(raw).replace(";", ",").split(","))]
    except ValueError:
        values = []
    if not 2 <= len(values) <= max(seats, 2) or any(not 0 <= v <= 100 for v in values) \
            or values != sorted(values, reverse=True) or values[0] == values[-1]:
        raise Reject("tournament.reject.place_points", code=Code.BAD_OPTIONS, most=max(seats, 2))
    return values


def check_settings(game_name: str, fmt: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The complete, validated settings; raises Reject with a tournament.reject.* message."""
    game = get_game(game_name)
    if fmt not in FORMATS:
        raise Reject("tournament.reject.format", code=Code.BAD_OPTIONS, format=clean_name(fmt, limit=40),
                     formats=", ".join(FORMATS))
    if fmt in DUEL_FORMATS and not game.min_seats <= 2 <= game.max_seats:
        raise Reject("tournament.reject.not_a_duel", code=Code.BAD_OPTIONS, format=fmt)
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name=clean_name(unknown[0], limit=40))
    s = {**DEFAULTS, **raw}

    def number(name: str, low: int, high: int) -> int:
        value = s[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name=name, min=low, max=high)
        return value

    number("rounds", 0, MAX_ROUNDS)
    number("round_hours", 0, MAX_ROUND_HOURS)
    number("registration_hours", 0, MAX_ROUND_HOURS)
    number("max_players", 0, MAX_PLAYERS)
    if fmt == "multiseat":
        number("table_size", 0, game.max_seats)
        if s["table_size"] and s["table_size"] < game.min_seats:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name="table_size", min=game.min_seats,
                         max=game.max_seats)
    elif s["table_size"]:
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="table_size")
    if s["seeding"] not in SEEDING:
        raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name="seeding", choices=", ".join(SEEDING))
    s["tiebreaks"] = _tiebreak_list(fmt, s["tiebreaks"])
    s["place_points"] = _place_points(fmt, s["place_points"], game.max_seats)
    number("best_of", 1, 9)
    stages.check(fmt, s)
    if s["best_of"] % 2 == 0 or (s["best_of"] > 1 and fmt not in DUEL_FORMATS):
        raise Reject("tournament.reject.best_of", code=Code.BAD_OPTIONS)
    number("requested_byes", 0, MAX_ROUNDS)
    number("withdraw_after", 0, MAX_ROUNDS)
    for name, choices in (("expiry", EXPIRY), ("bye", ("win", "draw", "loss")), ("requested_bye", ("draw", "loss"))):
        if s[name] not in choices:
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices=", ".join(choices))
    for name, choices in (("withdrawal", WITHDRAWAL), ("tiebreak_rules", TIEBREAK_RULES)):
        if s[name] not in choices:
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices=", ".join(choices))
    if fmt != "round_robin":  # elsewhere a player's games always stand (T-4)
        if "withdrawal" in raw:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="withdrawal")
        s["withdrawal"] = "keep"
    if s["tiebreak_rules"] == "fide" and fmt not in ("swiss", "round_robin"):
        raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="tiebreak_rules")
    for name in ("late_entry", "check_in", "third_place", "reset", "rated"):
        if not isinstance(s[name], bool):
            raise Reject("tournament.reject.choice", code=Code.BAD_OPTIONS, name=name, choices="yes, no")
    entry.check_settings(game.name, s)
    if fmt in ("round_robin", *BRACKETS):
        s["late_entry"] = False  # the schedule or the bracket is fixed at the start (T-7)
        s["requested_byes"] = 0  # so is every round's game (T-19)
        if s["rounds"]:
            raise Reject("tournament.reject.setting", code=Code.BAD_OPTIONS, name="rounds")
    return s


def points(t: TournamentRow) -> Points:
    """What a win, a draw, a loss, a bye and each multi-seat place score in this event."""
    places = t.settings.get("place_points") or []
    base = Points() if not places else Points(win=places[0], draw=(places[0] + places[-1]) / 2, loss=places[-1],
                                             places=tuple(places))
    return replace(base, bye={"win": base.win, "draw": base.draw, "loss": base.loss}[t.settings["bye"]])


def rounds_planned(t: TournamentRow, players: int) -> int:
    """How many rounds: fixed at the start (``settings.rounds``), else from the field."""
    if t.settings.get("rounds"):
        return int(t.settings["rounds"])
    if t.format == "round_robin" and t.settings.get("pools"):
        return stages.group_rounds(t.settings["pools"])
    if t.format == "round_robin":
        return players - 1 + players % 2
    if t.format == "elimination":
        return max(1, math.ceil(math.log2(max(players, 2))))
    if t.format == "double_elimination":
        return double_rounds(players, t.settings.get("reset", True))
    if t.format == "multiseat":
        return 3
    return min(MAX_ROUNDS, max(1, math.ceil(math.log2(max(players, 2))) + 1))
