"""Plain-text rendering of outbox messages and tables, shared by the terminal and Discord.

Pure functions: (game, payload, names, locale, viewer) -> text.  The payload was already filtered for
its audience when it was enqueued (service.messages_for), so nothing here decides visibility."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from bot.i18n import t
from bot.render.notices import (
    DISPUTE_EVENTS, cancelled_line, clock_line, dispute_event_line, dispute_line, frozen_line, rollback_line,
    ruling_line, seed_line, upgrade_line, when,
)

if TYPE_CHECKING:  # the games import this module for their boards; the engine must not be imported back
    from bot.engine import Game

DISCORD_LIMIT = 2000
#: the widest line a board may have: what a phone shows in a Discord code block without wrapping it
PHONE_WIDTH = 40


# ---------------------------------------------------------------------------------------------- line width
_ZWJ, _VS16 = "\u200d", "\ufe0f"
# Symbols a phone may draw as a two-column emoji although Unicode calls them narrow (❄ ☀ ♦ ▶ ⚠ ...):
# counted as wide, so that a board fits whichever way the phone draws them.
_EMOJI_CAPABLE = ((0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF), (0x2900, 0x297F),
                  (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))


@lru_cache(maxsize=4096)
def _char_width(ch: str) -> int:
    code = ord(ch)
    if unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0x1F3FB <= code <= 0x1F3FF:  # marks, joiners, skin tones
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    if any(low <= code <= high for low, high in _EMOJI_CAPABLE) and (
            code >= 0x1F000 or unicodedata.category(ch) == "So"):
        return 2
    return 1


# characters that may not take exactly one column: combining marks and everything from U+1100 on
_SPECIAL = re.compile("[\u0300-\u036f\u0483-\u0489\u1100-\U0010ffff]")


def display_width(line: str) -> int:
    """The columns ``line`` takes on a phone: wide characters and emoji count 2, combining marks, variation
    selectors and joiners 0 (an emoji joined to the one before it by U+200D adds nothing), a narrow symbol
    followed by the emoji selector U+FE0F 2."""
    width = len(line)
    last_pos, last, joined, flag = -2, 1, False, False
    for m in _SPECIAL.finditer(line):
        ch, pos = m.group(), m.start()
        width -= 1  # counted below
        if pos != last_pos + 1:  # the character before is an ordinary one
            last, joined, flag = 1, False, False
        last_pos = pos
        if ch == _ZWJ:
            joined = True
            continue
        if ch == _VS16:
            if last == 1:
                width += 1
                last = 2
            continue
        if 0x1F1E6 <= ord(ch) <= 0x1F1FF:  # two regional indicators make one flag
            flag = not flag
            if not flag:
                continue
        else:
            flag = False
        w = _char_width(ch)
        if joined and w:
            joined = False
            continue
        width += w
        if w:
            last = w
    return width


def _cut(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` that fits ``room`` columns (at least one character), and the rest."""
    for i in range(len(word), 0, -1):
        if display_width(word[:i]) <= room:
            return word[:i], word[i:]
    return word[:1], word[1:]


def wrap(line: str, width: int = PHONE_WIDTH, hang: str | None = None) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns.  Continuation lines start with
    ``hang`` (by default the line's own indentation and two spaces more).  Only a word wider than a whole
    line is cut."""
    if display_width(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip(" "))]
    hang = lead + "  " if hang is None else hang
    if display_width(hang) > width // 2:
        hang = "  "
    lines: list[str] = []
    current = lead
    for word in line[len(lead):].split(" "):
        if not word:
            continue
        prefix = current if current.strip() else ""
        candidate = f"{current} {word}" if prefix else current + word
        if display_width(candidate) <= width:
            current = candidate
            continue
        if prefix:
            lines.append(current)
            current = hang
        while display_width(current + word) > width:
            head, word = _cut(word, width - display_width(current))
            lines.append(current + head)
            current = hang
        current += word
    if current.strip():
        lines.append(current)
    return lines


def fit(lines: Iterable[str], width: int = PHONE_WIDTH) -> list[str]:
    """Every line (a line may hold several, split at "\\n") wrapped to ``width`` columns: a board's last step."""
    out: list[str] = []
    for text in lines:
        for line in str(text).split("\n"):
            out += wrap(line.rstrip(), width)
    return out


def wrap_items(head: str, items: Sequence[str], width: int = PHONE_WIDTH, hang: str = "  ",
               sep: str = ",") -> list[str]:
    """``head`` followed by ``items`` joined with ``sep``, broken between items where a line is full (an
    item is broken inside only when it alone is wider than a line).  Continuation lines start with ``hang``."""
    tokens = [item + sep if i < len(items) - 1 else item for i, item in enumerate(items)]
    lines: list[str] = []
    current, empty = head, True  # the line being built; whether it holds an item yet
    for token in tokens:
        joiner = "" if not current or current.endswith(" ") else " "
        if display_width(current + joiner + token) <= width:
            current, empty = current + joiner + token, False
            continue
        if not empty or current.strip():  # the line holds an item or a head: the item starts the next line
            lines.append(current.rstrip())
            current = hang
        parts = wrap(current + token, width, hang)  # one line, unless the item alone is wider than a line
        lines += parts[:-1]
        current, empty = parts[-1], False
    if current.strip():
        lines.append(current.rstrip())
    return lines


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the cut marked with "…"."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_items(head: str, items: Sequence[str], more: Callable[[int], str], max_lines: int,
               width: int = PHONE_WIDTH, hang: str = "  ", sep: str = ",") -> list[str]:
    """Like ``wrap_items``, but at most ``max_lines`` lines: the items that do not fit are left out and
    summarised by ``more(number left out)`` (e.g. "… ещё 5") at the end."""
    lines = wrap_items(head, items, width, hang, sep)
    if len(lines) <= max_lines:
        return lines
    for shown in range(len(items) - 1, -1, -1):
        lines = wrap_items(head, [*items[:shown], more(len(items) - shown)], width, hang, sep)
        if len(lines) <= max_lines:
            return lines
    return lines


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


def pending_lines(view: Mapping[str, Any], locale: str, names: Sequence[str], *,
                  label: Callable[[Mapping[str, Any]], str | None] | None = None,
                  detail: Callable[[Mapping[str, Any]], str | None] | None = None) -> list[str]:
    """A board's statement of who owes a decision now: one line per kind of decision ("⏳ Ход: Аня — бросок
    кубиков"), marked ➤ where the reader is the one asked.  ``label`` names a decision where the game can say
    more than its kind (an answer to a card, a declaration); ``detail`` adds what is asked.  A board states
    this once: its header and player list do not repeat it."""
    groups: dict[tuple[str, str | None, bool], list[int]] = {}
    me = view.get("seat")
    for p in view.get("to_act") or []:
        what = (label(p) if label else None) or t(f"core.pending.{p.get('kind') or 'turn'}", locale)
        extra = detail(p) if detail else None
        seats = groups.setdefault((what, extra, p["seat"] == me), [])
        if p["seat"] not in seats:
            seats.append(p["seat"])
    lines = []
    for (what, extra, mine), seats in groups.items():
        line = t("core.board.pending", locale, mark="➤" if mine else "⏳", what=what,
                 players=", ".join(names[s] for s in seats))
        lines.append(f"{line} — {extra}" if extra else line)
    return lines


def render_event(game: Game, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    """One event as text: the referee's own events (a moderator's rollback) here, the game's by the game."""
    if event["kind"] == "rollback":
        return rollback_line(event["data"], locale)
    if event["kind"] == "upgrade" and event["to"] is None:  # the referee's own step (bot/upgrade.py)
        return upgrade_line(event["data"], game.name, locale, options=False)
    if event["kind"] == "clock_forfeit":
        return t("clock.event.forfeit", locale, players=", ".join(names[s] for s in event["data"]["seats"]))
    if event["kind"] in DISPUTE_EVENTS and event["to"] is None:
        return dispute_event_line(event, locale)
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
        return t("clock.reminder", locale, table=table_id, when=when(payload["deadline"], front))
    if kind == "dispute":
        return dispute_line(payload, locale)
    if kind == "upgrade":
        return frozen_line(payload, table_id, locale)
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
