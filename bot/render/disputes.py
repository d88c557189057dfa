"""Disputes as moderators read them: the queue and the evidence (the table's notices are in notices.py).

The evidence (``evidence_texts``) is for moderators only: it opens with the public log around the disputed move,
as the players read it, then the move with every event and who could see it; the raw action comes last, for
whoever amends by typing one.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from bot.i18n import t
from bot.render.notices import person, versions_line
from bot.render.text import event_lines, render_event

#: a log line is cut here: the evidence and a notice quote moves, not whole boards
LOG_WIDTH = 200


def log_move_line(game: Any, move: Any, locale: str, names: Sequence[str]) -> str:
    """One step of the public log on one line, as the log numbers it (bot/referee/disputes.py ``LogMove``):
    "5. Alice: захват «Казино» · …"; a step a rollback undid says so."""
    text = " · ".join(event_lines(game, move.events, locale, names)) or t("records.log.no_details", locale)
    if move.kind == "move" and move.number is not None:
        text = f"{move.number}. {text}"
    if move.undone:
        text += " " + t("disputes.evidence.log_undone", locale)
    return text if len(text) <= LOG_WIDTH else text[:LOG_WIDTH - 1] + "…"


def log_lines(game: Any, around: Sequence[Any], locale: str, names: Sequence[str]) -> list[str]:
    """The log around the disputed move, that one marked: what the moderator reads first."""
    if not around:
        return []
    return [t("disputes.evidence.log", locale),
            *(("▶ " if m.disputed else "   ") + log_move_line(game, m, locale, names) for m in around)]


def queue_lines(disputes: Sequence[Any], games: Mapping[int, str], locale: str, *,
                where: Mapping[int, str] | None = None) -> list[str]:
    """The open disputes, one line each; a text kept from the table is shown too: the queue is moderators'.
    ``where``: a link to each table's thread (Discord), by table id."""
    if not disputes:
        return [t("disputes.queue.empty", locale)]
    where = where or {}
    return [t("disputes.queue.header", locale), *(
        t("disputes.queue.line", locale, id=d.id, table=d.table_id, game=games[d.table_id], move=d.move,
          who=person(d.user_id, locale), text=" ".join(d.text.split())[:120])
        + (f" · {where[d.table_id]}" if d.table_id in where else "") for d in disputes)]


def evidence_texts(ev: Any, locale: str, *, seat: int | None = None) -> list[str]:
    """The evidence of a dispute (bot/referee/disputes.py ``Evidence``): the complaint, the public log around the
    move (as the players read it), the move, its events with who saw each, the rules cited and this server's notes
    on them, what an uphold or an amend would do, the raw action, and the table before and after the move as
    ``seat`` saw it (None: a spectator)."""
    d, game, names = ev.dispute, ev.game, ev.names
    title = t(f"{game.name}.title", locale)
    status = t(f"disputes.status.{d.status}", locale)
    mover = names[ev.seat] if 0 <= ev.seat < len(names) else t("notice.referee", locale)
    head = [t("disputes.evidence.header", locale, id=d.id, status=status, table=d.table_id, game=title, move=d.move,
              version=d.version, who=person(d.user_id, locale), text=d.text,
              private=t("disputes.evidence.private", locale) if d.private else ""),
            *log_lines(game, getattr(ev, "around", ()), locale, names),
            t("disputes.evidence.move", locale, who=mover, label=_label(ev, locale)),
            t("disputes.evidence.events", locale)]
    for event in ev.events:
        line = render_event(game, event, locale, names, detail=True) or event["kind"]
        head.append(f"• {line}  [{_who_saw(event, names, locale)}]")
    head.append(versions_line(getattr(ev, "release", None), getattr(ev, "started_rules", None),
                              getattr(ev, "rules_version", 1), locale))
    head.append(t("disputes.evidence.rules", locale, rules=", ".join(ev.rules)) if ev.rules
                else t("disputes.evidence.no_rules", locale))
    head += [t("disputes.evidence.note", locale, rule=n.rule, text=n.text) for n in ev.notes]
    if d.status != "open":
        head.append(t("disputes.evidence.decision", locale, status=status, who=person(d.moderator, locale),
                      reason=d.reason))
    elif not ev.in_play:
        head.append(t("disputes.evidence.undone", locale))
    else:
        head.append(t("disputes.evidence.uphold_game", locale, mode=_mode(ev, locale)) if ev.upholding
                    else t("disputes.evidence.uphold_rollback", locale))
        if ev.corrections:
            head.append(t("disputes.evidence.corrections", locale))
            head += [f"{i}. {game.describe_action(ev.before, ev.seat, a, locale, names)}"
                     for i, a in enumerate(ev.corrections[:25], 1)]
    head.append(t("disputes.evidence.raw", locale, raw=json.dumps(ev.action.action, ensure_ascii=False)[:600]))
    viewer = names[seat] if seat is not None else t("disputes.evidence.public", locale)
    seen = [e for e in ev.events if e["to"] is None or (seat is not None and seat in e["to"])]
    # a move made under older rules is shown as today's rules read its tables (bot/referee/disputes.py)
    shown_before = getattr(ev, "shown_before", None) or ev.before
    shown_after = getattr(ev, "shown_after", None) or ev.after
    before = [t("disputes.evidence.before", locale, who=viewer),
              game.render_view(game.view(shown_before, seat), locale, names)]
    after = [t("disputes.evidence.after", locale, who=viewer), *event_lines(game, seen, locale, names),
             game.render_view(game.view(shown_after, seat), locale, names)]
    return ["\n".join(head), "\n".join(before), "\n".join(after)]


def _label(ev: Any, locale: str) -> str:
    action = ev.action.action
    if ev.action.seat < 0:  # a moderator's step: its inner action, when it has one
        action = action.get("action") if isinstance(action.get("action"), dict) else action
    if not 0 <= ev.seat < len(ev.names):
        return action.get("type", "?")
    return ev.game.describe_action(getattr(ev, "shown_before", None) or ev.before, ev.seat, action, locale, ev.names)


def _mode(ev: Any, locale: str) -> str:
    mode = ev.before["options"].get("disputes")
    key = f"{ev.game.name}.option.disputes.{mode}"
    return t(key, locale) if mode else ""


def _who_saw(event: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
    if event["to"] is None:
        return t("disputes.evidence.everyone", locale)
    if not event["to"]:
        return t("disputes.evidence.record_only", locale)
    return ", ".join(names[s] for s in event["to"] if 0 <= s < len(names))


def rulings_lines(notes: Sequence[Any], locale: str) -> list[str]:
    """A server's ruling notes (``/rulings``, ``python -m bot rulings``)."""
    if not notes:
        return [t("disputes.rulings.empty", locale)]
    return [t("disputes.rulings.header", locale), *(
        t("disputes.rulings.line", locale, rule=n.rule, text=n.text, who=person(n.moderator, locale)) for n in notes)]
