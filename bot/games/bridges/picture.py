"""Bridges as a picture, drawn from a view (the game is open, §1.1.2): the archipelago as the book's scheme
draws it, row by row with its bridges; on each island its bosses with their health, buildings, chests,
traps, bombs and the characters standing there (by number); beside it every character's class, health,
action points and gear; the round, the Base's health and the bank.  Laid out for a phone: the archipelago's
rows (at most two islands each) one under another, each row as tall as its fullest island, the characters
below the map."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.canvas import (BAD, COLD, FAINT, GOLD, GOOD, INK, LINE, MUTED, PANEL, PHONE, WARN, Canvas, fit,
                               text_width, wrap)
from bot.i18n import t

from .data import catalogue
from .render import boss_name, char_tags, class_name, island_name, item_name

WIDTH = PHONE
PAD = 8
ISLAND_GAP = 12
ISLAND_W = (WIDTH - 2 * PAD - ISLAND_GAP) // 2   # room for an island's name of some 15 letters in bold
BOSS_H, MARK_H, FOOT_H = 22, 18, 28
BOSS_BAR = 64           # a boss's health bar, its name left of it
ROW_GAP = 18
ROLE_FILL = {"base": (44, 70, 52), "chest": (70, 60, 36), "boss": (72, 40, 44), "shop": (40, 56, 80),
             "krabulon": (86, 36, 36)}


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    cat = catalogue()
    if view["phase"] == "choose":
        c.text(PAD, PAD, t("bridges.board.choosing", locale), size=20, bold=True, width=WIDTH - 2 * PAD)
        y: float = PAD + 36
        for seat, ch in enumerate(view["chars"]):
            label = f"{names[seat]} — {class_name(ch['cls'], locale)}" if ch["cls"] else \
                t("bridges.board.unchosen", locale, name=names[seat])
            y = c.lines(PAD, y, wrap(f"{seat + 1}. {label}", 15, WIDTH - 2 * PAD, 2), size=15, gap=4) + 4
        return c
    c.text(PAD, PAD, t("picture.bridges.round", locale, round=view["round"]), size=20, bold=True)
    base = t("picture.bridges.base", locale)
    base_x = PAD + 130
    c.text(base_x, PAD + 5, base, size=15, colour=MUTED)
    bar_x = base_x + text_width(base, 15) + 8
    c.bar(bar_x, PAD + 3, WIDTH - PAD - bar_x, 22, view["base_hp"], cat.chars["base_hp"], colour=GOOD,
          label=f"{view['base_hp']} / {cat.chars['base_hp']}", size=14)
    bank = view["bank"]
    items = ", ".join(f"{item_name(i, locale)} ×{n}" if n > 1 else item_name(i, locale)
                      for i, n in bank["items"].items())
    bank_text = t("picture.bridges.bank", locale, coins=bank["coins"]) + (f" · {items}" if items else "")
    y = c.lines(PAD, PAD + 34, wrap(bank_text, 14, WIDTH - 2 * PAD, 3), size=14, gap=3) + 8
    boxes = _boxes(view, y, locale)
    for island, links in cat.links.items():
        for other in links:
            if island < other:
                c.line([_centre(boxes[island]), _centre(boxes[other])], colour=LINE, width=4)
    for island in cat.islands:
        _island(c, view, island, boxes[island], locale)
    _characters(c, view, locale, names, max(box[3] for box in boxes.values()) + 14)
    return c


def _marks(view: Mapping[str, Any], island: str, locale: str) -> list[str]:
    """What lies on the island: a chest, a building, a trap, bombs, the camp."""
    cat = catalogue()
    marks = []
    if island in view["chests"]:
        marks.append(t("bridges.board.chest", locale))
    building = view["buildings"].get(island)
    if building and building["kind"] == "fort":
        marks.append(t("bridges.board.fort", locale, left=cat.chars["buildings"]["fort"]["hits"] - building["hits"]))
    elif building:
        marks.append(t("bridges.board.catapult_charged" if building.get("charged") else "bridges.board.catapult",
                       locale).replace("⚡", "+"))
    if island in view["traps"]:
        marks.append(t("bridges.board.trap", locale))
    bombs = sum(1 for b in view["bombs"] if b["at"] == island)
    if bombs:
        marks.append(t("bridges.board.bomb", locale) + (f" ×{bombs}" if bombs > 1 else ""))
    if island == cat.base and view["camp"]:
        marks.append(t("bridges.board.camp", locale))
    return marks


def _height(view: Mapping[str, Any], island: str, locale: str) -> int:
    bosses = sum(1 for b in view["bosses"].values() if b["at"] == island)
    marks = _marks(view, island, locale)
    lines = len(wrap(", ".join(marks), 13, ISLAND_W - 20, 3)) if marks else 0
    return 28 + bosses * BOSS_H + lines * MARK_H + FOOT_H


def _boxes(view: Mapping[str, Any], top: float, locale: str) -> dict[str, tuple[float, float, float, float]]:
    """Each island's box: the book's rows one under another, a row's islands side by side (one alone in the
    middle), every island of a row as tall as its fullest."""
    out: dict[str, tuple[float, float, float, float]] = {}
    y = top
    for row in catalogue().rows:
        h = max(_height(view, island, locale) for island in row)
        for i, island in enumerate(row):
            x = WIDTH / 2 - ISLAND_W / 2 if len(row) == 1 else PAD + i * (ISLAND_W + ISLAND_GAP)
            out[island] = (x, y, x + ISLAND_W, y + h)
        y += h + ROW_GAP
    return out


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _island(c: Canvas, view: Mapping[str, Any], island: str, box: tuple[float, float, float, float],
            locale: str) -> None:
    cat = catalogue()
    x0, y0, x1, y1 = box
    c.box(x0, y0, x1, y1, fill=ROLE_FILL[cat.roles[island]], outline=LINE, width=2, radius=12)
    c.text(x0 + 10, y0 + 6, island_name(island, locale), size=15, bold=True, width=ISLAND_W - 20)
    y = y0 + 30
    for bid, b in view["bosses"].items():
        if b["at"] != island:
            continue
        if b["hp"] <= 0:
            c.text(x0 + 10, y, f"{boss_name(bid, locale)} ✝", size=14, colour=FAINT, width=ISLAND_W - 20)
        else:
            label = fit(boss_name(bid, locale), 14, ISLAND_W - 28 - BOSS_BAR - (16 if b["marked"] else 0))
            c.text(x0 + 10, y, label + (" ◎" if b["marked"] else ""), size=14, colour=WARN if b["angry"] else INK)
            c.bar(x1 - 8 - BOSS_BAR, y, BOSS_BAR, 18, b["hp"], b["mhp"], colour=BAD, label=f"{b['hp']}/{b['mhp']}",
                  size=13)
        y += BOSS_H
    marks = _marks(view, island, locale)
    if marks:
        y = c.lines(x0 + 10, y, wrap(", ".join(marks), 13, ISLAND_W - 20, 3), size=13, colour=GOLD, gap=0)
    here = [s for s, ch in enumerate(view["chars"]) if ch["at"] == island]
    x = x1 - 8
    for seat in reversed(here):  # each character as its number, right-aligned along the island's foot
        x -= 26
        c.circle(x + 11, y1 - 15, 11, fill=COLD if view["chars"][seat]["hp"] > 0 else FAINT)
        c.text(x + 11, y1 - 15, str(seat + 1), size=14, bold=True, colour=PANEL, anchor="mm")


def _characters(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str], y: float) -> None:
    waiting = {p["seat"] for p in view["to_act"]}
    w = WIDTH - 2 * PAD
    for seat, ch in enumerate(view["chars"]):
        tags = ", ".join(char_tags(ch, locale))
        gear = [item_name(i, locale) for i in ch["hands"]] + ([item_name(ch["armour"], locale)] if ch["armour"] else [])
        gear_lines = wrap(", ".join(gear) or t("bridges.board.none", locale), 14, w - 20, 2)
        h = 60 + 19 * len(gear_lines)
        c.box(PAD, y, PAD + w, y + h, fill=PANEL, outline=GOLD if seat in waiting else None, width=2)
        c.circle(PAD + 20, y + 18, 12, fill=COLD)
        c.text(PAD + 20, y + 18, str(seat + 1), size=14, bold=True, colour=PANEL, anchor="mm")
        ap = t("picture.bridges.ap", locale, ap=ch["ap"])
        head = f"{names[seat]} — {class_name(ch['cls'], locale)}"
        c.text(PAD + 40, y + 8, head, size=15, bold=True, width=w - 60 - text_width(ap, 15))
        c.text(PAD + w - 10, y + 9, ap, size=15, bold=True, colour=GOLD, anchor="ra")
        c.bar(PAD + 10, y + 36, 110, 18, ch["hp"], view["mhp"][seat], colour=BAD,
              label=f"{ch['hp']}/{view['mhp'][seat]}", size=13)
        c.text(PAD + 130, y + 36, tags, size=14, colour=MUTED, width=w - 140)
        c.lines(PAD + 10, y + 60, gear_lines, size=14, colour=MUTED if not gear else INK, gap=0)
        y += h + 6
