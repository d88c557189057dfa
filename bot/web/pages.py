"""The pages as HTML: pure functions of the public records (public.py) and a language.

Templates (bot/web/templates/) are Jinja2 with autoescaping on for every file: a name, a title or an event's
text is always inserted as text, never as markup; there is no hand-made escaping anywhere.  A name shown on
its own is wrapped in ``<bdi>`` (macros.html ``person``) so that a right-to-left name cannot reorder the text
around it; a name inside a sentence, a board or the page's ``<title>`` (where no element may go) is isolated
with U+2068 … U+2069 (``named``).  Every page passes ``clean_page`` last: no control character, no
directional override and no unpaired isolate reaches the browser, whatever a record holds.  Nothing here reads
the store: what a page shows is decided by what it is given, and the tests give it states whose hidden cards
differ.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import quote

import jinja2

from bot.engine import get_game
from bot.engine.board_text import isolate
from bot.engine.canonical import dumps
from bot.i18n import LOCALES, t
from bot.ratings.model import PROVISIONAL_GAMES
from bot.render.picture import supported
from bot.render.text import outcome_line, render_event
from bot.rules import GAMES, cite_spans

from .public import LOCAL, PublicPlayer, PublicTable, PublicTournament, ServerIndex, Step

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: the newest steps of the log a table page shows (the whole log has a page of its own): a page's size and time
#: stay bounded however long the game
LOG_SHOWN = 60
#: the replay's list of steps: this many either side of the step shown, and the first and the last
REPLAY_AROUND = 12
#: pages with no time to show and nothing to follow: served without the script (static/live.js)
STILL = frozenset({"rules.html", "not_found.html"})


@lru_cache(maxsize=65_536)
def utc(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@lru_cache(maxsize=65_536)
def iso(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# C0 and C1 controls but tab and line breaks, the embeddings and overrides (LRE … RLO), and the isolates the
# pages never write themselves (LRI, RLI): nothing a browser should act on may come from a record
_STRAY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066\u2067]")
_ISOLATION = re.compile("[\u2068\u2069\n]")


def named(text: str) -> str:
    """A name or a title inside a sentence, a board or the ``<title>``: isolated from the text around it."""
    return isolate(text)


def _names(names: Sequence[str]) -> list[str]:
    return [named(n) for n in names]


def clean_page(html: str) -> str:
    """``html`` without stray controls, and its U+2068 … U+2069 pairs matched within each line (a line break
    closes every isolate; a name cut at a board's line loses its marks rather than leave one open)."""
    html = _STRAY.sub("", html)
    if "\u2068" not in html and "\u2069" not in html:
        return html
    dropped: list[int] = []
    opened: list[int] = []
    for m in _ISOLATION.finditer(html):
        ch, at = m.group(), m.start()
        if ch == "\u2068":
            opened.append(at)
        elif ch == "\u2069":
            if opened:
                opened.pop()
            else:
                dropped.append(at)
        else:
            dropped += opened
            opened = []
    dropped += opened
    if not dropped:
        return html
    out, start = [], 0
    for at in sorted(dropped):
        out.append(html[start:at])
        start = at + 1
    out.append(html[start:])
    return "".join(out)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
                             auto_reload=False)
    env.filters["utc"] = utc
    env.filters["iso"] = iso
    env.filters["urlencode_all"] = lambda text: quote(str(text), safe="")
    return env


#: og:locale of each language (Open Graph wants language_TERRITORY)
OG_LOCALES = {"ru": "ru_RU", "uk": "uk_UA", "en": "en_US"}


class Page:
    """What every page shares: its language, whether the language was asked for in the address (then every
    link keeps it), the localised text, and the site's public address (``web.base_url``, for link previews)."""

    def __init__(self, lang: str, explicit: bool = False, base_url: str | None = None):
        self.lang = lang if lang in LOCALES else LOCALES[0]
        self.explicit = explicit
        self.base_url = base_url.rstrip("/") if base_url else None

    def t(self, key: str, /, **params: Any) -> str:
        return t(key, self.lang, **params)

    def url(self, path: str) -> str:
        if not self.explicit:
            return path
        return f"{path}{'&' if '?' in path else '?'}lang={self.lang}"

    def absolute(self, path: str | None) -> str | None:
        """``path`` (this page's language kept) as an absolute address; None without a base address (a link
        preview takes absolute addresses only)."""
        return f"{self.base_url}{self.url(path)}" if self.base_url and path else None

    def preview(self, path: str, description: str | None, image: str | None = None) -> dict[str, Any]:
        """A page's link preview (Open Graph, base.html): its address, a line of public facts, its picture."""
        return {"url": self.absolute(path), "description": description, "image": self.absolute(image),
                "locale": OG_LOCALES.get(self.lang, "en_US"),
                "alternates": [OG_LOCALES[code] for code in LOCALES if code != self.lang and code in OG_LOCALES]}

    def render(self, template: str, **context: Any) -> str:
        context.setdefault("og", self.preview("/", None))
        return clean_page(environment().get_template(template).render(
            lang=self.lang, langs=LOCALES, t=self.t, url=self.url, script=template not in STILL, **context))


# ---------------------------------------------------------------------------------------------- tables
def step_label(page: Page, step: Step) -> str:
    if step.kind == "setup":
        return page.t("web.table.setup")
    if step.kind == "rollback":
        return page.t("web.table.rollback")
    return page.t("web.replay.move", move=step.number)


def step_lines(lang: str, table: PublicTable, step: Step) -> list[str]:
    """The step's public events as text lines (a step's events never change once recorded: the application
    keeps these by table, step and language, so a new move renders only its own lines)."""
    game, names = get_game(table.game), _names(table.names)
    lines = []
    for event in step.events:
        if event.get("to") is not None:  # public steps carry public events only (public.py); never trust it
            continue
        text = render_event(game, event, lang, names, detail=True)
        if text:
            lines.append(text)
    return lines


@lru_cache(maxsize=65_536)
def _cites_in(game: str, line: str) -> tuple[tuple[int, int, str], ...]:
    if game not in GAMES:
        return ()
    return tuple((start, end, entry.anchor) for start, end, entry in cite_spans(game, line))


def linked(page: Page, game: str, line: str) -> list[dict[str, str | None]]:
    """A log line as pieces of text, each citation in it (``(see §6)``, ``CG-14``) a link to its paragraph or
    ruling on the game's rules page (bot/web/rules.py, the anchors the Discord "Why?" answer links too)."""
    pieces: list[dict[str, str | None]] = []
    at = 0
    for start, end, anchor in _cites_in(game, line):
        if start > at:
            pieces.append({"text": line[at:start], "href": None})
        pieces.append({"text": line[start:end], "href": page.url(f"/rules/{game}") + "#" + quote(anchor)})
        at = end
    if at < len(line) or not pieces:
        pieces.append({"text": line[at:], "href": None})
    return pieces


#: (lang, table, step) -> the step's lines; the application passes a kept version of ``step_lines``
Lines = Callable[[str, PublicTable, Step], list[str]]


def _step(page: Page, table: PublicTable, step: Step, lines: Lines = step_lines) -> dict[str, Any]:
    names = table.names
    who = None
    if step.kind == "move":
        who = names[step.seat] if step.seat is not None and 0 <= step.seat < len(names) \
            else page.t("web.table.referee")
    anchor = f"m{step.number}" if step.kind == "move" and not step.undone else f"s{step.index}"
    return {"index": step.index, "label": step_label(page, step), "who": who, "undone": step.undone,
            "utc": utc(step.at) if step.at else None, "iso": iso(step.at) if step.at else None,
            "lines": [linked(page, table.game, line) for line in lines(page.lang, table, step)], "anchor": anchor,
            "href": page.url(f"/table/{table.id}/replay/{step.index}")}


def _pending(page: Page, view: Mapping[str, Any] | None, names: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for p in (view or {}).get("to_act") or []:
        if not 0 <= p["seat"] < len(names):
            continue
        out.append({"what": page.t(f"core.pending.{p.get('kind') or 'turn'}"), "name": names[p["seat"]],
                    "deadline": p.get("deadline")})
    return out


def _board(table: PublicTable, view: Mapping[str, Any] | None, lang: str) -> str | None:
    if view is None:
        return None
    return get_game(table.game).render_view(view, lang, _names(table.names))


def picture_of(table: PublicTable) -> str | None:
    """The address of the table's public picture now, marked with a digest of the public view it is drawn from:
    a page updated in place (static/live.js) shows a new picture exactly when the view has changed, and the
    mark tells nothing the board beside it does not."""
    if table.view is None:
        return None
    return f"/table/{table.id}/picture.png?v={hashlib.sha256(dumps(table.view).encode()).hexdigest()[:12]}"


def pending_line(page: Page, table: PublicTable) -> str | None:
    """Whose decision a table in play waits for, in one line (the tournament page's list of live tables)."""
    waiting = _pending(page, table.view, table.names) if table.status == "active" else []
    if not waiting:
        return None
    return ", ".join(f"{p['what']}: {named(p['name'])}" for p in waiting)


def table_page(page: Page, table: PublicTable, lines: Lines = step_lines) -> str:
    game = get_game(table.game)
    outcome = (table.view or {}).get("outcome") or table.outcome
    winners = set((outcome or {}).get("winners") or [])
    seats = [{"name": s.name, "user_id": s.user_id, "is_bot": s.is_bot, "won": s.seat in winners}
             for s in table.seats]
    tournament = None
    if table.tournament:
        tid, title, rnd, board = table.tournament
        tournament = {"id": tid, "text": page.t("web.table.in_tournament",
                                                tournament=named(title) if title else f"#{tid}",
                                                round=rnd, board=board)}
    status = page.t(f"web.table.status.{table.status}")
    outcome_text = outcome_line(game, outcome, page.lang, _names(table.names)) if outcome else None
    picture = f"/table/{table.id}/picture.png" if table.view is not None else None
    return page.render(
        "table.html", title=page.t("web.table.title", table=table.id), table=table,
        og=page.preview(f"/table/{table.id}", _table_summary(page, table, status, outcome_text),
                        picture if supported(table.game) else None),
        game_title=page.t(f"{game.name}.title"), status=status,
        tournament=tournament, seats=seats,
        outcome=outcome_text,
        pending=_pending(page, table.view, table.names) if table.status == "active" else [],
        picture=picture_of(table), board=_board(table, table.view, page.lang),
        steps=[_step(page, table, s, lines) for s in table.steps[-LOG_SHOWN:]],
        earlier=max(0, len(table.steps) - LOG_SHOWN), live="on" if table.status == "active" else None)


def _table_summary(page: Page, table: PublicTable, status: str, outcome: str | None) -> str:
    """A table's link preview line: the game, who plays, its status or result (the public's facts only)."""
    return " · ".join([page.t(f"{table.game}.title"), ", ".join(named(n) for n in table.names),
                       outcome or status])


def log_page(page: Page, table: PublicTable, lines: Lines = step_lines) -> str:
    """The whole log of a table, every step with its link into the replay."""
    status = page.t(f"web.table.status.{table.status}")
    return page.render("full_log.html", title=page.t("web.table.title", table=table.id), table=table,
                       og=page.preview(f"/table/{table.id}/log", _table_summary(page, table, status, None)),
                       game_title=page.t(f"{table.game}.title"), steps=[_step(page, table, s, lines) for s in table.steps])


def replay_page(page: Page, table: PublicTable, index: int, view: Mapping[str, Any] | None,
                lines: Lines = step_lines) -> str:
    """Step ``index`` of the table's public history, with ``view``: the public's view right after it."""
    game = get_game(table.game)
    step = table.steps[index]
    shown = _step(page, table, step, lines)
    picture = f"/table/{table.id}/replay/{index}.png" if view else None
    return page.render(
        "replay.html", title=page.t("web.replay.title", table=table.id), table=table,
        og=page.preview(f"/table/{table.id}/replay/{index}",
                        " · ".join([page.t(f"{game.name}.title"), ", ".join(named(n) for n in table.names),
                                    shown["label"]]), picture if supported(table.game) else None),
        game_title=page.t(f"{game.name}.title"), step=shown, last=len(table.steps) - 1,
        steps=_around(page, table, index),
        base=f"/table/{table.id}/replay/", picture=picture,
        board=_board(table, view, page.lang),
        # the last step of a table in play follows the game: the script moves on to each new last step
        live="follow" if table.status == "active" and index == len(table.steps) - 1 else None)


def _around(page: Page, table: PublicTable, index: int) -> list[dict[str, Any]]:
    """The replay's list of steps: the first, those near the step shown, the last; a gap marked between."""
    last = len(table.steps) - 1
    shown = sorted({0, last, *range(max(0, index - REPLAY_AROUND), min(last, index + REPLAY_AROUND) + 1)})
    out: list[dict[str, Any]] = []
    for i in shown:
        if out and i > out[-1]["index"] + 1:
            out.append({"index": i - 1, "gap": True, "here": False})
        s = table.steps[i]
        out.append({"index": i, "gap": False, "href": page.url(f"/table/{table.id}/replay/{i}"),
                    "label": step_label(page, s), "here": i == index})
    return out


# ---------------------------------------------------------------------------------------------- tournaments
def _pts(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def tournament_name(page: Page, title: str | None, tid: int) -> str:
    return title or page.t("web.tournament.title", tournament=tid)


def tournament_page(page: Page, data: PublicTournament) -> str:
    from bot.tournament.stages import group_letter
    from bot.tournament.standings import tiebreak_order

    tour = data.row
    names = {e.user_id: e.name for e in data.entries}
    game = get_game(tour.game)
    order_keys = tiebreak_order(tour.format, tour.settings.get("tiebreaks") or None,
                                tour.settings.get("tiebreak_rules", "classic"))  # bot/tournament/standings.py
    keys = [k for k in dict.fromkeys(("survived", *order_keys)) if k != "points"
            and (k != "survived" or tour.format in ("elimination", "double_elimination"))]
    columns = [page.t("tournament.col.rank"), page.t("tournament.col.player"), page.t("tournament.col.points"),
               page.t("tournament.col.wdl"), *(_column(page, k) for k in keys), page.t("web.tournament.byes"),
               page.t("web.tournament.lot_number")]
    rated = any(getattr(s, "rating", None) is not None for s in data.standings)
    if rated:  # each player's rating at the start, as the seeding read it (docs/ratings.md)
        columns.append(page.t("ratings.col.rating"))
    # the lot as what it means to a reader: each player's place in the drawn order (the hash itself says nothing)
    drawn = {s.user_id: n for n, s in enumerate(sorted(data.standings, key=lambda s: s.lot), start=1)}

    def row_of(s: Any) -> dict[str, Any]:
        cells = [getattr(s, "place", "") or str(s.rank), s.name, _pts(s.points), f"{s.wins}-{s.draws}-{s.losses}",
                 *(_pts(getattr(s, k)) if k != "wins" else str(s.wins) for k in keys), str(s.byes),
                 str(drawn.get(s.user_id, ""))]
        if rated:
            cells.append("" if s.rating is None else str(s.rating))
        return {"cells": cells, "name": s.name, "user_id": s.user_id, "dropped": s.status != "active",
                "rounds": _by_round(page, data, s.user_id, places, played, names)}
    places = {s.user_id: getattr(s, "place", "") or str(s.rank) for s in data.standings}
    played: dict[tuple[str, int], Any] = {}
    for g in data.games:
        for p in g.players:
            played.setdefault((p, g.round), g)
    standings = [row_of(s) for s in data.standings]
    groups = [{"title": page.t("tournament.stage.group", group=group_letter(i)), "standings": [row_of(s) for s in g],
               "crosstable": _crosstable(page, replace(data, standings=g))}
              for i, g in enumerate(data.groups, start=1)]  # T-24: each group ranked inside it
    order = ", ".join(page.t("tournament.col.points") if k == "points" else _column(page, k) for k in order_keys)
    rounds_planned = tour.settings.get("rounds") or 0
    by_round: dict[int, list[Any]] = {}
    for g in data.games:
        by_round.setdefault(g.round, []).append(g)
    rounds = []
    for r in data.rounds:
        games = []
        for g in by_round.get(r.number, []):
            result = page.t(f"tournament.result.{g.result or 'playing'}")
            games.append({"board": g.board, "table": g.table_id if g.kind == "table" else None, "result": result,
                          "players": [{"name": names.get(p, "?"), "user_id": p,
                                       "points": _pts(g.points.get(p)) if g.points else None} for p in g.players]})
        rounds.append({"number": r.number, "deadline": r.deadline if r.status == "playing" else None,
                       "status": page.t("web.tournament.round_done" if r.status == "finished"
                                        else "web.tournament.round_playing"), "games": games})
    summary = [page.t(f"{game.name}.title"), page.t(f"tournament.format.{tour.format}"),
               page.t(f"tournament.status.{tour.status}"),
               page.t("web.og.entries", n=len(data.entries))]
    if data.standings and tour.status == "finished":
        summary.append(page.t("web.og.leader", name=named(data.standings[0].name)))
    return page.render(
        "tournament.html", title=named(tournament_name(page, tour.title, tour.id)), tour=tour,
        og=page.preview(f"/tournament/{tour.id}", " · ".join(summary)),
        name=tournament_name(page, tour.title, tour.id), game_title=page.t(f"{game.name}.title"),
        format=page.t(f"tournament.format.{tour.format}"), status=page.t(f"tournament.status.{tour.status}"),
        round_text=_round_text(page, tour, rounds_planned),
        columns=columns, standings=standings, entries=[{"name": e.name, "user_id": e.user_id} for e in data.entries],
        order_note=page.t("web.tournament.tiebreaks", keys=order) + " " + page.t("web.tournament.lot_note"),
        rounds=rounds,
        registration_until=tour.settings.get("registration_until") if tour.status == "registration" else None,
        crosstable=_crosstable(page, data) if tour.format in ("swiss", "round_robin") and data.standings
        and not groups else None, groups=groups, **_stages(page, data),
        bracket=_bracket(page, data),
        round_heads=[str(r.number) for r in data.rounds], live_tables=_live_tables(page, data),
        live=None if tour.status in ("finished", "cancelled") else "on")


def _round_text(page: Page, tour: Any, planned: int) -> str | None:
    """"round 6 of 7" while it runs; once over, the rounds it took (a double elimination's reset, say, is planned
    but not always played)."""
    if not tour.round:
        return None
    if tour.status == "finished":
        return page.t("web.tournament.rounds_played", rounds=tour.round)
    return page.t("web.tournament.round_of", round=tour.round, rounds=planned) if planned else None


def _mark(page: Page, game: Any, user_id: str) -> str:
    """A player's result in one game as the standings' per-round cell shows it: + won, = drawn, − lost for a
    two-player table, the points got at a larger one, the kind's word for a bye or a late entry (its points
    count in the total beside), … in play."""
    if game.kind != "table":
        return page.t(f"tournament.result.{game.result or game.kind}")
    if not game.points:
        return "…"
    got = game.points.get(user_id)
    if len(game.players) != 2:
        return _pts(got)
    best = max(game.points.values())
    if got is None or got < best:
        return "−"
    return "=" if list(game.points.values()).count(best) > 1 else "+"


def _by_round(page: Page, data: PublicTournament, user_id: str, places: Mapping[str, str],
              played: Mapping[tuple[str, int], Any], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """A standings row's results round by round: the mark, the table (a link) and the opponents (their place,
    a link to their page).  ``played``: each player's game of each round (its first, as the crosstable)."""
    out: list[dict[str, Any]] = []
    for r in data.rounds:
        g = played.get((user_id, r.number))
        if g is None:
            out.append({"mark": "", "table": None, "opponents": []})
            continue
        out.append({"mark": _mark(page, g, user_id), "table": g.table_id if g.kind == "table" else None,
                    "opponents": [{"name": names.get(o, "?"), "user_id": o, "place": places.get(o, "?")}
                                  for o in g.players if o != user_id]})
    return out


def _live_tables(page: Page, data: PublicTournament) -> list[dict[str, Any]]:
    """The event's tables in play: players, whose decision each waits for, its public picture as a thumbnail."""
    boards = {g.table_id: g for g in data.games if g.table_id}
    out = []
    for table in data.live:
        g = boards.get(table.id)
        out.append({"id": table.id, "round": g.round if g else None, "board": g.board if g else None,
                    "names": [{"name": s.name, "user_id": s.user_id} for s in table.seats],
                    "waiting": pending_line(page, table),
                    "picture": picture_of(table) if supported(table.game) else None})
    return out


def _stages(page: Page, data: PublicTournament) -> dict[str, Any]:
    """A two-stage event (T-24): this page's stage heading, the other stage (a link), and on the first stage's
    page the second stage's bracket."""
    tour = data.row
    fmt = page.t(f"tournament.format.{tour.format}")
    none: dict[str, Any] = {"stage_heading": None, "other_stage": None, "next_bracket": None}  # strict templates
    if data.first_stage is not None:
        first = data.first_stage
        return {**none, "stage_heading": page.t("tournament.stage.second", format=fmt),
                "other_stage": {"id": first.id, "name": tournament_name(page, first.title, first.id),
                                "heading": page.t("tournament.stage.first",
                                                  format=page.t(f"tournament.format.{first.format}"))}}
    if not tour.settings.get("stage2"):
        return none
    out: dict[str, Any] = {**none, "stage_heading": page.t("tournament.stage.first", format=fmt)}
    heading = page.t("tournament.stage.second", format=page.t(f"tournament.format.{tour.settings['stage2']}"))
    second = data.next_stage
    if second is not None:
        out["other_stage"] = {"id": second.row.id, "name": tournament_name(page, second.row.title, second.row.id),
                              "heading": heading}
        out["next_bracket"] = _bracket(page, second)
    else:
        out["other_stage"] = {"id": None, "name": None, "heading": heading}
        out["next_bracket"] = _bracket_ahead(page, tour, len([e for e in data.entries if e.status == "active"]))
    return out


def _column(page: Page, key: str) -> str:
    return page.t("web.tournament.wins") if key == "wins" else page.t(f"tournament.col.{key}")


def _crosstable(page: Page, data: PublicTournament) -> dict[str, Any]:
    """Round-robin: everyone against everyone (a cell: the row player's points against the column's, and the
    round).  Swiss: one column per round (a cell: the opponent's place and the row player's points)."""
    ranked = data.standings
    place = {s.user_id: s.rank for s in ranked}
    games = [g for g in data.matches if g.kind == "table" and len(g.players) == 2]
    rows = []
    if data.row.format == "round_robin":
        heads = [str(s.rank) for s in ranked]
        for s in ranked:
            cells = []
            for o in ranked:
                if o.user_id == s.user_id:
                    cells.append({"text": "", "self": True, "table": None})
                    continue
                met = [g for g in games if set(g.players) == {s.user_id, o.user_id}]
                text = " ".join(f"{_pts(g.points.get(s.user_id)) if g.points else '…'}" for g in met)
                cells.append({"text": text, "self": False, "table": met[-1].table_id if met else None})
            rows.append({"rank": s.rank, "name": s.name, "cells": cells, "points": _pts(s.points)})
        return {"heads": heads, "rows": rows}
    numbers = [r.number for r in data.rounds]
    heads = [str(n) for n in numbers]
    for s in ranked:
        cells = []
        for n in numbers:
            mine = [g for g in data.games if g.round == n and s.user_id in g.players]
            if not mine:
                cells.append({"text": "", "self": False, "table": None})
                continue
            g = mine[0]
            got = _pts(g.points.get(s.user_id)) if g.points else "…"
            if g.kind != "table":
                cells.append({"text": f"{page.t(f'tournament.result.{g.result or g.kind}')} {got}", "self": False,
                              "table": None})
                continue
            others = [o for o in g.players if o != s.user_id]
            cells.append({"text": f"{'/'.join(str(place.get(o, '?')) for o in others)}: {got}", "self": False,
                          "table": g.table_id})
        rows.append({"rank": s.rank, "name": s.name, "cells": cells, "points": _pts(s.points)})
    return {"heads": heads, "rows": rows}


def bracket_of(data: PublicTournament) -> Any:
    """The whole bracket of a single or double elimination (bot/tournament/bracket_layout.py), from the start;
    None for another format."""
    from bot.tournament.bracket_layout import for_event
    from bot.tournament.director import Director

    return for_event(data.row, data.entries, data.games, Director.points(data.row))


def _bracket(page: Page, data: PublicTournament) -> list[dict[str, Any]] | None:
    """The bracket's trees for the template: per tree its title and columns (each with how it leads to the
    next: ``join``, ``straight``, ``end``), per match its number, tag, tables and slots."""
    from bot.tournament.bracket_layout import as_rows

    lay = bracket_of(data)
    if lay is None:
        return None
    names = {e.user_id: e.name for e in data.entries}
    return as_rows(lay, names, page.t)


def _bracket_ahead(page: Page, tour: Any, entries: int) -> list[dict[str, Any]] | None:
    """A first stage's second stage before it exists (T-24): its bracket with the seeds it will take."""
    from bot.tournament.bracket_layout import as_rows, layout
    from bot.tournament.standings import Points

    fmt, groups = tour.settings.get("stage2"), tour.settings.get("groups") or 1
    going = min(entries, (tour.settings.get("advance") or 0) * groups)
    if fmt not in ("elimination", "double_elimination") or going < 2:
        return None
    lay = layout(None, [], Points(), double=fmt == "double_elimination", entrants=going,
                 reset=tour.settings.get("reset", True), third_place=bool(tour.settings.get("third_place")))
    return as_rows(lay, {}, page.t)


# ---------------------------------------------------------------------------------------------- index, players
def server_label(page: Page, guild: str) -> str:
    return page.t("web.index.local") if guild == LOCAL else page.t("web.index.server", guild=guild)


def servers_page(page: Page, servers: Sequence[tuple[str, int, int]]) -> str:
    return page.render("servers.html", title=page.t("web.index.title"), og=page.preview("/", page.t("web.og.site")),
                       servers=[(k, server_label(page, k), n, m) for k, n, m in servers], live="on")


def index_page(page: Page, index: ServerIndex, many: bool) -> str:
    tours = [{"id": x.id, "name": tournament_name(page, x.title, x.id), "game": page.t(f"{x.game}.title"),
              "format": page.t(f"tournament.format.{x.format}"), "status": page.t(f"tournament.status.{x.status}"),
              "round": x.round, "round_text": page.t("web.tournament.round", round=x.round)} for x in index.tournaments]
    games: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for row, names in index.tables:
        group = {"active": "open", "finished": "finished", "cancelled": "cancelled"}[row.status]
        result = None
        if row.outcome is not None:
            result = outcome_line(get_game(row.game), row.outcome, page.lang, _names(names))
        games.setdefault(row.game, {}).setdefault(group, []).append(
            {"id": row.id, "title": row.title, "names": names, "result": result})
    listed = []
    for name in sorted(games, key=lambda g: page.t(f"{g}.title")):
        groups = [(page.t(f"web.index.{g}"), games[name][g]) for g in ("open", "finished", "cancelled")
                  if g in games[name]]
        listed.append({"title": page.t(f"{name}.title"), "groups": groups})
    path = f"/server/{index.guild}" if many else "/"
    title = server_label(page, index.guild)
    if index.page > 1:
        title = page.t("web.index.page_title", server=title, page=index.page)
    return page.render("index.html", title=title, many=many, tournaments=tours,
                       og=page.preview(page_path(path, index.page), page.t("web.og.site")),
                       games=listed, live="on", pager=pager(page, path, index.page, index.pages))


def page_path(path: str, number: int) -> str:
    return path if number == 1 else f"{path}?page={number}"


def page_numbers(current: int, last: int) -> list[int | None]:
    """The page numbers a pager shows: the first, the last, the current and its neighbours, None for a gap;
    seven at most, so the row fits a phone's width."""
    shown = sorted({1, last, *range(max(1, current - 1), min(last, current + 1) + 1)})
    out: list[int | None] = []
    for n in shown:
        if out and n - (out[-1] or 0) > 1:
            out.append(None)
        out.append(n)
    return out


def pager(page: Page, path: str, current: int, last: int) -> dict[str, Any] | None:
    """An index's links to its other pages (None when it has one page)."""
    if last <= 1:
        return None
    def link(n: int) -> str:
        return page.url(page_path(path, n))
    return {"label": page.t("web.index.pages"),
            "prev": link(current - 1) if current > 1 else None, "next": link(current + 1) if current < last else None,
            "numbers": [None if n is None else {"n": n, "url": link(n), "current": n == current}
                        for n in page_numbers(current, last)]}


def player_page(page: Page, player: PublicPlayer | None, hidden: bool, ratings: Sequence[Mapping[str, Any]] = (),
                name: str | None = None) -> str:
    """A player's tables and tournaments (and ratings, given by ``Profiles``); only a line when hidden."""
    shown = player.name if player is not None else name or "?"
    if hidden or player is None:  # a hidden profile's preview says no more than its page
        return page.render("player.html", title=page.t("web.player.title", name=named(shown)), hidden=True)
    tables = []
    for row, seats in player.tables:
        mine = [s.seat for s in seats if s.user_id == player.user_id]
        result = None
        if row.outcome is not None and mine:
            winners = set(row.outcome.get("winners") or [])
            result = page.t("web.player.won" if winners & set(mine) else
                            "web.player.draw" if not winners else "web.player.lost")
        tables.append({"id": row.id, "game": page.t(f"{row.game}.title"), "status": page.t(f"web.table.status.{row.status}"),
                       "result": result, "seats": [{"name": s.name, "user_id": s.user_id} for s in seats]})
    tours = [{"id": x.id, "name": tournament_name(page, x.title, x.id), "game": page.t(f"{x.game}.title"),
              "status": page.t(f"tournament.status.{x.status}"), "place": None,
              **_event_of(page, player, x.id)} for x, _ in player.tournaments]
    several = len({r.get("server") for r in ratings}) > 1  # ratings are kept per server: name it when it matters
    lines = [page.t("web.player.rating_line", game=page.t(f"{r['game']}.title"), rating=r["rating"],
                    games=r.get("games", 0)) + (f" · {server_label(page, r['server'])}" if several else "")
             for r in ratings]
    # a provisional figure ends with "?": the page says what it means
    legend = (page.t("ratings.provisional_note", n=PROVISIONAL_GAMES)
              if any(str(r["rating"]).endswith("?") for r in ratings) else None)
    return page.render("player.html", title=page.t("web.player.title", name=named(shown)), hidden=False, ratings=lines,
                       og=page.preview(f"/player/{quote(player.user_id, safe='')}",
                                       page.t("web.index.counts", tables=len(tables), tournaments=len(tours))),
                       legend=legend, tables=tables, tournaments=tours)


def _event_of(page: Page, player: PublicPlayer, tournament_id: int) -> dict[str, Any]:
    """A player's games in one event, round by round (the opponents, the table, the result), and their score:
    the points of the games settled so far."""
    names = player.opponents.get(tournament_id, {})
    games, score = [], 0.0
    for g in player.games.get(tournament_id, []):
        got = g.points.get(player.user_id) if g.points else None
        score += got or 0.0
        games.append({"round": page.t("web.tournament.round", round=g.round), "mark": _mark(page, g, player.user_id),
                      "table": g.table_id if g.kind == "table" else None, "points": _pts(got),
                      "opponents": [{"name": names.get(o, "?"), "user_id": o} for o in g.players
                                    if o != player.user_id]})
    return {"games": games, "score": page.t("web.player.event_score", points=_pts(score)) if games else None}


def not_found_page(page: Page) -> str:
    return page.render("not_found.html", title=page.t("web.not_found_title"), message=page.t("web.not_found"))


#: a function of (page) -> html, for the application's cache
Render = Callable[[Page], str]
