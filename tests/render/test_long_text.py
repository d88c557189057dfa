"""Text of any length costs time linear in its length (wrapping, fitting a picture's text), and a name, title
or free text longer than its limit is cut where it is read back, whatever release wrote it."""
from __future__ import annotations

import random
import re
import time

import pytest
from discord.utils import escape_markdown

from bot.discord.render import board_texts, display_names
from bot.engine import get_game
from bot.engine.free_text import NAME_MAX, TITLE_MAX, clean_name, clean_text, stored_name, stored_text, stored_title
from bot.referee.service import Referee
from bot.storage.store import Store
from bot.storage.tournaments import Tournaments
from bot.tournament.director import check_settings
from bot.web import pages, public
from bot.engine.board_text import cut_to_width, display_width, isolate, shorten_name, wrap
from bot.games.bridges.render import WIDTH as BRIDGES_WIDTH, wrap as bridges_wrap
from bot.engine.canvas import ELLIPSIS, fit, text_width, wrap as picture_wrap

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


# ---------------------------------------------------------------------------------------------- read back
LONG = "Ж" * 10_000
HOSTILE = "\u202eevil\u202c\x07\x1b[2J" + "я" * 4_000   # an override, a bell and an escape, as an old release kept them
STRAY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066\u2067]")


@pytest.fixture
async def old_record(tmp_path):
    """A started Clay God table and a tournament whose names and titles were written as a release that cleaned
    nothing wrote them: straight into the database, past the referee."""
    store = await Store.open(tmp_path / "old.db")
    referee = Referee(store)
    table = await referee.create_table("claygod", creator="cli:a", creator_name="A", origin="terminal", join=False)
    for name in ("Аня", "Борис"):
        await referee.add_bot(table.id, name=name)
    async with store.transaction() as db:  # (the database lets seats change only in the lobby)
        await db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = 0", (LONG, table.id))
        await db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = 1", (HOSTILE, table.id))
    await referee.start(table.id, "cli:a")
    tid = await Tournaments(store).create(game="claygod", format="swiss", creator="cli:a",
                                          settings=check_settings("claygod", "swiss", {}), options={},
                                          seed="s", origin="terminal", now=1.0, title="\u202eTitle\u202c " + "t" * 500)
    async with store.transaction() as db:
        await db.execute("UPDATE tables SET title = ? WHERE id = ?", ("\u202eTitle " + "x" * 5_000, table.id))
        await db.execute("INSERT INTO entries (tournament_id, user_id, name, is_bot, number, joined_round, joined_at)"
                         " VALUES (?, 'bot:x', ?, 1, 1, 0, 1.0)", (tid, HOSTILE))
    yield store, table.id, tid
    await store.close()


async def test_names_and_titles_of_any_release_are_cut_and_cleaned_where_they_are_read(old_record):
    store, table_id, tid = old_record
    names = [s.name for s in await store.seats(table_id)]
    assert names[0] == "Ж" * (NAME_MAX - 1) + "…"
    assert names[1].startswith("evil") and len(names[1]) <= NAME_MAX and not STRAY.search(names[1])
    table = await store.get_table(table_id)
    assert table.title.startswith("Title x") and len(table.title) <= TITLE_MAX and "\u202e" not in table.title
    tour = await Tournaments(store).get(tid)
    assert tour.title.startswith("Title t") and len(tour.title) <= TITLE_MAX
    (entry,) = await Tournaments(store).entries(tid)
    assert entry.name == names[1]


async def test_a_page_and_a_discord_board_show_a_long_name_cut_and_every_name_isolated(old_record):
    store, table_id, tid = old_record
    page = pages.Page("en")
    html = pages.table_page(page, await public.load_table(store, table_id))
    assert "Ж" * NAME_MAX not in html and "Ж" * (NAME_MAX - 1) + "…" in html
    assert not STRAY.search(html)
    assert html.count("\u2068") == html.count("\u2069")
    name = (await store.seats(table_id))[1].name
    assert f"<bdi>{name}</bdi>" in html  # on its own: an element of its own
    board = re.search('<pre class="board">(.*?)</pre>', html, re.S).group(1)
    assert f"\u2068{name}\u2069" in board  # inside a board's line: the isolation marks
    tour = pages.tournament_page(page, await public.load_tournament(store, tid))
    title = re.search("<title>(.*)</title>", tour, re.S).group(1)
    assert title.startswith("\u2068Title t") and "\u2069 · " in title and not STRAY.search(tour)
    assert re.search("<h1><bdi>Title t+…</bdi></h1>", tour)
    assert re.search("<bdi>evil(&#3[49];)?я+…</bdi>", tour)  # the entrant: cleaned, cut and in its own <bdi>

    seats = await store.seats(table_id)
    game = get_game("claygod")
    texts = board_texts(game, seats, game.view(await store.state(table_id), 0), "en", "head")
    board = "\n".join(texts)
    assert "\u2068" + seats[0].name + "\u2069" in board and "Ж" * NAME_MAX not in board
    assert display_names(seats) == [f"\u2068{escape_markdown(s.name)}\u2069" for s in seats]


def test_a_page_keeps_no_control_character_and_no_unpaired_isolate():
    dirty = "<p>a\x00b\x1bc\x85d\u202ee\u2066f</p>\n<p>\u2068open</p>\n<p>close\u2069 \u2068ok\u2069</p>"
    assert pages.clean_page(dirty) == "<p>abcdef</p>\n<p>open</p>\n<p>close \u2068ok\u2069</p>"


def test_isolation_marks_take_no_column_and_survive_a_names_cut():
    assert display_width(isolate("Аня")) == 3 and display_width(isolate("漢字")) == 4
    assert wrap(f"Ход: {isolate('Аня')} — бросок", 40) == [f"Ход: {isolate('Аня')} — бросок"]
    assert shorten_name(isolate("Ж" * 40), 12) == isolate("Ж" * 11 + "…")
    assert shorten_name("Ж" * 40, 12) == "Ж" * 11 + "…"


def test_reading_back_cleans_as_the_referee_does_from_a_head_of_a_long_text():
    rnd = random.Random(9)
    pieces = list("ab \n\t") + ["\x1b", "[", "2", "J", "\u202e", "\u0301", "e\u0301", "Ж", "  ", "\u200b"]
    for _ in range(1500):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, rnd.choice([20, 3000]))))
        assert stored_name(text) == clean_name(text)
        assert stored_title(text) == (clean_name(text, limit=TITLE_MAX, fallback="") or None)
        assert stored_text(text) == clean_text(text)
    assert stored_name("\u200b" * 10_000 + "Bob") == "Bob"  # what is dropped does not count toward the head
