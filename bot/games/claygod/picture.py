"""Clay God as a picture, drawn from a view: each mage's health and sphere against their limits, the seven
dice in their colours with their values, a letter under each (the dice are told apart without seeing
colour), frozen and maximised marks, the running spells with the turns left, the cards in hand against the
hand size, the face-down table card, the deck and the used pile; a seat's own cards with their energy costs
below, or alone for the private hand picture (none while the hand is empty).  Laid out for a phone: the two
mages one under the other, two cards a line."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.canvas import (BACKGROUND, BAD, COLD, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, PHONE, SMALLEST,
                               Canvas, text_width, wrap)
from bot.i18n import t

from .cards import COLOURS, catalogue
from .render import card_name, combo_name, effect_text, table_key, turn_marks

WIDTH = PHONE
PAD = 8
DIE_GAP = 5
DIE_RGB = {"red": (214, 54, 56), "orange": (236, 132, 36), "yellow": (236, 206, 58), "green": (70, 170, 84),
           "light_blue": (120, 200, 240), "blue": (48, 88, 214), "violet": (146, 78, 196)}
LIGHT_DICE = ("yellow", "light_blue", "orange")  # dark digits on these
EFFECTS_SHOWN = 6
CARD_GAP = 6
CARD_W, CARD_H = (WIDTH - 2 * PAD - CARD_GAP) // 2, 84


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    turn = view["turn"]
    c.text(PAD, PAD, t("picture.claygod.header", locale, number=turn["number"]), size=20, bold=True,
           width=WIDTH - 2 * PAD)
    me = view["seat"]
    order = [me, 1 - me] if me is not None else [0, 1]
    y = PAD + 34
    for s in order:
        y = _mage(c, view, s, PAD, y, locale, names) + 8
    y = _piles(c, view, locale, y)
    if me is not None and view["players"][me]["hand"]:
        _hand(c, view["players"][me]["hand"], locale, y + 8)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    """The seat's cards; None when it holds none (nothing to show: no picture is sent)."""
    me = view["seat"]
    if me is None or not view["players"][me]["hand"]:
        return None
    c = Canvas(WIDTH)
    _hand(c, view["players"][me]["hand"], locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _mage(c: Canvas, view: Mapping[str, Any], s: int, x: int, y: int, locale: str, names: Sequence[str]) -> int:
    p = view["players"][s]
    acting = view.get("outcome") is None and view["turn"]["seat"] == s
    top = y
    width = WIDTH - 2 * PAD
    inner = x + 10
    room = width - 20
    y += 8
    mark = t("picture.to_move", locale) if acting else ""
    mark_w = text_width(mark, 15, True) + 10 if mark else 0
    c.text(inner, y, names[s], size=18, bold=True, width=room - mark_w)
    if mark:
        c.text(x + width - 10, y + 2, mark, size=15, bold=True, colour=GOLD, anchor="ra")
    y += 28
    label_w = max(text_width(t(f"picture.claygod.{stat}", locale), 15) for stat in ("health", "sphere")) + 8
    for stat, colour in (("health", BAD), ("sphere", COLD)):
        value, limit = p[stat], p[f"max_{stat}"]
        c.text(inner, y + 2, t(f"picture.claygod.{stat}", locale), size=15, colour=MUTED)
        c.bar(inner + label_w, y, room - label_w, 22, value, limit, colour=colour, label=f"{value} / {limit}",
              size=15)
        y += 28
    y += 8
    maximised = {e["colour"] for e in p["effects"] if e["kind"] == "maximise"}
    die = (room - 6 * DIE_GAP) // 7
    for i, name in enumerate(COLOURS):
        _die(c, inner + i * (die + DIE_GAP), y, die, name, p["dice"][name], name in maximised, locale)
    y += die + 24
    total = sum(d["value"] or 0 for d in p["dice"].values())
    c.text(inner, y, t("picture.claygod.dice_sum", locale, sum=total), size=15, colour=MUTED)
    y += 24
    # the hand against its size, and the face-down table card
    c.text(inner, y, t("picture.claygod.cards", locale, cards=p["hand_count"], size=p["hand_size"]), size=15,
           width=room - 44)
    if p["table_card"]:  # the face-down card: its back
        c.box(x + width - 42, y - 2, x + width - 10, y + 42, fill=(92, 64, 48), outline=GOLD, width=2)
        c.text(x + width - 26, y + 20, "?", size=20, bold=True, colour=GOLD, anchor="mm")
    label = t(table_key(p), locale).replace("🂠", "").strip()
    c.text(inner, y + 22, label, size=14, colour=MUTED, width=room - 44)
    y += 46
    extra = turn_marks(p, locale)
    if extra:
        for line in wrap("; ".join(extra), 14, room, 2):
            c.text(inner, y, line, size=14, colour=GOLD)
            y += 20
    effects = p["effects"]
    shown = effects if len(effects) <= EFFECTS_SHOWN else effects[:EFFECTS_SHOWN - 1]
    for e in shown:
        for i, line in enumerate(wrap(_effect(e, locale), 14, room - 16, 2)):
            if i == 0:
                c.text(inner, y, "✦", size=14, colour=GOLD)
            c.text(inner + 16, y, line, size=14)
            y += 19
        y += 3
    if len(shown) < len(effects):
        c.text(inner, y, t("claygod.view.effects_more", locale, n=len(effects) - len(shown)), size=14,
               colour=MUTED)
        y += 22
    c.box(x, top, x + width, y + 6, outline=GOLD if acting else LINE, fill=None, width=2, radius=8)
    return y + 6


def _die(c: Canvas, x: int, y: int, size: int, colour: str, die: Mapping[str, Any], maximised: bool,
         locale: str) -> None:
    rgb = DIE_RGB[colour]
    c.box(x, y, x + size, y + size, fill=rgb, outline=INK if maximised else None, width=3, radius=7)
    value = "·" if die["value"] is None else str(die["value"])
    ink = BACKGROUND if colour in LIGHT_DICE else INK
    c.text(x + size / 2, y + (size / 2 if not maximised else size / 2 - 6), value, size=22, bold=True, colour=ink,
           anchor="mm")
    if die["frozen"]:
        left = die["frozen_turns"] if die["frozen_turns"] is not None else die.get("frozen_rolls")
        mark = "❄" if left is None else f"❄{left}"
        w = text_width(mark, SMALLEST, True) + 6
        c.box(x + size - w + 4, y - 8, x + size + 4, y + 10, fill=PANEL, outline=COLD, radius=6)
        c.text(x + size - w / 2 + 4, y + 1, mark, size=SMALLEST, bold=True, colour=COLD, anchor="mm")
    if maximised:
        c.text(x + size / 2, y + size - 2, "MAX", size=SMALLEST, bold=True, colour=ink, anchor="md")
    c.text(x + size / 2, y + size + 3, energy_label(colour, None, locale), size=15, bold=True, colour=MUTED,
           anchor="ma")


def energy_label(colour: str, n: int | None, locale: str) -> str:
    """A colour in two letters, then the amount ("Зл 6"): a lone letter beside a digit reads as a number
    ("З6" as 36, "О5" as 05); no digit looks like two letters."""
    short = t(f"picture.claygod.energy.{colour}", locale)
    return short if n is None else f"{short} {n}"


def _effect(e: Mapping[str, Any], locale: str) -> str:
    """A running spell in words: the picture's font has no emoji for the stats and the dice."""
    return effect_text(e, locale, stat=lambda stat: t(f"picture.claygod.{stat}", locale),
                       colour=lambda colour, loc: energy_label(colour, None, loc), clock="%H:%M UTC")


def _piles(c: Canvas, view: Mapping[str, Any], locale: str, y: int) -> int:
    discard = view["discard"]
    text = t("claygod.view.piles", locale, deck=view["deck_count"], used=len(discard))
    if discard:
        text += " · " + t("claygod.view.top", locale, top=card_name(discard[-1], locale))
    lines = wrap(text, 15, WIDTH - 2 * PAD - 20, 2)
    c.box(PAD, y, WIDTH - PAD, y + 14 + 20 * len(lines), fill=PANEL)
    c.lines(PAD + 10, y + 8, lines, size=15, gap=3)
    y += 22 + 20 * len(lines)
    turn = view["turn"]
    notes = []
    if turn["free_cast"]:
        notes.append(t("claygod.view.free_cast", locale).replace("✨", "").strip())
    if turn["stage"] == "choose_combo" and turn["combos"]:
        notes.append(t("claygod.view.combos", locale) + " " + " / ".join(combo_name(k, locale) for k in turn["combos"]))
    for note in notes:
        for line in wrap(note, 15, WIDTH - 2 * PAD, 3):
            c.text(PAD, y, line, size=15, colour=GOLD)
            y += 21
    return y


def _hand(c: Canvas, cards: Sequence[str], locale: str, y: int) -> int:
    c.text(PAD, y, t("claygod.view.hand", locale) + f" {len(cards)}", size=17, bold=True)
    y += 28
    for i, card in enumerate(cards):
        x = PAD + (i % 2) * (CARD_W + CARD_GAP)
        top = y + (i // 2) * (CARD_H + CARD_GAP)
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, radius=8)
        c.lines(x + 8, top + 7, wrap(card_name(card, locale), 15, CARD_W - 16, 2, bold=True), size=15, bold=True,
                gap=1)
        cost = [(colour, n) for colour, n in zip(COLOURS, catalogue().card(card).cost) if n]
        if not cost:
            c.text(x + 8, top + CARD_H - 30, "0", size=16, bold=True, colour=GOOD)
            continue
        chip = min(52, (CARD_W - 16 - 4 * (len(cost) - 1)) // len(cost))
        cx = x + 8
        for colour, n in cost:  # the energy cost: a chip per colour, its letter and amount
            c.box(cx, top + CARD_H - 34, cx + chip, top + CARD_H - 8, fill=DIE_RGB[colour], radius=6)
            ink = BACKGROUND if colour in LIGHT_DICE else INK
            c.text(cx + chip / 2, top + CARD_H - 21, energy_label(colour, n, locale), size=15, bold=True,
                   colour=ink, anchor="mm")
            cx += chip + 4
    lines = (len(cards) + 1) // 2
    return y + lines * (CARD_H + CARD_GAP)
