"""Bloodwood as a picture, drawn from a view: the ring of seats in turn order with the direction of play,
each seat's public DNA (pure, mutated, mutated forever), Curse Mark with its turns, Chains, sleep, the day
and night backs of its hand and a role where the viewer knows it; the phase and its counter, the seat whose
turn it is, the decks, the discard's top and a card waiting for an answer.  The viewer's own role and cards
below, or the cards alone for the private hand picture."""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from bot.games.bloodwood.cards import catalogue, name
from bot.games.bloodwood.render import role_text, team_text
from bot.i18n import t

from .canvas import (BAD, BACKGROUND, COLD, FAINT, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, WARN, Canvas,
                     fit, wrap)

WIDTH = 1000
PAD = 12
CENTRE = (WIDTH // 2, 400)
RADIUS = (380, 300)      # an ellipse: the seats spread across the picture's width
NODE_W, NODE_H = 190, 104
DNA_COLOUR = {"pure": GOOD, "mutated": WARN, "forever": BAD}
BACK_FILL = {"day": (214, 180, 90), "night": (70, 72, 140)}
BACK_INK = {"day": BACKGROUND, "night": INK}
CARD_W, CARD_H = 150, 70


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    n = view["seats"]
    turn_seat = view["turn"]["seat"] if view.get("turn") and view.get("outcome") is None else None
    places = [_place(i, n) for i in range(n)]
    # the order of play: arrows from each seat to the next in the current direction
    for i in range(n):
        _arrow(c, places[i], places[(i + view["direction"]) % n])
    _centre(c, view, locale, names)
    for i, (x, y) in enumerate(places):
        _seat(c, view, i, x, y, i == turn_seat, locale, names)
    y = CENTRE[1] + RADIUS[1] + NODE_H // 2 + 16
    if view["seat"] is not None:
        _own(c, view, locale, y)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    if view["seat"] is None or view.get("hand") is None:
        return None
    c = Canvas(WIDTH)
    _own(c, view, locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _place(i: int, n: int) -> tuple[float, float]:
    """The centre of seat ``i``: the first seat at the top, the seats clockwise in seat order."""
    angle = -math.pi / 2 + 2 * math.pi * i / n
    return CENTRE[0] + RADIUS[0] * math.cos(angle), CENTRE[1] + RADIUS[1] * math.sin(angle)


def _arrow(c: Canvas, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A line from seat a towards seat b, stopped short of b's box, with an arrow head."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1
    ux, uy = dx / length, dy / length
    # leave each box: the distance from a box's centre to its edge along the line
    edge = min(NODE_W / 2 / max(abs(ux), 1e-6), NODE_H / 2 / max(abs(uy), 1e-6)) + 6
    start = (a[0] + ux * edge, a[1] + uy * edge)
    end = (b[0] - ux * edge, b[1] - uy * edge)
    c.line([start, end], colour=LINE, width=3)
    left = (end[0] - ux * 14 - uy * 8, end[1] - uy * 14 + ux * 8)
    right = (end[0] - ux * 14 + uy * 8, end[1] - uy * 14 - ux * 8)
    c.draw.polygon([end, left, right], fill=LINE)


def _centre(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str]) -> None:
    cx, cy = CENTRE
    head = t("bloodwood.board.head", locale, phase=t(f"bloodwood.phase.{view['phase']}", locale),
             count=min(view["phase_turns"] + 1, view["seats"]), of=view["seats"])
    phase_colour = BACK_FILL[view["phase"]] if view["phase"] in BACK_FILL else INK
    c.circle(cx, cy - 120, 26, fill=phase_colour)
    c.text(cx, cy - 120, "☀" if view["phase"] == "day" else "☾", size=30, colour=BACK_INK.get(view["phase"], INK),
           anchor="mm")
    c.text(cx, cy - 76, head, size=17, bold=True, anchor="ma", width=440)
    c.text(cx, cy - 50, ("↻ " if view["direction"] == 1 else "↺ ") +
           t(f"bloodwood.board.direction.{view['direction']}", locale), size=13, colour=MUTED, anchor="ma", width=440)
    decks = t("picture.bloodwood.decks", locale, day=view["decks"]["day"], night=view["decks"]["night"],
              discard=view["discard"]["count"])
    c.text(cx, cy - 22, decks, size=14, anchor="ma", width=440)
    if view["discard"]["top"]:
        c.text(cx, cy + 2, t("bloodwood.board.top", locale, card=name(view["discard"]["top"])), size=13,
               colour=MUTED, anchor="ma", width=440)
    roles = ", ".join(f"{role_text(r)} ×{k}" if k > 1 else role_text(r) for r, k in view["composition"].items() if k)
    for i, line in enumerate(wrap(t("bloodwood.board.roles", locale) + " " + roles, 12, 420, 2)):
        c.text(cx, cy + 26 + i * 17, line, size=12, colour=FAINT, anchor="ma")
    flight = view.get("in_flight")
    if flight:
        c.text(cx, cy + 70, t("bloodwood.board.in_flight", locale, card=name(flight["card"]),
                              player=names[flight["player"]], target=names[flight["target"]]),
               size=13, bold=True, colour=GOLD, anchor="ma", width=440)


def _seat(c: Canvas, view: Mapping[str, Any], seat: int, x: float, y: float, turn: bool, locale: str,
          names: Sequence[str]) -> None:
    p = view["players"][seat]
    x0, y0 = x - NODE_W / 2, y - NODE_H / 2
    asked = any(pending["seat"] == seat for pending in view.get("to_act") or [])
    outline = GOLD if turn else COLD if asked else LINE
    c.box(x0, y0, x0 + NODE_W, y0 + NODE_H, fill=PANEL if not p["asleep"] else (36, 36, 48), outline=outline,
          width=3 if turn or asked else 1, radius=10)
    me = " ★" if seat == view["seat"] else ""
    c.text(x0 + 10, y0 + 7, names[seat] + me, size=15, bold=True, width=NODE_W - 20)
    dna = p["dna"]
    c.circle(x0 + 16, y0 + 38, 6, fill=DNA_COLOUR.get(dna, INK))
    c.text(x0 + 28, y0 + 30, t(f"bloodwood.dna.{dna}", locale), size=12, colour=DNA_COLOUR.get(dna, INK),
           width=NODE_W - 40)
    bx = x0 + 10
    for back in ("day", "night"):  # the hand's backs: public (BW-5)
        c.box(bx, y0 + 52, bx + 40, y0 + 72, fill=BACK_FILL[back], radius=4)
        c.text(bx + 20, y0 + 62, ("☀" if back == "day" else "☾") + str(p["hand"][back]), size=12, bold=True,
               colour=BACK_INK[back], anchor="mm")
        bx += 46
    if p["role"]:
        c.text(x0 + NODE_W - 10, y0 + 55, role_text(p["role"]), size=11, colour=GOLD, anchor="ra",
               width=NODE_W - bx + x0 - 14)
    # the marks in front of the player, by their cards' names (as the text board names them)
    marks = []
    if p["curse"]:
        marks.append((f"{name('curse_mark')} {p['curse']}", BAD))
    if p["chains"]:
        marks.append((name("chains"), WARN))
    if p["asleep"]:
        marks.append((name("tranquilizer"), COLD))
    mx = x0 + 10
    for mark, colour in marks:
        mx += c.badge(mx, y0 + 78, fit(mark, 10, x0 + NODE_W - mx - 26), size=10, colour=colour, bold=True)


def _own(c: Canvas, view: Mapping[str, Any], locale: str, y: int) -> int:
    me = view["seat"]
    role = view["players"][me]["role"]
    if role:
        c.text(PAD, y, t("bloodwood.board.my_role", locale, role=role_text(role), team=team_text(role, locale)),
               size=15, bold=True, colour=GOLD)
        y += 26
    cards = view.get("hand") or []
    c.text(PAD, y, t("bloodwood.board.my_hand", locale) + f" {len(cards)}", size=15, bold=True)
    y += 26
    per_line = (WIDTH - 2 * PAD + 8) // (CARD_W + 8)
    backs = catalogue().backs
    for i, cid in enumerate(cards):
        x = PAD + (i % per_line) * (CARD_W + 8)
        top = y + (i // per_line) * (CARD_H + 8)
        back = backs[cid]
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, outline=BACK_FILL[back], width=3, radius=8)
        c.text(x + CARD_W - 8, top + 6, "☀" if back == "day" else "☾", size=14, colour=BACK_FILL[back], anchor="ra")
        c.lines(x + 10, top + 10, wrap(name(cid), 13, CARD_W - 36, 3, bold=True), size=13, bold=True, gap=0)
    lines = (len(cards) + per_line - 1) // per_line
    return y + lines * (CARD_H + 8)
