"""Raiders as a picture, drawn from a view: the trump, the properties still in the centre, each player's
guarded properties with their guards (suit, rank, крутизна now) and values, everyone's бабки against the
target (a pair's together), hand counts, the piles and a capture waiting in the window; the viewer's own
fighters below, or alone for the private hand picture (none while the hand is empty).  Laid out for a phone:
two properties and three fighters to a line, each player's бабки on a line of their own."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.canvas import (BAD, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, PHONE, Canvas, Colour, text_width,
                               wrap)
from bot.i18n import t

from .cards import SUIT_MARK, Cards, table_cards
from .render import fighter_mark, fighter_name

WIDTH = PHONE
PAD = 8
GAP = 6
PROP_W, PROP_H = (WIDTH - 2 * PAD - GAP) // 2, 74
ATTACKED_H = 20        # a line more for the attacker's name, on the line of properties attacked
HAND_CARDS = 3
CARD_W, CARD_H = (WIDTH - 2 * PAD - (HAND_CARDS - 1) * GAP) // HAND_CARDS, 88
RED_SUITS = ("hearts", "diamonds")


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    cards = table_cards(view["deck_set"], view["copies"])
    trump = view["trump"]
    label = t("picture.raiders.trump", locale)
    trump_w = text_width(label, 15) + 36
    c.text(PAD, PAD, t("picture.raiders.header", locale, number=view["turn"]["number"]), size=20, bold=True,
           width=WIDTH - 2 * PAD - trump_w)
    c.text(WIDTH - PAD, PAD + 6, label, size=15, colour=MUTED, anchor="ra")
    c.text(WIDTH - PAD - text_width(label, 15) - 6, PAD - 4, SUIT_MARK[trump], size=28, bold=True,
           colour=_suit_colour(trump), anchor="ra")
    piles = t("picture.raiders.piles", locale, deck=view["deck_count"], used=len(view["discard"]),
              props=view["pdeck_count"])
    if view["trump_card"]:
        piles += " · " + t("raiders.view.trump_card", locale, card=fighter_name(cards, view["trump_card"], locale))
    y = c.lines(PAD, PAD + 34, wrap(piles, 14, WIDTH - 2 * PAD, 3), size=14, colour=MUTED, gap=3) + 8
    capture = (view.get("window") or {}).get("capture")
    free = [p for p in view["props"] if p["owner"] is None]
    y = _props(c, view, cards, t("picture.raiders.centre", locale), free, capture, locale, names, y)
    for s in range(view["seats"]):
        y = _player(c, view, cards, s, capture, locale, names, y)
    if view["teams"]:
        for side in view["teams"]:
            text = t("picture.raiders.pair", locale, names=" + ".join(names[s] for s in side),
                     babki=sum(view["babki"][s] for s in side), target=view["target"])
            y = c.lines(PAD, y, wrap(text, 15, WIDTH - 2 * PAD, 2, bold=True), size=15, bold=True, gap=3) + 4
    if view.get("hand"):
        _hand(c, cards, view["hand"], locale, y + 8)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    """The seat's fighters; None when it holds none (nothing to show: no picture is sent)."""
    if not view.get("hand"):
        return None
    c = Canvas(WIDTH)
    _hand(c, table_cards(view["deck_set"], view["copies"]), view["hand"], locale, PAD)
    return c


def _suit_colour(suit: str) -> Colour:
    return BAD if suit in RED_SUITS else INK


def _player(c: Canvas, view: Mapping[str, Any], cards: Cards, s: int, capture: Mapping[str, Any] | None,
            locale: str, names: Sequence[str], y: float) -> float:
    acting = view["turn"]["seat"] == s and view.get("outcome") is None
    c.box(PAD, y, WIDTH - PAD, y + 64, fill=PANEL, outline=GOLD if acting else None, width=2)
    count = t("picture.raiders.cards", locale, n=view["hand_counts"][s])
    count_w = text_width(count, 14) + 10
    c.text(PAD + 10, y + 8, names[s], size=16, bold=True, width=WIDTH - 2 * PAD - 20 - count_w)
    c.text(WIDTH - PAD - 10, y + 10, count, size=14, colour=MUTED, anchor="ra")
    babki, target = view["babki"][s], view["target"]
    c.bar(PAD + 10, y + 34, WIDTH - 2 * PAD - 20, 22, babki, target, colour=GOOD if babki >= target else GOLD,
          label=t("picture.raiders.babki", locale, babki=babki, target=target), size=14)
    owned = [p for p in view["props"] if p["owner"] == s]
    if not owned:
        return y + 72
    return _props(c, view, cards, None, owned, capture, locale, names, y + 70)


def _props(c: Canvas, view: Mapping[str, Any], cards: Cards, head: str | None,
           props: Sequence[Mapping[str, Any]], capture: Mapping[str, Any] | None, locale: str, names: Sequence[str],
           y: float) -> float:
    if head:
        c.text(PAD, y, head, size=16, bold=True, width=WIDTH - 2 * PAD)
        y += 26
    if not props:
        c.text(PAD, y, t("raiders.view.no_props", locale), size=14, colour=MUTED, width=WIDTH - 2 * PAD)
        return y + 26
    numbers = {p["card"]: i + 1 for i, p in enumerate(view["props"])}
    target = capture.get("prop") if capture is not None else None
    line_h = [PROP_H + (ATTACKED_H if target in (p["card"] for p in props[i:i + 2]) else 0)
              for i in range(0, len(props), 2)]
    for i, p in enumerate(props):
        x = PAD + (i % 2) * (PROP_W + GAP)
        top = y + sum(line_h[:i // 2]) + (i // 2) * GAP
        h = line_h[i // 2]
        prop = cards.properties[p["card"]]
        attacked = target == p["card"]
        c.box(x, top, x + PROP_W, top + h, fill=PANEL_LIGHT, outline=BAD if attacked else LINE,
              width=3 if attacked else 1, radius=8)
        c.text(x + 8, top + 6, f"#{numbers[p['card']]} {prop.name(locale)}", size=14, bold=True, width=PROP_W - 16)
        c.text(x + 8, top + 27, t("picture.raiders.prop", locale, babki=prop.babki, kr=prop.krutizna), size=14,
               colour=GOLD, width=PROP_W - 16)
        if p["guard"] is not None:
            kr = view["krutizna"].get(p["guard"])
            c.text(x + 8, top + 48, fighter_name(cards, p["guard"], locale, kr), size=17, bold=True,
                   colour=_suit_colour(cards.fighters[p["guard"]].suit), width=PROP_W - 70)
        if attacked and capture is not None:
            attacker = capture["fighter"]
            c.text(x + PROP_W - 8, top + 48, "⚔ " + fighter_mark(cards.fighters[attacker], locale), size=15,
                   bold=True, colour=BAD, anchor="ra")
            c.text(x + 8, top + h - 4, names[capture["seat"]], size=13, colour=BAD, anchor="ld",
                   width=PROP_W - 16)
    return y + sum(line_h) + len(line_h) * GAP


def _hand(c: Canvas, cards: Cards, hand: Sequence[str], locale: str, y: float) -> float:
    c.text(PAD, y, t("raiders.view.hand", locale) + f" {len(hand)}", size=17, bold=True, width=WIDTH - 2 * PAD)
    y += 28
    for i, card in enumerate(hand):
        x = PAD + (i % HAND_CARDS) * (CARD_W + GAP)
        top = y + (i // HAND_CARDS) * (CARD_H + GAP)
        f = cards.fighters[card]
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, radius=8)
        c.text(x + 8, top + 4, fighter_mark(f, locale), size=22, bold=True, colour=_suit_colour(f.suit))
        kr = "—" if f.krutizna is None else str(f.krutizna)  # a шняга-only card has no крутизна
        c.text(x + CARD_W - 8, top + 8, kr, size=16, bold=True, colour=GOLD, anchor="ra")
        if f.shnyaga:
            c.lines(x + 8, top + 36, wrap(f.shnyaga.name(locale), 13, CARD_W - 16, 3), size=13, gap=0,
                    colour=INK if not f.shnyaga.manual else MUTED)
    lines = (len(hand) + HAND_CARDS - 1) // HAND_CARDS
    return y + lines * (CARD_H + GAP)
