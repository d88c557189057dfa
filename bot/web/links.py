"""The public pages' addresses, for the posts that link to them (the Discord layer): None when no
``web.base_url`` is configured, so a caller writes ``if url := table_url(base, id)``."""
from __future__ import annotations


def table_url(base_url: str | None, table_id: int) -> str | None:
    return f"{base_url.rstrip('/')}/table/{table_id}" if base_url else None


def tournament_url(base_url: str | None, tournament_id: int, round: int | None = None) -> str | None:
    if not base_url:
        return None
    return f"{base_url.rstrip('/')}/tournament/{tournament_id}" + (f"#round-{round}" if round else "")


def base_url(settings: object) -> str | None:
    """The configured ``web.base_url`` of some settings (None when there is none)."""
    return getattr(getattr(settings, "web", None), "base_url", None)


def link_line(key: str, url: str | None, locale: str | None) -> list[str]:
    """The line a Discord post ends with to link its page (``web.link.table`` / ``web.link.tournament``), as a
    list to splice into a post's lines: empty without an address.  The address in angle brackets: Discord links
    it without a preview card."""
    from bot.i18n import t

    return [t(key, locale, url=f"<{url}>")] if url else []
