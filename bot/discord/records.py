"""What ``/table log`` and ``/table verify`` answer in Discord.

The log is the table's public history with its moves numbered as players see them (bot/referee/moves.py): a page
of at most 2000 characters at a time, the newest page first, pages counted from the start of the game (so
a page keeps its place as the game goes on).  Moves a moderator's rollback undid stay in the log, struck
out.  Moderators also see the table versions, which count private steps too (a player must not see them:
their gaps would tell how often someone acted in secret).

Verification is the same check as ``python -m bot verify`` (bot/referee/record.py): a finished (or cancelled) table's
seed is public, so anyone may run it; a running table only a moderator (with the secret seed, privately).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.discord.render import display_names
from bot.engine import Game
from bot.engine.board_text import shorten
from bot.i18n import t
from bot.referee.moves import Moves, public
from bot.referee.record import RecordError, verify_table
from bot.render.notices import rollback_line, versions_line
from bot.render.text import DISCORD_LIMIT, game_title, render_event
from bot.storage.store import SeatRow, Store, TableRow

#: the longest single line of the log (a move whose events make a very long line is cut)
LINE_MAX = 600



def log_lines(game: Game, seats: Sequence[SeatRow], events: Sequence[Mapping[str, Any]], locale: str, *,
              versions: bool = False) -> tuple[list[str], set[int]]:
    """The public log, one line per step: the deal's facts ("•"), numbered moves, rollbacks.  Returns the
    lines and the indexes of those that are undone moves.  Only public events are read, whatever is given."""
    shown = [e for e in events if public(e)]
    played = Moves(shown)
    names = display_names(seats)
    lines: list[str] = []
    undone: set[int] = set()
    for entry in played.entries:
        stamp = f"`v{entry.version}` " if versions else ""
        if entry.kind == "rollback":
            data = next(e["data"] for e in entry.events if e["kind"] == "rollback")
            lines.append(stamp + shorten(rollback_line({**data, "move": entry.number}, locale), LINE_MAX))
            continue
        texts = [line for e in entry.events if (line := render_event(game, e, locale, names, detail=True))]
        if entry.kind in ("setup", "upgrade"):
            lines += [stamp + "• " + shorten(text, LINE_MAX) for text in texts]
            continue
        body = shorten(" · ".join(texts) or t("records.log.no_details", locale), LINE_MAX)
        if entry.undone:
            undone.add(len(lines))
            lines.append(f"{stamp}~~{entry.number}. {body}~~")
        else:
            lines.append(f"{stamp}**{entry.number}.** {body}")
    return lines, undone


def log_page(game: Game, table: TableRow, seats: Sequence[SeatRow], events: Sequence[Mapping[str, Any]],
             locale: str, *, page: int | None = None, versions: bool = False) -> tuple[str, int, int]:
    """One page of the log (``page`` from 1, counted from the start; None or past the end: the newest) as
    (text, page, pages)."""
    lines, undone = log_lines(game, seats, events, locale, versions=versions)
    if not lines:
        lines = [t("discord.log.empty", locale)]
    notes = {"undone": t("records.log.undone_note", locale), "versions": t("records.log.versions_note", locale)}
    widest_header = t("records.log.header", locale, game=game_title(game, locale), table=table.id,
                      page=10 ** 6, pages=10 ** 6)
    room = DISCORD_LIMIT - len(widest_header) - sum(len(n) + 1 for n in notes.values()) - 1
    pages: list[list[int]] = [[]]
    used = 0
    for i, line in enumerate(lines):
        if pages[-1] and used + len(line) + 1 > room:
            pages.append([])
            used = 0
        pages[-1].append(i)
        used += len(line) + 1
    number = len(pages) if page is None else max(1, min(page, len(pages)))
    chosen = pages[number - 1]
    header = t("records.log.header", locale, game=game_title(game, locale), table=table.id, page=number,
               pages=len(pages))
    tail = ([notes["undone"]] if undone.intersection(chosen) else []) + ([notes["versions"]] if versions else [])
    return "\n".join([header, *(lines[i] for i in chosen), *tail]), number, len(pages)


def move_choices(game: Game, seats: Sequence[SeatRow], events: Sequence[Mapping[str, Any]], locale: str,
                 typed: str = "", *, disputing: bool = False) -> list[tuple[str, int]]:
    """The moves a rollback may return to, newest first, as (label, number) for an autocomplete: every move in
    play but the latest (returning there would undo nothing), and 0, the start.  ``disputing``: the moves a
    dispute may name instead, every move in play, the latest included."""
    played = Moves([e for e in events if public(e)])
    names = display_names(seats)
    texts = {e.version: " · ".join(line for ev in e.events if (line := render_event(game, ev, locale, names)))
             for e in played.entries if e.kind == "move"}
    choices = [(f"{move.number}. {texts.get(move.version) or t('records.log.no_details', locale)}", move.number)
               for move in reversed(played.in_play() if disputing else played.in_play()[:-1])]
    if played.latest and not disputing:
        choices.append((f"0. {t('records.move.start', locale)}", 0))
    wanted = typed.strip()
    return [(shorten(label, 100), number) for label, number in choices
            if not wanted or str(number).startswith(wanted)][:25]


async def verify_text(store: Store, game: Game, table: TableRow, locale: str, *, moderator: bool) -> str:
    """The answer to ``/table verify``: a short result, or why the table cannot be verified yet."""
    title = game_title(game, locale)
    if table.status == "lobby" or table.seed_hash is None:
        return "✋ " + t("core.reject.not_started", locale, table=table.id)
    commitment = t("records.verify.hash", locale, hash=table.seed_hash)
    running = table.status == "active"
    if running and not moderator:
        return "\n".join([t("records.verify.running", locale, table=table.id), commitment])
    try:
        report = await verify_table(store, table.id, moderator=moderator)
    except RecordError as exc:
        return t("records.verify.cannot", locale, table=table.id, detail=shorten(str(exc), 300))
    if report.ok:
        lines = [t("records.verify.ok", locale, table=table.id, game=title, actions=report.actions,
                   snapshots=report.snapshots_checked), commitment]
    else:
        shown = report.problems[:10]
        lines = [t("records.verify.failed", locale, table=table.id, game=title),
                 *(f"• {t(p.key, locale, **p.params)}" if hasattr(p, "key") else f"• {p}" for p in shown)]
        if len(report.problems) > len(shown):
            lines.append(f"• … (+{len(report.problems) - len(shown)})")
        lines.append(commitment)
    lines.append(versions_line(table.release, table.started_rules, table.rules_version, locale))
    if report.upgrades:  # which guarantee holds across them (docs/operations.md)
        lines.append(t("upgrade.verify.crossed", locale, recorded=report.recorded, upgrades=", ".join(
            f"{u['from']}→{u['to']} ({u['release']})" for u in report.upgrades)))
    elif report.recorded:  # ended under older rules, before any upgrade
        lines.append(t("upgrade.verify.older", locale, recorded=report.recorded, replayed=report.replayed))
    if running:
        lines.append(t("records.verify.secret", locale))
    elif table.seed:
        lines.append(t("records.verify.seed", locale, seed=table.seed))
    return shorten("\n".join(lines), DISCORD_LIMIT)
