"""Out-of-turn windows on Discord, which cost the players nothing (issue 27, docs/discord.md "Windows").

A window is a decision the engines give the kind ``reaction`` and a deadline (Raiders' interrupt window after a
capture or a шняга, Bloodwood's counter window): a chance to answer someone else's move, mostly passed.  On
Discord:

- a window appears in the player's existing control message, edited (the deliverer redraws the control message
  of every seat whose question changed), and is no ping, but for the seats it is *about* (issue 35: the target
  of Voodoo, the owner of an attacked property — public facts the engine names, ``Pending.about``): each of
  them gets its control message posted anew, a new DM opening with what happened and until when, once per
  window (``about_pings``), whether or not it holds an answer;
- it closes by itself when the engine's deadline for it passes (the referee's clock applies the timeout,
  which passes for everyone who has not answered: bot/referee/service.py ``tick``);
- it does not break the rhythm of a turn: a player whose turn goes on after a window is not pinged again, so
  whether one was asked "was this the same player's turn before?" looks past the windows in between
  (``live_shows`` keeps the last asks that were not windows).

Nothing here depends on a hand: which seats a window asks is the engine's (every seat in Raiders, the
public target in Bloodwood), the same whether or not a seat holds an answer, and so is everything below.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, Mapping, Sequence

from bot.discord.recap import SCREEN_ROWS, rows
from bot.engine.board_text import shorten
from bot.i18n import t
from bot.render.deadlines import deadline
from bot.render.notices import when
from bot.render.text import DISCORD_LIMIT, game_title

REACTION = "reaction"
#: the kind under which the live message's stored asks remember an about-seat already pinged for a window
ABOUT = "about"


def is_window(pending: Mapping[str, Any]) -> bool:
    """Whether an ask (a view's ``to_act`` entry) is an out-of-turn window that costs nothing: a reaction with a
    deadline, after which it closes by itself.  A reaction without one (a live table whose windows have no
    clock, a game whose window waits for its answer) would wait unseen for ever without a ping: it is pinged
    like any decision passing to the player."""
    return pending.get("kind") == REACTION and pending.get("deadline") is not None


def _ask(pending: Mapping[str, Any]) -> list[Any]:
    """An ask as stored with the live message: [seat, kind, prompt], the kind "window" for a free window."""
    return [pending["seat"], "window" if is_window(pending) else pending.get("kind"), pending.get("prompt")]


def pingable(view: Mapping[str, Any], before: Sequence[Sequence[Any]] | None) -> Iterator[dict[str, Any]]:
    """The asks of ``view`` a ping may be for, each with ``new_turn`` (the seat was asked nothing but windows
    before: the decision passes to it) and ``new_ask`` (this very question was not asked of it before).
    Windows are left out: they are shown, never pinged.  ``before``: what the live message asked before, as
    ``live_shows`` stored it."""
    turns_before = {s for s, k, _ in (before or []) if k not in ("window", ABOUT)}
    asked_before = {(s, k, p) for s, k, p in (before or [])}
    for pending in view.get("to_act") or []:
        if is_window(pending):
            continue
        seat = pending["seat"]
        yield {**pending, "new_turn": seat not in turns_before,
               "new_ask": (seat, pending.get("kind"), pending.get("prompt")) not in asked_before}


def live_shows(view: Mapping[str, Any], before: Sequence[Sequence[Any]]) -> str:
    """What the live message asks now, as stored with it: (seat, kind, prompt) of every ask; while only
    windows are open, the asks that were not windows before them are kept too, so that the turn they
    interrupted goes on without a new ping when they close."""
    now = [_ask(p) for p in view.get("to_act") or []]
    if now and all(k == "window" for _, k, _ in now):
        now += [list(p) for p in before if p[1] not in ("window", ABOUT)]
    now += [[seat, ABOUT, since] for seat, since in sorted(_abouts(view))]
    return json.dumps(sorted(now, key=lambda p: (p[0], str(p[1]), str(p[2]))))


def _abouts(view: Mapping[str, Any]) -> set[tuple[int, Any]]:
    """(seat, the window's moment) of every seat an open window is about."""
    return {(seat, p.get("since")) for p in view.get("to_act") or [] if is_window(p) for seat in p.get("about") or []}


def about_pings(view: Mapping[str, Any], before: Sequence[Sequence[Any]] | None) -> dict[int, float]:
    """The seats to tell that a window about them opened (not yet told, as the live message's stored asks
    ``before`` remember), each with the window's deadline."""
    told = {(s, p) for s, k, p in (before or []) if k == ABOUT}
    found: dict[int, float] = {}
    for pending in view.get("to_act") or []:
        if is_window(pending):
            for seat in pending.get("about") or []:
                if (seat, pending.get("since")) not in told:
                    found[seat] = min(found.get(seat, pending["deadline"]), pending["deadline"])
    return found


def about_line(game: Any, table_id: int, what: str, until: float, locale: str) -> str:
    """The first line of the ping of a seat a window is about: the table, what happened, until when (UTC, as a
    notification shows it: a Discord timestamp is not drawn there)."""
    params = {"table": table_id, "game": game_title(game, locale), "until": when(until, "terminal")}
    if what:
        # without the event line's own full stop, which would stand before the dash
        return t("windows.ping.about", locale, what=shorten(what, 200).rstrip(" ."), **params)
    return t("windows.ping.about_bare", locale, **params)


def with_headline(headline: str, content: str) -> str:
    """``content`` under ``headline``, within one message and one phone screen (``SCREEN_ROWS``, as the turn's
    own ping): the recap's oldest lines give way first."""
    lines = content.split("\n")
    while len(headline) + 1 + len("\n".join(lines)) > DISCORD_LIMIT \
            or rows(headline + "\n" + "\n".join(lines)) > SCREEN_ROWS:
        recap = next((i for i, line in enumerate(lines) if line.startswith("▸ ")), None)
        if recap is None:  # no recap left: private news is never dropped, the headline is cut to fit instead
            content = "\n".join(lines)
            return shorten(headline, max(0, DISCORD_LIMIT - len(content) - 1)) + "\n" + content \
                if len(content) < DISCORD_LIMIT - 40 else content
        del lines[recap]
    return headline + "\n" + "\n".join(lines)


def waiting_lines(view: Mapping[str, Any], names: Sequence[str], locale: str) -> list[str]:
    """The live message's line for each open window's deadline: the seats it still waits for and until when
    (which seats a window asks is the engine's public fact, the same whatever they hold)."""
    by_deadline: dict[float, list[int]] = {}
    for pending in view.get("to_act") or []:
        if is_window(pending) and pending["seat"] not in by_deadline.setdefault(pending["deadline"], []):
            by_deadline[pending["deadline"]].append(pending["seat"])
    return [t("windows.live.waiting", locale, players=", ".join(names[s] for s in seats if 0 <= s < len(names)),
              when=deadline(at, locale, "discord"))
            for at, seats in sorted(by_deadline.items())]
