"""How the pictures sent to Discord read on a phone: every picture kind drawn from seeded positions (views along
seeded bot playouts, the public's and every seat's; a Swiss standings, an elimination bracket, a rating
chart), and per kind its pixel size, the smallest text drawn on it (recorded by the canvas where the text is
drawn, bot/engine/canvas.py) and that text's size at 400 px display width: the font's size and its
glyphs' heights (cap height "H", x-height "x") once the picture is scaled to 400 px wide.  The target
(docs/discord.md, "Pictures on a phone"): x-height >= 7 px, cap height >= 9.5 px at 400 px.

    .venv/bin/python benchmarks/pictures_phone.py [--games N] [--points N] [--game NAME] [--each]
    .venv/bin/python benchmarks/pictures_phone.py --root /tmp/old-checkout    # the same figures for another
                                                                              # revision (the "before" column)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

DISPLAY = 400
TARGET_X, TARGET_CAP = 7.0, 9.5
NAMES = ["Аня", "Борис", "Віра", "Glen", "Дана", "Егор", "Жанна", "Зоя", "Ігор", "Kate", "Лев", "Мія"]
SEATS = {"bloodwood": 7, "bridges": 3, "claygod": 2, "gwent": 2, "raiders": 3}


def _setup(root: Path) -> None:
    sys.path.insert(0, str(root))


def _canvases() -> tuple[Callable, list]:
    """``drawing(view, locale, names, kind)`` and a list the canvases behind ``png()`` calls are put in; on a
    revision before the phone layout (no ``drawing``, no recorded sizes) the same, by wrapping its canvas."""
    try:
        from bot.engine import canvas as canvas_module
    except ImportError:  # a revision before the drawers moved into the games (the canvas under bot/render)
        from bot.render.picture import canvas as canvas_module  # type: ignore[no-redef]
    drawn: list = []
    original_png = canvas_module.Canvas.png

    def png(self, *args, **kwargs):
        drawn.append(self)
        return original_png(self, *args, **kwargs)

    canvas_module.Canvas.png = png
    if hasattr(canvas_module.Canvas, "legibility"):
        from bot.render.picture import drawing
        return drawing, drawn
    original_text = canvas_module.Canvas.text

    def text(self, x, y, text, *, size=16, **kwargs):
        width = original_text(self, x, y, text, size=size, **kwargs)
        if width:
            self.smallest = min(getattr(self, "smallest", None) or size, size)
        return width

    def legibility(self, display=DISPLAY):
        if getattr(self, "smallest", None) is None:
            return None
        f = canvas_module.font(self.smallest)
        shrink = display / self.image.width
        return {"size": self.smallest * shrink, "cap": -f.getbbox("H", anchor="ls")[1] * shrink,
                "x": -f.getbbox("x", anchor="ls")[1] * shrink}

    def cropped(self, margin=12):
        return self.image.crop((0, 0, self.width, min(self.image.height, self.bottom + margin)))

    canvas_module.Canvas.text, canvas_module.Canvas.legibility = text, legibility
    canvas_module.Canvas.cropped = cropped
    from bot.render.picture import _GAMES

    def drawing(view, locale, names, kind="table"):
        draw = getattr(_GAMES.get(view["game"]), kind, None)
        return draw(view, locale, names) if draw is not None else None
    return drawing, drawn


def table_pictures(drawing: Callable, name: str, games: int, points: int) -> Iterator[tuple[str, str, Any]]:
    """(kind, label, canvas) for the views of ``games`` seeded playouts of ``name``, ``points`` states each."""
    from bot.engine import get_game
    from bot.engine.playout import play
    game = get_game(name)
    seats = SEATS[name]
    for i in range(games):
        run = play(game, seats, seed=f"phone-{name}-{i}", bot_seed=i)
        states = [run.initial, *run.states]
        states = states[:: max(1, len(states) // points)] + [states[-1]]
        for state in states:
            for seat in [None, *range(seats)]:
                view = game.view(state, seat)
                for kind in ("table", "hand"):
                    started = time.process_time()
                    canvas = drawing(view, "ru", NAMES[:seats], kind)
                    if canvas is not None:
                        canvas.png()
                        canvas.ms = (time.process_time() - started) * 1000
                        yield kind, f"{name}-{i} v{state['version']} seat {seat}", canvas


def other_pictures(drawn: list) -> Iterator[tuple[str, str, Any]]:
    """The tournament's standings and bracket pictures and a profile's rating chart, as Discord sends them."""
    from bot.render.picture.bracket import bracket_png
    from bot.render.picture.rating import rating_history
    from bot.render.picture.standings import standings_png
    from bot.render.standings import SHOWN
    rows = [{"rank": i + 1, "name": name + " " + "Длинноефамилия"[: i % 12], "status": "active" if i % 7 else "dropped",
             "points": (24 - i) / 4, "wins": (24 - i) // 4, "draws": (24 - i) % 4 // 2, "losses": i // 4,
             **{c: 30 - i * 1.25 for c in SHOWN["swiss"]}} for i, name in enumerate(NAMES * 2)]
    columns = [{"round": r + 1, "matches": [{"players": [NAMES[(m * 2) % 12] + "ович", NAMES[(m * 2 + 1) % 12]],
                                             "score": "2:1", "on": NAMES[(m * 2) % 12] + "ович", "bracket": "W"}
                                            for m in range(8 >> r)]} for r in range(4)]
    for kind, make in (("standings", lambda: standings_png(rows, "swiss", "ru", "Кубок сервера: после тура 5")),
                       ("bracket", lambda: bracket_png(columns, "ru", "Кубок сервера: сетка")),
                       ("rating", lambda: rating_history("Гвинт", [1500, 1512, 1490, 1533, 1560], "ru"))):
        started = time.process_time()
        before = len(drawn)
        make()
        if len(drawn) > before:
            canvas = drawn[-1]
            canvas.ms = (time.process_time() - started) * 1000
            yield kind, kind, canvas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="playouts per game")
    parser.add_argument("--points", type=int, default=6, help="states drawn per playout")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--each", action="store_true", help="a line per picture")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose pictures are measured")
    args = parser.parse_args()
    _setup(args.root)
    drawing, drawn = _canvases()
    names = [args.game] if args.game else sorted(SEATS)
    groups: dict[tuple[str, str], list] = {}
    for name in names:
        for kind, label, canvas in table_pictures(drawing, name, args.games, args.points):
            groups.setdefault((name, kind), []).append((label, canvas))
    if not args.game:
        for kind, label, canvas in other_pictures(drawn):
            groups.setdefault(("tournament" if kind != "rating" else "profile", kind), []).append((label, canvas))
    print("| picture | n | px wide | px high (median / max) | smallest text drawn, px | at 400 px: font px | "
          "cap height px | x-height px | CPU ms mean |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = None
    for (name, kind), pictures in groups.items():
        sizes = [c.cropped().size for _, c in pictures]
        seen = [(c.legibility(DISPLAY), c) for _, c in pictures]
        seen = [(f, c) for f, c in seen if f is not None]
        low, canvas = min(seen, key=lambda fc: fc[0]["cap"])
        drawn_px = low["size"] * canvas.image.width / DISPLAY
        heights = sorted(h for _, h in sizes)
        print(f"| {name} {kind} | {len(pictures)} | {max(w for w, _ in sizes)} | {heights[len(heights) // 2]} / "
              f"{heights[-1]} | {drawn_px:.0f} | {low['size']:.1f} | {low['cap']:.1f} | {low['x']:.1f} "
              f"| {statistics.mean(c.ms for _, c in pictures):.1f} |")
        if worst is None or low["cap"] < worst[1]["cap"]:
            worst = (f"{name} {kind}", low)
        if args.each:
            for (label, c), (w, h) in zip(pictures, sizes):
                f = c.legibility(DISPLAY)
                if f:
                    print(f"    {label}: {w}x{h}, at 400 px font {f['size']:.1f}, cap {f['cap']:.1f}, "
                          f"x {f['x']:.1f}")
    if worst:
        name, low = worst
        ok = low["x"] >= TARGET_X and low["cap"] >= TARGET_CAP
        print(f"\nsmallest at 400 px: {name}, cap height {low['cap']:.1f} px, x-height {low['x']:.1f} px "
              f"(target {TARGET_CAP} / {TARGET_X}: {'met' if ok else 'NOT met'})")


if __name__ == "__main__":
    main()
