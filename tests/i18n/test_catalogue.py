"""Every string exists in Russian, Ukrainian and English with the same placeholders."""
import re

import pytest

from bot.i18n import LOCALES, catalogue, format_text, normalise_locale, t

_FIELD = re.compile(r"\{(\w+)(?:\|[^{}]*)?\}")


def test_every_key_has_every_language_and_the_same_placeholders():
    problems = []
    for key, texts in catalogue().items():
        if not isinstance(texts, dict) or set(texts) != set(LOCALES):
            problems.append(f"{key}: languages {sorted(texts) if isinstance(texts, dict) else texts!r}")
            continue
        fields = {loc: set(_FIELD.findall(str(text))) for loc, text in texts.items()}
        if len({frozenset(f) for f in fields.values()}) != 1:
            problems.append(f"{key}: placeholders differ {fields}")
        if any(not str(text).strip() for text in texts.values()):
            problems.append(f"{key}: empty text")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("n,form", [(1, "ход"), (2, "хода"), (4, "хода"), (5, "ходов"), (11, "ходов"),
                                    (12, "ходов"), (21, "ход"), (22, "хода"), (25, "ходов"), (111, "ходов")])
def test_russian_plurals(n, form):
    assert format_text("{n} {n|ход|хода|ходов}", "ru", {"n": n}) == f"{n} {form}"


def test_english_plurals_and_fallbacks():
    assert format_text("{n|turn|turns}", "en", {"n": 1}) == "turn"
    assert format_text("{n|turn|turns}", "en", {"n": 3}) == "turns"
    assert normalise_locale("en-US") == "en" and normalise_locale("uk") == "uk"
    assert normalise_locale("de") == "ru" and normalise_locale(None) == "ru"
    assert t("no.such.key", "en") == "no.such.key"
    assert "not your turn" in t("core.reject.not_your_turn", "en-GB")
