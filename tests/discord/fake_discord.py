"""A fake Discord (REST API v10 and the gateway) on 127.0.0.1, for driving the real discord.py client.

It keeps what each user would see (channel and thread messages, DMs, ephemeral replies), and it enforces
the platform limits a bot must respect (../shared/notes/discord-testing.md §4): message and embed sizes,
components (5 rows, 5 buttons or one select a row, 25 options, custom_id ≤ 100 characters, unique), the
3-second deadline for the first response to an interaction, double responses, followups before any
response, ephemeral flags outside interactions, closed DMs (403 / 50007), privileged intents, the shape of
synced commands, thread edits beyond archiving the bot's own threads (no Manage Threads).  Every breach is
answered the way Discord answers it *and* recorded in ``violations``, so a test fails even when the bot
swallows the HTTP error.

Files are uploaded as Discord takes them (multipart/form-data: ``payload_json`` and ``files[n]``, each listed
in the payload's ``attachments`` by its index), up to ``upload_limit`` bytes each (Discord: 10 MiB, else
413 Request entity too large); an edit that lists ``attachments`` leaves the message exactly those (the
previous ones it does not list are gone), an edit without them keeps what the message had.  ``uploads``
records every file taken.

Messages sent with ``enforce_nonce`` are deduplicated as Discord does: a nonce the bot used within
``nonce_window`` seconds returns the earlier message (404 Unknown Message if it was deleted since); past the
window it posts again.  A fetched message carries no nonce (Discord keeps none).  ``accept_slowly`` makes
Discord take a message but answer late, for stopping the bot in between.

Test code plays the users: ``slash``, ``click``, ``choose`` and ``autocomplete`` send INTERACTION_CREATE over
the gateway and return an ``Interaction`` whose ``answer()`` waits until the user sees a reply.
"""
from __future__ import annotations

import asyncio
import email
import email.policy
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from aiohttp import WSMsgType, web

API = "/api/v10"
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
#: seconds an interaction token allows followups and edits of its answers (Discord: 15 minutes)
TOKEN_LIFE = 15 * 60
#: bytes one uploaded file may have (Discord's limit for a bot in a server without boosts)
UPLOAD_LIMIT = 10 * 1024 * 1024
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
MANAGE_GUILD = 1 << 5
MANAGE_THREADS = 1 << 34
#: view channel, send messages, send in threads, create public threads, read history, embed links
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 35) | (1 << 16) | (1 << 14)
LOCALES = {"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
           "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
           "zh-TW", "ko"}
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
_TIMESTAMP = "2025-01-01T00:00:00+00:00"
_snowflakes = itertools.count(int((time.time() * 1000 - 1420070400000)) << 22)


def snowflake() -> str:
    return str(next(_snowflakes))


def json_response(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when the content type is exactly application/json (no charset)
    return web.Response(body=json.dumps(obj).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status)


# ---------------------------------------------------------------------------------------------- the world
@dataclass
class FakeUser:
    id: str
    name: str
    locale: str = "ru"
    permissions: int = MEMBER_PERMISSIONS
    roles: list[str] = field(default_factory=list)
    permissions_in: dict[str, int] = field(default_factory=dict)  # server id -> permissions there, if not the above

    def payload(self, bot: bool = False) -> dict[str, Any]:
        return {"id": self.id, "username": self.name.lower(), "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": bot, "public_flags": 0}

    def member(self, guild_id: str | None = None) -> dict[str, Any]:
        permissions = self.permissions_in.get(guild_id, self.permissions) if guild_id else self.permissions
        return {"user": self.payload(), "roles": list(self.roles), "joined_at": _TIMESTAMP, "deaf": False,
                "mute": False, "flags": 0, "nick": None, "permissions": str(permissions)}

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: str
    name: str

    def payload(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "permissions": "0", "position": 1, "color": 0, "hoist": False,
                "managed": False, "mentionable": True, "flags": 0}


@dataclass
class FakeMessage:
    id: str
    channel_id: str
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    author_id: str
    nonce: str | None = None
    ephemeral_for: str | None = None      # the only user who sees an ephemeral message
    interaction_id: str | None = None
    allowed_mentions: dict[str, Any] | None = None
    history: list[str] = field(default_factory=list)  # every text this message ever showed
    created: float = field(default_factory=time.monotonic)
    #: the files attached now: id, filename, size, description, content_type and the bytes (``data``)
    attachments: list[dict[str, Any]] = field(default_factory=list)

    def payload(self, author: dict[str, Any], guild_id: str | None, *, nonce: bool = False) -> dict[str, Any]:
        """The message as Discord shows it; ``nonce`` only in the answer to its creation (Discord does not
        keep a message's nonce: a message fetched later has none)."""
        data = {"id": self.id, "channel_id": self.channel_id, "author": author, "content": self.content,
                "timestamp": _TIMESTAMP, "edited_timestamp": None, "tts": False, "mention_everyone": False,
                "mentions": [], "mention_roles": [],
                "attachments": [{k: v for k, v in a.items() if k != "data"} for a in self.attachments],
                "embeds": self.embeds,
                "components": self.components, "pinned": False, "type": 0, "flags": self.flags}
        if nonce and self.nonce is not None:
            data["nonce"] = self.nonce
        if guild_id:
            data["guild_id"] = guild_id
        return data

    def items(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def find(self, label: str | None = None, custom_id: str | None = None,
             prefix: str | None = None) -> dict[str, Any] | None:
        for item in self.items():
            cid = item.get("custom_id") or ""
            if (label is not None and item.get("label") == label) or (custom_id is not None and cid == custom_id) \
                    or (prefix is not None and cid.startswith(prefix)):
                return item
        return None

    @property
    def text(self) -> str:
        return visible_text(self.content, self.embeds, self.components)

    dm_of: str | None = None              # the user whose DMs this message is in

    @property
    def pinged(self) -> list[str]:
        """The users this new message notifies: in the DMs, their owner; elsewhere those mentioned in the
        content and allowed by allowed_mentions.  A silent message (SUPPRESS_NOTIFICATIONS) notifies nobody."""
        if self.flags & SUPPRESS_NOTIFICATIONS:
            return []
        if self.dm_of is not None:
            return [self.dm_of]
        mentioned = re.findall(r"<@!?(\d+)>", self.content)
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        listed = {str(u) for u in allowed.get("users") or []}
        return [u for u in mentioned if u in listed]


def visible_text(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """Everything a reader sees in a message: content, embeds, button labels, select options."""
    parts = [content or ""]
    for e in embeds or []:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        parts += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
    for row in components or []:
        for c in row.get("components", []):
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            parts += [f"{o.get('label')} {o.get('description') or ''}" for o in c.get("options") or []]
    return "\n".join(p for p in parts if p)


#: how long a test waits for an interaction's answer: a ceiling, not a wait (an answer ends it).  5 s was overrun
#: once on CI's other Pythons, which run at a lower priority than the README's command (.ci/run): a deferred
#: /tournament start that imported and compiled networkx for its first Swiss pairing there
ANSWER_CEILING = 30.0


class Interaction:
    """One user action as Discord tracks it: the first response, the reply the user sees, followups."""

    def __init__(self, fake: "FakeDiscord", kind: int, user: FakeUser, channel_id: str,
                 message: FakeMessage | None):
        self.fake, self.kind, self.user, self.channel_id, self.message = fake, kind, user, channel_id, message
        self.id, self.token = snowflake(), "itok" + snowflake()
        self.created = time.monotonic()
        self.response_type: int | None = None
        self.original: FakeMessage | None = None
        self.loading = False
        self.replies: list[FakeMessage] = []
        self.shown: list[str] = []  # what the user saw, answer by answer (a message may be edited later)
        self.choices: list[dict[str, Any]] | None = None
        self.modal: dict[str, Any] | None = None   # a form the answer opened (response type 9)
        self.answered = asyncio.Event()

    async def answer(self, timeout: float = ANSWER_CEILING) -> FakeMessage | None:
        """Wait until the user sees an answer; returns the latest message shown to them (None for a
        deferred update answered by editing the clicked message)."""
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"interaction {self.id} got no answer in {timeout}s "
                                 f"(response type {self.response_type})") from None
        return self.replies[-1] if self.replies else None

    async def text(self, timeout: float = ANSWER_CEILING) -> str:
        """The text of the latest answer, as it was when the user got it."""
        await self.answer(timeout)
        return self.shown[-1] if self.shown else ""

    def _answered(self, message: FakeMessage | None) -> None:
        if message is not None:
            if not self.replies or self.replies[-1] is not message:
                self.replies.append(message)
            self.shown.append(message.text)
        self.answered.set()


# ---------------------------------------------------------------------------------------------- validation
def check_modal(data: dict[str, Any]) -> list[str]:
    """A form (modal): a title of 1-45 characters, a custom_id of at most 100, one to five rows of text inputs,
    each with a label of 1-45 characters and a custom_id."""
    problems = []
    if not 1 <= len(data.get("title") or "") <= 45:
        problems.append(f"form title of {len(data.get('title') or '')} characters (1-45)")
    if not 1 <= len(data.get("custom_id") or "") <= 100:
        problems.append("form custom_id must be 1-100 characters")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        problems.append(f"form with {len(rows)} rows (1-5)")
    for row in rows:
        for c in row.get("components") or [{}]:
            if row.get("type") != 1 or c.get("type") != 4 or not c.get("custom_id"):
                problems.append(f"form row {row!r} is not a row of a text input")
            elif not 1 <= len(c.get("label") or "") <= 45:
                problems.append(f"text input label of {len(c.get('label') or '')} characters (1-45)")
    return problems


def check_components(components: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(components) > 5:
        problems.append(f"{len(components)} action rows (max 5)")
    seen: set[str] = set()
    for row in components:
        if row.get("type") != 1:
            problems.append(f"top-level component of type {row.get('type')} (legacy messages need action rows)")
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            problems.append(f"action row with {len(children)} components (1-5)")
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) != 1:
            problems.append("a select menu must be alone in its row")
        for c in children:
            cid = c.get("custom_id")
            if c.get("type") == 2 and c.get("style") == 5:
                if not c.get("url") or cid:
                    problems.append("link button needs a url and no custom_id")
            elif not cid or len(cid) > 100:
                problems.append(f"custom_id {cid!r} must be 1-100 characters")
            if cid:
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    problems.append(f"button label over 80 characters: {c.get('label')!r}")
                if not c.get("label") and not c.get("emoji"):
                    problems.append("button without label or emoji")
            if c.get("type") == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"select with {len(options)} options (1-25)")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    problems.append("select option values must be unique")
                for o in options:
                    if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
                        problems.append(f"select option label/value must be 1-100 characters: {o!r}")
                    if len(o.get("description") or "") > 100:
                        problems.append("select option description over 100 characters")
                if len(c.get("placeholder") or "") > 150:
                    problems.append("select placeholder over 150 characters")
                if not 0 <= c.get("min_values", 1) <= c.get("max_values", 1) <= min(25, len(options) or 1):
                    problems.append("select min/max values out of range")
    return problems


def check_message(body: dict[str, Any], *, in_interaction: bool, creating: bool) -> list[str]:
    problems: list[str] = []
    content = body.get("content") or ""
    if len(content) > 2000:
        problems.append(f"content of {len(content)} characters (max 2000)")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        sizes = {"title": (e.get("title") or "", 256), "description": (e.get("description") or "", 4096),
                 "footer": ((e.get("footer") or {}).get("text") or "", 2048),
                 "author": ((e.get("author") or {}).get("name") or "", 256)}
        for name, (text, limit) in sizes.items():
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {name} of {len(text)} characters (max {limit})")
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embed with {len(fields)} fields (max 25)")
        for f in fields:
            total += len(f.get("name") or "") + len(f.get("value") or "")
            if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                problems.append("embed field over its limit (name 256, value 1024)")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    problems += check_components(body.get("components") or [])
    flags = body.get("flags") or 0
    if flags & EPHEMERAL and not in_interaction:
        problems.append("ephemeral flag on a message that is not an interaction response")
    if flags & (1 << 15):
        problems.append("components v2 are not expected from this bot")
    if creating and not content and not embeds and not body.get("components"):
        problems.append("empty message")
    return problems


def check_commands(commands: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []

    def check_name(where: str, name: str, localized: dict[str, str] | None) -> None:
        for loc, text in [("default", name), *(localized or {}).items()]:
            if loc != "default" and loc not in LOCALES:
                problems.append(f"{where}: unknown locale {loc!r}")
            if not _COMMAND_NAME.match(text) or text != text.lower():
                problems.append(f"{where}: bad name {text!r} ({loc})")

    def check_description(where: str, text: str, localized: dict[str, str] | None) -> None:
        for loc, value in [("default", text), *(localized or {}).items()]:
            if not 1 <= len(value or "") <= 100:
                problems.append(f"{where}: description must be 1-100 characters ({loc}): {value!r}")

    def check_options(where: str, options: list[dict[str, Any]]) -> None:
        if len(options) > 25:
            problems.append(f"{where}: {len(options)} options (max 25)")
        names: dict[str, set[str]] = {}
        optional_seen = False
        for o in options:
            w = f"{where} {o['name']}"
            check_name(w, o["name"], o.get("name_localizations"))
            check_description(w, o.get("description", ""), o.get("description_localizations"))
            for loc, text in [("default", o["name"]), *(o.get("name_localizations") or {}).items()]:
                if text in names.setdefault(loc, set()):
                    problems.append(f"{w}: duplicate option name {text!r} ({loc})")
                names[loc].add(text)
            if o["type"] in (1, 2):
                check_options(w, o.get("options") or [])
                continue
            if o.get("required"):
                if optional_seen:
                    problems.append(f"{w}: a required option after an optional one")
            else:
                optional_seen = True
            if len(o.get("choices") or []) > 25:
                problems.append(f"{w}: more than 25 choices")
            if o.get("choices") and o.get("autocomplete"):
                problems.append(f"{w}: choices and autocomplete together")

    names = set()
    for c in commands:
        if c.get("type", 1) != 1:
            continue
        if c["name"] in names:
            problems.append(f"duplicate command {c['name']}")
        names.add(c["name"])
        check_name(c["name"], c["name"], c.get("name_localizations"))
        check_description(c["name"], c.get("description", ""), c.get("description_localizations"))
        check_options(c["name"], c.get("options") or [])
        if len(json.dumps(c, ensure_ascii=False)) > 8000:
            problems.append(f"{c['name']}: over 8000 characters")
    if len(names) > 100:
        problems.append("more than 100 chat input commands")
    return problems


# ---------------------------------------------------------------------------------------------- the server
@dataclass
class Failure:
    method: str
    path: re.Pattern[str]
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    stall: float = 0.0  # seconds to hang before answering (0: answer with the error at once)


class FakeDiscord:
    def __init__(self, *, token: str = "fake-token-for-tests", deadline: float = 3.0):
        self.token = token
        self.deadline = deadline                    # seconds for the first response to an interaction
        self.app_id = snowflake()
        self.bot = FakeUser(self.app_id, "Judge")
        self.owner = FakeUser(snowflake(), "Owner")
        self.guild_id = snowflake()
        self.guilds = [self.guild_id]               # the bot's servers (add_server adds more)
        self.channel_id = snowflake()               # the #games text channel
        self.users: dict[str, FakeUser] = {}
        self.roles: dict[str, FakeRole] = {}
        self._managers: dict[str, str] = {}          # server id -> its Manage Server role (managers_role)
        self.channels: dict[str, dict[str, Any]] = {
            self.channel_id: {"id": self.channel_id, "type": 0, "name": "games", "guild_id": self.guild_id,
                              "position": 0, "permission_overwrites": [], "parent_id": None}}
        self.dm_channels: dict[str, str] = {}       # DM channel id -> user id
        self.dm_blocked: set[str] = set()
        self.expired_tokens: set[str] = set()
        self.removed: dict[str, FakeMessage] = {}  # deleted messages, for what was ever shown  # interaction tokens made to have outlived their 15 minutes
        self.dm_refusals: dict[str, int] = {}       # user id -> how many DMs Discord refused
        self.messages: dict[str, FakeMessage] = {}
        self.interactions: dict[str, Interaction] = {}
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.upload_limit = UPLOAD_LIMIT
        self.uploads: list[tuple[str, str, int]] = []  # (message id, filename, bytes) of every file taken
        self.thread_edits: list[tuple[str, dict[str, Any]]] = []  # (thread id, what the bot changed)
        #: called with every request the bot makes (after the answer) and every interaction a user sends:
        #: ``observer("request", request=, body=, response=)``, ``observer("interaction", ix=, data=)``
        #: (tests/discord/transcript.py); called synchronously, so they see the world as it was then
        self.observers: list[Callable[..., None]] = []
        self.failures: list[Failure] = []
        self.slow: list[Failure] = []               # requests answered only after a pause (see accept_slowly)
        #: seconds a nonce sent with enforce_nonce stays known (Discord: "the past few minutes"); 0: forgotten
        self.nonce_window = 180.0
        self.deleted_nonces: dict[str, float] = {}  # nonce of a deleted message -> when that message was made
        self.identify: dict[str, Any] | None = None
        self.connections = 0
        self.ws: web.WebSocketResponse | None = None
        self.ready = asyncio.Event()
        self._seq = 0
        self.app = web.Application(middlewares=[self._middleware])
        self._routes()

    # ------------------------------------------------------------------ set-up and lifecycle
    def add_user(self, name: str, *, locale: str = "ru", moderator: bool = False,
                 moderator_of: str | None = None) -> FakeUser:
        """A member of every server; ``moderator``: with Manage Server everywhere, ``moderator_of``: only in
        that server."""
        user = FakeUser(snowflake(), name, locale,
                        MEMBER_PERMISSIONS | (MANAGE_GUILD if moderator else 0))
        if moderator_of is not None:
            user.permissions_in[moderator_of] = MEMBER_PERMISSIONS | MANAGE_GUILD
        self.users[user.id] = user
        return user

    def add_server(self) -> tuple[str, str]:
        """Another server with the bot in it, and its own #games channel: (server id, channel id).  Add it before
        the bot connects (servers arrive at connection)."""
        guild_id, channel_id = snowflake(), snowflake()
        self.guilds.append(guild_id)
        self.channels[channel_id] = {"id": channel_id, "type": 0, "name": "games", "guild_id": guild_id,
                                     "position": 0, "permission_overwrites": [], "parent_id": None}
        return guild_id, channel_id

    def add_text_channel(self, name: str, guild_id: str | None = None) -> str:
        """Another text channel (before the bot connects: channels arrive with the server); returns its id."""
        cid = snowflake()
        self.channels[cid] = {"id": cid, "type": 0, "name": name, "guild_id": guild_id or self.guild_id,
                              "position": 2, "permission_overwrites": [], "parent_id": None}
        return cid

    def managers_role(self, guild_id: str) -> str:
        """The id of a server's role that carries Manage Server: how Discord tells a bot fetching a member (Get
        Guild Member has no ``permissions``) that the member has it.  Given to users with Manage Server there."""
        return self._managers.setdefault(guild_id, snowflake())

    def add_forum(self, name: str = "tables", tags: tuple[str, ...] = (), *, moderated: tuple[str, ...] = (),
                  guild_id: str | None = None) -> str:
        """A Forum channel (type 15) with these tags (``moderated``: tags only Manage Threads may apply); add
        it before the bot connects (channels arrive with the server).  Returns its id."""
        cid = snowflake()
        self.channels[cid] = {"id": cid, "type": 15, "name": name, "guild_id": guild_id or self.guild_id,
                              "position": 1, "permission_overwrites": [], "parent_id": None, "flags": 0,
                              "topic": None, "nsfw": False, "rate_limit_per_user": 0,
                              "default_auto_archive_duration": 1440, "default_reaction_emoji": None,
                              "default_thread_rate_limit_per_user": 0, "default_sort_order": None,
                              "default_forum_layout": 0, "last_message_id": None,
                              "available_tags": [{"id": snowflake(), "name": tag, "moderated": tag in moderated,
                                                  "emoji_id": None, "emoji_name": None}
                                                 for tag in (*tags, *moderated)]}
        return cid

    def tag_names(self, thread_id: str) -> list[str]:
        """The names of the tags a forum post carries now."""
        forum = self.channels[self.channels[thread_id]["parent_id"]]
        names = {tag["id"]: tag["name"] for tag in forum["available_tags"]}
        return [names[tid] for tid in self.channels[thread_id].get("applied_tags", [])]

    def add_role(self, name: str, *members: FakeUser) -> FakeRole:
        """A server role (add roles before the bot connects: they arrive with GUILD_CREATE)."""
        role = FakeRole(snowflake(), name)
        self.roles[role.id] = role
        for user in members:
            user.roles.append(role.id)
        return role

    def fail(self, method: str, path: str, status: int, *, code: int = 0, times: int = 1,
             body: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
             stall: float = 0.0) -> None:
        """Answer the next ``times`` requests matching ``method`` and the ``path`` regex with an error (after
        hanging ``stall`` seconds: a Discord that does not answer)."""
        self.failures.append(Failure(method, re.compile(path), status,
                                     body if body is not None else {"message": "injected failure", "code": code},
                                     headers or {}, times, stall))

    def accept_slowly(self, method: str, path: str, seconds: float, *, times: int = 1) -> None:
        """Do the next ``times`` requests matching ``method`` and the ``path`` regex at once (a message is
        posted), but answer only ``seconds`` later: a bot stopped meanwhile never learns that Discord took it."""
        self.slow.append(Failure(method, re.compile(path), 200, {}, {}, times, seconds))

    def remove_message(self, message_id: str) -> None:
        """A message is deleted (by the bot, or by a moderator in the tests)."""
        msg = self.messages.pop(message_id)
        self.removed[message_id] = msg
        if msg.nonce is not None:
            self.deleted_nonces[msg.nonce] = msg.created

    async def start(self) -> "FakeDiscord":
        self.runner = web.AppRunner(self.app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        await self.runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def violation(self, what: str) -> None:
        self.violations.append(what)

    # ------------------------------------------------------------------ routing
    def _routes(self) -> None:
        r = self.app.router
        r.add_get("/gateway", self.gateway)
        r.add_get(API + "/gateway/bot", self.gateway_bot)
        r.add_get(API + "/gateway", self.gateway_bot)
        r.add_get(API + "/users/@me", self.me)
        r.add_get(API + "/oauth2/applications/@me", self.application)
        r.add_put(API + "/applications/{app}/commands", self.sync_commands)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self.sync_commands)
        r.add_post(API + "/users/@me/channels", self.create_dm)
        r.add_get(API + "/guilds/{guild}/members/{uid}", self.get_member)
        r.add_get(API + "/channels/{cid}", self.get_channel)
        r.add_patch(API + "/channels/{cid}", self.edit_channel)
        r.add_post(API + "/channels/{cid}/messages", self.create_message)
        r.add_get(API + "/channels/{cid}/messages", self.channel_history)
        r.add_get(API + "/channels/{cid}/messages/{mid}", self.get_message)
        r.add_patch(API + "/channels/{cid}/messages/{mid}", self.edit_message)
        r.add_delete(API + "/channels/{cid}/messages/{mid}", self.delete_message)
        r.add_put(API + "/channels/{cid}/messages/pins/{mid}", self.pin_message)
        r.add_post(API + "/channels/{cid}/messages/{mid}/threads", self.thread_from_message)
        r.add_post(API + "/channels/{cid}/threads", self.thread_without_message)
        r.add_post(API + "/interactions/{iid}/{token}/callback", self.interaction_callback)
        r.add_post(API + "/webhooks/{app}/{token}", self.followup)
        r.add_get(API + "/webhooks/{app}/{token}/messages/{mid}", self.get_webhook_message)
        r.add_patch(API + "/webhooks/{app}/{token}/messages/{mid}", self.edit_webhook_message)
        r.add_delete(API + "/webhooks/{app}/{token}/messages/{mid}", self.delete_webhook_message)
        r.add_route("*", "/{tail:.*}", self.unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        if not self.observers:
            return await self._answer(request, handler)
        body = await request.read()  # read before the handler: aiohttp keeps it for the handler's own read
        observed = False

        def observe(response: web.StreamResponse) -> None:
            nonlocal observed
            if not observed:
                observed = True
                for observer in list(self.observers):
                    observer("request", request=request, body=body, response=response)

        response = await self._answer(request, handler, observe)
        observe(response)
        return response

    async def _answer(self, request: web.Request, handler: Callable,
                      done: Callable[[web.StreamResponse], None] | None = None) -> web.StreamResponse:
        for failure in self.failures:
            if failure.times > 0 and failure.method == request.method and failure.path.search(request.path):
                failure.times -= 1
                if failure.stall:
                    await asyncio.sleep(failure.stall)  # the client gives up first, or gets the error late
                return json_response(failure.body, failure.status, failure.headers)
        if request.path.startswith(API) and not request.path.startswith(API + "/webhooks/") \
                and "/callback" not in request.path:
            if request.headers.get("Authorization") != f"Bot {self.token}":
                return error(401, 0, "401: Unauthorized")
        for slow in self.slow:
            if slow.times > 0 and slow.method == request.method and slow.path.search(request.path):
                slow.times -= 1
                response = await handler(request)
                if done is not None:
                    done(response)  # observed when Discord did it, not when the bot hears of it
                await asyncio.sleep(slow.stall)
                return response
        return await handler(request)

    async def unknown(self, request: web.Request) -> web.Response:
        self.violation(f"unhandled route {request.method} {request.path}")
        return error(404, 0, "404: Not Found")

    # ------------------------------------------------------------------ login
    async def me(self, request: web.Request) -> web.Response:
        return json_response(self.bot.payload(bot=True))

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def application(self, request: web.Request) -> web.Response:
        return json_response({"id": self.app_id, "name": "Judge", "description": "", "icon": None,
                              "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.payload(),
                              "verify_key": "00", "flags": 0})

    async def sync_commands(self, request: web.Request) -> web.Response:
        body = await request.json()
        problems = check_commands(body)
        if problems:
            self.violations += [f"command sync: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        synced = [dict(c, id=snowflake(), application_id=self.app_id, version="1") for c in body]
        if "guild" in request.match_info:
            self.guild_commands = synced
        else:
            self.commands = synced
        return json_response(synced)

    # ------------------------------------------------------------------ channels, threads, messages
    def _channel_payload(self, cid: str) -> dict[str, Any]:
        return json.loads(json.dumps(self.channels[cid]))  # a copy: the caller may not change the world

    def guild_of(self, cid: str) -> str | None:
        return self.channels[cid].get("guild_id") if cid in self.channels else None

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, tuple[str, bytes]]]:
        """The JSON body of a request and its files (by index): a request with files is multipart, its JSON in
        the ``payload_json`` field."""
        if not request.content_type.startswith("multipart/"):
            return await request.json(), {}
        body: dict[str, Any] = {}
        files: dict[int, tuple[str, bytes]] = {}
        # parsed from the whole body, which aiohttp keeps once read (an observer may have read it first, and a
        # streaming reader would then find nothing)
        raw = await request.read()
        form = email.message_from_bytes(b"Content-Type: " + request.headers["Content-Type"].encode() + b"\r\n\r\n"
                                        + raw, policy=email.policy.HTTP)
        for part in form.iter_parts():
            name = part.get_param("name", header="content-disposition")
            index = re.fullmatch(r"files\[(\d+)\]", name or "")
            if name == "payload_json":
                body = json.loads(part.get_payload(decode=True))
            elif index:
                files[int(index.group(1))] = (part.get_filename() or "", part.get_payload(decode=True))
            else:
                self.violation(f"unexpected form field {name!r}")
        return body, files

    def _attach(self, msg: FakeMessage | None, body: dict[str, Any], files: dict[int, tuple[str, bytes]],
                where: str) -> list[dict[str, Any]] | web.Response:
        """The attachments a message has after this request (``msg`` None: a new message), or Discord's refusal."""
        for name, data in files.values():
            if len(data) > self.upload_limit:
                self.violation(f"{where}: file {name} of {len(data)} bytes over the upload limit")
                return error(413, 40005, "Request entity too large")
        current = list(msg.attachments) if msg is not None else []
        listed = body.get("attachments")
        if listed is None:  # nothing said: the message keeps its files and gets the new ones
            return current + [self._new_attachment(files[i], {}) for i in sorted(files)]
        kept, used = [], set()
        for entry in listed:
            if isinstance(entry.get("id"), int):
                if entry["id"] not in files:
                    self.violation(f"{where}: attachment {entry['id']} names no uploaded file")
                    return error(400, 50035, "Invalid Form Body")
                used.add(entry["id"])
                kept.append(self._new_attachment(files[entry["id"]], entry))
            else:
                old = next((a for a in current if a["id"] == str(entry.get("id"))), None)
                if old is None:
                    self.violation(f"{where}: attachment {entry.get('id')} is not the message's")
                    return error(400, 50035, "Invalid Form Body")
                kept.append(old)
        if set(files) - used:
            self.violation(f"{where}: files uploaded but not listed in attachments")
        return kept

    @staticmethod
    def _new_attachment(file: tuple[str, bytes], entry: dict[str, Any]) -> dict[str, Any]:
        name, data = file
        aid = snowflake()
        url = f"https://cdn.discordapp.test/attachments/{aid}/{name}"
        return {"id": aid, "filename": name, "size": len(data), "url": url, "proxy_url": url,
                "content_type": {"png": "image/png", "webp": "image/webp"}.get(name.rsplit(".", 1)[-1],
                                                                             "application/octet-stream"),
                "description": entry.get("description"), "data": data}

    def _took(self, msg: FakeMessage, attachments: list[dict[str, Any]]) -> None:
        new = [a for a in attachments if a not in msg.attachments]
        msg.attachments = attachments
        self.uploads += [(msg.id, a["filename"], a["size"]) for a in new]

    def _store(self, cid: str, body: dict[str, Any], *, author: str | None = None, ephemeral_for: str | None = None,
               interaction_id: str | None = None) -> FakeMessage:
        msg = FakeMessage(snowflake(), cid, body.get("content") or "", body.get("embeds") or [],
                          body.get("components") or [], (body.get("flags") or 0), author or self.app_id,
                          nonce=body.get("nonce"), ephemeral_for=ephemeral_for, interaction_id=interaction_id,
                          allowed_mentions=body.get("allowed_mentions"), dm_of=self.dm_channels.get(cid))
        msg.history.append(msg.text)
        self.messages[msg.id] = msg
        return msg

    def _edit(self, msg: FakeMessage, body: dict[str, Any]) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        msg.history.append(msg.text)

    def _json(self, msg: FakeMessage, *, nonce: bool = False) -> dict[str, Any]:
        author = self.bot.payload(bot=True) if msg.author_id == self.app_id else self.users[msg.author_id].payload()
        return msg.payload(author, self.guild_of(msg.channel_id), nonce=nonce)

    async def get_channel(self, request: web.Request) -> web.Response:
        cid = request.match_info["cid"]
        if cid in self.channels:
            return json_response(self._channel_payload(cid))
        if cid in self.dm_channels:
            return json_response(self._dm_payload(cid))
        return error(404, 10003, "Unknown Channel")

    def _dm_payload(self, cid: str) -> dict[str, Any]:
        return {"id": cid, "type": 1, "recipients": [self.users[self.dm_channels[cid]].payload()],
                "last_message_id": None}

    async def create_dm(self, request: web.Request) -> web.Response:
        uid = str((await request.json())["recipient_id"])
        if uid not in self.users:
            return error(400, 50033, "Invalid Recipient(s)")
        for cid, owner in self.dm_channels.items():
            if owner == uid:
                return json_response(self._dm_payload(cid))
        cid = snowflake()
        self.dm_channels[cid] = uid
        return json_response(self._dm_payload(cid))

    async def create_message(self, request: web.Request) -> web.Response:
        cid = request.match_info["cid"]
        body, files = await self._body(request)
        if cid in self.dm_channels:
            uid = self.dm_channels[cid]
            if uid in self.dm_blocked:
                self.dm_refusals[uid] = self.dm_refusals.get(uid, 0) + 1
                return error(403, 50007, "Cannot send messages to this user")
        elif cid not in self.channels:
            return error(404, 10003, "Unknown Channel")
        problems = check_message(body, in_interaction=False, creating=True)
        if problems:
            self.violations += [f"message to {cid}: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        if body.get("enforce_nonce") and body.get("nonce"):
            # Discord: a nonce the same author used in the past few minutes returns that message and creates
            # nothing (so, here, changes nothing: an archived thread stays archived); if that message was
            # deleted since, 404 Unknown Message
            nonce, now = str(body["nonce"]), time.monotonic()
            for msg in self.messages.values():
                if msg.nonce == nonce and msg.author_id == self.app_id and now - msg.created <= self.nonce_window:
                    return json_response(self._json(msg, nonce=True))
            if now - self.deleted_nonces.get(nonce, -1e9) <= self.nonce_window:
                return error(404, 10008, "Unknown Message")
        meta = self.channels[cid].get("thread_metadata") if cid in self.channels else None
        if meta and meta["archived"]:
            if meta["locked"]:
                self.violation(f"message to the locked, archived thread {cid}")
                return error(400, 50083, "Thread is archived")
            await self._set_thread(cid, archived=False)  # Discord: a post reopens an archived thread
        attachments = self._attach(None, body, files, f"message to {cid}")
        if isinstance(attachments, web.Response):
            return attachments
        msg = self._store(cid, body)
        self._took(msg, attachments)
        return json_response(self._json(msg, nonce=True))

    async def channel_history(self, request: web.Request) -> web.Response:
        """GET a channel's messages: ``limit`` (1-100, default 50) of those ``after`` or ``before`` an id, or
        the newest; newest first, as Discord answers.  Needs Read Message History (the invite asks for it)."""
        cid = request.match_info["cid"]
        if cid not in self.channels and cid not in self.dm_channels:
            return error(404, 10003, "Unknown Channel")
        query = request.query
        try:
            limit = int(query.get("limit", 50))
            after, before = int(query.get("after", 0)), int(query.get("before", 1 << 64))
        except ValueError:
            return error(400, 50035, "Invalid Form Body")
        if not 1 <= limit <= 100 or "around" in query:
            self.violation(f"message history asked with {dict(query)}")
            return error(400, 50035, "Invalid Form Body")
        found = sorted((m for m in self.messages.values()
                        if m.channel_id == cid and not m.ephemeral_for and after < int(m.id) < before),
                       key=lambda m: int(m.id))
        found = found[:limit] if "after" in query else found[-limit:]
        return json_response([self._json(m) for m in reversed(found)])

    async def get_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(request.match_info["mid"])
        if msg is None or msg.channel_id != request.match_info["cid"] or msg.ephemeral_for:
            return error(404, 10008, "Unknown Message")
        return json_response(self._json(msg))

    async def edit_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(request.match_info["mid"])
        if msg is None or msg.channel_id != request.match_info["cid"] or msg.ephemeral_for:
            return error(404, 10008, "Unknown Message")
        body, files = await self._body(request)
        problems = check_message(body, in_interaction=False, creating=False)
        if msg.author_id != self.app_id:
            problems.append("editing another user's message")
        if (self.channels.get(msg.channel_id, {}).get("thread_metadata") or {}).get("archived"):
            problems.append("editing a message in an archived thread (Discord: 50083, unarchive first)")
        if problems:
            self.violations += [f"edit of {msg.id}: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        attachments = self._attach(msg, body, files, f"edit of {msg.id}")
        if isinstance(attachments, web.Response):
            return attachments
        self._edit(msg, body)
        self._took(msg, attachments)
        return json_response(self._json(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(request.match_info["mid"])
        if msg is None or msg.channel_id != request.match_info["cid"] or msg.ephemeral_for:
            return error(404, 10008, "Unknown Message")
        if msg.author_id != self.app_id:
            self.violation("deleting another user's message without Manage Messages")
        self.remove_message(msg.id)
        return web.Response(status=204)

    async def pin_message(self, request: web.Request) -> web.Response:
        """Pinning needs Pin Messages, which the fake grants the bot nowhere (as the invite asks for none)."""
        self.violation(f"pin of {request.match_info['mid']} without Pin Messages")
        return error(403, 50013, "Missing Permissions")

    async def _set_thread(self, tid: str, **metadata: Any) -> None:
        self.channels[tid]["thread_metadata"].update(metadata)
        await self.dispatch("THREAD_UPDATE", self._channel_payload(tid))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Only what this bot may do to a channel: archive a thread it started.  Locking, or editing a thread
        someone else started, needs Manage Threads, which the bot's invite does not grant (docs/discord.md)."""
        cid = request.match_info["cid"]
        body = await request.json()
        channel = self.channels.get(cid)
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        meta = channel.get("thread_metadata")
        if meta is None:
            self.violation(f"edit of the channel {cid}, which is not a thread")
            return error(403, 50013, "Missing Permissions")
        in_forum = self.channels.get(channel.get("parent_id"), {}).get("type") == 15
        editable = {"archived", "applied_tags"} if in_forum else {"archived"}  # a post's owner may retag it
        if set(body) - editable or channel["owner_id"] != self.app_id:
            self.violation(f"thread {cid} edited with {sorted(body)}: needs Manage Threads")
            return error(403, 50013, "Missing Permissions")
        if meta["archived"] and body.get("archived") is not False:
            self.violation(f"edit of the archived thread {cid}")
            return error(400, 50083, "Thread is archived")
        if "applied_tags" in body:
            problem = self._tag_problem(channel["parent_id"], body["applied_tags"])
            if problem:
                self.violation(f"thread {cid}: {problem}")
                return error(400, 50035, "Invalid Form Body")
            channel["applied_tags"] = [str(tag) for tag in body["applied_tags"]]
        if "archived" in body:
            await self._set_thread(cid, archived=bool(body["archived"]))
        self.thread_edits.append((cid, dict(body)))
        return json_response(self._channel_payload(cid))

    def _new_thread(self, tid: str, parent: str, name: str) -> dict[str, Any]:
        thread = {"id": tid, "type": 11, "name": name, "guild_id": self.guild_of(parent), "parent_id": parent,
                  "owner_id": self.app_id, "member_count": 1, "message_count": 0,
                  "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                      "archive_timestamp": _TIMESTAMP, "locked": False}}
        self.channels[tid] = thread
        return thread

    async def _create_thread(self, request: web.Request, tid: str) -> web.Response:
        parent = request.match_info["cid"]
        body = await request.json()
        if self.channels.get(parent, {}).get("type") != 0:
            self.violation(f"thread in a channel of type {self.channels.get(parent, {}).get('type')}")
            return error(400, 50024, "Cannot execute action on this channel type")
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            self.violation(f"thread name of {len(name)} characters (1-100)")
            return error(400, 50035, "Invalid Form Body")
        if body.get("auto_archive_duration", 1440) not in (60, 1440, 4320, 10080):
            self.violation("bad auto_archive_duration")
            return error(400, 50035, "Invalid Form Body")
        thread = self._new_thread(tid, parent, name)
        await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return json_response(thread, 201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        mid = request.match_info["mid"]
        if mid in self.channels:
            return error(400, 160004, "A thread has already been created for this message")
        if mid not in self.messages:
            return error(404, 10008, "Unknown Message")
        return await self._create_thread(request, mid)  # such a thread has the message's id

    async def thread_without_message(self, request: web.Request) -> web.Response:
        if self.channels.get(request.match_info["cid"], {}).get("type") == 15:
            return await self._forum_post(request)
        return await self._create_thread(request, snowflake())

    def _tag_problem(self, forum_id: str, tags: list[Any]) -> str | None:
        forum = self.channels[forum_id]
        known = {tag["id"]: tag for tag in forum["available_tags"]}
        if len(tags) > 5:
            return "more than 5 applied tags"
        if any(str(tag) not in known for tag in tags):
            return "a tag the forum does not have"
        if any(known[str(tag)]["moderated"] for tag in tags):
            return "a moderated tag applied without Manage Threads"
        return None

    async def _forum_post(self, request: web.Request) -> web.Response:
        """A post in a Forum channel: a thread whose starter message (in the thread, with the thread's id) is
        sent with it; tags from the forum's own, at most five, moderated ones only with Manage Threads."""
        parent = request.match_info["cid"]
        body, files = await self._body(request)
        name, message = body.get("name") or "", body.get("message")
        problems = [] if 1 <= len(name) <= 100 else [f"forum post name of {len(name)} characters"]
        if not isinstance(message, dict):
            problems.append("forum post without its message")
        else:
            problems += check_message(message, in_interaction=False, creating=True)
        problems += [p for p in [self._tag_problem(parent, body.get("applied_tags") or [])] if p]
        if problems:
            self.violations += [f"forum post in {parent}: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        tid = snowflake()
        thread = self._new_thread(tid, parent, name)
        thread["applied_tags"] = [str(tag) for tag in body.get("applied_tags") or []]
        attachments = self._attach(None, message, files, f"forum post in {parent}")
        if isinstance(attachments, web.Response):
            return attachments
        msg = self._store(tid, message)
        del self.messages[msg.id]
        msg.id = tid  # a forum post's starter message has the post's id
        self.messages[tid] = msg
        self._took(msg, attachments)
        await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return json_response({**thread, "message": self._json(msg)}, 201)

    # ------------------------------------------------------------------ interactions
    async def interaction_callback(self, request: web.Request) -> web.Response:
        ix = self.interactions.get(request.match_info["iid"])
        if ix is None or ix.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        body, files = await self._body(request)
        rtype, data = body.get("type"), body.get("data") or {}
        late = time.monotonic() - ix.created
        if ix.response_type is not None:
            self.violation(f"second response to interaction {ix.id} (type {rtype} after {ix.response_type})")
            return error(400, 40060, "Interaction has already been acknowledged.")
        if late > self.deadline:
            self.violation(f"interaction {ix.id} answered after {late:.2f}s (limit {self.deadline}s)")
            return error(404, 10062, "Unknown interaction")
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[ix.kind]
        if rtype not in allowed:
            self.violation(f"response type {rtype} to an interaction of type {ix.kind}")
            return error(400, 50035, "Invalid Form Body")
        if rtype == 5 and set(data) - {"flags"}:
            self.violation(f"deferred response with data {sorted(data)} (only flags are allowed)")
        if rtype in (4, 7):
            problems = check_message(data, in_interaction=True, creating=rtype == 4)
            if problems:
                self.violations += [f"interaction {ix.id} response: {p}" for p in problems]
                return error(400, 50035, "Invalid Form Body")
        if rtype == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                self.violation(f"autocomplete with {len(choices)} choices (max 25)")
                return error(400, 50035, "Invalid Form Body")
            for c in choices:
                if not 1 <= len(c.get("name") or "") <= 100 or len(str(c.get("value"))) > 100:
                    self.violation(f"autocomplete choice out of limits: {c!r}")
        attachments = self._attach(ix.message if rtype == 7 else None, data, files, f"interaction {ix.id} response")
        if isinstance(attachments, web.Response):
            return attachments
        ix.response_type = rtype
        result: dict[str, Any] = {"interaction": {"id": ix.id, "type": ix.kind,
                                                  "response_message_loading": rtype == 5,
                                                  "response_message_ephemeral": bool((data.get("flags") or 0)
                                                                                     & EPHEMERAL)}}
        if rtype in (4, 5):
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            ix.original = self._store(ix.channel_id, data if rtype == 4 else {"flags": data.get("flags") or 0},
                                      ephemeral_for=ix.user.id if ephemeral else None, interaction_id=ix.id)
            self._took(ix.original, attachments)
            ix.loading = rtype == 5
            result["interaction"]["response_message_id"] = ix.original.id
            result["resource"] = {"type": rtype, "message": self._json(ix.original)}
            if rtype == 4:
                ix._answered(ix.original)
        elif rtype in (6, 7):
            ix.original = ix.message
            if rtype == 7:
                self._edit(ix.message, data)
                self._took(ix.message, attachments)
                result["resource"] = {"type": 7, "message": self._json(ix.message)}
                ix._answered(ix.message)
        elif rtype == 8:
            ix.choices = data.get("choices") or []
            ix._answered(None)
        elif rtype == 9:
            problems = check_modal(data)
            if problems:
                self.violations += [f"interaction {ix.id} form: {p}" for p in problems]
                return error(400, 50035, "Invalid Form Body")
            ix.modal = data
            ix._answered(None)
        return json_response(result)

    def _webhook_interaction(self, request: web.Request) -> Interaction | None:
        """The interaction whose token the request uses, while that token lives (after 15 minutes Discord
        answers 401 Invalid Webhook Token: see ``expired``)."""
        if request.match_info["app"] != self.app_id:
            return None
        for ix in self.interactions.values():
            if ix.token == request.match_info["token"]:
                return None if self.expired(ix) else ix
        return None

    def expire_tokens(self) -> None:
        """Every interaction token so far as if 15 minutes had passed."""
        self.expired_tokens |= {ix.token for ix in self.interactions.values()}

    def expired(self, ix: Interaction) -> bool:
        return time.monotonic() - ix.created > TOKEN_LIFE or ix.token in self.expired_tokens

    async def followup(self, request: web.Request) -> web.Response:
        ix = self._webhook_interaction(request)
        if ix is None:
            return error(404, 10015, "Unknown Webhook")
        if ix.response_type is None:
            self.violation(f"followup before any response to interaction {ix.id}")
            return error(404, 10015, "Unknown Webhook")
        body, files = await self._body(request)
        problems = check_message(body, in_interaction=True, creating=True)
        if problems:
            self.violations += [f"followup to {ix.id}: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        filling = ix.loading and ix.original is not None
        attachments = self._attach(ix.original if filling else None, body, files, f"followup to {ix.id}")
        if isinstance(attachments, web.Response):
            return attachments
        if filling:
            # Discord: the first followup after a deferred response edits the "thinking" message
            ix.loading = False
            self._edit(ix.original, body)
            self._took(ix.original, attachments)
            ix._answered(ix.original)
            return json_response(self._json(ix.original))
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        msg = self._store(ix.channel_id, body, ephemeral_for=ix.user.id if ephemeral else None,
                          interaction_id=ix.id)
        self._took(msg, attachments)
        ix._answered(msg)
        return json_response(self._json(msg))

    def _webhook_message(self, ix: Interaction, mid: str) -> FakeMessage | None:
        if mid == "@original":
            return ix.original
        msg = self.messages.get(mid)
        return msg if msg is not None and msg.interaction_id == ix.id else None

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        ix = self._webhook_interaction(request)
        msg = self._webhook_message(ix, request.match_info["mid"]) if ix else None
        if msg is None:
            return error(404, 10008, "Unknown Message")
        return json_response(self._json(msg))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        ix = self._webhook_interaction(request)
        if ix is None:
            return error(404, 10015, "Unknown Webhook")
        msg = self._webhook_message(ix, request.match_info["mid"])
        if ix.response_type is None or msg is None:
            self.violation(f"edit of a response that does not exist (interaction {ix.id})")
            return error(404, 10008, "Unknown Message")
        body, files = await self._body(request)
        problems = check_message(body, in_interaction=True, creating=False)
        if problems:
            self.violations += [f"edit of response {msg.id}: {p}" for p in problems]
            return error(400, 50035, "Invalid Form Body")
        attachments = self._attach(msg, body, files, f"edit of response {msg.id}")
        if isinstance(attachments, web.Response):
            return attachments
        self._edit(msg, body)
        self._took(msg, attachments)
        if msg is ix.original:
            ix.loading = False
        ix._answered(msg)
        return json_response(self._json(msg))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        ix = self._webhook_interaction(request)
        msg = self._webhook_message(ix, request.match_info["mid"]) if ix else None
        if msg is None:
            return error(404, 10008, "Unknown Message")
        self.remove_message(msg.id)
        return web.Response(status=204)

    # ------------------------------------------------------------------ gateway
    async def send(self, op: int, d: Any = None, t: str | None = None) -> None:
        s = None
        if op == 0:
            self._seq += 1
            s = self._seq
        await self.ws.send_str(json.dumps({"op": op, "d": d, "s": s, "t": t}))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.send(0, data, event)

    async def get_member(self, request: web.Request) -> web.Response:
        """Get Guild Member (not a privileged endpoint): the member's roles, Manage Server as a role of it."""
        guild_id, uid = request.match_info["guild"], request.match_info["uid"]
        user = self.users.get(uid)
        if guild_id not in self.guilds or user is None:
            return json_response({"message": "Unknown Member", "code": 10007}, 404)
        member = user.member(guild_id)
        del member["permissions"]
        if int(user.permissions_in.get(guild_id, user.permissions)) & MANAGE_GUILD:
            member["roles"].append(self.managers_role(guild_id))
        return json_response(member)

    def guild_payload(self, guild_id: str | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        everyone = {"id": guild_id, "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        members = [{"user": self.bot.payload(bot=True), "roles": [], "joined_at": _TIMESTAMP, "deaf": False,
                    "mute": False, "flags": 0}]
        mine = [c for c in self.channels.values() if c.get("guild_id") == guild_id]
        channels = [c for c in mine if c["type"] != 11]
        threads = [c for c in mine if c["type"] == 11]
        return {"id": guild_id, "name": "Test Server", "icon": None, "owner_id": self.owner.id,
                "roles": [everyone, *(r.payload() for r in self.roles.values()),
                          {**FakeRole(self.managers_role(guild_id), "Managers").payload(),
                           "permissions": str(MANAGE_GUILD), "mentionable": False}],
                "emojis": [], "stickers": [],
                "features": [], "member_count": 1 + len(self.users),
                "members": members, "channels": channels, "threads": threads, "voice_states": [], "presences": [],
                "large": False, "unavailable": False, "joined_at": _TIMESTAMP, "verification_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
                "premium_tier": 0, "nsfw_level": 0, "preferred_locale": "ru", "system_channel_flags": 0,
                "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": []}

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        self.connections += 1
        self.ready.clear()
        await self.send(10, {"heartbeat_interval": 45000})
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            packet = json.loads(frame.data)
            if packet["op"] == 1:
                await self.send(11)
            elif packet["op"] == 2:
                self.identify = packet["d"]
                if packet["d"].get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                if packet["d"].get("intents", 0) & PRIVILEGED_INTENTS:
                    self.violation(f"privileged intents requested: {packet['d']['intents']}")
                    await ws.close(code=4014, message=b"Disallowed intent(s).")
                    break
                await self.dispatch("READY", {
                    "v": 10, "user": self.bot.payload(bot=True),
                    "guilds": [{"id": g, "unavailable": True} for g in self.guilds],
                    "session_id": "session" + snowflake(), "resume_gateway_url": self.gateway_url,
                    "application": {"id": self.app_id, "flags": 0}, "shard": [0, 1]})
                for guild_id in self.guilds:
                    await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id))
                self.ready.set()
        if self.ws is ws:
            self.ws = None
        return ws

    # ------------------------------------------------------------------ playing the users
    def _context(self, user: FakeUser, channel_id: str) -> dict[str, Any]:
        base = {"application_id": self.app_id, "version": 1, "locale": user.locale, "entitlements": [],
                "attachment_size_limit": 8 * 1024 * 1024, "app_permissions": str(MEMBER_PERMISSIONS)}
        if channel_id in self.dm_channels:
            return {**base, "channel_id": channel_id, "channel": self._dm_payload(channel_id), "user": user.payload(),
                    "context": 1, "authorizing_integration_owners": {"0": self.guild_id}}
        guild_id = self.guild_of(channel_id) or self.guild_id
        return {**base, "guild_id": guild_id, "guild_locale": "ru", "channel_id": channel_id,
                "channel": self._channel_payload(channel_id), "member": user.member(guild_id), "context": 0,
                "authorizing_integration_owners": {"0": guild_id}}

    async def _send_interaction(self, kind: int, user: FakeUser, channel_id: str, data: dict[str, Any],
                                message: FakeMessage | None = None) -> Interaction:
        ix = Interaction(self, kind, user, channel_id, message)
        self.interactions[ix.id] = ix
        payload = {"id": ix.id, "token": ix.token, "type": kind, "data": data, **self._context(user, channel_id)}
        if message is not None:
            payload["message"] = self._json(message)
        for observer in list(self.observers):
            observer("interaction", ix=ix, data=data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return ix

    def _command(self, path: str) -> dict[str, Any]:
        head = path.split()[0]
        for c in self.guild_commands or self.commands:
            if c["name"] == head:
                return c
        raise AssertionError(f"no synced command {head!r}")

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None = None) -> dict[str, Any]:
        command = self._command(path)
        names = path.split()
        node, options = command, None
        chain: list[dict[str, Any]] = []
        for name in names[1:]:
            node = next(o for o in node.get("options") or [] if o["name"] == name)
            chain.append(node)
        leaf = []
        for key, value in values.items():
            spec = next((o for o in node.get("options") or [] if o["name"] == key), None)
            assert spec is not None, f"/{path} has no option {key!r}"
            entry = {"name": key, "type": spec["type"],
                     "value": value.id if isinstance(value, (FakeUser, FakeRole)) else value}
            if key == focused:
                entry["focused"] = True
            leaf.append(entry)
        options = leaf
        for sub in reversed(chain):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
        users = [v for v in values.values() if isinstance(v, FakeUser)]
        roles = [v for v in values.values() if isinstance(v, FakeRole)]
        channels = [e["value"] for e in leaf if e["type"] == 7 and e["value"] in self.channels]
        if users or roles or channels:
            # a channel option arrives as a partial channel with the member's permissions in it (as Discord does)
            data["resolved"] = {"users": {u.id: u.payload() for u in users},
                                "members": {u.id: {k: v for k, v in u.member().items() if k != "user"} for u in users},
                                "roles": {r.id: r.payload() for r in roles},
                                "channels": {c: {**{k: self.channels[c].get(k) for k in ("id", "type", "name",
                                                                                        "parent_id")},
                                                 "permissions": str(MEMBER_PERMISSIONS)} for c in channels}}
        return data

    async def slash(self, user: FakeUser, path: str, channel_id: str | None = None, **values: Any) -> Interaction:
        """``/path`` (e.g. "game new") with option values, typed by ``user`` in a channel or thread."""
        return await self._send_interaction(2, user, channel_id or self.channel_id, self._command_data(path, values))

    async def autocomplete(self, user: FakeUser, path: str, focused: str, channel_id: str | None = None,
                           **values: Any) -> list[dict[str, Any]]:
        ix = await self._send_interaction(4, user, channel_id or self.channel_id,
                                          self._command_data(path, values, focused))
        await ix.answer()
        return ix.choices or []

    async def click(self, user: FakeUser, message: FakeMessage, *, label: str | None = None,
                    custom_id: str | None = None, prefix: str | None = None,
                    channel_id: str | None = None) -> Interaction:
        """``user`` clicks a button of ``message``; ``channel_id`` crafts the click as coming from another
        channel (of another server, say) than the message's, which Discord itself never does."""
        item = message.find(label=label, custom_id=custom_id, prefix=prefix)
        assert item is not None and item["type"] == 2, f"no button {label or custom_id or prefix} on {message.text!r}"
        assert not item.get("disabled"), "the button is disabled"
        self._check_visible(user, message)
        return await self._send_interaction(3, user, channel_id or message.channel_id,
                                            {"custom_id": item["custom_id"], "component_type": 2}, message)

    async def craft_command(self, user: FakeUser, data: Any, *, autocomplete: bool = False,
                            channel_id: str | None = None) -> Interaction:
        """A slash command (or its autocomplete) with any data at all, as a client that is not Discord's
        could send it."""
        return await self._send_interaction(4 if autocomplete else 2, user, channel_id or self.channel_id, data)

    async def craft_click(self, user: FakeUser, channel_id: str, data: dict[str, Any],
                          message: FakeMessage | None = None) -> Interaction:
        """A component interaction with any data at all (custom_id, component_type, values), as a client
        that is not Discord's could send it."""
        return await self._send_interaction(3, user, channel_id, data, message)

    async def choose(self, user: FakeUser, message: FakeMessage, values: list[str], *,
                     custom_id: str | None = None, prefix: str | None = None, channel_id: str | None = None,
                     crafted: bool = False) -> Interaction:
        """``user`` picks ``values`` in a select menu of ``message`` (``crafted``: values it does not offer)."""
        item = message.find(custom_id=custom_id, prefix=prefix)
        assert item is not None and item["type"] == 3, f"no select {custom_id or prefix} on {message.text!r}"
        offered = {o["value"] for o in item["options"]}
        assert crafted or set(values) <= offered, f"{values} not among the options"
        self._check_visible(user, message)
        return await self._send_interaction(3, user, channel_id or message.channel_id, {
            "custom_id": item["custom_id"], "component_type": 3, "values": values}, message)

    async def submit(self, user: FakeUser, opened: Interaction, values: dict[str, str], *,
                     custom_id: str | None = None) -> Interaction:
        """``user`` fills in and sends the form ``opened`` answered with (text input custom_id → value), from
        the message whose button opened it; ``custom_id`` forges the form's own id."""
        assert opened.modal is not None, "no form was opened"
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
                for key, value in values.items()]
        return await self._send_interaction(5, user, opened.channel_id,
                                            {"custom_id": custom_id or opened.modal["custom_id"], "components": rows},
                                            opened.message)

    def crafted_message(self, channel_id: str, custom_ids: list[str], *, component_type: int = 2) -> FakeMessage:
        """A message of the bot's carrying buttons (or one select per id) with any custom_ids at all, for clicks
        a client that is not Discord's could send.  Not validated: such ids are what is being tested."""
        if component_type == 2:
            rows = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "·", "custom_id": cid}]}
                    for cid in custom_ids]
        else:
            rows = [{"type": 1, "components": [{"type": 3, "custom_id": cid,
                                                "options": [{"label": "·", "value": "0"}]}]} for cid in custom_ids]
        return self._store(channel_id, {"content": "crafted", "components": rows})

    def _check_visible(self, user: FakeUser, message: FakeMessage) -> None:
        assert message.ephemeral_for in (None, user.id), "a user can only click ephemeral messages shown to them"

    # ------------------------------------------------------------------ what users see
    def in_channel(self, channel_id: str) -> list[FakeMessage]:
        """Messages everyone in the channel or thread sees (not ephemeral)."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.ephemeral_for]

    def dm_channel(self, user: FakeUser) -> str | None:
        return next((cid for cid, uid in self.dm_channels.items() if uid == user.id), None)

    def open_dm(self, user: FakeUser) -> str:
        """The DM channel with ``user`` (opened now if need be, as the bot's first DM would)."""
        cid = self.dm_channel(user)
        if cid is None:
            cid = snowflake()
            self.dm_channels[cid] = user.id
        return cid

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        cid = self.dm_channel(user)
        return [m for m in self.messages.values() if m.channel_id == cid] if cid else []

    def dm_history(self, user: FakeUser) -> list[FakeMessage]:
        """Every message the user's DMs ever held, deleted ones included (what the user may have read)."""
        cid = self.dm_channel(user)
        return [m for m in (*self.messages.values(), *self.removed.values()) if m.channel_id == cid] if cid else []

    def public_texts(self) -> list[tuple[FakeMessage, str]]:
        """Every text ever shown publicly in the server (edits and deleted messages included), for leak scans."""
        return [(m, text) for m in (*self.messages.values(), *self.removed.values())
                if m.channel_id in self.channels and not m.ephemeral_for for text in m.history]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]


async def until(predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition") -> Any:
    """Wait for observable state instead of sleeping; returns the predicate's first truthy value."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
