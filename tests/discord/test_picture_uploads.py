"""Pictures as Discord is sent them (issue 35: at most 15 KB uploaded per decision): lossless WebP of the same
palette as the PNG — the same pixels in fewer bytes — and a picture a message carries already not sent again."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.discord.pictures import Picture, TablePictures
from bot.engine import all_games
from bot.render.picture import drawing

NAMES = ["Аня", "Bob", "Віра", "Dan", "Eve", "Фёдор"]


def _pixels(data: bytes) -> tuple:
    with Image.open(io.BytesIO(data)) as image:
        return image.format, image.size, image.convert("RGB").tobytes()


@pytest.mark.parametrize("name", ["claygod", "gwent", "bloodwood", "raiders", "bridges"])
def test_webp_shows_the_pngs_pixels_in_fewer_bytes(name):
    game = all_games()[name]
    seats = {"bloodwood": 6, "raiders": 3}.get(name, 2)
    state = game.initial_state(seats, seed="uploads").state
    canvas = drawing(game.view(state, None), "ru", NAMES[:seats], "table")
    png, webp = canvas.png(), canvas.webp()
    assert _pixels(webp)[0] == "WEBP" and _pixels(png)[0] == "PNG"
    assert _pixels(webp)[1:] == _pixels(png)[1:]  # lossless: what a player sees is the same
    assert len(webp) < 0.8 * len(png), (len(webp), len(png))


def _picture(data: bytes) -> Picture:
    return Picture(data, "table1-v1-hand.webp", "alt")


def test_an_edit_sends_a_picture_only_when_the_message_does_not_carry_it_already():
    shown = TablePictures()
    one, two = _picture(b"one"), _picture(b"two")
    first = shown.replacing(7, one)
    assert [f.filename for f in first["attachments"]] == ["table1-v1-hand.webp"]  # not known: sent
    shown.carried(7, one)
    assert shown.replacing(7, one) == {} and shown.same(7, one)  # the same bytes: the attachment is left alone
    assert len(shown.replacing(7, two)["attachments"]) == 1       # changed: sent, and not known until carried
    assert shown.same(7, one) is None and shown.replacing(7, one) != {}
    shown.carried(7, None)
    assert shown.replacing(7, None) == {}                          # no picture, and none carried: nothing to do
    assert shown.replacing(8, None) == {"attachments": []}         # not known: whatever it carries goes


def test_a_waiting_players_changed_hand_is_not_uploaded_but_its_old_picture_goes():
    shown = TablePictures()
    held, changed = _picture(b"held"), _picture(b"changed")
    shown.carried(5, held)
    assert shown.while_waiting(5, held) is held       # unchanged: kept, nothing uploaded
    assert shown.while_waiting(5, changed) is None    # changed: the old picture goes, the new one waits
    assert shown.while_waiting(6, held) is None       # not known: none rather than an upload
    shown.forget(5)
    assert shown.same(5, held) is None
