"""Gwent as a picture, drawn from a view: both halves of the field (the viewer's at the bottom, the public's
first seat there too), each row's cards with their strength now (above their printed strength in green,
below it in red, heroes framed in gold), row totals, weather, horns, the round gems, the leaders, passes,
scores and the counts; a seat's own hand below, or alone for the private hand picture (none while the hand
and the cards offered are empty).  Laid out for a phone: each row's name on a line of its own, its cards
four to a line below it."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.canvas import (BACKGROUND, BAD, COLD, FAINT, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, PHONE,
                               WARN, Canvas, badge_width, fit, wrap)
from bot.i18n import t

from .cards import catalogue
from .render import cname, lname, row_marks
from .scoring import points

WIDTH = PHONE
PAD = 8
TILES = 4              # a row's cards to a line
TILE_GAP = 5
TILE_W, TILE_H = (WIDTH - 2 * PAD - 16 - (TILES - 1) * TILE_GAP) // TILES, 72
HAND_TILES = 3
HAND_TILE = ((WIDTH - 2 * PAD - (HAND_TILES - 1) * 6) // HAND_TILES, 104)
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
    c.line([(PAD, y + 2), (WIDTH - PAD, y + 2)], colour=GOLD, width=2)
    y = _side(c, view, me, ROWS_BOTTOM, locale, names, y + 10, top=False)
    if view.get("hand") or view.get("candidates"):
        _hand(c, view, locale, y + 6)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    """The seat's own hand (and the cards offered for exchange), each card with its printed strength; None
    when there are none (nothing to show: no picture is sent)."""
    if not view.get("hand") and not view.get("candidates"):
        return None
    c = Canvas(WIDTH)
    _hand(c, view, locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _header(c: Canvas, view: Mapping[str, Any], locale: str) -> int:
    title = t("gwent.view.header", locale, variant=t(f"gwent.view.variant.{view['variant']}", locale),
              round=view["round"] or 1, turn=view["turn_no"])
    c.text(PAD, PAD, title, size=18, bold=True, width=WIDTH - 2 * PAD)
    y = PAD + 30
    x = PAD
    for w in view.get("weather") or []:
        name = t(f"gwent.weather.{w['kind']}", locale)
        if x > PAD and x + badge_width(name, 14) > WIDTH - PAD:
            x, y = PAD, y + 28
        x += c.badge(x, y, name, size=14, fill=WEATHER_FILL, colour=COLD)
    return y + (30 if x > PAD else 0)


def _side(c: Canvas, view: Mapping[str, Any], side: int, order: Sequence[str], locale: str,
          names: Sequence[str], y: int, *, top: bool) -> int:
    if top:
        y = _player(c, view, side, locale, names, y)
    for row in order:
        y = _row(c, view["board"][side][row], row, locale, y)
    if not top:
        y = _player(c, view, side, locale, names, y + 2)
    return y


def _player(c: Canvas, view: Mapping[str, Any], side: int, locale: str, names: Sequence[str], y: int) -> int:
    p = view["players"][side]
    acting = view.get("turn") and view["turn"]["seat"] == side and view["phase"] == "play"
    x = PAD + 10
    room = WIDTH - 2 * PAD - 20 - 70           # the score takes the right-hand 70
    shown = (t("gwent.view.shown", locale) + " " + ", ".join(cname(cid, locale) for cid in p["shown"])
             if p["shown"] else None)  # the hand's cards shown to the Emperor of Nilfgaard (§7)
    h = 76 + (22 if p["leaders"] else 0) + (20 if shown else 0)
    c.box(PAD, y, WIDTH - PAD, y + h, fill=PANEL, outline=GOLD if acting else None, width=2)
    for i in range(2):  # the round gems: two, one lost per round lost
        c.circle(x + 7 + i * 19, y + 18, 7, fill=BAD if i < p["gems"] else None, outline=LINE, width=2)
    passed = t("gwent.view.passed", locale) if p["passed"] else ""
    passed_w = badge_width(passed, 13, True) if passed else 0
    name_w = c.text(x + 44, y + 8, names[side], size=17, bold=True, width=room - 44 - passed_w)
    if passed:
        c.badge(x + 50 + name_w, y + 8, passed, size=13, fill=WARN, colour=BACKGROUND, bold=True)
    faction = t(f"gwent.faction.{p['faction']}", locale) if p["faction"] else "?"
    counts = t("gwent.view.counts", locale, hand=p["hand"], deck=p["deck"], discard=len(p["discard"]))
    c.text(x, y + 34, faction, size=14, colour=MUTED, width=room)
    c.text(x, y + 52, counts, size=14, colour=MUTED, width=room)
    c.text(WIDTH - PAD - 12, y + 40, points(p["score"]), size=32, bold=True, anchor="rm")
    ly = y + 74
    if shown:
        c.text(x, ly, shown, size=13, colour=GOLD, width=WIDTH - 2 * PAD - 20)
        ly += 20
    lx = x
    leaders = p["leaders"]
    for ld in leaders:  # the leaders, each as wide as its share of the panel
        label = lname(ld["id"], locale, short=True) + (" ∞" if ld["passive"] else "")
        share = (WIDTH - 2 * PAD - 20) // max(1, len(leaders)) - 18
        lx += c.badge(lx, ly, fit(label, 13, share), size=13, fill=PANEL_LIGHT if not ld["used"] else BACKGROUND,
                      colour=INK if not ld["used"] else FAINT)
    return y + h + 6


def _row(c: Canvas, row: Mapping[str, Any], name: str, locale: str, y: int) -> int:
    """The row's total, name and marks on a line, its cards below, four to a line."""
    groups = _groups(row["cards"])
    lines = (len(groups) + TILES - 1) // TILES
    h = 32 + lines * (TILE_H + TILE_GAP)
    fill = WEATHER_FILL if row["weather"] else PANEL
    c.box(PAD, y, WIDTH - PAD, y + h, fill=fill)
    c.circle(PAD + 20, y + 16, 13, fill=PANEL_LIGHT, outline=COLD if row["weather"] else LINE, width=2)
    c.text(PAD + 20, y + 16, points(row["total"]), size=14, bold=True, anchor="mm")
    label = t(f"gwent.row.{name}", locale).capitalize()
    label_w = c.text(PAD + 40, y + 7, label, size=15, bold=True)
    marks = row_marks(row, locale)
    if marks:
        c.text(PAD + 50 + label_w, y + 8, ", ".join(marks), size=13, colour=GOLD,
               width=WIDTH - 2 * PAD - 60 - label_w)
    for i, (cid, strength, copies) in enumerate(groups):
        _tile(c, PAD + 8 + (i % TILES) * (TILE_W + TILE_GAP), y + 32 + (i // TILES) * (TILE_H + TILE_GAP), TILE_W,
              cid, strength, copies, locale)
    return y + h + 4


def _groups(cards: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """[card, strength, copies] for the cards of a row, neighbours with the same card and strength counted once."""
    groups: list[list[Any]] = []
    for card in cards:
        if groups and groups[-1][0] == card["card"] and groups[-1][1] == card["strength"]:
            groups[-1][2] += 1
        else:
            groups.append([card["card"], card["strength"], 1])
    return groups


def _tile(c: Canvas, x: int, y: int, w: int, cid: str, strength: int | None, copies: int, locale: str) -> None:
    card = catalogue().card(cid)
    c.box(x, y, x + w, y + TILE_H, fill=PANEL_LIGHT, outline=GOLD if card.is_hero else None,
          width=2, radius=5)
    if strength is not None:
        base = card.strength * 10
        colour = GOOD if strength > base else BAD if strength < base else INK
        c.text(x + 6, y + 3, points(strength), size=18, bold=True, colour=colour)
    if copies > 1:
        c.text(x + w - 5, y + 5, f"×{copies}", size=14, bold=True, colour=GOLD, anchor="ra")
    for i, line in enumerate(wrap(cname(cid, locale), 13, w - 8, 2)):
        c.text(x + 5, y + 30 + i * 17, line, size=13, colour=MUTED)


def _hand(c: Canvas, view: Mapping[str, Any], locale: str, y: int) -> int:
    cards = view["hand"] or []
    y = _hand_row(c, t("gwent.view.hand", locale, n=len(cards)), [h["card"] for h in cards], locale, y)
    offered = [h["card"] for h in view.get("candidates") or []]
    if offered:
        y = _hand_row(c, t("gwent.view.candidates", locale), offered, locale, y + 6)
    return y


def _hand_row(c: Canvas, head: str, ids: Sequence[str], locale: str, y: int) -> int:
    c.text(PAD, y, head, size=17, bold=True, width=WIDTH - 2 * PAD)
    y += 28
    w, h = HAND_TILE
    for i, cid in enumerate(ids):
        x = PAD + (i % HAND_TILES) * (w + 6)
        top = y + (i // HAND_TILES) * (h + 6)
        card = catalogue().card(cid)
        c.box(x, top, x + w, top + h, fill=PANEL_LIGHT, outline=GOLD if card.is_hero else None, width=2, radius=6)
        big = str(card.strength) if card.is_unit else "✦" if card.type == "special" else "☁"
        c.text(x + 7, top + 4, big, size=20, bold=True, colour=GOLD if card.is_hero else INK)
        c.lines(x + 6, top + 32, wrap(cname(cid, locale), 13, w - 12, 3), size=13, gap=0)
        if card.is_unit:  # where it may be played
            rows = " / ".join(t(f"gwent.row.{r}", locale)[:4] + "." if len(card.rows) > 1 else
                              t(f"gwent.row.{r}", locale) for r in card.rows)
            c.text(x + w / 2, top + h - 5, rows, size=13, colour=MUTED, width=w - 8, anchor="md")
    lines = (len(ids) + HAND_TILES - 1) // HAND_TILES
    return y + lines * (h + 6)


def _setup(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str], y: float) -> Canvas:
    """Before play: who is ready, and the seat's own choices so far."""
    ready = [names[s] for s, p in enumerate(view["players"]) if p["ready"]]
    text = t("gwent.view.setup", locale) + " " + (", ".join(ready) or t("gwent.view.none", locale))
    y = c.lines(PAD, y, wrap(text, 15, WIDTH - 2 * PAD, 2), size=15, gap=4)
    own = view.get("setup")
    if own and own["faction"]:
        deck = own["deck"]
        units = sum(n for cid, n in deck.items() if catalogue().card(cid).is_unit)
        text = t("gwent.view.own_setup", locale, faction=t(f"gwent.faction.{own['faction']}", locale),
                 leader=lname(own["leader"], locale, short=True) if own["leader"] else "—",
                 units=units, specials=sum(deck.values()) - units)
        c.lines(PAD, y + 6, wrap(text, 14, WIDTH - 2 * PAD, 3), size=14, colour=MUTED, gap=4)
    return c
