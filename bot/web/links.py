"""The public pages' addresses, for the posts that link to them (the Discord layer): None when no
``web.base_url`` is configured, so a caller writes ``if url := table_url(base, id)``."""
from __future__ import annotations


def table_url(base_url: str | None, table_id: int) -> str | None:
    return f"{base_url.rstrip('/')}/table/{table_id}" if base_url else None


def tournament_url(base_url: str | None, tournament_id: int, round: int | None = None) -> str | None:
    if not base_url:
        return None
    return f"{base_url.rstrip('/')}/tournament/{tournament_id}" + (f"#round-{round}" if round else "")
