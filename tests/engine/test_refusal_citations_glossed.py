"""A refusal citing a book heading reads in the reader's language (Raiders' «Захват» is "Capture" in English),
as the log lines and pages already do, and the Why? button still finds the paragraph it cites."""
import re

from bot.engine.contract import Rejection
from bot.engine.registry import all_games
from bot.rules.catalogue import find_cites

all_games()  # a refusal comes from a game, loaded by then: its glosses with it

HEADING = "Захват"


def test_an_english_refusal_glosses_the_books_heading_and_keeps_it_findable():
    refusal = Rejection("not_allowed", "core.err.not_your_turn", {}, rule=HEADING)
    english = refusal.message("en")
    assert "«Захват»: Capture" in english
    # the only Cyrillic left is the quoted heading itself
    assert re.findall(r"[А-Яа-яЁёІіЇїЄєҐґ]+", english.replace("«Захват»", "")) == []
    assert [e.cite for e in find_cites("raiders", english)] == [HEADING]


def test_russian_keeps_the_bare_heading_and_other_citations_stay_bare():
    assert Rejection("x", "core.err.not_your_turn", {}, rule=HEADING).message("ru").endswith("(см. Захват)")
    assert Rejection("x", "core.err.not_your_turn", {}, rule="CG-14").message("en").endswith("(see CG-14)")
