"""Each game's citation catalogue: the book's paragraphs and the rulings, found by citation or by word.

The book's paragraphs come from ``data/rules/<game>.yaml`` — the team's own summary of each paragraph the
referee can cite, in ru/uk/en, validated on load.  The rulings are parsed from ``docs/rulings/<game>.md`` each
time the catalogue is built, so the rulings document stays the one source of truth: a heading
``## CG-14 Title (option `x`)`` followed by ``**Kind.**`` / ``**Mark: …**`` / ``**Question.**`` /
``**Decision.**`` / ``**Reason.**`` paragraphs, or (Raiders) a table row ``| RD-1 | gap | ruling | why |``.
A ruling's Russian and Ukrainian words come from ``data/rules/rulings/<game>.yaml``, each translation carrying
the fingerprint of the English it was made from: a ruling changed since is shown in English (with a note)
until it is translated again, and tests/rules/test_catalogue.py names it.
"""
from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from bot.engine.catalog import CatalogError, ListOf, Record, _read, validate
from bot.engine.registry import GAME_MODULES, get_game
from bot.i18n import LOCALES, t

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "rules"
TRANSLATIONS = DATA / "rulings"
RULINGS = ROOT / "docs" / "rulings"

#: the games with a catalogue: the registry's own five (a test's toy game has no rules to cite)
GAMES: tuple[str, ...] = tuple(module.rsplit(".", 1)[-1] for module in GAME_MODULES)
#: the ruling kinds, in the order a ruling's mark names them (the rulings documents' own words)
KINDS = ("gap", "contradiction", "departure", "text")
#: how many nearest citations an unknown one is answered with
NEAREST = 5

_TEXTS = Record({loc: str for loc in LOCALES})
_SCHEMA = Record(
    {"about": _TEXTS, "sections": ListOf(Record({"cite": str, "title": _TEXTS, "text": _TEXTS}), min_len=1)},
)
#: a ruling's parts that are translated, beside its title
PARTS = ("question", "decision", "reason")
#: the locales a ruling is translated into (English is the rulings documents' own)
TRANSLATED = tuple(loc for loc in LOCALES if loc != "en")
_TRANSLATION = Record({"title": str}, optional={part: str for part in PARTS})
_TRANSLATIONS_SCHEMA = Record({"source": str, **{loc: _TRANSLATION for loc in TRANSLATED}})
_HEADING = re.compile(r"^## ([A-Z]{2}-\d+)\s+(.*)$")
_ROW = re.compile(r"^\|\s*([A-Z]{2}-\d+)\s*\|([^|]*)\|([^|]*)\|([^|]*)\|\s*$")
_LABEL = re.compile(r"\*\*(Kind|Mark|Question|Decision|Reason|Book)([^*]*)\*\*\.?")
_BACKTICK = re.compile(r"`([a-z_]+)`")
_RULING_ID = re.compile(r"^([a-z]{2})\s*-?\s*(\d+)$")


@dataclass(frozen=True)
class Entry:
    """One citation: a book paragraph (``source`` "book": ``title`` and ``text`` by locale) or a ruling
    (``source`` "ruling": its English title, kinds, question, decision, reason and the options that change it)."""

    game: str
    cite: str
    source: str
    title: Mapping[str, str]
    text: Mapping[str, str] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    question: str = ""
    decision: str = ""
    reason: str = ""
    options: tuple[str, ...] = ()
    #: a ruling's translated question, decision and reason by locale (its title is in ``title``)
    local: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def anchor(self) -> str:
        """The id of the entry on the rules page (bot/web): ``§1.6`` → ``p1-6``, ``CG-14`` → ``cg-14``,
        ``Конец колоды`` → ``p-конец-колоды``."""
        key = normalise(self.cite)
        if key.startswith("§"):
            return "p" + key[1:].replace(".", "-")
        if self.source == "ruling":
            return key
        return "p-" + key.replace(" ", "-")

    def title_in(self, locale: str) -> str:
        return self.title.get(locale) or self.title.get("en") or self.cite

    def part(self, name: str, locale: str) -> str:
        """A ruling's question, decision or reason in ``locale``, else in English."""
        return self.local.get(locale, {}).get(name) or getattr(self, name)

    def in_english(self, locale: str) -> bool:
        """Whether this ruling reads in English in ``locale`` (no current translation of it)."""
        return self.source == "ruling" and locale != "en" and locale not in self.local

    @property
    def fingerprint(self) -> str:
        """What a translation of this ruling was made from: its English title and parts, hashed."""
        english = "\x1f".join([self.title.get("en", ""), *(getattr(self, part) for part in PARTS)])
        return hashlib.sha256(english.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Lookup:
    """The answer to a query: ``entry`` (one citation), ``matches`` (a word's hits), or neither (unknown:
    ``nearest`` lists the closest citations); ``query`` as asked."""

    game: str
    query: str
    entry: Entry | None = None
    matches: tuple[Entry, ...] = ()
    nearest: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class Catalogue:
    game: str
    about: Mapping[str, str]
    entries: tuple[Entry, ...]

    @property
    def book(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.source == "book")

    @property
    def rulings(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.source == "ruling")

    def find(self, cite: str) -> Entry | None:
        """The entry a citation names, however it is spelled (``§ 1.6``, ``1.6``, ``cg14``, ``захват``)."""
        return _index(self.game).get(normalise(cite))

    def search(self, words: str) -> tuple[Entry, ...]:
        """Every entry whose citation, title or text (in any language) holds all the words given."""
        needles = [_fold(w) for w in re.split(r"\s+", words.strip()) if w]
        if not needles:
            return ()
        return tuple(e for e in self.entries if all(n in _haystack(e) for n in needles))

    def nearest(self, query: str, n: int = NEAREST) -> tuple[Entry, ...]:
        """The citations closest to an unknown one (difflib), then those whose title is closest."""
        index = _index(self.game)
        found = difflib.get_close_matches(normalise(query), list(index), n=n, cutoff=0.4)
        by_title = {_fold(e.title_in(loc)): e for e in self.entries for loc in LOCALES}
        found_titles = difflib.get_close_matches(_fold(query), list(by_title), n=n, cutoff=0.5)
        if not found and not found_titles:  # nothing close: still the least far, never an empty answer
            found = difflib.get_close_matches(normalise(query), list(index), n=n, cutoff=0.0)
        out: list[Entry] = []
        for entry in [index[k] for k in found] + [by_title[k] for k in found_titles]:
            if entry not in out:
                out.append(entry)
        return tuple(out[:n])


def normalise(cite: str) -> str:
    """A citation's comparable form: case, spaces, ``ё`` and surrounding brackets or dots ignored; a bare
    paragraph number is a ``§`` one; ``cg 14`` and ``CG14`` are ``cg-14``."""
    key = _fold(cite).strip().strip("()[].,;:«»\"' ")
    key = re.sub(r"\s+", " ", key)
    if key.startswith("§"):
        return "§" + key[1:].strip().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)*", key):
        return "§" + key
    ruling = _RULING_ID.match(key)
    if ruling:
        return f"{ruling.group(1)}-{int(ruling.group(2))}"
    return key


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold().replace("ё", "е")


def _haystack(entry: Entry) -> str:
    parts = [entry.cite, *entry.title.values(), *entry.text.values(), entry.question, entry.decision, entry.reason,
             *(text for local in entry.local.values() for text in local.values()), *entry.options]
    return _fold(" ".join(parts))


# ------------------------------------------------------------------------------------------------ loading
@lru_cache(maxsize=None)
def catalogue(game: str) -> Catalogue:
    """The game's catalogue; CatalogError names the file and the place when its data is wrong."""
    if game not in GAMES:
        raise CatalogError(f"no such game: {game!r}")
    path = DATA / f"{game}.yaml"
    raw = _read(path)
    validate(raw, _SCHEMA, str(path))
    book = [Entry(game, s["cite"], "book", dict(s["title"]), dict(s["text"])) for s in raw["sections"]]
    rulings = translated(game, parse_rulings(game, (RULINGS / f"{game}.md").read_text(encoding="utf-8")))
    entries = tuple(book + rulings)
    seen: dict[str, str] = {}
    for entry in entries:
        key = normalise(entry.cite)
        if key in seen:
            raise CatalogError(f"{path}: citation {entry.cite!r} is given twice")
        seen[key] = entry.cite
    return Catalogue(game, dict(raw["about"]), entries)


@lru_cache(maxsize=None)
def _index(game: str) -> dict[str, Entry]:
    return {normalise(e.cite): e for e in catalogue(game).entries}


def translations(game: str) -> dict[str, dict]:
    """The game's ruling translations as written (``{id: {source, ru: {...}, uk: {...}}}``), validated; none
    when the file is not there yet."""
    path = TRANSLATIONS / f"{game}.yaml"
    if not path.exists():
        return {}
    raw = _read(path) or {}
    if not isinstance(raw, dict):
        raise CatalogError(f"{path}: a mapping of ruling ids is expected")
    for cite, item in raw.items():
        validate(item, _TRANSLATIONS_SCHEMA, f"{path}: {cite}")
    return raw


def translated(game: str, rulings: list[Entry]) -> list[Entry]:
    """The rulings with the translations made from their English as it stands now (a stale one is left out:
    English with a note reads right, an old translation of a changed ruling would not)."""
    found = translations(game)
    out = []
    for entry in rulings:
        item = found.get(entry.cite)
        if item is None or item["source"] != entry.fingerprint:
            out.append(entry)
            continue
        title = {**entry.title, **{loc: item[loc]["title"] for loc in TRANSLATED}}
        local = {loc: {part: item[loc][part] for part in PARTS if getattr(entry, part) and item[loc].get(part)}
                 for loc in TRANSLATED}
        out.append(replace(entry, title=title, local=local))
    return out


def parse_rulings(game: str, text: str) -> list[Entry]:
    """The rulings of one rulings document, in its order."""
    options = {o.name for o in get_game(game).options}
    found: list[Entry] = []
    heading: tuple[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if heading is not None:
            found.append(_ruling(game, heading[0], heading[1], "\n".join(body).strip(), options))

    for line in text.splitlines():
        head = _HEADING.match(line)
        if head:
            close()
            heading, body = (head.group(1), head.group(2).strip()), []
            continue
        if line.startswith("## "):  # a section that is no ruling ends the one before
            close()
            heading, body = None, []
            continue
        row = _ROW.match(line)
        if row and heading is None:
            cite, kind, ruling, why = (c.strip() for c in row.groups())
            found.append(Entry(game, cite, "ruling", _same(_first_sentence(ruling)), kinds=_kinds(kind),
                               decision=ruling, reason=why, options=_options(ruling, options)))
            continue
        if heading is not None:
            body.append(line)
    close()
    return found


def _ruling(game: str, cite: str, heading: str, body: str, options: set[str]) -> Entry:
    # the heading's parentheses name the kind and the options; the title is what stands before them
    title = re.sub(r"\s*\((?:[^()]*(?:gap|contradiction|departure|option|no ruling)[^()]*)\)\s*$", "", heading)
    parts: dict[str, str] = {}
    marks = [heading[len(title):]]
    pieces = _LABEL.split(body)
    lead = pieces[0].strip()
    for i in range(1, len(pieces) - 2, 3):
        label, rest, content = pieces[i], pieces[i + 1].strip(" :."), pieces[i + 2].strip()
        if label in ("Kind", "Mark"):  # the mark's own words and its note in brackets both name kinds
            marks.append(rest + " " + content.split("\n\n")[0])
            continue
        key = {"Book": "question", "Question": "question"}.get(label, label.lower())
        if rest:  # "Reason for the option." keeps its own label
            content = f"{label} {rest}: {content}"
        parts[key] = f"{parts[key]}\n{content}" if key in parts else content
    decision = parts.get("decision") or lead or body
    return Entry(game, cite, "ruling", _same(title.strip()), kinds=_kinds(" ".join(marks)),
                 question=_unwrap(parts.get("question", "")), decision=_unwrap(decision),
                 reason=_unwrap(parts.get("reason", "")),
                 options=_options(heading + "\n" + body, options))


def _unwrap(text: str) -> str:
    """A paragraph's lines joined (the document wraps at its width; a message or a page wraps at its own), list
    items and table rows kept on lines of their own, paragraphs apart."""
    out = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in paragraph.splitlines():
            if lines and not re.match(r"\s*(\||[-*] |\d+\. )", line):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.rstrip())
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _kinds(text: str) -> tuple[str, ...]:
    low = text.casefold()
    at = {kind: low.find(word) for kind, word in
          (("gap", "gap"), ("contradiction", "contradiction"), ("departure", "departure"),
           ("text", "no ruling"))}
    if low.strip() == "text":  # Raiders' table: the book's own text, kept for its number
        at["text"] = 0
    return tuple(k for k, pos in sorted(at.items(), key=lambda kv: kv[1]) if pos >= 0)


def _options(text: str, options: set[str]) -> tuple[str, ...]:
    out: list[str] = []
    for name in _BACKTICK.findall(text):
        if name in options and name not in out:
            out.append(name)
    return tuple(out)


def _first_sentence(text: str) -> str:
    plain = re.sub(r"\*+|`|(?<!\w)_|_(?!\w)", "", text)  # emphasis and code marks; a name's own _ stays
    sentence = re.split(r"(?<=[.!?:])\s", plain, maxsplit=1)[0]
    return sentence if len(sentence) <= 80 else sentence[:80].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _same(text: str) -> dict[str, str]:
    return {loc: text for loc in LOCALES}


# ------------------------------------------------------------------------------------------------ asking
def lookup(game: str, query: str) -> Lookup:
    """A citation's entry; else the entries holding the words; else the nearest citations."""
    cat = catalogue(game)
    query = (query or "").strip()
    entry = cat.find(query)
    if entry is not None:
        return Lookup(game, query, entry=entry)
    matches = cat.search(query)
    if len(matches) == 1:
        return Lookup(game, query, entry=matches[0])
    if matches:
        return Lookup(game, query, matches=matches)
    return Lookup(game, query, nearest=cat.nearest(query))


def find_cites(game: str, text: str) -> list[Entry]:
    """The entries a message's citations name — ``(см. §6)``, ``(see CG-14)``, ``(див. «Захват»)`` in any of
    the three languages; several in one bracket (``§1.3, BR-5``) each count — in the order they appear."""
    out: list[Entry] = []
    for _, _, entry in cite_spans(game, text):
        if entry not in out:
            out.append(entry)
    return out


_SEPARATORS = re.compile(r"[,;/]| and | и | і ")
_QUOTED = re.compile(r"«([^»]{1,60})»")


def cite_spans(game: str, text: str) -> list[tuple[int, int, Entry]]:
    """Where ``text`` names entries of the game: (start, end, entry) of each citation inside its bracket (``§1.3``
    and ``BR-5`` of ``(see §1.3, BR-5)`` apart; a part naming no entry but quoting one — ``«Захват»: Capture`` —
    by its quoted title), in order, none overlapping: what a page turns into links to the rules page."""
    cat = catalogue(game)
    found: list[tuple[int, int, Entry]] = []
    for pattern in _cite_patterns():
        for match in pattern.finditer(text):
            inner, base, at = match.group(1), match.start(1), 0
            for sep in [*_SEPARATORS.finditer(inner), None]:
                end = sep.start() if sep is not None else len(inner)
                part = inner[at:end]
                entry, start, stop = cat.find(part), at, end
                if entry is None and (quoted := _QUOTED.search(part)):
                    entry, start, stop = cat.find(quoted.group(1)), at + quoted.start(), at + quoted.end()
                if entry is not None:
                    piece = inner[start:stop]
                    start += len(piece) - len(piece.lstrip())
                    stop -= len(piece) - len(piece.rstrip())
                    found.append((base + start, base + stop, entry))
                at = sep.end() if sep is not None else end
    found.sort(key=lambda f: f[0])
    out: list[tuple[int, int, Entry]] = []
    for span in found:
        if not out or span[0] >= out[-1][1]:
            out.append(span)
    return out


@lru_cache(maxsize=1)
def _cite_patterns() -> tuple[re.Pattern[str], ...]:
    patterns = []
    for locale in LOCALES:
        before, _, after = t("core.cite", locale, rule="\x00").partition("\x00")
        patterns.append(re.compile(re.escape(before) + r"([^()\n]{1,80}?)" + re.escape(after)))
    return tuple(patterns)
