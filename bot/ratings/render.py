"""Ratings as text, for the terminal and Discord alike: short lines that fit a phone's width."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.i18n import t
from bot.ratings.model import PROVISIONAL_GAMES
from bot.ratings.outcomes import is_duel
from bot.ratings.ratings import Board, Change, Profile, Ratings

MINUS = "\u2212"
NARROW_SPACE = "\u202f"


def number(n: int, locale: str) -> str:
    """1,512 in English, 1 512 (a narrow no-break space) in Russian and Ukrainian."""
    text = f"{abs(n):,}".replace(",", "," if locale == "en" else NARROW_SPACE)
    return (MINUS if n < 0 else "") + text


def signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else (f"{MINUS}{-delta}" if delta < 0 else "±0")


def mark(provisional: bool, locale: str) -> str:
    return t("ratings.provisional_mark", locale) if provisional else ""


def game_name(game: str, locale: str) -> str:
    return t(f"{game}.title", locale)


def changes_line(changes: Sequence[Change], names: Sequence[str], locale: str) -> str:
    """The end of a rated table: "Rating: Ann +69 → 1,569? · Bob −37 → 1,463?", and what "?" means."""
    parts = [t("ratings.change", locale, name=names[c.seat] if c.seat < len(names) else c.user_id,
               delta=signed(c.delta), after=number(c.after, locale) + mark(c.provisional, locale)) for c in changes]
    line = t("ratings.changes", locale, changes=" · ".join(parts))
    if any(c.provisional for c in changes):  # a bare "1 569?" reads as a doubt: say what the mark means
        line += "\n" + t("ratings.provisional_note", locale, n=PROVISIONAL_GAMES)
    return line


def board_text(board: Board, names: Mapping[str, str], locale: str) -> str:
    title = t("ratings.board.title", locale, game=game_name(board.game, locale), page=board.page, pages=board.pages)
    if not board.rows:
        return title + "\n" + t("ratings.board.empty", locale)
    lines = [title]
    lines += [t("ratings.board.row", locale, place=r.place, name=names.get(r.user_id, r.user_id),
                shown=number(r.shown, locale), mark=mark(r.provisional, locale), games=r.games) for r in board.rows]
    if any(r.provisional for r in board.rows):
        lines.append(t("ratings.provisional_note", locale, n=PROVISIONAL_GAMES))
    return "\n".join(lines)


def _where(table_id: int, thread_id: str | None, front: str) -> str:
    return f"<#{thread_id}>" if front == "discord" and thread_id else f"#{table_id}"


def profile_text(profile: Profile, name: str, locale: str, *, front: str = "terminal", own: bool = False) -> str:
    lines = [t("ratings.profile.title", locale, name=name)]
    if own and profile.hidden:
        lines.append(t("ratings.profile.hidden_own", locale))
    if not profile.games:
        lines.append(t("ratings.profile.nothing", locale))
    for rec in profile.games:
        if rec.shown is None:
            lines.append(t("ratings.profile.unrated_game", locale, game=game_name(rec.game, locale)))
            extra = [t("ratings.profile.played", locale, played=rec.played)]
        else:
            lines.append(t("ratings.profile.game", locale, game=game_name(rec.game, locale),
                           shown=number(rec.shown, locale), mark=mark(rec.provisional, locale)))
            extra = [t("ratings.profile.counts", locale, games=rec.games, played=rec.played)]
        extra.append(t("ratings.profile.wins", locale, wins=rec.wins))
        if rec.places and max(rec.places) > 2:  # a multi-seat game: the places, best first
            extra.append(t("ratings.profile.places", locale,
                           places=", ".join(f"{p}×{n}" for p, n in sorted(rec.places.items()))))
        lines.append("  " + " · ".join(extra))
    if any(rec.shown is not None and rec.provisional for rec in profile.games):
        lines.append(t("ratings.provisional_note", locale, n=PROVISIONAL_GAMES))
    if profile.recent:
        lines.append(t("ratings.profile.recent", locale))
        for r in profile.recent:
            if r.won:
                result = t("ratings.profile.won", locale)
            elif r.place == 1:  # a shared first place without a win: a draw
                result = t("ratings.profile.draw", locale)
            elif r.place is None or is_duel(r.game):
                result = t("ratings.profile.lost", locale)
            else:
                result = t("ratings.profile.place", locale, place=r.place)
            if r.delta is not None:
                result += f" ({signed(r.delta)})"
            lines.append("• " + t("ratings.profile.recent_row", locale, table=r.table_id,
                                  game=game_name(r.game, locale), result=result).replace(
                f"#{r.table_id}", _where(r.table_id, r.thread_id, front), 1))
    if profile.current:
        lines.append(t("ratings.profile.current", locale,
                       tables=", ".join(_where(tid, thread, front) for tid, _g, _guild, thread in profile.current)))
    if profile.tournaments:
        lines.append(t("ratings.profile.tournaments", locale,
                       tournaments=", ".join(f"#{tid} {title or game_name(g, locale)}"
                                             for tid, g, title in profile.tournaments)))
    return "\n".join(lines)


async def rating_line(store: Any, table: Any, names: Sequence[str], locale: str) -> str:
    """"\nRating: Ann +69 → 1,569? · Bob −37 → 1,463?" for a table rated at its end, else ""."""
    changes = await Ratings(store).table_changes(table.id)
    return "\n" + changes_line(changes, names, locale) if changes else ""


def own_change_line(change: Change, locale: str) -> str:
    """One player's own change at a table's end, for their end notice: "Рейтинг: 1 500 → 1 569? (+69)"."""
    return t("ratings.own_change", locale, before=number(change.before, locale),
             after=number(change.after, locale) + mark(change.provisional, locale), delta=signed(change.delta))


async def own_rating_line(store: Any, table: Any, seat: int, locale: str) -> str | None:
    """``seat``'s own rating change at a rated table's end, else None (a casual table, an unrated end)."""
    change = next((c for c in await Ratings(store).table_changes(table.id) if c.seat == seat), None)
    return own_change_line(change, locale) if change is not None else None
