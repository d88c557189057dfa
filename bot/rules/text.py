"""The catalogue as localised text: one entry (what a "Why?" click and ``rules GAME CITATION`` show), the guide by
section, a word's matches and an unknown citation's nearest ones.  Pure functions of the catalogue; a front end
passes the length it can show (Discord's 2,000 characters; the terminal none)."""
from __future__ import annotations

from urllib.parse import quote

from bot.i18n import has, t
from bot.rules.catalogue import PARTS, Catalogue, Entry, Lookup, catalogue

#: Discord's limit for one message (the Why answer and /rules fit it)
DISCORD_LIMIT = 2000
#: a word's matches listed in one answer
MATCHES_SHOWN = 15


def game_name(game: str, locale: str) -> str:
    return t(f"{game}.title", locale)


def rules_url(base_url: str | None, game: str, entry: Entry | None = None) -> str | None:
    """The public rules page (bot/web), at the entry's anchor; None without a public address."""
    if not base_url:
        return None
    url = f"{base_url.rstrip('/')}/rules/{game}"
    return url + "#" + quote(entry.anchor) if entry is not None else url


def option_line(game: str, name: str, locale: str) -> str:
    key = f"{game}.option.{name}"
    return f"`{name}` ({t(key, locale)})" if has(key) else f"`{name}`"


def entry_text(entry: Entry, locale: str, *, limit: int | None = None, link: str | None = None) -> str:
    """One citation: a book paragraph in the team's own words, or a ruling with its kind, question, decision,
    reason and the options that change it.  Within ``limit`` characters the ruling's long parts are shortened
    (the whole is in docs/rulings and on the rules page)."""
    game = game_name(entry.game, locale)
    tail = [t("rules.entry.more", locale, url=link)] if link else []
    if entry.source == "book":
        lines = [t("rules.entry.book", locale, game=game, cite=entry.cite, title=entry.title_in(locale)),
                 entry.text.get(locale) or entry.text.get("en", ""), "", t("rules.entry.own_words", locale), *tail]
        return _fit("\n".join(lines), limit)
    head = [t("rules.entry.ruling", locale, game=game, cite=entry.cite, title=entry.title_in(locale)),
            t("rules.entry.kind", locale, kinds="; ".join(t(f"rules.kind.{k}", locale) for k in entry.kinds))]
    options = (t("rules.entry.options", locale, options=", ".join(option_line(entry.game, o, locale)
                                                                   for o in entry.options))
               if entry.options else t("rules.entry.no_options", locale))
    foot = [options, *([t("rules.entry.english", locale)] if entry.in_english(locale) else []), *tail]
    parts = [(t(f"rules.entry.{name}", locale), entry.part(name, locale)) for name in PARTS]
    parts = [(label, body) for label, body in parts if body]
    text = _assemble(head, parts, foot)
    if limit is None or len(text) <= limit:
        return text
    # the longest part shortened first, then the next, each ending with where the whole stands
    more = t("rules.entry.clipped", locale, game=entry.game)
    while len(text) > limit:
        open_parts = [i for i, (_, body) in enumerate(parts) if not body.endswith(more) and len(body) > 200]
        if not open_parts:
            return _fit(text, limit)
        i = max(open_parts, key=lambda k: len(parts[k][1]))
        label, body = parts[i]
        keep = max(200, len(body) - (len(text) - limit) - len(more))
        cut = body[:keep]
        if cut.count("`") % 2:  # never a code span left open: Discord would show the rest as code
            cut = cut[:cut.rfind("`")]
        parts[i] = (label, cut.rstrip() + more)
        text = _assemble(head, parts, foot)
    return text


def _assemble(head: list[str], parts: list[tuple[str, str]], foot: list[str]) -> str:
    return "\n".join([*head, *[f"**{label}.** {body}" for label, body in parts], *foot])


def _fit(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"


def guide_text(cat: Catalogue, locale: str, *, full: bool = False, limit: int | None = None) -> str:
    """The guide: the game in a sentence, every book paragraph by citation and title (``full``: with its text),
    and where the rulings are."""
    lines = [t("rules.guide.head", locale, game=game_name(cat.game, locale)), cat.about[locale], ""]
    for entry in cat.book:
        depth = entry.cite.count(".")
        line = f"{'  ' * depth}{entry.cite} — {entry.title_in(locale)}"
        lines.append(line + (f": {entry.text[locale]}" if full else ""))
    rulings = cat.rulings
    if rulings:
        lines += ["", t("rules.guide.rulings", locale, first=rulings[0].cite, last=rulings[-1].cite, n=len(rulings),
                        example=f"{cat.game} {rulings[0].cite}")]
        if full:
            lines += [f"  {e.cite} — {e.title_in(locale)}" for e in rulings]
    return _fit("\n".join(lines), limit)


def lookup_text(found: Lookup, locale: str, *, limit: int | None = None, base_url: str | None = None,
                angled: bool = False) -> str:
    """What a query answers: the entry, the matches of a word, or the nearest citations to an unknown one.
    ``angled``: the link in angle brackets (Discord links it without a preview card)."""
    if found.entry is not None:
        link = rules_url(base_url, found.game, found.entry)
        return entry_text(found.entry, locale, limit=limit, link=f"<{link}>" if link and angled else link)
    game = game_name(found.game, locale)
    if found.matches:
        shown = found.matches[:MATCHES_SHOWN]
        lines = [t("rules.matches", locale, query=found.query[:50], game=game, n=len(found.matches))]
        lines += [f"• {e.cite} — {e.title_in(locale)}" for e in shown]
        if len(found.matches) > len(shown):
            lines.append(t("rules.matches.more", locale, n=len(found.matches) - len(shown)))
        return _fit("\n".join(lines), limit)
    cat = catalogue(found.game)
    example = cat.book[0].cite
    lines = [t("rules.unknown", locale, query=found.query[:50], game=game)]
    if found.nearest:
        lines.append(t("rules.nearest", locale, cites=", ".join(f"{e.cite} ({e.title_in(locale)})"
                                                                for e in found.nearest)))
    lines.append(t("rules.try", locale, example=example))
    return _fit("\n".join(lines), limit)
