"""The public rules page of a game (``/rules/<game>``): every book paragraph the referee cites, in our own words,
and every ruling with its kind, decision, reason and the options that change it, each under the anchor a
Discord "Why?" answer links to (bot/rules: ``Entry.anchor``).  Everything is escaped by the templates."""
from __future__ import annotations

import re

from bot.i18n import t
from bot.rules import GAMES, catalogue
from bot.rules.catalogue import PARTS, Entry

from .pages import Page


def _plain(text: str) -> str:
    """A ruling's Markdown emphasis and code marks dropped: the page shows the words, escaped."""
    return re.sub(r"\*\*|`", "", text)


def _ruling(page: Page, entry: Entry) -> dict:
    parts = [(page.t(f"rules.entry.{name}"), _plain(entry.part(name, page.lang))) for name in PARTS
             if getattr(entry, name)]
    options = (page.t("rules.entry.options", options=", ".join(
        f"{name} ({t(f'{entry.game}.option.{name}', page.lang)})" for name in entry.options))
        if entry.options else page.t("rules.entry.no_options"))
    return {"cite": entry.cite, "anchor": entry.anchor, "title": entry.title_in(page.lang), "parts": parts,
            "kinds": page.t("rules.entry.kind", kinds="; ".join(page.t(f"rules.kind.{k}") for k in entry.kinds)),
            "options": options, "english": page.t("rules.entry.english") if entry.in_english(page.lang) else ""}


def _book_cite(entry: Entry, lang: str) -> str:
    """A paragraph's citation as the page heads it: a book heading in another language than the reader's
    (Raiders' «Захват» on the English page) is quoted, a title, its gloss beside it."""
    cite = entry.cite
    return cite if cite.startswith("§") or entry.title_in(lang) == cite else f"«{cite}»"


def rules_page(page: Page, game: str) -> str | None:
    """The page, or None for a game that has no rules here."""
    if game not in GAMES:
        return None
    cat = catalogue(game)
    book = [{"cite": _book_cite(e, page.lang), "anchor": e.anchor, "title": e.title_in(page.lang),
             "text": e.text[page.lang]} for e in cat.book]
    title = page.t(f"{game}.title")
    return page.render("rules.html", title=page.t("rules.web.title", game=title), game=game, about=cat.about[page.lang],
                       og=page.preview(f"/rules/{game}", cat.about[page.lang]),
                       games=[{"name": g, "title": page.t(f"{g}.title")} for g in GAMES], book=book,
                       rulings=[_ruling(page, e) for e in cat.rulings])
