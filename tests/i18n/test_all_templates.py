"""Every template of the catalogue, in every language, read as a native speaker would (issue 35, item 5).

The catalogue is read at test time (``catalogue()``), so templates added by any later change are covered too.
Each template is rendered with feminine, masculine and neutral names and with 1, 2, 5, 11 and 21 of every
count; the test fails on

- a placeholder left in the text (``{cards}``), or a call in the code that leaves one unfilled;
- a past-tense verb or short adjective agreeing with a name ("Анна захватил"): names are of any gender and
  indeclinable, so a template says "{seat}: захват «{prop}»" instead;
- a gender hedge ("скрыл(а)");
- a name straight after a preposition that wants another case ("вместо {old}"), and a quoted name as a verb's
  object without its noun ("играет «{card}»");
- a count followed by a noun that is not its plural form ("{limit} символов" reads "1 символов"), and a plural
  form with the wrong number of forms (three in Russian and Ukrainian, two in English);
- an English word in what players read in Russian or Ukrainian, but the names the rule books give in English.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, catalogue, format_text, t

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"ru": ("Анна", "Олег", "Бот 1"), "uk": ("Ганна", "Олег", "Бот 1"), "en": ("Alice", "Bob", "Bot 1")}
COUNTS = (1, 2, 5, 11, 21)
_FIELD = re.compile(r"\{(\w+)(?:\|([^{}]*))?\}")
_LEFT = re.compile(r"\{\w+(?:\|[^{}]*)?\}")

#: parameters that hold a number wherever they appear (besides any used in a plural form)
COUNT_NAMES = {"n", "count", "limit", "max", "min", "left", "seats", "games", "tables", "rows", "wins",
               "played", "na", "nb", "hours", "minutes", "seconds", "days", "tournaments", "hp", "ap", "have",
               "before", "amount", "shortest", "need", "total", "yes", "no", "last", "latest", "known", "low", "high",
               "to", "expected", "found", "got", "pages", "size", "steps", "rounds", "of", "migrated", "frozen",
               "recorded", "replayed", "coins", "babki", "points", "score", "dmg", "mhp", "kr"}
#: parameters that never hold a name: numbers of a table, a move, a version, or a word the template declines
NOT_NAMES = {"table", "deck", "version", "produced", "tournament", "round", "move", "board", "id", "thread",
             "reason", "text", "detail", "url", "link", "when", "until", "deadline", "time", "db", "backup", "colour",
             "colours", "row", "path", "file", "day", "night"}
#: prepositions after which a noun is not in the nominative: a name there needs a noun before it
#: ("у игрока {name}", "вместо карты «{old}»"), for a player's name is not declined
PREPOSITIONS = {"ru": {"у", "от", "для", "вместо", "без", "против", "к", "ко", "о", "об", "при", "после", "кроме",
                       "до"},
                "uk": {"від", "для", "замість", "без", "проти", "до", "при", "після", "крім", "біля", "про"}}
#: what may follow a bare count: prepositions, conjunctions, adverbs and abbreviations that never inflect
NOT_NOUNS = {
    "ru": {"из", "и", "или", "не", "раньше", "ранее", "ещё", "до", "по", "на", "в", "с", "мин", "ч", "сек", "КБ",
           "МБ", "×", "—", "назад", "осталось", "очк", "ОД", "ЗДР", "МЗД", "вместо"},
    "uk": {"з", "із", "і", "й", "або", "не", "раніше", "ще", "до", "по", "на", "в", "у", "хв", "год", "с", "КБ",
           "МБ", "тому", "лишилося", "оч", "ОД", "ЗДР", "МЗД", "замість"},
    "en": {"of", "and", "or", "more", "earlier", "rated", "to", "from", "in", "on", "min", "h", "s", "KB", "MB",
           "ago", "AP", "HP"},
}

_RU_PAST = re.compile(r"^[а-яё]+(?:л|ла|ло|ли|лся|лась|лось|лись)$")
_UK_PAST = re.compile(r"^[а-яіїєґʼ']+(?:ив|ав|яв|ов|ув|ла|ло|ли|вся|лася|лося|лися)$")
#: short adjectives and participles that agree with their subject as a verb does
_SHORT = re.compile(r"^(?:мёртв|мертв|жив|готов|снят|знят|убит|вбит|ранен|поранен|выбыл|вибув|повержен|побежд[её]н|"
                    r"переможен|изгнан|вигнан|заморожен|уничтожен|знищен|взят|занят|пуст|чист|ваш|наш|свободн)[аоиіе]?$"
                    r"|^[а-яё]{3,}(?:ен|ён|ан|ян|ыт|ит|ят)[аоы]$")
#: nouns that happen to end like a past tense
_NOT_VERBS = {"стол", "стола", "столы", "правила", "правило", "сила", "числа", "число", "села", "мила", "дела",
              "дело", "тыла", "крыла", "хвила", "стіл", "столи", "діла", "крила", "хвиля", "зла", "козла",
              "весла", "игрока", "гравців", "ходів", "рядів", "стовпців", "навыков", "очков", "ходов", "раундов",
              "боссов", "хил", "мл", "ил", "пил", "тыл", "или", "журнала", "журналу", "зала", "мало"}


#: words before a name that are not its noun: the name itself is then the subject
_NOT_SUBJECTS = {"и", "а", "но", "или", "что", "і", "й", "та", "або", "що", "как", "як"}


def _is_past(word: str, locale: str) -> bool:
    w = word.lower()
    if w in _NOT_VERBS or (locale == "uk" and w.endswith(("но", "то"))):  # "скасовано": impersonal, no gender
        return False
    if _SHORT.match(w):
        return True
    return bool((_RU_PAST if locale == "ru" else _UK_PAST).match(w))


def _templates():
    return [(key, loc) for key in sorted(catalogue()) for loc in LOCALES]


def _numeric(text: str, all_texts: dict[str, str]) -> set[str]:
    plural = {m.group(1) for t_ in all_texts.values() for m in _FIELD.finditer(str(t_)) if m.group(2) is not None}
    return plural | ({m.group(1) for m in _FIELD.finditer(text)} & COUNT_NAMES)


# ------------------------------------------------------------------------------------------ detectors
def agreeing_with_name(template: str, locale: str, numeric: set[str]) -> list[str]:
    """Past-tense verbs and short adjectives next to a name placeholder ("{seat} захватил", "Победил {name}")."""
    if locale not in ("ru", "uk"):
        return []
    found = []
    word = r"([А-Яа-яЁёІіЇїЄєҐґʼ']+)"
    for m in re.finditer(r"\{(\w+)\}[»\"]?\s*(?:\([^)]*\)\s*)?(?:не\s+)?(?:уже\s+|вже\s+)?" + word, template):
        if m.group(1) in numeric | NOT_NAMES or not _is_past(m.group(2), locale):
            continue
        # "карта «{card}» не сработала", "Колода {deck} кончилась": the verb agrees with the noun before the name
        before = re.search(r"([А-Яа-яЁёІіЇїЄєҐґʼ']+)\s+[«\"]?$", template[:m.start()])
        if before and before.group(1).lower() not in _NOT_SUBJECTS:
            continue
        found.append(m.group(0))
    for m in re.finditer(word + r"\s+\{(\w+)\}", template):
        if m.group(2) not in numeric | NOT_NAMES and _is_past(m.group(1), locale) \
                and not m.group(1).lower().startswith(("ваш", "наш")):  # "ваши {card}": a plural, whoever it is
            found.append(m.group(0))
    found += [m.group(0) for m in re.finditer(r"\w+\((?:а|ла|ло|и|ли)\)", template)]
    return found


def undeclined_after_preposition(template: str, locale: str, numeric: set[str]) -> list[str]:
    """A name straight after a preposition that wants another case: "вместо {old}", "у {name}"."""
    if locale not in PREPOSITIONS:
        return []
    return [m.group(0) for m in re.finditer(r"(?<![\w-])(\w+)\s+[«\"]?\{(\w+)\}", template)
            if m.group(1).lower() in PREPOSITIONS[locale] and m.group(2) not in numeric | NOT_NAMES]


def quoted_after_verb(template: str, locale: str) -> list[str]:
    """A quoted name as a verb's object ("играет «{card}»" reads "играет «Библиотека»"): its noun goes first
    ("играет карту «{card}»"), so the quoted name stays in the nominative."""
    if locale not in ("ru", "uk"):
        return []
    verb = r"[а-яёіїєґʼ']+(?:ет|ёт|ит|ает|яет|ует|ут|ют|ят|ат|є|ить|ає|ює)"
    not_verbs = {"нет", "немає", "захват", "указывают", "вказують"}  # nouns, "no", and a typed field's name
    return [m.group(0) for m in re.finditer(rf"(?<![\w-])({verb})\s+«\{{\w+\}}", template, re.IGNORECASE)
            if m.group(1).lower() not in not_verbs]


def bare_counts(template: str, locale: str, numeric: set[str]) -> list[str]:
    """A count followed by a noun that is not its plural form: "{limit} символов", "{n} moves"."""
    found = []
    for m in re.finditer(r"\{(\w+)\}[ \u00a0]+([^\s{}.,:;!?()«»\"—-]+)", template):
        name, word = m.group(1), m.group(2)
        if name not in numeric or word in NOT_NOUNS[locale] or not word.isalpha():
            continue
        if locale == "en" and not (word.endswith("s") or word in {"card", "time", "unit", "player", "seat"}):
            continue  # "3 rated games", "2 more": only a noun needs a plural form in English
        found.append(m.group(0))
    return found


def bad_plural_forms(template: str, locale: str) -> list[str]:
    want = 2 if locale == "en" else 3
    return [m.group(0) for m in _FIELD.finditer(template)
            if m.group(2) is not None and len(m.group(2).split("|")) != want]


# ------------------------------------------------------------------------------------------ the test
def test_the_detectors_catch_what_they_are_for():
    """The old Raiders capture, a hedge, a bare count and a two-form Russian plural all fail."""
    assert agreeing_with_name("🏴 {seat} захватил «{prop}»: {card} ({a}) ≥ {p}, охраняет.", "ru", set())
    assert agreeing_with_name("🏴 {seat} захопив «{prop}».", "uk", set())
    assert agreeing_with_name("{name} скрыл(а) свой профиль.", "ru", set())
    assert agreeing_with_name("{player} снят с турнира.", "ru", set())
    assert not agreeing_with_name("🏴 {seat}: захват «{prop}».", "ru", set())
    assert not agreeing_with_name("стол {board}", "ru", set())
    assert agreeing_with_name("«{name}» ({seat}) не сработала: цели уже нет.", "ru", set())
    assert agreeing_with_name("«{prop}» уже ваша.", "ru", set())
    assert not agreeing_with_name("Шняга «{name}» ({seat}) не сработала.", "ru", set())
    assert agreeing_with_name("Тур 1: {first} и {second} поменялись местами.", "ru", set())
    assert undeclined_after_preposition("Надеть: {item} вместо {old}", "ru", set())
    assert not undeclined_after_preposition("вместо карты «{old}»", "ru", set())
    assert bare_counts("Не больше {limit} символов.", "ru", {"limit"})
    assert bare_counts("{n} moves", "en", {"n"})
    assert not bare_counts("{n} {n|ход|хода|ходов}", "ru", {"n"})
    assert quoted_after_verb("{name} играет «{card}».", "ru") and not quoted_after_verb("играет карту «{card}»", "ru")
    assert bad_plural_forms("{n|карта|карт}", "ru") and not bad_plural_forms("{n|card|cards}", "en")


def test_no_template_agrees_with_a_name_or_leaves_a_bare_count():
    problems = []
    for key, texts in catalogue().items():
        for loc in LOCALES:
            text = str(texts.get(loc, ""))
            numeric = _numeric(text, texts)
            for hit in agreeing_with_name(text, loc, numeric):
                problems.append(f"{key} [{loc}] agrees with a name: {hit!r}")
            for hit in undeclined_after_preposition(text, loc, numeric):
                problems.append(f"{key} [{loc}] a name in the wrong case: {hit!r}")
            for hit in quoted_after_verb(text, loc):
                problems.append(f"{key} [{loc}] a quoted name as an object, without its noun: {hit!r}")
            for hit in bare_counts(text, loc, numeric):
                problems.append(f"{key} [{loc}] a count without its plural: {hit!r}")
            for hit in bad_plural_forms(text, loc):
                problems.append(f"{key} [{loc}] wrong number of plural forms: {hit!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("count", COUNTS)
def test_every_template_renders_whole_with_every_name_and_count(count):
    problems = []
    for key, loc in _templates():
        texts = catalogue()[key]
        text = str(texts[loc])
        numeric = _numeric(text, texts)
        fields = {m.group(1) for m in _FIELD.finditer(text)}
        for name in NAMES[loc]:
            params = {f: (count if f in numeric else "7" if f in NOT_NAMES else name) for f in fields}
            out = format_text(text, loc, params)
            if _LEFT.search(out):
                problems.append(f"{key} [{loc}]: {out!r}")
            # the name as written, then a verb agreeing with it: "Анна захватил", "Бот 1 приховав"
            for m in re.finditer(re.escape(name) + r"[»\"]?\s*(?:\([^)]*\)\s*)?(?:не\s+)?([А-Яа-яЁёІіЇїЄєҐґʼ']+)", out):
                before = re.search(r"([А-Яа-яЁёІіЇїЄєҐґʼ']+)\s+[«\"]?$", out[:m.start()])
                if loc != "en" and _is_past(m.group(1), loc) and not (
                        before and before.group(1).lower() not in _NOT_SUBJECTS):
                    problems.append(f"{key} [{loc}] agrees with {name}: {m.group(0)!r}")
            for m in _FIELD.finditer(text):
                if m.group(2) is not None and len(forms := m.group(2).split("|")) == (2 if loc == "en" else 3):
                    want = _expected_form(count, forms, loc)
                    if format_text(m.group(0), loc, {m.group(1): count}) != want:
                        problems.append(f"{key} [{loc}] {count}: not {want!r}")
    assert not problems, "\n".join(sorted(set(problems))[:60])


def _expected_form(n: int, forms: list[str], locale: str) -> str:
    """The plural rule written out once more, by the table of CLDR examples rather than by arithmetic."""
    if locale == "en":
        return forms[0] if n == 1 else forms[1]
    return {1: forms[0], 21: forms[0], 2: forms[1], 5: forms[2], 11: forms[2]}[n]


# ------------------------------------------------------------------------------------------ the callers
def _calls():
    """(file, line, key, keyword names, takes **params) of every ``t("literal.key", ...)`` in the code."""
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t"):
                continue
            if not node.args or not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            spread = any(k.arg is None for k in node.keywords)
            yield path.relative_to(ROOT), node.lineno, node.args[0].value, {k.arg for k in node.keywords}, spread


def test_every_call_fills_every_placeholder_of_its_template():
    problems = []
    for path, line, key, given, spread in _calls():
        texts = catalogue().get(key)
        if texts is None or spread:
            continue
        wanted = {m.group(1) for text in texts.values() for m in _FIELD.finditer(str(text))}
        if missing := wanted - given:
            problems.append(f"{path}:{line} t({key!r}) leaves {sorted(missing)} unfilled")
    assert not problems, "\n".join(problems)


def test_a_forgotten_parameter_never_reaches_a_reader_raw():
    assert format_text("Вы получили: {cards}.", "ru", {}) == "Вы получили: —."


@pytest.mark.parametrize("locale", LOCALES)
def test_a_spy_on_an_empty_deck_says_nothing_came(locale):
    """Gwent: a spy played when deck and aside are empty draws nothing; the text says so, no "{cards}"."""
    from bot.games.gwent.render import render_event
    names = ["Анна", "Олег"]
    got = render_event({"kind": "drew", "data": {"seat": 0, "cards": []}}, locale, names)
    counted = render_event({"kind": "drew_count", "data": {"seat": 0, "n": 0}}, locale, names)
    assert got == t("gwent.ev.drew_none", locale) and "{" not in got and "—" not in got
    assert counted == t("gwent.ev.drew_count_none", locale, name="Анна")


def _book_names() -> set[str]:
    """The Latin words of the names our catalogues keep as the rule books give them (Bloodwood's cards, Gwent's
    «Надежда Aen Seidhe»...), and of the games' titles."""
    import yaml

    words: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str) and key in ("name_ru", "name_uk", "ru", "uk", "name"):
                    words.update(re.findall(r"[A-Za-z][A-Za-z'-]*", value))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in ROOT.joinpath("data").glob("*/*.yaml"):
        if path.name != "strings.yaml":
            walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    for key, texts in catalogue().items():
        if key.endswith(".title") and key.count(".") == 1:
            words.update(re.findall(r"[A-Za-z][A-Za-z'-]*", str(texts["ru"])))
    return words


def test_what_players_read_in_play_has_no_english_word_but_the_books_names():
    """Moves, boards, prompts, outcomes and pictures in Russian and Ukrainian: a Latin word is a name the rule
    book gives in English (kept so in the catalogues) or an acronym, never an untranslated word ("Purity"
    beside "мутация" was one)."""
    allowed = _book_names() - {"Purity"}
    problems = []
    for key, texts in catalogue().items():
        if not re.search(r"\.(ev|act|view|board|effect|prompt|dna|outcome)\.|^picture\.", key):
            continue
        for loc in ("ru", "uk"):
            for word in re.findall(r"[A-Za-z][A-Za-z'-]*", _FIELD.sub(" ", str(texts[loc]))):
                if word not in allowed and not word.isupper():
                    problems.append(f"{key} [{loc}]: {word}")
    assert not problems, "\n".join(problems)
