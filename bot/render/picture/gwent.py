"""Gwent as a picture, drawn from a view: both halves of the field (the viewer's at the bottom, the public's
first seat there too), each row's cards with their strength now (above their printed strength in green,
below it in red, heroes framed in gold), row totals, weather, horns, the round gems, the leaders, passes,
scores and the counts; a seat's own hand below, or alone for the private hand picture."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games.gwent.cards import catalogue
from bot.games.gwent.render import cname, lname, row_marks
from bot.games.gwent.scoring import points
from bot.i18n import t

from .canvas import (BAD, BACKGROUND, COLD, FAINT, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, WARN, Canvas,
                     badge_width, fit, wrap)

WIDTH = 1000
PAD = 12
LABEL_W = 170          # the row's name, total and marks
ROW_H = 66
TILE_W, TILE_H = 64, 56
TILE_MIN = 40          # narrower tiles than this: the cards beyond are counted instead
HAND_TILE = (110, 92)
ROWS_TOP = ("siege", "ranged", "melee")   # the far half, seen from across the table
ROWS_BOTTOM = ("melee", "ranged", "siege")
WEATHER_FILL = (38, 52, 72)


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    me = view["seat"] if view["seat"] is not None else 0
    y = _header(c, view, locale)
    if view["phase"] == "setup":
        return _setup(c, view, locale, names, y)
    y = _side(c, view, 1 - me, ROWS_TOP, locale, names, y, top=True)
    c.line([(PAD, y + 4), (WIDTH - PAD, y + 4)], colour=GOLD, width=2)
    y = _side(c, view, me, ROWS_BOTTOM, locale, names, y + 12, top=False)
    if view.get("hand") is not None:
        _hand(c, view, locale, y + 6)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    """The seat's own hand (and the cards offered for exchange), each card with its printed strength."""
    if view.get("hand") is None:
        return None
    c = Canvas(WIDTH)
    _hand(c, view, locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _header(c: Canvas, view: Mapping[str, Any], locale: str) -> int:
    title = t("gwent.view.header", locale, variant=t(f"gwent.view.variant.{view['variant']}", locale),
              round=view["round"] or 1, turn=view["turn_no"])
    c.text(PAD, PAD, title, size=20, bold=True)
    weather = [t(f"gwent.weather.{w['kind']}", locale) for w in view.get("weather") or []]
    x = WIDTH - PAD - sum(badge_width(name) for name in weather)  # right-aligned
    for name in weather:
        x += c.badge(x, PAD, name, size=13, fill=WEATHER_FILL, colour=COLD)
    return PAD + 34


def _side(c: Canvas, view: Mapping[str, Any], side: int, order: Sequence[str], locale: str,
          names: Sequence[str], y: int, *, top: bool) -> int:
    if top:
        y = _player(c, view, side, locale, names, y)
    for row in order:
        y = _row(c, view["board"][side][row], row, locale, y)
    if not top:
        y = _player(c, view, side, locale, names, y + 4)
    return y


def _player(c: Canvas, view: Mapping[str, Any], side: int, locale: str, names: Sequence[str], y: int) -> int:
    p = view["players"][side]
    h = 74
    acting = view.get("turn") and view["turn"]["seat"] == side and view["phase"] == "play"
    c.box(PAD, y, WIDTH - PAD, y + h, fill=PANEL, outline=GOLD if acting else None, width=2)
    x = PAD + 12
    for i in range(2):  # the round gems: two, one lost per round lost
        c.circle(x + 8 + i * 22, y + 20, 8, fill=BAD if i < p["gems"] else None, outline=LINE, width=2)
    name_w = c.text(x + 52, y + 9, names[side], size=18, bold=True, width=360)
    if p["passed"]:
        c.badge(x + 60 + name_w, y + 9, t("gwent.view.passed", locale), size=12, fill=WARN, colour=BACKGROUND,
                bold=True)
    faction = t(f"gwent.faction.{p['faction']}", locale) if p["faction"] else "?"
    counts = t("gwent.view.counts", locale, hand=p["hand"], deck=p["deck"], discard=len(p["discard"]))
    c.text(x, y + 34, f"{faction} · {counts}", size=13, colour=MUTED, width=560)
    lx = x
    for ld in p["leaders"]:
        label = lname(ld["id"], locale, short=True) + (" ∞" if ld["passive"] else "")
        lx += c.badge(lx, y + 50, fit(label, 12, 260), size=12, fill=PANEL_LIGHT if not ld["used"] else BACKGROUND,
                      colour=INK if not ld["used"] else FAINT)
    c.text(WIDTH - PAD - 16, y + h / 2, points(p["score"]), size=34, bold=True, anchor="rm")
    if p["shown"]:  # the hand's cards shown to the Emperor of Nilfgaard (§7)
        shown = t("gwent.view.shown", locale) + " " + ", ".join(cname(cid, locale) for cid in p["shown"])
        c.text(WIDTH - PAD - 110, y + 34, shown, size=12, colour=GOLD, width=300, anchor="ra")
    return y + h + 6


def _row(c: Canvas, row: Mapping[str, Any], name: str, locale: str, y: int) -> int:
    fill = WEATHER_FILL if row["weather"] else PANEL
    c.box(PAD, y, WIDTH - PAD, y + ROW_H - 4, fill=fill)
    c.circle(PAD + 24, y + 22, 16, fill=PANEL_LIGHT, outline=COLD if row["weather"] else LINE, width=2)
    c.text(PAD + 24, y + 22, points(row["total"]), size=15, bold=True, anchor="mm")
    c.text(PAD + 48, y + 8, t(f"gwent.row.{name}", locale).capitalize(), size=14, bold=True, width=LABEL_W - 50)
    marks = row_marks(row, locale)
    if marks:
        c.text(PAD + 48, y + 30, ", ".join(marks), size=11, colour=GOLD, width=LABEL_W - 50)
    _tiles(c, row["cards"], PAD + LABEL_W, y + 4, WIDTH - 2 * PAD - LABEL_W, locale)
    return y + ROW_H


def _groups(cards: Sequence[Mapping[str, Any]]) -> list[list]:
    """[card, strength, copies] for the cards of a row, neighbours with the same card and strength counted once."""
    groups: list[list] = []
    for card in cards:
        if groups and groups[-1][0] == card["card"] and groups[-1][1] == card["strength"]:
            groups[-1][2] += 1
        else:
            groups.append([card["card"], card["strength"], 1])
    return groups


def _tiles(c: Canvas, cards: Sequence[Mapping[str, Any]], x: int, y: int, width: int, locale: str) -> None:
    groups = _groups(cards)
    if not groups:
        return
    step = min(TILE_W + 4, width // len(groups))
    shown = groups
    if step < TILE_MIN + 4:  # too many: as many as fit at the narrowest, the rest counted
        step = TILE_MIN + 4
        shown = groups[:width // step - 1]
    for i, (cid, strength, copies) in enumerate(shown):
        _tile(c, x + i * step, y, step - 4, cid, strength, copies, locale)
    rest = sum(g[2] for g in groups[len(shown):])
    if rest:
        c.text(x + len(shown) * step + 4, y + TILE_H / 2, f"+{rest}", size=16, bold=True, colour=MUTED, anchor="lm")


def _tile(c: Canvas, x: int, y: int, w: int, cid: str, strength: int | None, copies: int, locale: str) -> None:
    card = catalogue().card(cid)
    c.box(x, y, x + w, y + TILE_H, fill=PANEL_LIGHT, outline=GOLD if card.is_hero else None,
          width=2, radius=5)
    if strength is not None:
        base = card.strength * 10
        colour = GOOD if strength > base else BAD if strength < base else INK
        c.text(x + w / 2, y + 17, points(strength), size=19, bold=True, colour=colour, anchor="mm")
    if copies > 1:
        c.text(x + w - 3, y + 2, f"×{copies}", size=10, bold=True, colour=GOLD, anchor="ra")
    for i, line in enumerate(wrap(cname(cid, locale), 9, w - 4, 2)):
        c.text(x + w / 2, y + 34 + i * 11, line, size=9, colour=MUTED, anchor="ma")


def _hand(c: Canvas, view: Mapping[str, Any], locale: str, y: int) -> int:
    cards = view["hand"] or []
    y = _hand_row(c, t("gwent.view.hand", locale, n=len(cards)), [h["card"] for h in cards], locale, y)
    offered = [h["card"] for h in view.get("candidates") or []]
    if offered:
        y = _hand_row(c, t("gwent.view.candidates", locale), offered, locale, y + 6)
    return y


def _hand_row(c: Canvas, head: str, ids: Sequence[str], locale: str, y: int) -> int:
    c.text(PAD, y, head, size=15, bold=True)
    y += 24
    w, h = HAND_TILE
    per_line = (WIDTH - 2 * PAD + 6) // (w + 6)
    for i, cid in enumerate(ids):
        x = PAD + (i % per_line) * (w + 6)
        top = y + (i // per_line) * (h + 6)
        card = catalogue().card(cid)
        c.box(x, top, x + w, top + h, fill=PANEL_LIGHT, outline=GOLD if card.is_hero else None, width=2, radius=6)
        big = str(card.strength) if card.is_unit else "✦" if card.type == "special" else "☁"
        c.text(x + 8, top + 5, big, size=20, bold=True, colour=GOLD if card.is_hero else INK)
        c.lines(x + 6, top + 32, wrap(cname(cid, locale), 11, w - 10, 3), size=11, gap=0)
        if card.is_unit:  # where it may be played
            rows = " / ".join(t(f"gwent.row.{r}", locale) for r in card.rows)
            c.text(x + w / 2, top + h - 4, rows, size=9, colour=MUTED, width=w - 8, anchor="md")
    lines = (len(ids) + per_line - 1) // per_line
    return y + lines * (h + 6)


def _setup(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str], y: int) -> Canvas:
    """Before play: who is ready, and the seat's own choices so far."""
    ready = [names[s] for s, p in enumerate(view["players"]) if p["ready"]]
    c.text(PAD, y, t("gwent.view.setup", locale) + " " + (", ".join(ready) or t("gwent.view.none", locale)),
           size=15, width=WIDTH - 2 * PAD)
    own = view.get("setup")
    if own and own["faction"]:
        deck = own["deck"]
        units = sum(n for cid, n in deck.items() if catalogue().card(cid).is_unit)
        c.text(PAD, y + 26, t("gwent.view.own_setup", locale, faction=t(f"gwent.faction.{own['faction']}", locale),
                              leader=lname(own["leader"], locale, short=True) if own["leader"] else "—",
                              units=units, specials=sum(deck.values()) - units), size=14, colour=MUTED,
               width=WIDTH - 2 * PAD)
    return c
