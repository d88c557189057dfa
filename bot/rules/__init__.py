"""The rules at hand: every citation the referee prints (a book paragraph such as ``§1.6`` or ``Захват``, a
ruling such as ``CG-14``) opens to its rule in the team's own words (docs/discord.md "Rules and citations").

- catalogue.py — each game's catalogue: the book's paragraphs from data/rules/<game>.yaml (ru/uk/en summaries,
  validated on load) and the rulings parsed from docs/rulings/<game>.md at load (one source of truth);
  lookup by citation, by word, and the nearest citations to an unknown one.
- text.py — an entry, the guide, a search's matches and an unknown citation as localised text.

A layer of its own just above the games: it may import the games (their table options, through the registry),
the engine (catalogue loading and validation) and i18n; the terminal, the public web pages and the Discord layer
import it.
"""
from bot.rules.catalogue import GAMES, Catalogue, Entry, Lookup, catalogue, cite_spans, find_cites, lookup, normalise

__all__ = ["GAMES", "Catalogue", "Entry", "Lookup", "catalogue", "cite_spans", "find_cites", "lookup", "normalise"]
