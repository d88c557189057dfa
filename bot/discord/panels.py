"""The three kinds of table text in Discord, as the forum judge keeps them (pure functions, no Discord calls):

- the **live table message**, the table's first message in its thread, edited after every change: the
  board, the last few public lines, who is asked what (with the deadline as a Discord timestamp), and the
  seed's hash as a footer;
- the **move post**, one short new message (at most 3 lines, 300 characters) for what the thread must
  hear of: the end, a rollback, a cancellation, and the ping of a player whose DMs are closed;
- the **control message**, one per player and table in that player's DMs, edited in place, and posted anew
  when a decision passes to that player (the new DM is their ping): the player's own board, what is new for
  them only, and what is asked of them (its buttons are built in components).

Visibility is decided before this module: it gets the public view for public texts and a seat's own view
and private events for that seat's control message.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.discord import windows
from bot.discord.recap import SCREEN_ROWS, Recap, headline, recap_lines, rows
from bot.discord.render import code_blocks, discord_user_id, display_names, mention, named, pace_label, plain_names
from bot.engine import Game
from bot.engine.board_text import shorten
from bot.i18n import has, t
from bot.referee.moves import Moves
from bot.render.deadlines import deadline
from bot.render.notices import paused_line
from bot.render.text import DISCORD_LIMIT, event_lines, game_title, outcome_line
from bot.web.links import link_line
from bot.storage.store import SeatRow, TableRow

RECENT_LINES = 6      # public lines under the board of the live message (the thread gets no post per move)
POST_LINES = 3        # lines of a move post
POST_MAX = 300        # characters of a move post
HASH_SHOWN = 12       # hex digits of the seed's hash in the live message's footer



def _fit(head: str, board: str, lines: list[str]) -> str:
    """head, board, lines within one message: the board is cut first (the full one is a button away), then
    the oldest lines; the result never exceeds Discord's 2000 characters."""
    lines = [shorten(line, 500) for line in lines]
    while True:
        room = DISCORD_LIMIT - len(head) - sum(len(line) + 1 for line in lines) - 2
        if room >= 40 or len(lines) <= 1:
            break
        lines.pop(0)
    shown = board
    if len(shown) > room:  # keep the fences: cut inside the block
        shown = shown[: max(0, room - 8)].rstrip() + "\n…\n```" if room > 16 else ""
    return shorten("\n".join(part for part in [head, shown, *lines] if part), DISCORD_LIMIT)


def _deadline(pending: Mapping[str, Any], locale: str) -> str:
    """" · ⏰ до 28 ноября 2026 г., 14:00 (через 2 дня)": absolute and relative, as each reader's client shows it."""
    if not pending.get("deadline"):
        return ""
    return t("discord.asked.deadline", locale, when=deadline(pending["deadline"], locale, "discord"))


def asked_lines(view: Mapping[str, Any], seats: Sequence[SeatRow], locale: str, *, ping: Sequence[int] = ()
                ) -> list[str]:
    """Who is asked what: a turn is called a turn, a reaction a reaction, a demanded choice a choice, each
    with what is asked (the prompt is public: what the rules demand, never a hidden card) and its deadline.
    Seats in ``ping`` are named by mention (the caller lets only those ping)."""
    groups: dict[tuple[str, str | None], list[str]] = {}
    deadlines: dict[tuple[str, str | None], str] = {}
    for pending in view.get("to_act") or []:
        seat = seats[pending["seat"]]
        who = mention(seat) if pending["seat"] in ping else display_names([seat])[0]
        kind = pending.get("kind") if pending.get("kind") in ("turn", "reaction", "choice") else "turn"
        key = (kind, pending.get("prompt") if pending.get("prompt") and has(pending["prompt"]) else None)
        if who not in groups.setdefault(key, []):
            groups[key].append(who)
        deadlines[key] = deadlines.get(key) or _deadline(pending, locale)
    lines = []
    for (kind, prompt), names in groups.items():
        line = t(f"discord.asked.{kind}", locale, players=", ".join(names), n=len(names))
        if prompt:
            line += f" — {shorten(t(prompt, locale), 120)}"
        lines.append(line + deadlines[(kind, prompt)])
    return lines


def live_text(game: Game, table: TableRow, seats: Sequence[SeatRow], view: Mapping[str, Any],
              recent: Sequence[str], locale: str, *, ping: Sequence[int] = (), seed: str | None = None,
              seed_hash: str | None = None, recent_lines: int = RECENT_LINES, link: str | None = None) -> str:
    """The live table message: one message of at most 2000 characters whatever the board's size (the board
    is cut, never the status lines: the full board is a button away).  ``link``: the table's public page."""
    head = t("discord.live.header", locale, game=game_title(game, locale), table=table.id,
             title=f" · {named(table.title)}" if table.title else "") + pace_label(table.options, locale)
    tail: list[str] = [f"▸ {shorten(line, 200)}" for line in list(recent)[-recent_lines:]]
    outcome = view.get("outcome")
    if outcome:
        tail.append(outcome_line(game, outcome, locale, display_names(seats)))
        if seed:
            tail.append(t("discord.live.seed_revealed", locale, seed=seed, table=table.id))
    else:
        # the board itself says who is asked what (once); here only what a board cannot: the ping of whoever
        # must decide first, and the deadline as a timestamp each reader sees in their own time
        if ping:
            tail.append("🔔 " + ", ".join(mention(seats[s]) for s in ping))
        due = [p["deadline"] for p in view.get("to_act") or [] if p.get("deadline") and not windows.is_window(p)]
        if table.paused_at is not None:  # no move is taken, and every deadline moves on by the pause
            tail.append(paused_line(table, locale, "discord"))
        else:
            # an open window: whom it still waits for and until when (whoever waits reads why the game stands)
            tail += windows.waiting_lines(view, display_names(seats), locale)
            if due:
                tail.append(t("discord.live.deadline", locale, when=deadline(min(due), locale, "discord")))
    if seed_hash and not outcome:
        tail.append(t("discord.live.footer", locale, hash=seed_hash[:HASH_SHOWN]))
    tail += link_line("web.link.table", link, locale)
    board = code_blocks(game.render_view(view, locale, plain_names(seats)))
    return _fit(head, board[0] if board else "", tail)


def move_post(lines: Sequence[str], asked: Sequence[str], locale: str) -> str:
    """What happened since the last post (the last lines, with a count of the earlier ones), then who is now
    asked: at most POST_LINES lines and POST_MAX characters, the call to act always kept whole."""
    keep = max(0, POST_LINES - len(asked))
    shown = list(lines)[-keep:] if keep else []
    earlier = len(lines) - len(shown)
    if earlier and shown:
        shown[0] = t("discord.post.earlier", locale, n=earlier) + " " + shown[0]
    body = [shorten(line, 120) for line in shown]
    text = "\n".join([*body, *asked])
    while len(text) > POST_MAX and body:
        body.pop(0)
        text = "\n".join([*body, *asked])
    return shorten(text, POST_MAX)


def milestone_post(line: str, board: str) -> str:
    """A round's or a day's end as the forum judge posts it: the event's line, then the public table as it stood
    (its board cut to fit one message; the full one is a button away under the live message)."""
    head = f"📋 {shorten(line, 300)}" if line else "📋"
    return _fit(head, board, [])


def end_post(lines: Sequence[str], result: str, calls: Sequence[str]) -> str:
    """The post at a table's end: what its last step showed (a reveal of roles, a declaration judged), the result
    and the seed, nothing clipped that fits one message (the last step's oldest lines go first if it does not)."""
    shown = list(lines)
    while shown and len("\n".join([*shown, result, *calls])) > DISCORD_LIMIT:
        shown.pop(0)
    return shorten("\n".join([*shown, result, *calls]), DISCORD_LIMIT)


def control_text(game: Game, table: TableRow, seats: Sequence[SeatRow], seat: int, view: Mapping[str, Any],
                 news: Sequence[str], locale: str, *, link: str | None, asked: Mapping[str, Any] | None,
                 waiting_for: Sequence[int], note: str | None = None, anytime: bool = False,
                 recap: Recap | None = None) -> str:
    """A player's control message: header with a jump link to the table, the player's own board, what is new
    for them only, and what is asked of them now (or whom the table waits for).  The message that pings them
    (``recap`` given, bot/discord/recap.py) opens with the news instead: "▶ your move — table, game: the move",
    the public moves they missed, then the link; its prose fits one phone screen."""
    lines: list[str] = []
    if view.get("outcome"):
        lines.append(outcome_line(game, view["outcome"], locale, display_names(seats)))
    elif asked is not None:
        prompt = asked.get("prompt")
        said = t(prompt, locale) if prompt and has(prompt) else t("discord.turn.default_prompt", locale)
        kind = asked.get("kind") if asked.get("kind") in ("turn", "reaction", "choice") else "turn"
        lines.append(t(f"discord.control.{kind}", locale, prompt=said) + _deadline(asked, locale))
    else:
        if waiting_for:
            lines.append(t("discord.control.waiting", locale,
                           players=", ".join(display_names([seats[s] for s in waiting_for]))))
        if anytime:  # what the seat may do although nothing is asked of it (Bloodwood's declaration)
            lines.append(t("discord.choices.anytime", locale))
    private = [f"🔒 {shorten(line, 300)}" for line in list(news)[-6:]]
    board = code_blocks(game.render_view(view, locale, plain_names(seats)))
    if recap is None:
        head = t("discord.control.header", locale, game=game_title(game, locale), table=table.id,
                 link=f"\n{link}" if link else "")
        return _fit(head, board[0] if board else "", [*([note] if note else []), *private, *lines])
    first = headline(game_title(game, locale), table.id, recap.move, locale)
    tail = [*([note] if note else []), *lines]
    room = SCREEN_ROWS - rows(first) - (rows(link) if link else 0) - sum(rows(line) for line in tail)
    public = list(recap.lines)
    if public and public[0] == recap.move:  # the recap opens with the move: the first line says it already
        public = public[1:]
    # the private news is told here only (a card drawn, a role learnt): never dropped for the public moves,
    # which the log keeps; they take what it leaves (two rows at least: the newest line and the way to the log)
    shown = recap_lines(public, locale, recap.log_url, room=max(2, room - sum(rows(x) for x in private))) \
        if public else []
    head = "\n".join([first, *shown, *([link] if link else [])])
    return _fit(head, board[0] if board else "", [*private, *tail])


def public_lines(game: Game, events: Sequence[Mapping[str, Any]], seats: Sequence[SeatRow], locale: str) -> list[str]:
    return event_lines(game, [e for e in events if e.get("to") is None], locale, display_names(seats))


def numbered_lines(game: Game, events: Sequence[Mapping[str, Any]], seats: Sequence[SeatRow], locale: str,
                   moves: Moves, *, width: int = 196) -> list[str]:
    """The public lines of ``events`` as the live message shows them: each move's first line with its number in
    the log (``moves``: the table's whole history, bot/referee/moves.py) — the number ``/table log``, ``/dispute``
    and ``/mod rollback`` use — and the lines of a move a rollback undid struck out, as in the log."""
    entries = {entry.version: entry for entry in moves.entries}
    by_version: dict[int, list[Mapping[str, Any]]] = {}
    for event in events:
        if event.get("to") is None:
            by_version.setdefault(int(event["version"]), []).append(event)
    lines: list[str] = []
    for version in sorted(by_version):
        entry = entries.get(version)
        texts = [shorten(line, width) for line in event_lines(game, by_version[version], locale, display_names(seats))]
        if entry is not None and entry.kind == "move" and texts:
            texts[0] = f"{entry.number}. {texts[0]}"
        if entry is not None and entry.undone:
            texts = [f"~~{text}~~" for text in texts]
        lines += texts
    return lines


def private_lines(game: Game, events: Sequence[Mapping[str, Any]], seat: int, seats: Sequence[SeatRow],
                  locale: str) -> list[str]:
    return event_lines(game, [e for e in events if e.get("to") is not None and seat in e["to"]], locale,
                       display_names(seats))


def human(seat: SeatRow) -> bool:
    return not seat.is_bot and discord_user_id(seat.user_id) is not None
