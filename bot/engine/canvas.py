"""Drawing helpers shared by every game's picture: the fonts shipped with the bot, a canvas that grows as it
is drawn on and is cropped to what was drawn, text that is cut to fit, boxes, bars and badges, and the PNG.

The fonts are DejaVu Sans and DejaVu Sans Bold, shipped in ``fonts/`` with their licence: Cyrillic, Latin and
the digits render the same on every machine, with no system font assumed.  Text is laid out by FreeType's
basic layout (no system shaping library either), so a picture is the same bytes wherever it is drawn.

Pictures are laid out for a phone (docs/discord.md, "Pictures on a phone"): a canvas is ``PHONE`` = 400 units
wide, the width a phone shows a picture at, and every size a game's module gives (positions, font sizes) is in
those units; the bitmap is drawn ``SCALE`` times larger, so that it stays sharp on a phone's dense screen.  A
font size in units is therefore the size the reader sees at 400 px display width, and no text is drawn below
``SMALLEST`` units: the canvas records the smallest size it drew (``Canvas.smallest``) and what that is in
glyph heights at 400 px (``legibility``), which the benchmark prints and the tests bound."""
from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"

#: a colour as Pillow takes it: red, green, blue
Colour = tuple[int, int, int]

# A dark theme close to Discord's own, so that a picture sits well in a message
BACKGROUND = (43, 45, 49)
PANEL = (30, 31, 34)
PANEL_LIGHT = (56, 58, 64)
LINE = (78, 80, 88)
INK = (242, 243, 245)
MUTED = (160, 165, 172)
FAINT = (110, 114, 122)
ACCENT = (88, 101, 242)
GOOD = (87, 242, 135)
BAD = (237, 66, 69)
GOLD = (240, 178, 50)
WARN = (250, 168, 26)
COLD = (120, 170, 230)

ELLIPSIS = "…"

#: the width (units) a phone shows a picture at, and the bitmap's pixels per unit
PHONE = 400
SCALE = 1.5
#: the smallest font size (units, i.e. px at 400 px display width): x-height 7 px, cap height 10 px there
SMALLEST = 13


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


def pixels(size: float, scale: float = SCALE) -> int:
    """The font size in pixels of ``size`` units drawn at ``scale``."""
    return max(1, int(size * scale + 0.5))


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """The width (units) of ``text`` at ``size`` units, as drawn at ``SCALE``."""
    return math.ceil(font(pixels(size), bold).getlength(text) / SCALE - 0.01)


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to ``width`` units."""
    # heads of 16, 32, 64 … characters are measured until one is too wide: a name of 10,000 characters costs
    # what its first few dozen do, not measures of thousands of characters each
    high = 16
    while high < len(text) and text_width(text[:high], size, bold) <= width:
        high *= 2
    if high >= len(text) and text_width(text, size, bold) <= width:
        return text

    def fits(n: int) -> bool:
        return text_width(text[:n].rstrip() + ELLIPSIS, size, bold) <= width

    low, high = 0, min(high, len(text))
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""


def wrap(text: str, size: int, width: int, lines: int, bold: bool = False) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` units, broken between words; the last line cut."""
    words, line = text.split(), ""
    out: list[str] = []
    for i, word in enumerate(words):
        if len(out) == lines - 1:  # the last line takes the rest, cut: the words after it are never measured
            out.append(" ".join(words[i:]) if not line else " ".join([line, *words[i:]]))
            line = ""
            break
        attempt = f"{line} {word}".strip()
        if line and text_width(attempt, size, bold) > width:
            out.append(line)
            line = word
        else:
            line = attempt
    if line:
        out.append(line)
    return [fit(part, size, width, bold) for part in out]


def badge_width(text: str, size: int = SMALLEST, bold: bool = False) -> int:
    """The room a ``Canvas.badge`` takes, the gap after it included."""
    return text_width(text, size, bold) + 18


@lru_cache(maxsize=64)
def glyph_heights(px: int) -> tuple[float, float]:
    """(cap height, x-height) in pixels of the font at ``px`` pixels, as FreeType draws them ("H" and "x")."""
    f = font(px)
    return -f.getbbox("H", anchor="ls")[1], -f.getbbox("x", anchor="ls")[1]


class Canvas:
    """A picture being drawn, ``width`` units wide (``PHONE`` for every table picture) at ``scale`` pixels a
    unit: ``height`` (units) is a bound, the picture is cropped to the lowest thing drawn.  ``smallest`` is the
    smallest font size (units) drawn on it so far."""

    def __init__(self, width: int = PHONE, height: int = 3200, background: tuple[int, int, int] = BACKGROUND,
                 scale: float = SCALE):
        self.width = width
        self.scale = scale
        self.image = Image.new("RGB", (round(width * scale), round(height * scale)), background)
        self.draw = ImageDraw.Draw(self.image)
        self.bottom = 0
        self.smallest: int | None = None

    def _reach(self, y: float) -> None:
        self.bottom = max(self.bottom, int(y + 0.999))

    def _xy(self, *values: float) -> tuple[float, ...]:
        return tuple(v * self.scale for v in values)

    def _point(self, x: float, y: float) -> tuple[float, float]:
        return x * self.scale, y * self.scale

    def text(self, x: float, y: float, text: str, *, size: int = 16, colour: Colour = INK, bold: bool = False,
             width: int | None = None, anchor: str = "la") -> int:
        """Draw ``text`` (cut to ``width`` units when given); returns its width."""
        if width is not None:
            text = fit(text, size, width, bold)
        if not text:
            return 0
        self.draw.text(self._point(x, y), text, font=font(pixels(size, self.scale), bold), fill=colour, anchor=anchor)
        self.smallest = size if self.smallest is None else min(self.smallest, size)
        self._reach(y + (size * 1.25 if anchor[1] in "at" else size * 0.3))
        return text_width(text, size, bold)

    def lines(self, x: float, y: float, lines: list[str], *, size: int = 14, colour: Colour = INK, bold: bool = False,
              gap: int = 3) -> float:
        """Draw lines one under another; returns the y below them."""
        for line in lines:
            self.text(x, y, line, size=size, colour=colour, bold=bold)
            y += size + gap + 2
        return y

    def box(self, x0: float, y0: float, x1: float, y1: float, *, fill: Colour | None = PANEL,
            outline: Colour | None = None, width: int = 1, radius: float = 6) -> None:
        self.draw.rounded_rectangle(self._xy(x0, y0, x1, y1), radius=round(radius * self.scale), fill=fill,
                                    outline=outline, width=max(1, round(width * self.scale)))
        self._reach(y1 + 1)

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour | None = None, outline: Colour | None = None,
               width: int = 1) -> None:
        self.draw.ellipse(self._xy(cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline,
                          width=max(1, round(width * self.scale)))
        self._reach(cy + r + 1)

    def line(self, points: list[tuple[float, float]], *, colour: Colour = LINE, width: int = 2) -> None:
        self.draw.line([self._point(x, y) for x, y in points], fill=colour, width=max(1, round(width * self.scale)))
        self._reach(max(y for _, y in points) + width)

    def polygon(self, points: list[tuple[float, float]], *, fill: Colour = LINE) -> None:
        self.draw.polygon([self._point(x, y) for x, y in points], fill=fill)
        self._reach(max(y for _, y in points) + 1)

    def badge(self, x: float, y: float, text: str, *, size: int = SMALLEST, fill: Colour = PANEL_LIGHT,
              colour: Colour = INK, bold: bool = False) -> int:
        """A rounded label; returns its width with the gap after it (``badge_width``)."""
        w = badge_width(text, size, bold) - 6
        self.box(x, y, x + w, y + size + 8, fill=fill, radius=(size + 8) // 2)
        self.text(x + 6, y + 3, text, size=size, colour=colour, bold=bold)
        return w + 6

    def bar(self, x: float, y: float, w: float, h: float, value: int, maximum: int, *, colour: Colour,
            label: str | None = None, size: int = SMALLEST) -> None:
        """A filled bar (value of maximum); a value above the maximum fills it and is told by the label."""
        self.box(x, y, x + w, y + h, fill=PANEL_LIGHT, radius=h // 2)
        share = 0 if maximum <= 0 else max(0.0, min(1.0, value / maximum))
        if share > 0:
            self.box(x, y, x + max(h, w * share), y + h, fill=colour, radius=h // 2)
        if label:
            self.text(x + w / 2, y + h / 2, label, size=size, bold=True, anchor="mm")

    def legibility(self, display: int = PHONE) -> dict[str, float] | None:
        """The smallest text drawn, seen at ``display`` px wide: its font size and its glyphs' heights (cap
        height, x-height) in display pixels; None when no text was drawn."""
        if self.smallest is None:
            return None
        px = pixels(self.smallest, self.scale)
        cap, x_height = glyph_heights(px)
        shrink = display / self.image.width
        return {"size": px * shrink, "cap": cap * shrink, "x": x_height * shrink}

    def png(self, margin: int = 12) -> bytes:
        return png(self.cropped(margin))

    def webp(self, margin: int = 12) -> bytes:
        return webp(self.cropped(margin))

    def cropped(self, margin: int = 12) -> Image.Image:
        """The picture as drawn, cut below the lowest thing drawn (``margin`` units under it)."""
        height = min(self.image.height, round((self.bottom + margin) * self.scale))
        return self.image.crop((0, 0, self.image.width, height))


def png(image: Image.Image) -> bytes:
    """The picture as PNG, reduced to a 256-colour palette: flat colours and anti-aliased text lose nothing
    visible, and the file is a third of the size.  The fast octree takes a few milliseconds where median cut
    took fifty."""
    out = io.BytesIO()
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def webp(image: Image.Image) -> bytes:
    """The picture as lossless WebP of the same 256-colour palette as ``png``: the same pixels in about half the
    bytes (issue 35: at most 15 KB uploaded to Discord per decision).  Discord shows a WebP attachment inline
    like a PNG.  ``method`` 2 with ``quality`` 100 (the lossless encoder's effort) is within 3 % of method 6's
    file at a seventieth of its time (docs/discord.md, "Issue 35: expired tokens, calls and uploads")."""
    out = io.BytesIO()
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.convert("RGB").save(out, format="WEBP", lossless=True, method=2, quality=100)
    return out.getvalue()
