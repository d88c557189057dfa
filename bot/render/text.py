"""Plain-text rendering of outbox messages and tables, shared by the terminal and Discord.

Pure functions: (game, payload, names, locale, viewer) -> text.  The payload was already filtered for
its audience when it was enqueued (bot/referee/steps.py messages_for), so nothing here decides visibility."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Game
from bot.i18n import t
from bot.render.deadlines import deadline
from bot.render.notices import (DISPUTE_EVENTS, cancelled_line, clock_line, dispute_event_line, dispute_line,
                                 frozen_line, rollback_line, ruling_line, seed_line, upgrade_line)

DISCORD_LIMIT = 2000


def game_title(game: Game, locale: str) -> str:
    return t(f"{game.name}.title", locale)


def outcome_line(game: Game, outcome: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    winners = [names[s] for s in outcome["winners"]]
    reason = t(outcome["reason"], locale, **(outcome.get("params") or {}), winners=", ".join(winners))
    if winners:
        return t("core.msg.winners", locale, winners=", ".join(winners), reason=reason)
    if (outcome.get("params") or {}).get("lost"):  # a co-operative table lost together (Bridges)
        return t("core.msg.lost", locale, reason=reason)
    return t("core.msg.draw", locale, reason=reason)


def end_notice(game: Game, outcome: Mapping[str, Any], seat: int, locale: str, names: Sequence[str], table_id: int,
               *, taken: bool = False) -> str:
    """What one player is told of a table's end, in a message of their own: the table and their result first
    (the line a reader of their notifications sees), then who won and why; ``taken``: a bot played their seat
    to the end (their clock ran out: ``clock_expiry=zombie``).  The front ends add the rating change and the
    table's page."""
    winners = outcome.get("winners") or []
    if seat in winners:
        result = "won"
    elif winners:
        result = "lost"
    else:  # nobody won: a co-operative table lost together (Bridges), else a draw
        result = "lost_together" if (outcome.get("params") or {}).get("lost") else "draw"
    lines = [t(f"core.end.{result}", locale, table=table_id, game=game_title(game, locale)),
             outcome_line(game, outcome, locale, names)]
    if taken:
        lines.append(t("core.end.taken", locale))
    return "\n".join(lines)


def _by_kind(view: Mapping[str, Any]) -> dict[str, list[int]]:
    kinds: dict[str, list[int]] = {}
    for p in view.get("to_act") or []:
        seats = kinds.setdefault(p.get("kind") or "turn", [])
        if p["seat"] not in seats:
            seats.append(p["seat"])
    return kinds


def turn_line(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    """Who owes a decision, in one line, for a message that shows no board (a board says it itself).  Only an
    ordinary turn is called a turn; an answer to a card and a demanded choice are named as such."""
    kinds = _by_kind(view)
    if not kinds:
        return None
    parts = []
    for kind, seats in kinds.items():
        key = "core.msg.to_act" if kind not in ("reaction", "choice") else f"core.msg.to_act_{kind}"
        parts.append(t(key, locale, players=", ".join(names[s] for s in seats), n=len(seats)))
    return " ".join(parts)


def render_event(game: Game, event: Mapping[str, Any], locale: str, names: Sequence[str], *,
                 detail: bool = False) -> str | None:
    """One event as text: the referee's own events (a moderator's rollback) here, the game's by the game.
    ``detail``: the line as a log shows it (``Game.render_event_detail``), not the short live one."""
    if event["kind"] == "rollback":
        return rollback_line(event["data"], locale)
    if event["kind"] == "upgrade" and event["to"] is None:  # the referee's own step (bot/referee/upgrade.py)
        return upgrade_line(event["data"], game.name, locale, options=False)
    if event["kind"] == "clock_forfeit":
        return t("clock.event.forfeit", locale, players=", ".join(names[s] for s in event["data"]["seats"]))
    if event["kind"] in DISPUTE_EVENTS and event["to"] is None:
        return dispute_event_line(event, locale)
    if detail:
        return game.render_event_detail(event, locale, names)
    return game.render_event(event, locale, names)


def event_lines(game: Game, events: Sequence[Mapping[str, Any]], locale: str, names: Sequence[str]) -> list[str]:
    return [line for event in events if (line := render_event(game, event, locale, names))]


def render_message(game: Game, kind: str, payload: Mapping[str, Any], *, names: Sequence[str], locale: str,
                   table_id: int, board: bool = True, turn: bool | None = None, front: str = "terminal") -> str:
    """One outbox message as text.  ``kind``: start | update | finish | private | cancelled | ruling | dispute.

    ``board``: include the table (the compact board).  ``turn``: end with the one-line statement of who must
    act; by default only when the board is left out, because a board states that itself (a caller that
    shows the board on its own should pass ``turn=False``).  ``front``: "terminal" or "discord", for the
    command that checks a finished table."""
    lines: list[str] = []
    if kind == "start":
        lines.append(t("core.msg.start", locale, game=game_title(game, locale), table=table_id,
                       players=", ".join(names)))
        lines.append(t("core.msg.seed_hash", locale, hash=payload["seed_hash"]))
        if payload.get("stacked"):
            lines.append(t("core.msg.stacked", locale))
    if kind == "ruling":
        return ruling_line(payload, table_id, locale)
    if kind == "clock":
        return clock_line(payload, names, locale, front)
    if kind == "reminder":
        # read when it is sent, ``left`` seconds before the deadline: "28 ноября, 14:00 UTC (через 1 час)"
        return t("clock.reminder", locale, table=table_id,
                 when=deadline(payload["deadline"], locale, front, now=payload["deadline"] - payload.get("left", 0)))
    if kind == "dispute":
        return dispute_line(payload, locale)
    if kind == "end":  # one player's own notice of the end (bot/referee/steps.py END)
        outcome = (payload.get("view") or {}).get("outcome")
        return end_notice(game, outcome, payload["seat"], locale, names, table_id) if outcome else ""
    if kind == "upgrade":
        return frozen_line(payload, table_id, locale, detail=False)  # told at the table: the players' reason
    if payload.get("rollback"):
        lines.append(rollback_line(payload["rollback"], locale))
    if payload.get("upgrade"):
        lines.append(upgrade_line(payload["upgrade"], game.name, locale))
    if kind == "cancelled":
        lines.append(cancelled_line(payload, table_id, locale))
        if payload.get("seed"):
            lines.append(seed_line(payload["seed"], table_id, locale, front))
        return "\n".join(lines)
    events = payload.get("events") or []
    if kind == "finish":
        # The closing outcome line below says who won and why; a game's own "game_over" event would repeat it.
        events = [e for e in events if e["kind"] != "game_over"]
    lines += event_lines(game, events, locale, names)
    view = payload.get("view")
    if board and view is not None:
        lines.append(game.render_view(view, locale, names))
    if kind == "finish" and view and view.get("outcome"):
        lines.append(outcome_line(game, view["outcome"], locale, names))
        lines.append(seed_line(payload.get("seed"), table_id, locale, front))
    elif view is not None and kind != "private" and (not board if turn is None else turn):
        line = turn_line(view, locale, names)
        if line:
            lines.append(line)
    return "\n".join(line for line in lines if line)


def split_text(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """Split on line boundaries into chunks of at most ``limit`` characters (a single over-long line is
    cut hard).  Discord refuses messages over 2000 characters."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks or [""]
