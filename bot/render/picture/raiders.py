"""Raiders as a picture, drawn from a view: the trump, the properties still in the centre, each player's
guarded properties with their guards (suit, rank, крутизна now) and values, everyone's бабки against the
target (a pair's together), hand counts, the piles and a capture waiting in the window; the viewer's own
fighters below, or alone for the private hand picture."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games.raiders.cards import SUIT_MARK, table_cards
from bot.games.raiders.render import fighter_mark, fighter_name
from bot.i18n import t

from .canvas import BAD, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, Canvas, text_width, wrap

WIDTH = 1000
PAD = 12
PROP_W, PROP_H = 150, 86
CARD_W, CARD_H = 150, 74
RED_SUITS = ("hearts", "diamonds")


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    cards = table_cards(view["deck_set"], view["copies"])
    trump = view["trump"]
    c.text(PAD, PAD, t("picture.raiders.header", locale, number=view["turn"]["number"]), size=20, bold=True)
    label = t("picture.raiders.trump", locale)
    c.text(WIDTH - PAD, PAD + 8, label, size=13, colour=MUTED, anchor="ra")
    c.text(WIDTH - PAD - text_width(label, 13) - 6, PAD - 4, SUIT_MARK[trump], size=30, bold=True,
           colour=_suit_colour(trump), anchor="ra")
    piles = t("picture.raiders.piles", locale, deck=view["deck_count"], used=len(view["discard"]),
              props=view["pdeck_count"])
    if view["trump_card"]:
        piles += " · " + t("raiders.view.trump_card", locale, card=fighter_name(cards, view["trump_card"], locale))
    c.text(PAD, PAD + 30, piles, size=13, colour=MUTED, width=WIDTH - 2 * PAD)
    y = PAD + 58
    capture = (view.get("window") or {}).get("capture")
    free = [p for p in view["props"] if p["owner"] is None]
    y = _props(c, view, cards, t("picture.raiders.centre", locale), free, capture, locale, names, y)
    for s in range(view["seats"]):
        y = _player(c, view, cards, s, capture, locale, names, y)
    if view["teams"]:
        for side in view["teams"]:
            c.text(PAD, y, t("picture.raiders.pair", locale, names=" + ".join(names[s] for s in side),
                             babki=sum(view["babki"][s] for s in side), target=view["target"]), size=14, bold=True)
            y += 22
    if view.get("hand") is not None:
        _hand(c, cards, view["hand"], locale, y + 8)
    return c


def hand(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas | None:
    if view.get("hand") is None:
        return None
    c = Canvas(WIDTH)
    _hand(c, table_cards(view["deck_set"], view["copies"]), view["hand"], locale, PAD)
    return c


def _suit_colour(suit: str):
    return BAD if suit in RED_SUITS else INK


def _player(c: Canvas, view, cards, s: int, capture, locale: str, names: Sequence[str], y: int) -> int:
    acting = view["turn"]["seat"] == s and view.get("outcome") is None
    c.box(PAD, y, WIDTH - PAD, y + 34, fill=PANEL, outline=GOLD if acting else None, width=2)
    c.text(PAD + 10, y + 8, names[s], size=15, bold=True, width=300)
    c.text(PAD + 330, y + 9, t("picture.raiders.cards", locale, n=view["hand_counts"][s]), size=13, colour=MUTED)
    babki, target = view["babki"][s], view["target"]
    c.bar(PAD + 520, y + 7, WIDTH - 2 * PAD - 530, 20, babki, target, colour=GOOD if babki >= target else GOLD,
          label=t("picture.raiders.babki", locale, babki=babki, target=target))
    owned = [p for p in view["props"] if p["owner"] == s]
    if not owned:
        return y + 42
    return _props(c, view, cards, None, owned, capture, locale, names, y + 40)


def _props(c: Canvas, view, cards, head: str | None, props, capture, locale: str, names: Sequence[str],
           y: int) -> int:
    if head:
        c.text(PAD, y, head, size=15, bold=True)
        y += 24
    if not props:
        c.text(PAD, y, t("raiders.view.no_props", locale), size=13, colour=MUTED)
        return y + 24
    per_line = (WIDTH - 2 * PAD + 8) // (PROP_W + 8)
    numbers = {p["card"]: i + 1 for i, p in enumerate(view["props"])}
    for i, p in enumerate(props):
        x = PAD + (i % per_line) * (PROP_W + 8)
        top = y + (i // per_line) * (PROP_H + 8)
        prop = cards.properties[p["card"]]
        attacked = capture is not None and capture.get("prop") == p["card"]
        c.box(x, top, x + PROP_W, top + PROP_H, fill=PANEL_LIGHT, outline=BAD if attacked else LINE,
              width=3 if attacked else 1, radius=8)
        c.text(x + 8, top + 6, f"#{numbers[p['card']]} {prop.name(locale)}", size=12, bold=True, width=PROP_W - 16)
        c.text(x + 8, top + 26, t("picture.raiders.prop", locale, babki=prop.babki, kr=prop.krutizna), size=12,
               colour=GOLD)
        if p["guard"] is not None:
            kr = view["krutizna"].get(p["guard"])
            c.text(x + 8, top + 48, fighter_name(cards, p["guard"], locale, kr), size=16, bold=True,
                   colour=_suit_colour(cards.fighters[p["guard"]].suit))
        if attacked:
            attacker = capture["fighter"]
            c.text(x + PROP_W - 8, top + 48, "⚔ " + fighter_mark(cards.fighters[attacker], locale), size=14,
                   bold=True, colour=BAD, anchor="ra")
            c.text(x + 8, top + PROP_H - 4, names[capture["seat"]], size=11, colour=BAD, anchor="ld",
                   width=PROP_W - 16)
    lines = (len(props) + per_line - 1) // per_line
    return y + lines * (PROP_H + 8)


def _hand(c: Canvas, cards, hand: Sequence[str], locale: str, y: int) -> int:
    c.text(PAD, y, t("raiders.view.hand", locale) + f" {len(hand)}", size=15, bold=True)
    y += 26
    per_line = (WIDTH - 2 * PAD + 8) // (CARD_W + 8)
    for i, card in enumerate(hand):
        x = PAD + (i % per_line) * (CARD_W + 8)
        top = y + (i // per_line) * (CARD_H + 8)
        f = cards.fighters[card]
        c.box(x, top, x + CARD_W, top + CARD_H, fill=PANEL_LIGHT, radius=8)
        c.text(x + 8, top + 4, fighter_mark(f, locale), size=22, bold=True, colour=_suit_colour(f.suit))
        kr = "—" if f.krutizna is None else str(f.krutizna)  # a шняга-only card has no крутизна
        c.text(x + CARD_W - 8, top + 8, kr, size=16, bold=True, colour=GOLD, anchor="ra")
        if f.shnyaga:
            c.lines(x + 8, top + 36, wrap(f.shnyaga.name(locale), 11, CARD_W - 16, 2), size=11, gap=0,
                    colour=INK if not f.shnyaga.manual else MUTED)
    lines = (len(hand) + per_line - 1) // per_line
    return y + lines * (CARD_H + 8)

