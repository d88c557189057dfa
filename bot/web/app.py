"""The aiohttp application serving the public pages: read-only (GET and HEAD), cached per version.

Each page kind has a *token*, one cheap query that says what the page depends on (a table's version and
status, a tournament's games and results ...).  A rendered page is kept under (page, token, language) and
served until the token changes; its ETag is a digest of its bytes, so a repeat request with If-None-Match
gets 304 without the page being rendered or sent again.  ETags never carry a table's version (versions count
secret steps), only a digest of what the page shows.

Routes (docs/web.md):
    /                               every server with public tables (the only one's index when there is one)
    /server/{guild}                 a server's tournaments and tables by game (``local``: terminal and demo),
                                    newest first, ``?page=N`` for older ones
    /tournament/{id}                standings, rounds, crosstable or bracket
    /table/{id}                     players, picture, board, log, fairness
    /table/{id}/picture.png         the public picture now
    /table/{id}/log                 the whole log (a table page shows its newest steps)
    /table/{id}/replay/{step}       the replay, one public step at a time
    /table/{id}/replay/{step}.png   the public picture at that step
    /table/{id}/record.json         an ended table's record (what ``python -m bot verify --file`` checks)
    /player/{user}                  a player's tables and tournaments
    /static/...                     the style sheet and the replay's keyboard script
    /favicon.ico                    the site's icon

Text answers (HTML, JSON, CSS, JS) go gzipped to a client that accepts it: each body is compressed once and kept
beside the plain one, under an ETag of its own (a strong ETag names one representation), and every answer says
``Vary: Accept-Encoding``.  Pictures go as they are: PNG is compressed already.
"""
from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import web

from bot.i18n import LOCALES
from bot.process.config import RELEASE
from bot.process.lru import LRU
from bot.rules import GAMES
from bot.render.picture import Pictures, supported
from bot.storage.db import Busy
from bot.storage.store import Store

from . import pages, public
from .pages import Page
from .profiles import Profiles
from .replay_cache import DEFAULT_VIEWS, ReplayCache
from .rules import rules_page

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
HTML = "text/html; charset=utf-8"
#: what a browser may load on these pages: their own style sheet, script and pictures, nothing else (connect:
#: the pages' own script asks for the page again to keep it current, static/live.js)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self';"
                               " base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
MAX_USER_KEY = 200
STATIC_TYPES = {"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "ico": "image/x-icon",
                "png": "image/png"}
FAVICON = "favicon.ico"
#: the content types sent gzipped to a client that accepts it; a body shorter than GZIP_MIN goes as it is (the
#: gzip header would eat the gain)
COMPRESSIBLE = ("text/", "application/json")
GZIP_MIN = 512


def negotiate(request: web.Request, default: str) -> tuple[str, bool]:
    """The page's language: ``?lang=`` (kept in every link), else the best of Accept-Language, else ``default``."""
    asked = request.query.get("lang")
    if asked in LOCALES:
        return asked, True
    best, best_q = default, 0.0
    for part in request.headers.get("Accept-Language", "").split(",")[:20]:
        bits = part.strip().split(";")
        code = bits[0].strip().lower().split("-")[0]
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        if code in LOCALES and q > best_q:
            best, best_q = code, q
    return best, False


def _gzip_tag(etag: str) -> str:
    """The ETag of a body's gzipped form (its own: the bytes differ), derived from the plain body's."""
    return etag[:-1] + '-gz"'


def _tags(request: web.Request) -> list[str]:
    """The ETags a request says it has (If-None-Match)."""
    return [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]


class Cache:
    """Rendered bodies by key, the least recently used dropped past ``size``; their ETags by key for longer
    (``etag``), so a page polled by a reader who has it answers 304 without being rendered again even after
    its body was dropped."""

    def __init__(self, size: int = 512):
        self.size = size
        self._kept: LRU[tuple[bytes, str]] = LRU(size)
        self._etags: LRU[str] = LRU(size * 64)

    def etag(self, key: Any) -> str | None:
        return self._etags.get(key)

    def get(self, key: Any) -> tuple[bytes, str] | None:
        return self._kept.get(key)

    def put(self, key: Any, body: bytes) -> tuple[bytes, str]:
        return self.keep(key, (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'))

    def keep(self, key: Any, kept: tuple[bytes, str]) -> tuple[bytes, str]:
        """``kept`` (a body and its ETag) under ``key``."""
        self._etags.put(key, kept[1])
        return self._kept.put(key, kept)


class StepLines:
    """The text of recorded steps by (table, step's version, language, names): a recorded step never changes,
    so a table's new version renders the lines of its new step only."""

    def __init__(self, size: int = 100_000):
        self.size = size
        self._kept: OrderedDict[tuple, list[str]] = OrderedDict()

    def __call__(self, lang: str, table: public.PublicTable, step: public.Step) -> list[str]:
        key = (table.id, step.version, lang, tuple(table.names))
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = pages.step_lines(lang, table, step)
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found


class Site:
    """The pages of one database.  ``profiles``: ratings and hidden profiles (profiles.py); ``replay_cache``: the
    replay step views kept (replay_cache.py)."""

    def __init__(self, store: Store, *, locale: str = "ru", profiles: Profiles | None = None,
                 cache_size: int = 512, base_url: str | None = None, replay_cache: int = DEFAULT_VIEWS):
        self.store = store
        #: ``web.base_url``: the absolute address link previews need (Open Graph); None leaves them relative-free
        self.base_url = base_url.rstrip("/") if base_url else None
        self.locale = locale if locale in LOCALES else LOCALES[0]
        self.profiles = profiles or Profiles(store)
        self.cache = Cache(cache_size)
        self.pictures = Pictures(size=128)
        self.lines = StepLines()
        self.records = ReplayCache(replay_cache)
        self.static = {p.name: p.read_bytes() for p in STATIC.iterdir() if p.is_file()}

    # ------------------------------------------------------------------ the application
    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        r = app.router
        r.add_get("/", self.servers)
        r.add_get("/server/{guild}", self.index)
        r.add_get("/tournament/{id:\\d{1,18}}", self.tournament)
        r.add_get("/table/{id:\\d{1,18}}", self.table)
        r.add_get("/table/{id:\\d{1,18}}/picture.png", self.picture)
        r.add_get("/table/{id:\\d{1,18}}/log", self.full_log)
        r.add_get("/table/{id:\\d{1,18}}/replay", self.replay_start)
        r.add_get("/table/{id:\\d{1,18}}/replay/{step:\\d{1,9}}", self.replay)
        r.add_get("/table/{id:\\d{1,18}}/replay/{step:\\d{1,9}}.png", self.replay_picture)
        r.add_get("/table/{id:\\d{1,18}}/record.json", self.record)
        # a user key may hold any character ("/" too): the route takes the rest of the path, decoded once
        r.add_get("/player/{user:.+}", self.player)
        r.add_get("/rules", self.rules_index)
        r.add_get("/rules/{game}", self.rules)
        r.add_get("/static/{name}", self.static_file)
        r.add_get("/favicon.ico", self.favicon)
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
        try:
            response = await handler(request)
        except web.HTTPNotFound:
            response = self._not_found(request)
        except web.HTTPMethodNotAllowed as exc:  # read-only: say so in the answer's Allow header
            exc.headers["Allow"] = "GET, HEAD"
            raise
        except Busy as exc:  # a profile's ratings cache waited for another process's write: a moment later
            lang, _ = negotiate(request, self.locale)
            response = web.Response(status=503, text=exc.message(lang), headers={"Retry-After": "5"})
        response.headers.update(SECURITY_HEADERS)
        return response

    # ------------------------------------------------------------------ answers
    async def _page(self, request: web.Request, key: Any, token: Any,
                    build: Callable[[Page], Awaitable[str | None]]) -> web.StreamResponse:
        """The page under ``key`` at ``token``: from the cache, else built; 304 when the client has it."""
        lang, explicit = negotiate(request, self.locale)
        if token is None:
            return self._not_found(request)
        cache_key = (key, token, lang, explicit)
        known = self.cache.etag(cache_key)
        held = _tags(request)
        if known is not None and (known in held or _gzip_tag(known) in held):  # an unchanged page: nothing rendered
            tag = known if known in held else _gzip_tag(known)
            return web.Response(status=304, headers={
                "ETag": tag, "Cache-Control": "no-cache",
                "Vary": "Accept-Encoding" if explicit else "Accept-Language, Accept-Encoding"})
        kept = self.cache.get(cache_key)
        if kept is None:
            html = await build(Page(lang, explicit, self.base_url))
            if html is None:
                return self._not_found(request)
            kept = self.cache.put(cache_key, html.encode("utf-8"))
        return self._send(request, kept, HTML, vary=not explicit)

    def _send(self, request: web.Request, kept: tuple[bytes, str], content_type: str, *, vary: bool = False,
              max_age: int = 0) -> web.StreamResponse:
        body, etag = kept
        headers = {"ETag": etag, "Cache-Control": f"public, max-age={max_age}, must-revalidate" if max_age
                   else "no-cache"}
        zipped = content_type.startswith(COMPRESSIBLE)
        varies = ["Accept-Language"] * vary + ["Accept-Encoding"] * zipped
        if varies:
            headers["Vary"] = ", ".join(varies)
        if zipped and len(body) >= GZIP_MIN and _accepts_gzip(request):
            body, etag = self._gzipped(kept)
            headers.update({"ETag": etag, "Content-Encoding": "gzip"})
        if etag in _tags(request):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, headers={**headers, "Content-Type": content_type})

    def _gzipped(self, kept: tuple[bytes, str]) -> tuple[bytes, str]:
        """The gzipped twin of a kept body, compressed once (keyed by the plain body's ETag, a digest of it)."""
        body, etag = kept
        key = ("gzip", etag)
        found = self.cache.get(key)
        if found is None:
            found = self.cache.keep(key, (gzip.compress(body, compresslevel=6, mtime=0), _gzip_tag(etag)))
        return found

    def _not_found(self, request: web.Request) -> web.Response:
        lang, explicit = negotiate(request, self.locale)
        return web.Response(status=404, body=pages.not_found_page(Page(lang, explicit)).encode("utf-8"),
                            headers={"Content-Type": HTML, **SECURITY_HEADERS})

    @staticmethod
    def _id(request: web.Request) -> int:
        return int(request.match_info["id"])

    # ------------------------------------------------------------------ pages
    async def rules(self, request: web.Request) -> web.StreamResponse:
        """A game's rules page (bot/web/rules.py): the same for every database, so its token is the release's."""
        game = request.match_info["game"]

        async def build(page: Page) -> str | None:
            return rules_page(page, game)
        return await self._page(request, ("rules", game), RELEASE, build)

    async def rules_index(self, request: web.Request) -> web.StreamResponse:
        """``/rules``: the first game's page, whose menu names the others."""
        lang = request.query.get("lang")
        raise web.HTTPFound(f"/rules/{GAMES[0]}" + (f"?lang={lang}" if lang in LOCALES else ""))

    @staticmethod
    def _page_number(request: web.Request) -> int | None:
        """An index's ``?page=`` (1 without it); None for anything but a page number."""
        asked = request.query.get("page", "1")
        return int(asked) if asked.isdigit() and len(asked) < 7 else None

    async def servers(self, request: web.Request) -> web.StreamResponse:
        number = self._page_number(request)
        token = await public.index_token(self.store, None) if number is not None else None

        async def build(page: Page) -> str | None:
            found = await public.servers(self.store)
            if len(found) == 1:
                index = await public.load_index(self.store, found[0][0], number or 1)
                return None if index is None else pages.index_page(page, index, many=False)
            return pages.servers_page(page, found) if number == 1 else None
        return await self._page(request, ("servers", number), token, build)

    async def index(self, request: web.Request) -> web.StreamResponse:
        guild, number = request.match_info["guild"], self._page_number(request)
        if number is None or not (guild == public.LOCAL or guild.isdigit() and len(guild) < 30):
            return self._not_found(request)
        token = await public.index_token(self.store, guild)
        many = len(await public.servers(self.store)) > 1

        async def build(page: Page) -> str | None:
            index = await public.load_index(self.store, guild, number)
            return None if index is None else pages.index_page(page, index, many=many)
        return await self._page(request, ("index", guild, many, number), token, build)

    async def tournament(self, request: web.Request) -> web.StreamResponse:
        tid = self._id(request)
        token = await public.tournament_token(self.store, tid)

        async def build(page: Page) -> str | None:
            data = await public.load_tournament(self.store, tid)
            return None if data is None else pages.tournament_page(page, data)
        return await self._page(request, ("tournament", tid), token, build)

    async def _table_at(self, tid: int, token: tuple[Any, ...]) -> public.PublicTable | None:
        """The table's public record at ``token`` (read before: the record is never older than it), kept."""
        return await self.records.table(token, lambda: public.load_table(self.store, tid))

    async def _step_view(self, data: public.PublicTable, token: tuple[Any, ...], index: int) -> Any:
        return await self.records.view(token, index, lambda: public.step_view(self.store, data, index))

    async def table(self, request: web.Request) -> web.StreamResponse:
        tid = self._id(request)
        token = await public.table_token(self.store, tid)

        async def build(page: Page) -> str | None:
            data = None if token is None else await self._table_at(tid, token)
            return None if data is None else pages.table_page(page, data, self.lines)
        return await self._page(request, ("table", tid), token, build)

    async def full_log(self, request: web.Request) -> web.StreamResponse:
        tid = self._id(request)
        token = await public.table_token(self.store, tid)

        async def build(page: Page) -> str | None:
            data = None if token is None else await self._table_at(tid, token)
            return None if data is None else pages.log_page(page, data, self.lines)
        return await self._page(request, ("log", tid), token, build)

    async def replay_start(self, request: web.Request) -> web.StreamResponse:
        """``/table/N/replay``: its first step; the table itself while it has no public step (a deal the public
        does not see), rather than a step that would answer 404."""
        tid = self._id(request)
        lang = f"?lang={request.query['lang']}" if request.query.get("lang") in LOCALES else ""
        # the token first: it is None for a table of a server off the public pages, as for no table at all
        token = await public.table_token(self.store, tid)
        data = None if token is None else await self._table_at(tid, token)
        if data is None:
            return self._not_found(request)
        raise web.HTTPFound(f"/table/{tid}/replay/0{lang}" if data.steps else f"/table/{tid}{lang}")

    async def replay(self, request: web.Request) -> web.StreamResponse:
        tid, index = self._id(request), int(request.match_info["step"])
        token = await public.table_token(self.store, tid)

        async def build(page: Page) -> str | None:
            data = None if token is None else await self._table_at(tid, token)
            if data is None or not 0 <= index < len(data.steps) or token is None:
                return None
            return pages.replay_page(page, data, index, await self._step_view(data, token, index), self.lines)
        return await self._page(request, ("replay", tid, index), token, build)

    async def player(self, request: web.Request) -> web.StreamResponse:
        user = request.match_info["user"]
        if len(user) > MAX_USER_KEY:
            return self._not_found(request)
        token = (await public.player_token(self.store, user), await self.profiles.token(user))

        async def build(page: Page) -> str | None:
            found = await public.load_player(self.store, user)
            if found is None:
                return None
            if await self.profiles.hidden(user):
                return pages.player_page(page, found, hidden=True)
            return pages.player_page(page, found, hidden=False, ratings=await self.profiles.ratings(user))
        return await self._page(request, ("player", user), token, build)

    # ------------------------------------------------------------------ pictures, records, static files
    async def _picture(self, request: web.Request, tid: int, index: int | None) -> web.StreamResponse:
        lang, _ = negotiate(request, self.locale)
        token = await public.table_token(self.store, tid)
        if token is None:
            return self._not_found(request)
        key = ("png", token, index, lang)
        kept = self.cache.get(key)
        if kept is None:
            data = await self._table_at(tid, token)
            if data is None or not supported(data.game):
                return self._not_found(request)
            if index is None:
                view, version = data.view, token[3]
            elif 0 <= index < len(data.steps):
                view, version = await self._step_view(data, token, index), data.steps[index].version
            else:
                return self._not_found(request)
            if view is None:
                return self._not_found(request)
            png = await asyncio.get_running_loop().run_in_executor(
                None, self.pictures.get, tid, version, None, "table", lang, data.names, lambda: view)
            if png is None:
                return self._not_found(request)
            kept = self.cache.put(key, png)
        return self._send(request, kept, "image/png", vary=True)

    async def picture(self, request: web.Request) -> web.StreamResponse:
        return await self._picture(request, self._id(request), None)

    async def replay_picture(self, request: web.Request) -> web.StreamResponse:
        return await self._picture(request, self._id(request), int(request.match_info["step"]))

    async def record(self, request: web.Request) -> web.StreamResponse:
        tid = self._id(request)
        token = await public.table_token(self.store, tid)
        if token is None:
            return self._not_found(request)
        key = ("record", token)
        kept = self.cache.get(key)
        if kept is None:
            doc = await public.public_record(self.store, tid)
            if doc is None:
                return self._not_found(request)
            kept = self.cache.put(key, json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8"))
        response = self._send(request, kept, "application/json; charset=utf-8")
        response.headers["Content-Disposition"] = f'attachment; filename="table-{tid}.json"'
        return response

    async def static_file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        body = self.static.get(name)
        if body is None:
            return self._not_found(request)
        kind = STATIC_TYPES.get(name.rsplit(".", 1)[-1], "application/octet-stream")
        kept = self.cache.get(("static", name)) or self.cache.put(("static", name), body)
        return self._send(request, kept, kind, max_age=3600)

    async def favicon(self, request: web.Request) -> web.StreamResponse:
        """``/favicon.ico``, where browsers and link previews look for it without asking the page."""
        kept = self.cache.get(("static", FAVICON)) or self.cache.put(("static", FAVICON), self.static[FAVICON])
        return self._send(request, kept, STATIC_TYPES["ico"], max_age=86400)


def _accepts_gzip(request: web.Request) -> bool:
    """Whether the client takes gzip: named in Accept-Encoding (or ``*``) without ``q=0``."""
    for part in request.headers.get("Accept-Encoding", "").split(",")[:20]:
        bits = [b.strip() for b in part.split(";")]
        if bits[0].lower() in ("gzip", "*"):
            return not any(b.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000") for b in bits[1:])
    return False


# ---------------------------------------------------------------------------------------------- serving
async def start(store: Store, host: str, port: int, *, locale: str = "ru",
                profiles: Profiles | None = None, monitor: Any = None, base_url: str | None = None,
                replay_cache: int = DEFAULT_VIEWS) -> web.AppRunner:
    """Serve the pages on ``host:port`` in the running loop (beside the Discord bot, or alone), player pages
    with the ratings (``Profiles``) unless ``profiles`` says otherwise; the caller calls
    ``runner.cleanup()`` to stop.  ``base_url``: the settings' ``web.base_url`` (link previews).  ``monitor`` (bot/web/monitor.py): ``/healthz`` and ``/metrics`` on the same
    listener, when the settings put them there."""
    app = Site(store, locale=locale, profiles=profiles, base_url=base_url, replay_cache=replay_cache).app()
    if monitor is not None:
        monitor.add_to(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("public pages on http://%s:%s/", host, port)
    return runner
