"""Clay God as a picture, drawn from a view: each mage's health and sphere against their limits, the seven
dice in their colours with their values, a letter under each (the dice are told apart without seeing
colour), frozen and maximised marks, the running spells with the turns left, the cards in hand against the
hand size, the face-down table card, the deck and the used pile; a seat's own cards with their energy costs
below, or alone for the private hand picture."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games.claygod.cards import COLOURS, catalogue
from bot.games.claygod.render import card_name, combo_name, effect_text, table_key, turn_marks
from bot.i18n import t

from .canvas import (BAD, BACKGROUND, COLD, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, Canvas, wrap)

WIDTH = 1000
PAD = 12
COL = (WIDTH - 3 * PAD) // 2   # each mage has a column
DIE = 52
DIE_RGB = {"red": (214, 54, 56), "orange": (236, 132, 36), "yellow": (236, 206, 58), "green": (70, 170, 84),
           "light_blue": (120, 200, 240), "blue": (48, 88, 214), "violet": (146, 78, 196)}
LIGHT_DICE = ("yellow", "light_blue", "orange")  # dark digits on these
EFFECTS_SHOWN = 6
CARD_W, CARD_H = 236, 92


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    turn = view["turn"]
    c.text(PAD, PAD, t("picture.claygod.header", locale, number=turn["number"]), size=20, bold=True)
    me = view["seat"]
    order = [me, 1 - me] if me is not None else [0, 1]
    bottom = max(_mage(c, view, s, PAD + i * (COL + PAD), 46, locale, names) for i, s in enumerate(order))
    y = _piles(c, view, locale, bottom + 8)
    if me is not None and view["players"][me]["hand"] is not None:
        _hand(c, view["players"][me]["hand"], locale, y + 8)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    me = view["seat"]
    if me is None or view["players"][me]["hand"] is None:
        return None
    c = Canvas(WIDTH)
    _hand(c, view["players"][me]["hand"], locale, PAD)
    return c


# ------------------------------------------------------------------------------------------ parts
def _mage(c: Canvas, view: Mapping[str, Any], s: int, x: int, y: int, locale: str, names: Sequence[str]) -> int:
    p = view["players"][s]
    acting = view.get("outcome") is None and view["turn"]["seat"] == s
    top = y
    inner = x + 12
    width = COL - 24
    y += 10
    c.text(inner, y, names[s], size=18, bold=True, width=width - 90)
    if acting:
        c.text(x + COL - 12, y + 2, t("picture.to_move", locale), size=13, bold=True, colour=GOLD, anchor="ra")
    y += 30
    for stat, colour in (("health", BAD), ("sphere", COLD)):
        value, limit = p[stat], p[f"max_{stat}"]
        c.text(inner, y + 2, t(f"picture.claygod.{stat}", locale), size=13, colour=MUTED)
        c.bar(inner + 80, y, width - 80, 20, value, limit, colour=colour, label=f"{value} / {limit}")
        y += 28
    y += 4
    maximised = {e["colour"] for e in p["effects"] if e["kind"] == "maximise"}
    step = (width - 6 * 8) // 7
    for i, colour in enumerate(COLOURS):
        _die(c, inner + i * (step + 8), y, min(step, DIE), colour, p["dice"][colour], colour in maximised, locale)
    y += DIE + 26
    total = sum(d["value"] or 0 for d in p["dice"].values())
    c.text(inner, y, t("picture.claygod.dice_sum", locale, sum=total), size=13, colour=MUTED)
    y += 22
    # the hand against its size, and the face-down table card
    c.text(inner, y, t("picture.claygod.cards", locale, cards=p["hand_count"], size=p["hand_size"]), size=14)
    if p["table_card"]:  # the face-down card: its back
        c.box(x + COL - 52, y - 4, x + COL - 16, y + 44, fill=(92, 64, 48), outline=GOLD, width=2)
        c.text(x + COL - 34, y + 20, "?", size=20, bold=True, colour=GOLD, anchor="mm")
    label = t(table_key(p), locale).replace("🂠", "").strip()
    c.text(inner, y + 20, label, size=13, colour=MUTED, width=width - 70)
    y += 44
    extra = turn_marks(p, locale)
    if extra:
        c.text(inner, y, "; ".join(extra), size=13, colour=GOLD, width=width)
        y += 22
    effects = p["effects"]
    shown = effects if len(effects) <= EFFECTS_SHOWN else effects[:EFFECTS_SHOWN - 1]
    for e in shown:
        c.text(inner, y, "✦ " + _effect(e, locale), size=13, width=width)
        y += 20
    if len(shown) < len(effects):
        c.text(inner, y, t("claygod.view.effects_more", locale, n=len(effects) - len(shown)), size=13,
               colour=MUTED)
        y += 20
    c.box(x, top, x + COL, y + 8, outline=GOLD if acting else LINE, fill=None, width=2, radius=8)
    return y + 8


def _die(c: Canvas, x: int, y: int, size: int, colour: str, die: Mapping[str, Any], maximised: bool,
         locale: str) -> None:
    rgb = DIE_RGB[colour]
    c.box(x, y, x + size, y + size, fill=rgb, outline=INK if maximised else None, width=3, radius=8)
    value = "·" if die["value"] is None else str(die["value"])
    ink = BACKGROUND if colour in LIGHT_DICE else INK
    c.text(x + size / 2, y + size / 2, value, size=24, bold=True, colour=ink, anchor="mm")
    if die["frozen"]:
        left = die["frozen_turns"] if die["frozen_turns"] is not None else die.get("frozen_rolls")
        c.box(x + size - 20, y - 6, x + size + 6, y + 14, fill=PANEL, outline=COLD, radius=6)
        c.text(x + size - 7, y + 4, "❄" if left is None else f"❄{left}", size=11, bold=True, colour=COLD,
               anchor="mm")
    if maximised:
        c.text(x + size / 2, y + size - 2, "MAX", size=9, bold=True, colour=ink, anchor="md")
    c.text(x + size / 2, y + size + 4, t(f"claygod.die.{colour}", locale), size=13, bold=True, colour=MUTED,
           anchor="ma")


def _effect(e: Mapping[str, Any], locale: str) -> str:
    """A running spell in words: the picture's font has no emoji for the stats and the dice."""
    return effect_text(e, locale, stat=lambda stat: t(f"picture.claygod.{stat}", locale),
                       colour=lambda colour, loc: t(f"claygod.die.{colour}", loc), clock="%H:%M UTC")


def _piles(c: Canvas, view: Mapping[str, Any], locale: str, y: int) -> int:
    discard = view["discard"]
    c.box(PAD, y, WIDTH - PAD, y + 40, fill=PANEL)
    text = t("claygod.view.piles", locale, deck=view["deck_count"], used=len(discard))
    if discard:
        text += " · " + t("claygod.view.top", locale, top=card_name(discard[-1], locale))
    c.text(PAD + 12, y + 11, text, size=14, width=WIDTH - 2 * PAD - 24)
    y += 48
    turn = view["turn"]
    notes = []
    if turn["free_cast"]:
        notes.append(t("claygod.view.free_cast", locale).replace("✨", "").strip())
    if turn["stage"] == "choose_combo" and turn["combos"]:
        notes.append(t("claygod.view.combos", locale) + " " + " / ".join(combo_name(k, locale) for k in turn["combos"]))
    for note in notes:
        c.text(PAD, y, note, size=14, colour=GOLD, width=WIDTH - 2 * PAD)
        y += 22
    return y


def _hand(c: Canvas, cards: Sequence[str], locale: str, y: int) -> int:
    c.text(PAD, y, t("claygod.view.hand", locale) + f" {len(cards)}", size=15, bold=True)
    y += 26
    per_line = (WIDTH - 2 * PAD + 8) // (CARD_W + 8)
    for i, card in enumerate(cards):
        x = PAD + (i % per_line) * (CARD_W + 8)
        top = y + (i // per_line) * (CARD_H + 8)
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, radius=8)
        c.lines(x + 10, top + 8, wrap(card_name(card, locale), 14, CARD_W - 20, 2, bold=True), size=14, bold=True,
                gap=0)
        cx = x + 10
        cost = catalogue().card(card).cost
        chip = min(44, (CARD_W - 20) // max(1, sum(1 for n in cost if n)) - 4)
        for colour, n in zip(COLOURS, cost):
            if not n:
                continue
            c.box(cx, top + 56, cx + chip, top + 82, fill=DIE_RGB[colour], radius=6)
            ink = BACKGROUND if colour in LIGHT_DICE else INK
            c.text(cx + chip / 2, top + 69, f"{t(f'claygod.die.{colour}', locale)}{n}", size=14 if chip > 36 else 11,
                   bold=True, colour=ink, anchor="mm")
            cx += chip + 4
        if not any(cost):
            c.text(cx, top + 62, "0", size=14, bold=True, colour=GOOD)
    lines = (len(cards) + per_line - 1) // per_line
    return y + lines * (CARD_H + 8)
