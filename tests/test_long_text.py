"""Text of any length costs time linear in its length (wrapping, fitting a picture's text), and a name, title
or free text longer than its limit is cut where it is read back, whatever release wrote it."""
from __future__ import annotations

import random
import time

from bot.engine.board_text import cut_to_width, display_width, wrap
from bot.games.bridges.render import WIDTH as BRIDGES_WIDTH, wrap as bridges_wrap
from bot.render.picture.canvas import ELLIPSIS, fit, text_width, wrap as picture_wrap

# characters display_width treats specially: marks, joiners, the emoji selector, flags' halves, wide ones
ALPHABET = ["a", "b", " ", "Ж", "\u0301", "\u200d", "\ufe0f", "😀", "🇷", "🇺", "漢", "❄", "\u2068", "\u2069"]


def _text(rnd: random.Random, n: int) -> str:
    return "".join(rnd.choice(ALPHABET) for _ in range(n))


def test_a_long_word_is_cut_into_the_longest_heads_that_fit():
    rnd = random.Random(7)
    for _ in range(300):
        word, width = _text(rnd, rnd.randint(1, 200)).replace(" ", "x"), rnd.choice([3, 10, 40])
        lines: list[str] = []
        last = cut_to_width(word, width, "  ", lines)
        if not lines:
            assert last == word and display_width(word) <= width
            continue
        pieces = [lines[0], *(line[2:] for line in lines[1:]), last[2:]]
        assert "".join(pieces) == word
        for i, line in enumerate(lines):
            assert display_width(line) <= width or len(pieces[i]) == 1
            following = lines[i + 1][2:] if i + 1 < len(lines) else last[2:]
            # the longest head: one character more would not have fitted
            assert display_width(line + following[:1]) > width


def test_wrapping_keeps_every_word_within_the_width():
    rnd = random.Random(8)
    for _ in range(300):
        line, width = _text(rnd, rnd.randint(0, 300)), rnd.choice([10, 20, 40])
        wrapped = wrap(line, width, hang="")
        assert all(display_width(part) <= width for part in wrapped)
        assert "".join("".join(part.split(" ")) for part in wrapped) == "".join(line.split(" "))


def test_a_name_of_ten_thousand_characters_is_wrapped_whole_and_in_linear_time():
    # 250 lines' worth of one word: the old cut measured every shorter head again (over ten seconds); linear
    # takes about 10 ms, so the bound below only catches a quadratic slip, however loaded the machine is
    word = "ж" * 10_000
    started = time.perf_counter()
    lines = wrap(f"Ход: {word} — бросок", 40)
    assert lines[0] == "Ход:" and lines[-1].endswith("— бросок") and all(display_width(x) <= 40 for x in lines)
    assert "".join(lines[1:]).replace(" ", "") == word + "—бросок"
    bridged = bridges_wrap(word, "• ")
    assert all(display_width(x) <= BRIDGES_WIDTH for x in bridged)
    assert "".join(x.strip() for x in bridged).replace("•", "") == word
    assert time.perf_counter() - started < 2.0


def test_a_picture_cuts_a_long_name_to_its_width_with_an_ellipsis():
    for n in (5, 40, 1_000, 10_000):
        name = "Жора" * (n // 4)
        shown = fit(name, 16, 120)
        assert text_width(shown, 16) <= 120
        if text_width(name, 16) > 120:
            assert shown.endswith(ELLIPSIS) and name.startswith(shown[:-1])
            # the longest head that fits: one character more would not
            assert text_width(name[:len(shown)] + ELLIPSIS, 16) > 120
        else:
            assert shown == name
    lines = picture_wrap("слово " * 3_000, 13, 200, 3)
    assert len(lines) == 3 and lines[-1].endswith(ELLIPSIS)
    assert all(text_width(x, 13) <= 200 for x in lines)
