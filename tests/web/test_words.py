"""The pages' words: an English Raiders page carries no Russian word but a quoted title (the book's heading
«Захват» beside its English gloss) or a player's name; the record's step is "Действие N" / "Дія N" / "Action N"
and never "Ход", which the boards keep for the game's turn."""
from __future__ import annotations

import re
from html import unescape

import pytest

from bot.games.raiders.render import BOOK_SECTIONS, cite_text
from bot.i18n import LOCALES, t
from bot.rules import catalogue
from tests.web import pages_world
from tests.web.pages_world import Client

CYRILLIC = re.compile(r"[А-Яа-яЁёІіЇїЄєҐґ]+")
#: a quoted title, quotes inside it too («вы уже сказали «пас» в этом окне»), or one a ruling's title cuts short
#: at the end of its line (RD-14's «Нельзя применять шняги ...)
QUOTED = re.compile(r"«[^«»]*(?:«[^«»]*»[^«»]*)*»|«[^«»\n]*$", re.MULTILINE)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("words") / "words.db"
    return path, pages_world.build_sync(path, games=("raiders",))


def _russian_words(html: str) -> list[str]:
    """The Cyrillic words a reader sees on a page: its text without markup, names and quoted titles."""
    text = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.DOTALL)))
    for name in pages_world.NAMES:
        text = text.replace(name, " ")
    return CYRILLIC.findall(QUOTED.sub(" ", text))


async def test_english_raiders_pages_carry_no_russian_terms(world):
    path, ids = world
    tid, live = ids["finished"]["raiders"], ids["active"]["raiders"]
    async with Client(path) as c:
        log = await (await c.get(f"/table/{tid}/log?lang=en")).text()
        steps = sorted({int(n) for n in re.findall(rf"/table/{tid}/replay/(\d+)\?", log)})
        urls = [f"/table/{tid}/log", f"/table/{tid}", f"/table/{live}", "/rules/raiders",
                *(f"/table/{tid}/replay/{n}" for n in steps[::max(1, len(steps) // 10)])]
        for url in urls:
            page = await (await c.get(url + "?lang=en")).text()
            assert not _russian_words(page), (url, sorted(set(_russian_words(page)))[:10])
        cited = re.findall(r'<a class="cite" href="[^"]+">«([^»]+)»</a>: ([^)<]+)\)', log)
        assert cited and all(title == t(f"raiders.section.{BOOK_SECTIONS[cite]}", "en") for cite, title in cited)
        # the same pages in Russian still cite the book's headings as they are
        ru = await (await c.get(f"/table/{tid}/log?lang=ru")).text()
        assert re.search(r'\(см\. <a class="cite" href="[^"]+">Захват</a>\)', ru)


def test_the_raiders_strings_in_english_hold_no_russian_term():
    from bot.i18n import catalogue as strings

    for key, text in strings().items():
        if key.startswith("raiders.") and key != "raiders.cite.book":
            assert not CYRILLIC.findall(QUOTED.sub("", text["en"])), key
    cat = catalogue("raiders")
    assert not CYRILLIC.findall(QUOTED.sub("", cat.about["en"]))
    for entry in cat.book:
        assert not CYRILLIC.findall(QUOTED.sub("", entry.text["en"] + entry.title["en"])), entry.cite
    for entry in cat.rulings:
        for part in (entry.title["en"], entry.question, entry.decision, entry.reason):
            assert not CYRILLIC.findall(QUOTED.sub("", part)), entry.cite


def test_a_cited_heading_is_glossed_as_the_rules_page_titles_it():
    for cite, key in BOOK_SECTIONS.items():
        entry = catalogue("raiders").find(cite)
        assert entry is not None and entry.cite == cite
        for lang in LOCALES:
            assert t(f"raiders.section.{key}", lang) == entry.title_in(lang), (cite, lang)
    assert cite_text("Захват", "ru") == "Захват" and cite_text("Захват", "en") == "«Захват»: Capture"
    assert cite_text("RD-5", "en") == "RD-5"


async def test_the_records_step_is_never_called_a_turn(world):
    path, ids = world
    tid = ids["finished"]["raiders"]
    turn = {"ru": "Ход", "uk": "Хід", "en": "Turn"}
    async with Client(path) as c:
        for lang, word in (("ru", "Действие"), ("uk", "Дія"), ("en", "Action")):
            log = await (await c.get(f"/table/{tid}/log?lang={lang}")).text()
            labels = re.findall(r'<a class="step" href="[^"]+">([^<]+)</a>', log)
            moves = [label for label in labels if re.fullmatch(rf"{word} \d+", label)]
            assert len(moves) > 10, labels[:5]
            assert not [label for label in labels if label.startswith(turn[lang])]
            replay = await (await c.get(f"/table/{tid}/replay/5?lang={lang}")).text()
            heading = re.search(r'<h2 id="step-title">([^<·]+)', replay).group(1).strip()
            assert heading.startswith(word) or heading in (t("web.table.setup", lang), t("web.table.rollback", lang))
            assert turn[lang] not in heading
