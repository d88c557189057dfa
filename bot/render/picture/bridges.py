"""Bridges as a picture, drawn from a view (the game is open, §1.1.2): the archipelago as the book's scheme
draws it, row by row with its bridges; on each island its bosses with their health, buildings, chests,
traps, bombs and the characters standing there (by number); beside it every character's class, health,
action points and gear; the round, the Base's health and the bank."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games.bridges.data import catalogue
from bot.games.bridges.render import boss_name, char_tags, class_name, island_name, item_name
from bot.i18n import t

from .canvas import BAD, COLD, FAINT, GOLD, GOOD, INK, LINE, MUTED, PANEL, PANEL_LIGHT, WARN, Canvas, fit

WIDTH = 1000
PAD = 12
MAP_W = 600
ISLAND_W, ISLAND_H = 236, 92
ROW_H = 112
SIDE_X = PAD + MAP_W + 12
ROLE_FILL = {"base": (44, 70, 52), "chest": (70, 60, 36), "boss": (72, 40, 44), "shop": (40, 56, 80),
             "krabulon": (86, 36, 36)}


def table(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH)
    cat = catalogue()
    if view["phase"] == "choose":
        c.text(PAD, PAD, t("bridges.board.choosing", locale), size=20, bold=True)
        y = PAD + 36
        for seat, ch in enumerate(view["chars"]):
            label = f"{names[seat]} — {class_name(ch['cls'], locale)}" if ch["cls"] else \
                t("bridges.board.unchosen", locale, name=names[seat])
            c.text(PAD, y, f"{seat + 1}. {label}", size=15, width=WIDTH - 2 * PAD)
            y += 24
        return c
    c.text(PAD, PAD, t("picture.bridges.round", locale, round=view["round"]), size=20, bold=True)
    c.text(PAD + 170, PAD + 4, t("picture.bridges.base", locale), size=13, colour=MUTED)
    c.bar(PAD + 240, PAD + 2, 200, 20, view["base_hp"], cat.chars["base_hp"], colour=GOOD,
          label=f"{view['base_hp']} / {cat.chars['base_hp']}")
    bank = view["bank"]
    items = ", ".join(f"{item_name(i, locale)} ×{n}" if n > 1 else item_name(i, locale)
                      for i, n in bank["items"].items())
    bank_text = t("picture.bridges.bank", locale, coins=bank["coins"]) + (f" · {items}" if items else "")
    c.text(PAD + 460, PAD + 4, bank_text, size=13, width=WIDTH - PAD - 470)
    centres = _centres(PAD + 40)
    for island, links in cat.links.items():
        for other in links:
            if island < other:
                c.line([centres[island], centres[other]], colour=LINE, width=4)
    for island in cat.islands:
        _island(c, view, island, centres[island], locale)
    _characters(c, view, locale, names, PAD + 40)
    return c


def _centres(top: int) -> dict[str, tuple[float, float]]:
    out = {}
    for r, row in enumerate(catalogue().rows):
        for i, island in enumerate(row):
            out[island] = (PAD + MAP_W * (i + 0.5) / len(row), top + ROW_H * r + ISLAND_H / 2)
    return out


def _island(c: Canvas, view: Mapping[str, Any], island: str, centre: tuple[float, float], locale: str) -> None:
    cat = catalogue()
    x0, y0 = centre[0] - ISLAND_W / 2, centre[1] - ISLAND_H / 2
    c.box(x0, y0, x0 + ISLAND_W, y0 + ISLAND_H, fill=ROLE_FILL[cat.roles[island]], outline=LINE, width=2, radius=14)
    c.text(x0 + 10, y0 + 6, island_name(island, locale), size=13, bold=True, width=ISLAND_W - 20)
    y = y0 + 26
    for bid, b in view["bosses"].items():
        if b["at"] != island:
            continue
        if b["hp"] <= 0:
            c.text(x0 + 10, y, f"{boss_name(bid, locale)} ✝", size=12, colour=FAINT, width=ISLAND_W - 20)
        else:
            label = fit(boss_name(bid, locale), 12, 110)
            c.text(x0 + 10, y + 1, label + (" ◎" if b["marked"] else ""), size=12, colour=WARN if b["angry"] else INK)
            c.bar(x0 + 128, y, ISLAND_W - 138, 16, b["hp"], b["mhp"], colour=BAD, label=f"{b['hp']}/{b['mhp']}",
                  size=11)
        y += 20
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
    if marks:
        c.text(x0 + 10, y, ", ".join(marks), size=11, colour=GOLD, width=ISLAND_W - 20)
    here = [s for s, ch in enumerate(view["chars"]) if ch["at"] == island]
    x = x0 + ISLAND_W - 8
    for seat in reversed(here):  # each character as its number, right-aligned along the island's foot
        x -= 24
        c.circle(x + 10, y0 + ISLAND_H - 14, 10, fill=COLD if view["chars"][seat]["hp"] > 0 else FAINT)
        c.text(x + 10, y0 + ISLAND_H - 14, str(seat + 1), size=11, bold=True, colour=PANEL, anchor="mm")


def _characters(c: Canvas, view: Mapping[str, Any], locale: str, names: Sequence[str], y: int) -> None:
    waiting = {p["seat"] for p in view["to_act"]}
    w = WIDTH - PAD - SIDE_X
    for seat, ch in enumerate(view["chars"]):
        h = 70
        c.box(SIDE_X, y, SIDE_X + w, y + h, fill=PANEL, outline=GOLD if seat in waiting else None, width=2)
        c.circle(SIDE_X + 18, y + 18, 11, fill=COLD)
        c.text(SIDE_X + 18, y + 18, str(seat + 1), size=11, bold=True, colour=PANEL, anchor="mm")
        head = f"{names[seat]} — {class_name(ch['cls'], locale)}"
        c.text(SIDE_X + 36, y + 8, head, size=13, bold=True, width=w - 110)
        c.text(SIDE_X + w - 10, y + 9, t("picture.bridges.ap", locale, ap=ch["ap"]), size=12, colour=GOLD, anchor="ra")
        c.bar(SIDE_X + 10, y + 30, 120, 14, ch["hp"], view["mhp"][seat], colour=BAD,
              label=f"{ch['hp']}/{view['mhp'][seat]}", size=10)
        c.text(SIDE_X + 140, y + 30, ", ".join(char_tags(ch, locale)), size=11, colour=MUTED, width=w - 150)
        gear = [item_name(i, locale) for i in ch["hands"]] + ([item_name(ch["armour"], locale)] if ch["armour"] else [])
        c.text(SIDE_X + 10, y + 50, ", ".join(gear) or t("bridges.board.none", locale), size=11, colour=PANEL_LIGHT
               if not gear else INK, width=w - 20)
        y += h + 6
