"""Bloodwood as a picture, drawn from a view: the seats in turn order with the direction of play,
each seat's public DNA (pure, mutated, mutated forever), Curse Mark with its turns, Chains, sleep, the day
and night backs of its hand and a role where the viewer knows it; the phase and its counter, the seat whose
turn it is, the decks, the discard's top and a card waiting for an answer.  The viewer's own role and cards
below, or the cards alone for the private hand picture (none while the hand is empty).  Laid out for a phone:
the seats one under another in seat order (clockwise), the order of play as arrows down or up beside them."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.canvas import (BACKGROUND, BAD, COLD, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, PHONE, WARN,
                               Canvas, fit, text_width, wrap)
from bot.i18n import t

from .cards import catalogue, name
from .render import role_text, team_text

WIDTH = PHONE
PAD = 8
RAIL = 20                # the column of the order of play's arrows, left of the seats
SEAT_X = PAD + RAIL
SEAT_W = WIDTH - PAD - SEAT_X
SEAT_H, MARKS_H, SEAT_GAP = 58, 24, 8
DNA_COLOUR = {"pure": GOOD, "mutated": WARN, "forever": BAD}
BACK_FILL = {"day": (214, 180, 90), "night": (70, 72, 140)}
BACK_INK = {"day": BACKGROUND, "night": INK}
CARD_GAP = 6
CARD_W, CARD_H = (WIDTH - 2 * PAD - CARD_GAP) // 2, 62


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    turn_seat = view["turn"]["seat"] if view.get("turn") and view.get("outcome") is None else None
    y = _centre(c, view, locale, names, PAD)
    tops = []
    for seat in range(view["seats"]):
        tops.append(y)
        y = _seat(c, view, seat, y, seat == turn_seat, locale, names) + SEAT_GAP
    _order(c, view["direction"], tops, y - SEAT_GAP)
    if view["seat"] is not None:
        _own(c, view, locale, y + 8)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    """The seat's role and cards; None when it holds no card (nothing to show: no picture is sent)."""
    if view["seat"] is None or not view.get("hand"):
        return None
    c = Canvas(WIDTH)
    _own(c, view, locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _order(c: Canvas, direction: int, tops: Sequence[float], bottom: float) -> None:
    """The order of play beside the seats: a rail with an arrow in each gap, down for clockwise (seat order),
    up against it; the ends joined by the rail's own arrows (after the last seat, the first)."""
    x = PAD + RAIL / 2 - 2
    c.line([(x, tops[0] + 6), (x, bottom - 6)], colour=LINE, width=3)
    for gap in [*tops[1:], bottom + SEAT_GAP]:
        tip = gap - SEAT_GAP / 2 + (5 if direction == 1 else -5)
        back = tip - 10 * direction
        c.polygon([(x, tip), (x - 6, back), (x + 6, back)], fill=MUTED)


def _centre(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str], y: float) -> float:
    room = WIDTH - 2 * PAD
    head = t("bloodwood.board.head", locale, phase=t(f"bloodwood.phase.{view['phase']}", locale),
             count=min(view["phase_turns"] + 1, view["seats"]), of=view["seats"])
    phase_colour = BACK_FILL[view["phase"]] if view["phase"] in BACK_FILL else INK
    c.circle(PAD + 15, y + 15, 15, fill=phase_colour)
    c.text(PAD + 15, y + 15, "☀" if view["phase"] == "day" else "☾", size=20, colour=BACK_INK.get(view["phase"], INK),
           anchor="mm")
    y = c.lines(PAD + 38, y + 4, wrap(head, 17, room - 38, 2, bold=True), size=17, bold=True, gap=3) + 4
    direction = ("↻ " if view["direction"] == 1 else "↺ ") + t(f"bloodwood.board.direction.{view['direction']}",
                                                                locale)
    y = c.lines(PAD, y, wrap(direction, 14, room, 2), size=14, colour=MUTED, gap=3)
    decks = t("picture.bloodwood.decks", locale, day=view["decks"]["day"], night=view["decks"]["night"],
              discard=view["discard"]["count"])
    y = c.lines(PAD, y, wrap(decks, 15, room, 2), size=15, gap=3)
    if view["discard"]["top"]:
        y = c.lines(PAD, y, wrap(t("bloodwood.board.top", locale, card=name(view["discard"]["top"])), 14, room, 2),
                    size=14, colour=MUTED, gap=3)
    roles = ", ".join(f"{role_text(r)} ×{k}" if k > 1 else role_text(r) for r, k in view["composition"].items() if k)
    y = c.lines(PAD, y, wrap(t("bloodwood.board.roles", locale) + " " + roles, 13, room, 4), size=13, colour=MUTED,
                gap=3)
    flight = view.get("in_flight")
    if flight:
        text = t("bloodwood.board.in_flight", locale, card=name(flight["card"]), player=names[flight["player"]],
                 target=names[flight["target"]])
        y = c.lines(PAD, y + 2, wrap(text, 15, room, 2, bold=True), size=15, bold=True, colour=GOLD, gap=3)
    return y + 8


def _seat(c: Canvas, view: Mapping[str, Any], seat: int, y: float, turn: bool, locale: str,
          names: Sequence[str]) -> float:
    """A seat's box: its name (and role where known) on a line, its DNA and hand's backs below, its marks under
    them when it has any; returns the box's bottom."""
    p = view["players"][seat]
    # the marks in front of the player, by their cards' names (as the text board names them)
    marks = []
    if p["curse"]:
        marks.append((f"{name('curse_mark')} {p['curse']}", BAD))
    if p["chains"]:
        marks.append((name("chains"), WARN))
    if p["asleep"]:
        marks.append((name("tranquilizer"), COLD))
    h = SEAT_H + (MARKS_H if marks else 0)
    asked = any(pending["seat"] == seat for pending in view.get("to_act") or [])
    outline = GOLD if turn else COLD if asked else LINE
    x0 = SEAT_X
    c.box(x0, y, x0 + SEAT_W, y + h, fill=PANEL if not p["asleep"] else (36, 36, 48), outline=outline,
          width=3 if turn or asked else 1, radius=8)
    role = role_text(p["role"]) if p["role"] else ""
    role_w = min(text_width(role, 14), SEAT_W // 2) if role else 0
    me = " ★" if seat == view["seat"] else ""
    c.text(x0 + 8, y + 6, f"{seat + 1}. {names[seat]}{me}", size=16, bold=True, width=SEAT_W - 24 - role_w)
    if role:
        c.text(x0 + SEAT_W - 8, y + 8, role, size=14, colour=GOLD, anchor="ra", width=SEAT_W // 2)
    bx = x0 + 8
    for back in ("day", "night"):  # the hand's backs: public (BW-5)
        c.box(bx, y + 31, bx + 42, y + 51, fill=BACK_FILL[back], radius=4)
        c.text(bx + 21, y + 41, ("☀" if back == "day" else "☾") + str(p["hand"][back]), size=14, bold=True,
               colour=BACK_INK[back], anchor="mm")
        bx += 48
    dna = p["dna"]
    c.circle(bx + 8, y + 41, 6, fill=DNA_COLOUR.get(dna, INK))
    c.text(bx + 20, y + 33, t(f"bloodwood.dna.{dna}", locale), size=14, colour=DNA_COLOUR.get(dna, INK),
           width=x0 + SEAT_W - bx - 28)
    mx = x0 + 8
    for mark, colour in marks:
        room = x0 + SEAT_W - mx - 8
        if room < 60:
            break
        label = fit(mark, 13, room - 18, bold=True)
        mx += c.badge(mx, y + SEAT_H - 2, label, size=13, colour=colour, bold=True)
    return y + h


def _own(c: Canvas, view: Mapping[str, Any], locale: str, y: float) -> float:
    me = view["seat"]
    room = WIDTH - 2 * PAD
    role = view["players"][me]["role"]
    if role:
        text = t("bloodwood.board.my_role", locale, role=role_text(role), team=team_text(role, locale))
        y = c.lines(PAD, y, wrap(text, 16, room, 2, bold=True), size=16, bold=True, colour=GOLD, gap=3) + 4
    cards = view.get("hand") or []
    if not cards:
        return y
    c.text(PAD, y, t("bloodwood.board.my_hand", locale) + f" {len(cards)}", size=17, bold=True, width=room)
    y += 28
    backs = catalogue().backs
    for i, cid in enumerate(cards):
        x = PAD + (i % 2) * (CARD_W + CARD_GAP)
        top = y + (i // 2) * (CARD_H + CARD_GAP)
        back = backs[cid]
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, outline=BACK_FILL[back], width=3, radius=8)
        c.text(x + CARD_W - 8, top + 6, "☀" if back == "day" else "☾", size=16, colour=BACK_FILL[back], anchor="ra")
        c.lines(x + 10, top + 9, wrap(name(cid), 15, CARD_W - 36, 2, bold=True), size=15, bold=True, gap=2)
    lines = (len(cards) + 1) // 2
    return y + lines * (CARD_H + CARD_GAP)
