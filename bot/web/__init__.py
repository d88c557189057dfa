"""The public pages: a read-only web view of tournaments and tables (docs/web.md).

public.py reads the public's share of the record, pages.py renders it (Jinja2, autoescaped), app.py serves it
(aiohttp, GET and HEAD only, cached per version with ETags), cli.py is ``python -m bot web``, links.py gives
the Discord posts their addresses, profiles.py is where ratings and hidden profiles plug in.
"""
