"""The bracket picture Discord posts (bot/render/picture/bracket.py): drawn from the page's layout at a phone's
width, every round of every tree stacked, two matches to a row, within what Discord takes (a few hundred
kilobytes, not its 10 MiB limit), the first rounds of a very large bracket left to the page with a line saying
so."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import t
from bot.engine.canvas import PANEL_LIGHT, PHONE, SCALE
from bot.render.picture.bracket import (BOX_W, GAP_X, HEAD, MOST_MATCHES, UNIT, _shown, bracket_canvas, bracket_png,
                                        size)
from bot.tournament.bracket_layout import as_rows, layout
from bot.tournament.standings import Points

DISCORD_FILE = 10 * 1024 * 1024


def _trees(players: int, double: bool, locale: str = "en"):
    lay = layout(None, [], Points(), double=double, entrants=players, third_place=not double)
    return as_rows(lay, {}, lambda key, **v: t(key, locale, **v))


@pytest.mark.parametrize("players, double", [(2, False), (5, False), (8, True), (32, True)])
def test_every_round_is_drawn_at_a_phones_width_and_the_file_fits_discord(players, double):
    trees = _trees(players, double)
    data = bracket_png(trees, "uk", "Кубок")
    image = Image.open(io.BytesIO(data))
    assert image.width == round(PHONE * SCALE) and size(trees)[0] == PHONE
    rounds = sum(len(_shown(tree)[0]) for tree in trees)
    boxes = sum(-(-len(column["matches"]) // 2) for tree in trees for column in _shown(tree)[0])
    assert size(trees)[1] == 44 + sum(HEAD + 8 for _ in trees) + rounds * HEAD + boxes * UNIT
    assert len(data) < 400_000 < DISCORD_FILE and image.height < 8000


def test_each_rounds_matches_stand_two_to_a_row_under_its_header():
    trees = _trees(8, False)
    image = bracket_canvas(trees, "en", "Cup").image
    top = 44 + HEAD + HEAD                     # the title, the tree's title, round 1's header
    for i in range(4):                         # round 1 of eight players: four matches, in two rows
        x, y = 8 + (i % 2) * (BOX_W + GAP_X) + BOX_W / 2, top + (i // 2) * UNIT + 4
        assert image.getpixel((round(x * SCALE), round(y * SCALE))) == PANEL_LIGHT, i
    # round 2's header comes after round 1's two rows, its two matches in one row
    second = top + 2 * UNIT + HEAD
    assert image.getpixel((round((8 + BOX_W / 2) * SCALE), round((second + 4) * SCALE))) == PANEL_LIGHT
    assert image.getpixel((round((8 + BOX_W / 2) * SCALE), round((second - HEAD / 2 + 10) * SCALE))) != PANEL_LIGHT


def test_a_very_large_bracket_leaves_its_first_rounds_to_the_page():
    trees = _trees(128, True, "ru")
    data = bracket_png(trees, "ru", "Кубок")
    assert len(data) < DISCORD_FILE
    canvas = bracket_canvas(trees, "ru", "Кубок")
    assert canvas.image.height < 8000 * 2
    upper, lower = (_shown(tree) for tree in trees[:2])
    assert upper[1] == 64 and len(upper[0][0]["matches"]) == MOST_MATCHES  # rounds 1 and 2 on the page only
    assert lower[1] == 32 and len(lower[0]) == len(trees[1]["columns"]) - 2
