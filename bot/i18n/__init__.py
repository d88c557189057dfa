"""Localised strings: Russian (default), Ukrainian, English.

Strings live in YAML files with every language side by side, so a missing translation is visible in
review and caught by a test::

    claygod.reject.energy:
      ru: "Не хватает энергии: {colour}."
      uk: "Бракує енергії: {colour}."
      en: "Not enough energy: {colour}."

Core strings are in bot/i18n/*.yaml (core.yaml, discord.yaml, ...); each game keeps its own in
data/<game>/strings.yaml.
Placeholders are ``{name}``; a plural form is ``{n|ход|хода|ходов}`` (Russian/Ukrainian one/few/many)
or ``{n|turn|turns}`` (English one/other).  A parameter whose value is ``"@"`` followed by a key of the
catalogue is that key's text in the same language (``island="@bridges.island.chs"``): a refusal, made with
no locale, can so name a thing in the language of whoever reads it (``Rejection.message``).

The lowest layer (docs/architecture.md): every other package may use it; it imports nothing of bot/.
"""
from __future__ import annotations

import logging
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

# libyaml when present: every process (each CLI command, each test worker) reads every file here, about
# ten times faster than the pure-Python loader, with the same result
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

LOCALES = ("ru", "uk", "en")
DEFAULT_LOCALE = "ru"

_HERE = Path(__file__).resolve().parent
_DATA = _HERE.parents[1] / "data"
_PLACEHOLDER = re.compile(r"\{(\w+)(?:\|([^{}]*))?\}")
#: what a player reads where a caller forgot a parameter: never the raw "{cards}"
MISSING = "—"
_log = logging.getLogger(__name__)


def normalise_locale(locale: str | None, fallback: str = DEFAULT_LOCALE) -> str:
    """Map a Discord locale ("en-US", "uk", "ru") to one of ours; anything else falls back."""
    if not locale:
        return fallback
    base = str(locale).split("-")[0].split("_")[0].lower()
    return base if base in LOCALES else fallback


def string_files() -> list[Path]:
    return [*sorted(_HERE.glob("*.yaml")), *sorted(_DATA.glob("*/strings.yaml"))]


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    strings: dict[str, dict[str, str]] = {}
    for path in string_files():
        with path.open(encoding="utf-8") as fh:
            loaded = yaml.load(fh, Loader=_LOADER) or {}
        for key, texts in loaded.items():
            if key in strings:
                raise ValueError(f"{path}: string {key!r} is defined twice")
            strings[key] = texts
    return strings


def _plural(n: int, forms: list[str], locale: str) -> str:
    if locale == "en" or len(forms) == 2:
        return forms[0] if n == 1 else forms[-1]
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def format_text(text: str, locale: str, params: dict[str, Any]) -> str:
    def sub(m: re.Match[str]) -> str:
        name, forms = m.group(1), m.group(2)
        if name not in params:
            # a bug in the caller (tests/i18n/test_all_templates.py hunts them); the reader sees a dash, the log the key
            _log.warning("text placeholder {%s} has no value", name)
            return MISSING
        value = params[name]
        if isinstance(value, str) and value.startswith("@") and value[1:] in catalogue():
            value = t(value[1:], locale)
        if forms is None:
            return str(value)
        try:
            return _plural(int(value), forms.split("|"), locale)
        except (TypeError, ValueError):
            return str(value)

    return _PLACEHOLDER.sub(sub, text)


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (falling back to Russian, then to the key itself)."""
    locale = normalise_locale(locale)
    texts = catalogue().get(key)
    if texts is None:
        return key
    text = texts.get(locale) or texts.get(DEFAULT_LOCALE) or key
    return format_text(text, locale, params)


def has(key: str) -> bool:
    return key in catalogue()
