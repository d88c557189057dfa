"""Every citation the referee can print opens (issue 36): the book paragraphs and rulings named anywhere in a game's
code and data, and every ruling id of docs/rulings, resolve in the game's catalogue and read in ru, uk and en; a
query answers by citation, by word, or with the nearest citations."""
from __future__ import annotations

import random
import re
from unittest import mock

import pytest

from bot.engine.catalog import CatalogError, validate
from bot.engine.contract import Rejection
from bot.engine.playout import pick_move
from bot.engine.registry import get_game
from bot.i18n import LOCALES, t
from bot.rules import GAMES, catalogue, find_cites, lookup, normalise
from bot.rules.catalogue import _SCHEMA, PARTS, TRANSLATED, parse_rulings, translated
from bot.rules.text import DISCORD_LIMIT, entry_text, guide_text, lookup_text
from tests.support.citations import PREFIX, ROOT, _RULING, _cited_in_code, _cited_in_data, _split


def _cited_in_play(game: str, actions: int = 250) -> set[str]:
    """Citations a bot table actually produces: its events' ``rule`` fields, and the refusals of moves played out
    of their moment (each seat's earlier actions tried again on the state now, by whoever must act now)."""
    engine = get_game(game)
    seats = {"bloodwood": 5, "bridges": 2}.get(game, 2)
    rng, now = random.Random(7), 1_700_000_000.0
    init = engine.initial_state(seats, seed=f"rules-{game}", now=now)
    state, found, earlier = init.state, set(), []

    def collect(events: list[dict]) -> None:
        for event in events:
            for key in ("rule", "ruling"):
                if isinstance(event.get(key), str):
                    found.add(event[key])

    collect(init.events)
    for _ in range(actions):
        if engine.outcome(state) is not None:
            break
        now += rng.uniform(1, 30)
        seat, action = pick_move(engine, state, rng, now)
        for old in rng.sample(earlier, min(3, len(earlier))):
            refused = engine.apply(state, seat, old, now=now)
            if isinstance(refused, Rejection) and refused.rule:
                found.add(refused.rule)
        applied = engine.apply(state, seat, action, now=now)
        assert not isinstance(applied, Rejection), applied
        collect(applied.events)
        state = applied.state
        earlier = (earlier + [action])[-30:]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_in_the_code_and_data_resolves(game):
    cat = catalogue(game)
    cited = _cited_in_code(game) | _cited_in_data(game)
    # the walk itself must find what it looks for, or this test could not fail
    assert len(cited) >= 8, cited
    unresolved = sorted(c for cite in cited for c in _split(cite) if cat.find(c) is None
                        and not (_RULING.fullmatch(c) and not c.startswith(PREFIX[game])))
    assert not unresolved, f"{game}: citations the referee can print that open nothing: {unresolved}"


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_a_table_produces_resolves(game):
    cat = catalogue(game)
    produced = _cited_in_play(game)
    assert produced, f"{game}: a bot table cited nothing; the probe is broken"
    assert not [c for cite in produced for c in _split(cite) if cat.find(c) is None]


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_of_the_rulings_document_opens_in_every_language(game):
    text = (ROOT / "docs" / "rulings" / f"{game}.md").read_text(encoding="utf-8")
    ids = re.findall(r"^## ([A-Z]{2}-\d+)\b", text, re.M) + re.findall(r"^\| ([A-Z]{2}-\d+) \|", text, re.M)
    assert len(ids) >= 20
    cat = catalogue(game)
    assert [e.cite for e in cat.rulings] == ids  # the parser lost none and invented none
    for cite in ids:
        entry = cat.find(cite)
        assert entry is not None and entry.kinds and entry.decision, cite
        assert set(entry.kinds) <= {"gap", "contradiction", "departure", "text"}
        for locale in LOCALES:
            shown = entry_text(entry, locale, limit=DISCORD_LIMIT, link="https://judge.example/rules/x#y")
            assert cite in shown and len(shown) <= DISCORD_LIMIT, shown
            assert not re.search(r"\{(game|cite|title|kinds|options|url)\}", shown), shown
            assert t(f"rules.kind.{entry.kinds[0]}", locale) in shown


@pytest.mark.parametrize("game", GAMES)
def test_every_book_paragraph_reads_in_every_language(game):
    cat = catalogue(game)
    for entry in cat.book:
        for locale in LOCALES:
            shown = entry_text(entry, locale)
            assert entry.text[locale] in shown and entry.cite in shown
        # our own words in each language, not one language copied into another
        assert len({entry.text[loc] for loc in LOCALES}) == len(LOCALES), entry.cite
    for locale in LOCALES:
        guide = guide_text(cat, locale, limit=DISCORD_LIMIT)
        assert len(guide) <= DISCORD_LIMIT and cat.book[0].cite in guide


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_reads_in_russian_and_ukrainian_from_its_english_as_it_stands(game):
    """A ruling changed in docs/rulings after it was translated fails here until it is translated again
    (scripts/ruling_translations.py --english GAME prints what to translate, with its fingerprint)."""
    for entry in catalogue(game).rulings:
        assert not any(entry.in_english(loc) for loc in TRANSLATED), (
            f"{entry.cite}: no translation made from its English as it stands (fingerprint {entry.fingerprint})")
        for locale in TRANSLATED:
            shown = entry_text(entry, locale)
            assert t("rules.entry.english", locale) not in shown
            for part in PARTS:
                english = getattr(entry, part)
                # each part in the locale's own words, never the English copied (a part that only quotes the
                # book, in its own language, reads the same in every language)
                if re.search(r"[A-Za-z]{4}", re.sub(r"`[^`]*`", "", english)):
                    assert entry.part(part, locale) != english, (entry.cite, locale, part)


def test_a_translation_of_other_english_is_not_shown():
    [ruling] = parse_rulings("claygod", "## CG-90 A title\n**Kind.** Gap.\n**Decision.** This.\n**Reason.** Because.\n")
    made = {loc: {"title": f"T-{loc}", "decision": f"D-{loc}", "reason": f"R-{loc}"} for loc in TRANSLATED}
    current, = translated_with(ruling, {"source": ruling.fingerprint, **made})
    assert current.part("decision", "ru") == "D-ru" and current.title_in("uk") == "T-uk"
    assert not current.in_english("ru") and current.part("decision", "en") == "This."
    assert "D-ru" in entry_text(current, "ru") and t("rules.entry.english", "ru") not in entry_text(current, "ru")
    stale, = translated_with(ruling, {"source": "0" * 12, **made})
    assert stale.in_english("ru") and stale.part("decision", "ru") == "This." and stale.title_in("ru") == "A title"
    assert t("rules.entry.english", "ru") in entry_text(stale, "ru")


def translated_with(ruling, item):
    with mock.patch("bot.rules.catalogue.translations", return_value={ruling.cite: item}):
        return translated("claygod", [ruling])


def test_options_of_a_ruling_are_the_games_own():
    cg14 = catalogue("claygod").find("CG-14")
    assert cg14.options == ("frozen_combos", "thrown_combos") and cg14.kinds == ("gap",)
    assert catalogue("bloodwood").find("BW-25").kinds == ("gap", "departure")
    assert catalogue("gwent").find("GW-1").kinds[0] == "contradiction"
    assert catalogue("raiders").find("RD-16").options == ("disputes",)
    names = {o.name for g in GAMES for o in get_game(g).options}
    assert all(o in names for g in GAMES for e in catalogue(g).rulings for o in e.options)


def test_a_citation_is_found_however_it_is_spelled():
    assert normalise("§ 1.6") == normalise("1.6") == "§1.6"
    assert normalise("cg14") == normalise("CG 14") == normalise("(CG-14)") == "cg-14"
    assert lookup("bridges", " §1.6 ").entry.cite == "§1.6"
    assert lookup("claygod", "cg14").entry.cite == "CG-14"
    assert lookup("raiders", "ЗАХВАТ").entry.cite == "Захват"
    assert lookup("raiders", "козыри").entry.cite == "Козыри"


def test_a_word_finds_the_entries_that_hold_it():
    found = lookup("gwent", "scorch")
    assert {"GW-10", "GW-11"} <= {e.cite for e in found.matches}
    assert lookup("bridges", "нокдаун").entry.cite == "§1.6"  # one match: that entry itself
    assert "GW-10" in lookup_text(found, "en")


def test_an_unknown_citation_lists_the_nearest():
    found = lookup("claygod", "§3.10")
    assert found.entry is None and not found.matches
    assert found.nearest and found.nearest[0].cite.startswith("§3")
    for locale in LOCALES:
        text = lookup_text(found, locale)
        assert "§3.10" in text and found.nearest[0].cite in text
    assert lookup("bloodwood", "BW-99").nearest[0].cite.startswith("BW-")


def test_citations_are_read_back_from_a_message_in_any_language():
    for locale in LOCALES:
        line = "Нельзя. " + t("core.cite", locale, rule="§1.3, BR-5") + " и " + t("core.cite", locale, rule="§9.9")
        assert [e.cite for e in find_cites("bridges", line)] == ["§1.3", "BR-5"]
    assert find_cites("claygod", "nothing cited here (see you)") == []


def test_the_data_is_validated_on_load():
    with pytest.raises(CatalogError, match="missing field 'uk'"):
        validate({"about": {"ru": "а", "uk": "б", "en": "c"},
                  "sections": [{"cite": "§1", "title": {"ru": "а", "en": "b"}, "text": {"ru": "а", "uk": "б", "en": "c"}}]},
                 _SCHEMA)
    with pytest.raises(CatalogError):
        catalogue("chess")


def test_the_rulings_parser_reads_both_forms():
    text = ("# X\n\n## CG-90 A title (option `maximum`)\n**Kind.** Departure: the book says so.\n"
            "**Question.** Why?\n**Decision.** This,\nwrapped.\n**Reason.** Because.\n\n## Notes\nnot a ruling\n")
    [ruling] = parse_rulings("claygod", text)
    assert (ruling.cite, ruling.title["en"], ruling.kinds, ruling.options) == ("CG-90", "A title", ("departure",),
                                                                               ("maximum",))
    assert (ruling.question, ruling.decision, ruling.reason) == ("Why?", "This, wrapped.", "Because.")
    [row] = parse_rulings("raiders", "| RD-90 | contradiction | The *pairs* win at 36. | Says so. |\n")
    assert (row.cite, row.kinds, row.decision, row.reason) == ("RD-90", ("contradiction",), "The *pairs* win at 36.",
                                                               "Says so.")


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_in_the_code_opens_at_the_terminal(game, capsys):
    from bot.terminal.cli import main

    cited = sorted({c for cite in _cited_in_code(game) | _cited_in_data(game) for c in _split(cite)
                    if not (_RULING.fullmatch(c) and not c.startswith(PREFIX[game]))})
    for locale, cite in zip(LOCALES * len(cited), cited):  # each citation once, the languages in turn
        assert main(["--locale", locale, "rules", game, cite]) == 0, cite
        out = capsys.readouterr().out
        assert catalogue(game).find(cite).cite in out and t("rules.entry.kind", locale, kinds="")[:4] in out \
            or t("rules.entry.own_words", locale) in out, out
    assert main(["--locale", "en", "rules", game, "§77.7"]) == 1
    assert "Nearest: " in capsys.readouterr().out


def test_every_why_button_id_fits_discord():
    for game in GAMES:
        for entry in catalogue(game).entries:
            assert len(f"j:why:{game}:{entry.cite}") <= 100, entry.cite
