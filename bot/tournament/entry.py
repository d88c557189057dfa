"""Entry conditions of a tournament (issue 37, docs/tournaments.md T-23): a rating band in the tournament's game,
a least number of rated games, a server role.  Checked when a player enters and again when they check in (a
rating may move in between; what counts is the figure when they confirm, as a section goes by the latest list).

Bot players meet every condition: they are the organiser's filler, not entrants.  The role is a Discord
condition: a front end that cannot see roles (the terminal) passes ``roles=None`` and is refused with that reason.
"""
from __future__ import annotations

import re
from typing import Any, Collection, Mapping

from bot.engine import Code, Reject, Rejection
from bot.ratings.outcomes import rated_games
from bot.ratings.ratings import Ratings

MAX_RATING = 10_000
MAX_RATED_GAMES = 10_000
#: the settings, with the defaults that set no condition (and so read a tournament stored before them alike)
DEFAULTS: dict[str, Any] = {"min_rating": 0, "max_rating": 0, "min_rated_games": 0, "role": ""}
_ROLE = re.compile(r"^(?:<@&)?(\d{5,25})>?$")


def check_settings(game: str, s: dict[str, Any]) -> None:
    """Validates (and normalises) the entry conditions in the settings ``s``; raises Reject."""
    for name, high in (("min_rating", MAX_RATING), ("max_rating", MAX_RATING), ("min_rated_games", MAX_RATED_GAMES)):
        value = s[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise Reject("tournament.reject.range", code=Code.BAD_OPTIONS, name=name, min=0, max=high)
    if s["min_rating"] and s["max_rating"] and s["min_rating"] > s["max_rating"]:
        raise Reject("tournament.reject.entry_band", code=Code.BAD_OPTIONS, low=s["min_rating"], high=s["max_rating"])
    if (s["min_rating"] or s["max_rating"] or s["min_rated_games"]) and (
            game not in rated_games() or s.get("rated", True) is False):
        # an unrated game (or an event whose tables are casual) has no figure to hold a player to
        raise Reject("tournament.reject.entry_unrated", code=Code.BAD_OPTIONS)
    role = s["role"]
    if role in ("", None, 0):
        s["role"] = ""
        return
    found = _ROLE.match(str(role).strip())
    if not found:
        raise Reject("tournament.reject.entry_role_setting", code=Code.BAD_OPTIONS)
    s["role"] = found.group(1)  # a role's id: typed as a mention (<@&…>) in Discord's settings, kept bare


def conditions(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The conditions this tournament sets (empty: anyone may enter)."""
    return {k: settings[k] for k in DEFAULTS if settings.get(k)}


async def refusal(store: Any, *, game: str, guild_id: str | None, settings: Mapping[str, Any], user_id: str,
                  roles: Collection[str] | None) -> Rejection | None:
    """Why ``user_id`` may not enter (or check in), or None.  ``roles``: the ids of the member's server roles, or
    None where the front end cannot see them.  The first condition missed is named (the band before the games), with the player's figure."""
    wanted = conditions(settings)
    if not wanted:
        return None
    if "role" in wanted:
        if roles is None:
            return Rejection(Code.FORBIDDEN, "tournament.reject.entry_role_discord", {"role": f"<@&{wanted['role']}>"})
        if wanted["role"] not in set(roles):
            return Rejection(Code.FORBIDDEN, "tournament.reject.entry_role", {"role": f"<@&{wanted['role']}>"})
    if not {"min_rating", "max_rating", "min_rated_games"} & set(wanted):
        return None
    # the displayed figure and the count of rated games in this scope, as seeding reads them (bot/ratings/seeding.py)
    shown, games = (await Ratings(store).current(guild_id or "", game, [user_id])).get(user_id, (None, 0))
    if "min_rating" in wanted and (shown is None or shown < wanted["min_rating"]):
        if shown is None:
            return Rejection(Code.FORBIDDEN, "tournament.reject.entry_unrated_player", {"min": wanted["min_rating"]})
        return Rejection(Code.FORBIDDEN, "tournament.reject.entry_low", {"min": wanted["min_rating"], "rating": shown})
    # an unrated player is under any ceiling: a section "under 1600" admits newcomers, as chess's class sections do
    if "max_rating" in wanted and shown is not None and shown > wanted["max_rating"]:
        return Rejection(Code.FORBIDDEN, "tournament.reject.entry_high", {"max": wanted["max_rating"], "rating": shown})
    if games < wanted.get("min_rated_games", 0):
        return Rejection(Code.FORBIDDEN, "tournament.reject.entry_games",
                         {"need": wanted["min_rated_games"], "games": games})
    return None


def describe(settings: Mapping[str, Any], locale: str) -> str | None:
    """The conditions in a line for the tournament's message and the terminal (None: anyone may enter)."""
    from bot.i18n import t

    wanted = conditions(settings)
    parts = []
    low, high = wanted.get("min_rating"), wanted.get("max_rating")
    if low and high:
        parts.append(t("tournament.entry.band", locale, low=low, high=high))
    elif low:
        parts.append(t("tournament.entry.at_least", locale, low=low))
    elif high:
        parts.append(t("tournament.entry.at_most", locale, high=high))
    if wanted.get("min_rated_games"):
        parts.append(t("tournament.entry.games", locale, games=wanted["min_rated_games"]))
    if wanted.get("role"):
        parts.append(t("tournament.entry.role", locale, role=f"<@&{wanted['role']}>"))
    return t("tournament.entry.line", locale, conditions=", ".join(parts)) if parts else None
