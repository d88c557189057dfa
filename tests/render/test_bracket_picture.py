"""The bracket picture Discord posts (bot/render/picture/bracket.py): drawn from the page's layout, every round
of every tree with the lines between them, within what Discord takes (a few hundred kilobytes, not its 10 MiB
limit), the first rounds of a very large bracket left to the page with a line saying so."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import t
from bot.render.picture.bracket import (BOX_H, BOX_W, COLUMN, GAP_X, HEAD, MOST_MATCHES, _shown, bracket_canvas,
                                        bracket_png, size)
from bot.engine.canvas import LINE, SCALE
from bot.tournament.bracket_layout import as_rows, layout
from bot.tournament.standings import Points

DISCORD_FILE = 10 * 1024 * 1024


def _trees(players: int, double: bool, locale: str = "en"):
    lay = layout(None, [], Points(), double=double, entrants=players, third_place=not double)
    return as_rows(lay, {}, lambda key, **v: t(key, locale, **v))


@pytest.mark.parametrize("players, double", [(2, False), (5, False), (8, True), (32, True)])
def test_every_round_is_drawn_and_the_file_fits_discord(players, double):
    trees = _trees(players, double)
    data = bracket_png(trees, "uk", "Кубок")
    image = Image.open(io.BytesIO(data))
    columns = max(len(tree["columns"]) for tree in trees)
    assert image.width == round(size(trees)[0] * SCALE) and image.width >= round((16 + columns * COLUMN) * SCALE)
    assert len(data) < 400_000 < DISCORD_FILE and image.height < 8000


def test_the_lines_join_each_match_to_the_one_its_winner_goes_to():
    trees = _trees(8, False)
    canvas = bracket_canvas(trees, "en", "Cup")
    image = canvas.image
    top = 44 + HEAD + HEAD                     # the title, the tree's title, its round headers
    unit = BOX_H + 12
    mid_x = 8 + BOX_W + GAP_X / 2              # the vertical between round 1 and round 2
    first, second = top + unit / 2, top + 3 * unit / 2   # round 1's first two matches
    for y in (first + 5, (first + second) / 2, second - 5):
        assert image.getpixel((round(mid_x * SCALE), round(y * SCALE))) == LINE, y
    # and nothing there between round 1's second and third matches (they feed different matches)
    assert image.getpixel((round(mid_x * SCALE), round((top + 2 * unit) * SCALE))) != LINE


def test_a_very_large_bracket_leaves_its_first_rounds_to_the_page():
    trees = _trees(128, True, "ru")
    data = bracket_png(trees, "ru", "Кубок")
    assert len(data) < DISCORD_FILE
    canvas = bracket_canvas(trees, "ru", "Кубок")
    assert canvas.image.height < 8000 * 2
    upper, lower = (_shown(tree) for tree in trees[:2])
    assert upper[1] == 64 and len(upper[0][0]["matches"]) == MOST_MATCHES  # rounds 1 and 2 on the page only
    assert lower[1] == 32 and len(lower[0]) == len(trees[1]["columns"]) - 2
