"""The public pages: a read-only web view of tournaments and tables (docs/web.md).

public.py reads the public's share of the record, pages.py renders it (Jinja2, autoescaped), app.py serves it
(aiohttp, GET and HEAD only, cached per version with ETags), links.py gives the Discord posts their addresses,
profiles.py is where ratings and hidden profiles plug in, sample.py plays tournaments of bot players (the demo's,
the tests').  ``python -m bot web`` is bot/terminal/web.py; ``python -m bot run`` starts app.py beside the bot.

May import: the tournament layer and below (tournament, referee, render, storage, engine, process, i18n).  The
Discord layer and the terminal import it, never the other way round.
"""
