"""A transcript of a table as Discord lived it: every request of the bot and every action of a user on a
``FakeDiscord``, in order, rendered as Markdown, with the figures of the play experience
(benchmarks/discord_ux.py, docs/discord.md "Measured experience").

Attach a ``Transcript`` to a fake before the users act; it hooks into ``FakeDiscord.observers`` and sees:

- the bot's REST calls that write: a post, an edit or a deletion of a message (in a channel, a thread or a
  DM), a pin, a thread edited or opened, a DM channel opened.  These are the rate-limited API calls; reads
  (history, a channel, a message) are listed too, as ``read``;
- the answers to interactions (the callback, followups, edits of a response): not rate-limited;
- what users do: a click on a button, a choice in a select menu, a slash command, an autocomplete;
- pings: a new, non-ephemeral message notifies the users its content mentions as far as its
  ``allowed_mentions`` let through (an edit never notifies; an ephemeral message neither).

Figures (``figures``): API calls, clicks, pings, self-pings (a ping to the user whose own action was the
last one any user took), one-choice lists (a rendering of a control message offering exactly one choice),
and the widest line shown, in display columns (``bot.engine.board_text.display_width``: emoji and wide
characters 2) of the text as a Discord client shows it (``shown_lines``: mentions as @names, message links
as the channel's pill, timestamps as a relative time, markup and code fences removed, code kept).
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from bot.engine.board_text import display_width
from tests.discord.fake_discord import API, EPHEMERAL, FakeDiscord, FakeMessage, Interaction

#: bot requests that are rate-limited writes (the "API calls" of the figures)
WRITES = ("post", "edit", "delete", "pin", "thread_edit")
#: bot requests that answer an interaction: no rate limit (an interaction token allows them)
RESPONSES = ("response", "followup", "response_edit", "response_delete")
#: what users do
USER_ACTIONS = ("click", "select", "slash", "autocomplete")
#: a phone's width in columns (bot.engine.board_text.PHONE_WIDTH): lines wider are counted in ``wide_lines``
WIDE = 40

#: what a Discord client shows for a relative timestamp (<t:…:R>), and for the other styles
_RELATIVE, _ABSOLUTE = "через 5 минут", "1 января 2025 г. 12:00"
_CALLBACKS = {1: "pong", 4: "message", 5: "deferred (thinking…)", 6: "deferred update", 7: "updates the message",
              8: "autocomplete choices", 9: "modal"}
_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIMESTAMP = re.compile(r"<t:-?\d+(?::([tTdDfFR]))?>")
_MASKED = re.compile(r"\[([^\]\n]+)\]\(<?https?://[^)\s]+>?\)")
_LINK = re.compile(r"https://(?:\w+\.)?discord(?:app)?\.com/channels/(\d+|@me)/(\d+)(?:/(\d+))?")


@dataclass
class Entry:
    """One step of the transcript."""

    n: int
    kind: str                    # one of WRITES, RESPONSES, USER_ACTIONS, or dm_open, thread_create, read, setup
    actor: str                   # "bot", or the name of the user who acted
    where: str = ""              # "thread", "#games", "DM Alice"... ("" when not about a channel)
    channel_id: str | None = None
    message_id: str | None = None
    text: str | None = None      # the message's text as shown after this step (None: nothing shown)
    components: list[dict[str, Any]] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)  # user ids this step notified
    ephemeral: bool = False
    status: int = 200
    detail: str = ""             # what was clicked, the kind of a callback, a repeated nonce...
    user_id: str | None = None   # the user of a user action, or of the interaction a response answers
    created: bool = False        # this step made a new message (a post, a followup, an answer's message)
    at: float = field(default_factory=time.monotonic)

    @property
    def rate_limited(self) -> bool:
        return self.kind in WRITES

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Figures:
    """What users lived through over a stretch of a transcript."""

    api_calls: int = 0           # rate-limited writes: posts, edits, deletions, pins, thread edits (any channel)
    posts: int = 0               # new messages in the server (channel or thread)
    edits: int = 0               # edits of messages in the server
    dm_posts: int = 0            # DMs posted by the bot itself (rate-limited)
    new_dms: int = 0             # new messages in DMs however sent (posts, followups, answers; silent or not)
    dm_edits: int = 0
    other_writes: int = 0        # deletions, pins, thread edits
    dm_opens: int = 0            # DM channels opened (rate-limited too, not counted in api_calls)
    reads: int = 0               # GETs (rate-limited too, not counted in api_calls)
    responses: int = 0           # interaction answers (callbacks, followups, their edits): not rate-limited
    clicks: int = 0              # component interactions (buttons and select menus)
    commands: int = 0            # slash commands and autocompletes
    pings: int = 0               # notifications by mention in a new message
    self_pings: int = 0
    one_choice: int = 0          # renderings of a control message offering a single choice
    widest: int = 0              # display columns of the widest line shown
    widest_line: str = ""
    widest_at: int = 0           # the entry it was shown in
    widest_code: int = 0         # the same inside code blocks (which a phone does not rewrap as prose)
    widest_code_line: str = ""
    widest_prose: int = 0        # the same outside code blocks (prose, which a client wraps)
    widest_prose_line: str = ""
    wide_lines: int = 0          # distinct lines shown wider than WIDE columns
    failed: int = 0              # bot requests Discord refused


class Transcript:
    def __init__(self, fake: FakeDiscord):
        self.fake = fake
        self.entries: list[Entry] = []
        self._seen: set[str] = set()          # message ids the transcript saw created
        self._aliases: dict[str, str] = {}    # message id -> M1, M2... in order of appearance
        fake.observers.append(self._observe)

    def detach(self) -> None:
        if self._observe in self.fake.observers:
            self.fake.observers.remove(self._observe)

    def mark(self) -> int:
        """The position of the next entry (figures and Markdown can start there)."""
        return len(self.entries)

    # ------------------------------------------------------------------ recording
    def _observe(self, what: str, **data: Any) -> None:
        if what == "interaction":
            self._user_action(data["ix"], data["data"])
        elif what == "request":
            self._request(data["request"], data["body"], data["response"])

    def _add(self, kind: str, actor: str, **values: Any) -> Entry:
        entry = Entry(len(self.entries) + 1, kind, actor, **values)
        self.entries.append(entry)
        return entry

    def _where(self, channel_id: str | None) -> str:
        fake = self.fake
        if channel_id is None:
            return ""
        if channel_id in fake.dm_channels:
            user = fake.users.get(fake.dm_channels[channel_id])
            return f"DM {user.name if user else '?'}"
        channel = fake.channels.get(channel_id)
        if channel is None:
            return f"channel {channel_id}"
        return "thread" if channel.get("type") == 11 else f"#{channel.get('name')}"

    def alias(self, message_id: str | None) -> str:
        if message_id is None:
            return "?"
        if message_id not in self._aliases:
            self._aliases[message_id] = f"M{len(self._aliases) + 1}"
        return self._aliases[message_id]

    def _user_action(self, ix: Interaction, data: dict[str, Any]) -> None:
        user = ix.user
        message = ix.message
        if ix.kind == 3:
            cid = str(data.get("custom_id"))
            item = message.find(custom_id=cid) if message is not None else None
            if data.get("component_type") == 3:
                values = [str(v) for v in data.get("values") or []]
                labels = {o.get("value"): o.get("label") for o in (item or {}).get("options") or []}
                detail = f"«{(item or {}).get('placeholder') or cid}» → " + ", ".join(
                    f"«{labels.get(v, v)}»" for v in values)
                kind = "select"
            else:
                detail = f"«{(item or {}).get('label') or cid}»"
                kind = "click"
            self._add(kind, user.name, where=self._where(ix.channel_id), channel_id=ix.channel_id,
                      message_id=message.id if message is not None else None, detail=f"{detail} `{cid}`",
                      user_id=user.id)
        elif ix.kind in (2, 4):
            self._add("slash" if ix.kind == 2 else "autocomplete", user.name, where=self._where(ix.channel_id),
                      channel_id=ix.channel_id, detail="/" + _command_line(data), user_id=user.id)

    def _request(self, request: Any, body: bytes, response: Any) -> None:
        route = getattr(getattr(request.match_info, "route", None), "resource", None)
        template = (route.canonical if route is not None else request.path).removeprefix(API)
        info = request.match_info
        method, status = request.method, response.status
        answer = _json(getattr(response, "body", None))
        sent = _json(body)
        fake = self.fake
        if template == "/channels/{cid}/messages" and method == "POST":
            cid = info["cid"]
            mid = str(answer.get("id")) if isinstance(answer, dict) and answer.get("id") else None
            msg = fake.messages.get(mid) if mid else None
            repeat = mid in self._seen
            if mid:
                self._seen.add(mid)
            detail = "nonce already used: Discord answered with the earlier message" if repeat else ""
            self._add("post", "bot", status=status, detail=detail, created=bool(mid) and not repeat,
                      **self._shown(cid, msg, mid, pings=not repeat and msg is not None))
        elif template == "/channels/{cid}/messages/{mid}" and method == "PATCH":
            msg = fake.messages.get(info["mid"])
            self._add("edit", "bot", status=status, **self._shown(info["cid"], msg, info["mid"], pings=False))
        elif template == "/channels/{cid}/messages/{mid}" and method == "DELETE":
            self._add("delete", "bot", status=status, where=self._where(info["cid"]), channel_id=info["cid"],
                      message_id=info["mid"])
        elif template.startswith("/channels/{cid}/messages/pins/") or template.startswith("/channels/{cid}/pins/"):
            self._add("pin" if method == "PUT" else "unpin", "bot", status=status, where=self._where(info["cid"]),
                      channel_id=info["cid"], message_id=info.get("mid"))
        elif template == "/channels/{cid}" and method == "PATCH":
            self._add("thread_edit", "bot", status=status, where=self._where(info["cid"]), channel_id=info["cid"],
                      detail=json.dumps(sent, ensure_ascii=False, sort_keys=True))
        elif template in ("/channels/{cid}/messages/{mid}/threads", "/channels/{cid}/threads"):
            tid = str(answer.get("id")) if isinstance(answer, dict) and answer.get("id") else None
            self._add("thread_create", "bot", status=status, where=self._where(info["cid"]), channel_id=tid,
                      detail=(sent or {}).get("name", "") if isinstance(sent, dict) else "")
        elif template == "/users/@me/channels":
            cid = str(answer.get("id")) if isinstance(answer, dict) and answer.get("id") else None
            self._add("dm_open", "bot", status=status, where=self._where(cid), channel_id=cid)
        elif template == "/interactions/{iid}/{token}/callback":
            self._callback(info["iid"], sent if isinstance(sent, dict) else {}, status)
        elif template == "/webhooks/{app}/{token}" and method == "POST":
            ix = self._interaction(info["token"])
            mid = str(answer.get("id")) if isinstance(answer, dict) and answer.get("id") else None
            msg = fake.messages.get(mid) if mid else None
            created = mid is not None and mid not in self._seen
            if mid:
                self._seen.add(mid)
            shown = self._shown(msg.channel_id if msg else None, msg, mid, pings=created)
            self._add("followup", "bot", status=status, user_id=ix.user.id if ix else None, created=created,
                      detail="" if created else "fills the deferred answer", **shown)
        elif template == "/webhooks/{app}/{token}/messages/{mid}" and method in ("PATCH", "DELETE"):
            ix = self._interaction(info["token"])
            msg = ix.original if ix is not None and info["mid"] == "@original" else fake.messages.get(info["mid"])
            if method == "PATCH":
                shown = self._shown(msg.channel_id if msg else None, msg, msg.id if msg else None, pings=False)
                self._add("response_edit", "bot", status=status, user_id=ix.user.id if ix else None, **shown)
            else:
                self._add("response_delete", "bot", status=status, user_id=ix.user.id if ix else None,
                          message_id=msg.id if msg else None)
        elif method == "GET" and template.startswith(("/channels/", "/webhooks/")):
            cid = info.get("cid")
            self._add("read", "bot", status=status, where=self._where(cid), channel_id=cid,
                      message_id=info.get("mid"), detail=template)
        else:
            self._add("setup", "bot", status=status, detail=f"{method} {template}")

    def _interaction(self, token: str) -> Interaction | None:
        return next((ix for ix in self.fake.interactions.values() if ix.token == token), None)

    def _callback(self, iid: str, sent: dict[str, Any], status: int) -> None:
        ix = self.fake.interactions.get(iid)
        rtype = sent.get("type")
        detail = _CALLBACKS.get(rtype, f"type {rtype}")
        msg = None
        if ix is not None and rtype in (4, 5, 7):
            msg = ix.original if rtype in (4, 5) else ix.message
        created = rtype in (4, 5) and msg is not None and msg.id not in self._seen
        if msg is not None and rtype in (4, 5):
            self._seen.add(msg.id)
        shown = self._shown(msg.channel_id if msg else (ix.channel_id if ix else None), msg,
                            msg.id if msg else None, pings=rtype == 4 and created)
        if rtype == 5:
            shown["text"] = None  # "thinking…": nothing to read yet
        if rtype == 8:
            detail += f": {len((sent.get('data') or {}).get('choices') or [])}"
        self._add("response", "bot", status=status, user_id=ix.user.id if ix else None, detail=detail,
                  created=created, **shown)

    def _shown(self, channel_id: str | None, msg: FakeMessage | None, message_id: str | None, *,
               pings: bool) -> dict[str, Any]:
        values: dict[str, Any] = {"where": self._where(channel_id), "channel_id": channel_id,
                                  "message_id": message_id}
        if msg is not None:
            # the text read (content and embeds); components are listed apart (labels are not lines of text)
            text = "\n".join([msg.content, *(_embed_text(e) for e in msg.embeds)]).strip("\n")
            values.update(text=text, components=json.loads(json.dumps(msg.components)),
                          ephemeral=bool(msg.ephemeral_for or msg.flags & EPHEMERAL))
            if pings and not values["ephemeral"]:
                values["pings"] = list(dict.fromkeys(msg.pinged))
        return values

    # ------------------------------------------------------------------ reading
    def name(self, user_id: str) -> str:
        user = self.fake.users.get(user_id)
        return user.name if user is not None else user_id

    def figures(self, since: int = 0, until: int | None = None) -> Figures:
        f = Figures()
        last_actor: str | None = None
        wide: set[str] = set()
        for entry in self.entries[since:until]:
            if entry.kind in USER_ACTIONS:
                last_actor = entry.user_id
                if entry.kind in ("click", "select"):
                    f.clicks += 1
                else:
                    f.commands += 1
                continue
            if entry.actor == "bot" and not entry.ok and entry.kind != "setup":
                f.failed += 1
            dm = entry.where.startswith("DM ")
            if entry.kind in WRITES and entry.ok:
                f.api_calls += 1
                if entry.kind == "post":
                    f.posts += 0 if dm else 1
                    f.dm_posts += 1 if dm else 0
                elif entry.kind == "edit":
                    f.edits += 0 if dm else 1
                    f.dm_edits += 1 if dm else 0
                else:
                    f.other_writes += 1
            elif entry.kind == "dm_open":
                f.dm_opens += 1
            elif entry.kind == "read":
                f.reads += 1
            elif entry.kind in RESPONSES:
                f.responses += 1
            if entry.created and entry.ok and dm and not entry.ephemeral:
                f.new_dms += 1
            if entry.pings:
                f.pings += len(entry.pings)
                f.self_pings += sum(1 for user in entry.pings if user == last_actor)
            if entry.text is not None and entry.ok:
                if choice_count(entry.components) == 1:
                    f.one_choice += 1
                for line, code in shown_lines(entry.text, self.fake, code=True):
                    width = display_width(line)
                    if width > WIDE:
                        wide.add(line)
                    if width > f.widest:
                        f.widest, f.widest_line, f.widest_at = width, line, entry.n
                    if code and width > f.widest_code:
                        f.widest_code, f.widest_code_line = width, line
                    if not code and width > f.widest_prose:
                        f.widest_prose, f.widest_prose_line = width, line
        f.wide_lines = len(wide)
        return f

    def new_dms_by_user(self, since: int = 0) -> dict[str, int]:
        """User id -> new messages that appeared in their DMs from ``since`` on (``Figures.new_dms``)."""
        counts: dict[str, int] = {}
        for entry in self.entries[since:]:
            if entry.created and entry.ok and not entry.ephemeral and entry.channel_id in self.fake.dm_channels:
                user = self.fake.dm_channels[entry.channel_id]
                counts[user] = counts.get(user, 0) + 1
        return counts

    def one_choice(self, since: int = 0) -> list[Entry]:
        """The entries that showed a control message offering exactly one choice."""
        return [e for e in self.entries[since:] if e.ok and e.text is not None and choice_count(e.components) == 1]

    def self_pinged(self, since: int = 0) -> list[tuple[int, str]]:
        """(entry number, user id) of every self-ping from ``since`` on."""
        found, last_actor = [], None
        for entry in self.entries[since:]:
            if entry.kind in USER_ACTIONS:
                last_actor = entry.user_id
            found += [(entry.n, user) for user in entry.pings if user == last_actor]
        return found

    def markdown(self, title: str = "Transcript", since: int = 0, until: int | None = None) -> str:
        out = [f"# {title}", "",
               "One line per step, in order. 🤖 the bot (⏱ a rate-limited API call, ↩ an answer to an "
               "interaction, not rate-limited), 👤 a user; 🔔 who was notified. Texts are quoted as they "
               "were shown after the step; components follow in brackets.", ""]
        selves = {n for n, _ in self.self_pinged(since)}
        for entry in self.entries[since:until]:
            if entry.kind == "setup":
                continue
            notes = " **(self-ping)**" if entry.n in selves else ""
            if entry.ok and entry.text is not None and choice_count(entry.components) == 1:
                notes += " **(one choice)**"
            out.append(self._line(entry) + notes)
            if entry.text is not None and entry.ok:
                out += ["    > " + line if line else "    >" for line in entry.text.split("\n")]
            if entry.components and entry.ok and entry.kind not in USER_ACTIONS:
                out.append("    > " + render_components(entry.components))
        wide = self.wide_lines(since, until)
        if wide:
            out += ["", f"## Lines wider than {WIDE} columns", "",
                    "| columns | first shown in | line |", "|---|---|---|"]
            out += [f"| {width} | {n} | `{line.replace('|', '¦').replace('`', 'ˋ')}` |" for width, n, line in wide]
        return "\n".join(out) + "\n"

    def wide_lines(self, since: int = 0, until: int | None = None) -> list[tuple[int, int, str]]:
        """(columns, entry number, line) of every distinct line shown wider than WIDE, widest first."""
        found: dict[str, tuple[int, int]] = {}
        for entry in self.entries[since:until]:
            if entry.text is None or not entry.ok or entry.kind in USER_ACTIONS:
                continue
            for line in shown_lines(entry.text, self.fake):
                width = display_width(line)
                if width > WIDE and line not in found:
                    found[line] = (width, entry.n)
        return sorted(((w, n, line) for line, (w, n) in found.items()), key=lambda x: (-x[0], x[1]))

    def _line(self, e: Entry) -> str:
        status = "" if e.ok else f" — refused {e.status}"
        pings = f" — 🔔 {', '.join('@' + self.name(u) for u in e.pings)}" if e.pings else ""
        place = f" in {e.where}" if e.where else ""
        msg = f" {self.alias(e.message_id)}" if e.message_id else ""
        eph = " (ephemeral)" if e.ephemeral else ""
        if e.kind in USER_ACTIONS:
            verb = {"click": "clicks", "select": "chooses", "slash": "types", "autocomplete": "autocompletes"}[e.kind]
            on = f" on{msg}" if e.kind in ("click", "select") else ""
            return f"{e.n}. 👤 **{e.actor}** {verb} {e.detail}{on}{place}"
        if e.kind in RESPONSES:
            whom = f" to {self.name(e.user_id)}" if e.user_id else ""
            what = {"response": "answers", "followup": "follows up", "response_edit": "edits its answer",
                    "response_delete": "deletes its answer"}[e.kind]
            detail = f": {e.detail}" if e.detail else ""
            return f"{e.n}. 🤖↩ {what}{whom}{detail}{msg}{place}{eph}{status}{pings}"
        tick = "⏱ " if e.kind in WRITES else ""
        what = {"post": "posts", "edit": "edits", "delete": "deletes", "pin": "pins", "unpin": "unpins",
                "thread_edit": "edits the thread", "thread_create": "opens a thread", "dm_open": "opens a DM",
                "read": "reads"}.get(e.kind, e.kind)
        detail = f" ({e.detail})" if e.detail else ""
        return f"{e.n}. 🤖 {tick}{what}{msg}{place}{detail}{status}{pings}"


# ---------------------------------------------------------------------------------------------- helpers
def _json(raw: Any) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return None


def _embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title") or "", embed.get("description") or ""]
    parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
    parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


def _command_line(data: dict[str, Any]) -> str:
    words = [str(data.get("name"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    words += [f"{o['name']}:{o.get('value')}" for o in options]
    return " ".join(words)


def choice_count(components: Sequence[dict[str, Any]]) -> int | None:
    """How many choices a control message offers (None when it offers none, or pages a longer list)."""
    items = [c for row in components for c in row.get("components", [])]
    ids = [str(c.get("custom_id") or "") for c in items]
    if any(cid.startswith("j:page:") for cid in ids):
        return None
    count = sum(1 for cid in ids if cid.startswith("j:do:"))
    count += sum(len(c.get("options") or []) for c, cid in zip(items, ids) if cid.startswith("j:pick:"))
    return count or None


def render_components(components: Iterable[dict[str, Any]]) -> str:
    parts = []
    for row in components:
        for c in row.get("components", []):
            if c.get("type") == 2:
                label = c.get("label") or (c.get("emoji") or {}).get("name") or "?"
                parts.append(f"[~~{label}~~]" if c.get("disabled") else f"[{label}]")
            elif c.get("type") == 3:
                options = " | ".join(o.get("label") or "" for o in c.get("options") or [])
                parts.append(f"⟨{c.get('placeholder') or '…'}: {options}⟩")
    return " ".join(parts)


def shown_lines(text: str, fake: FakeDiscord | None = None, *, code: bool = False) -> list[Any]:
    """The lines of a message as a Discord client shows them: outside code blocks, mentions become
    @names, masked links [text](url) their text, channel mentions and bare message links the channel's pill
    (#name, "#name › 💬"), timestamps a date
    or a relative time, and markup (bold, italics by underscores, strike, spoilers, inline code, headings,
    small text) is not shown; code fences are not shown, code lines are kept as they are.  ``code``: (line,
    whether it is inside a code block) pairs."""
    lines: list[Any] = []
    in_code = False
    for raw in text.split("\n"):
        stripped = raw.strip()
        if stripped.startswith("```"):
            rest = stripped[3:]
            if not in_code and len(rest) > 3 and rest.endswith("```"):
                lines.append((rest[:-3], True))  # ```code``` on one line
            else:
                in_code = not in_code    # an opening fence (maybe with a language) or a closing one
            continue
        lines.append((raw, True) if in_code else (_shown_line(raw, fake), False))
    return lines if code else [line for line, _ in lines]


def _shown_line(line: str, fake: FakeDiscord | None) -> str:
    def user(m: re.Match[str]) -> str:
        found = fake.users.get(m.group(1)) if fake is not None else None
        return "@" + (found.name if found is not None else "user")

    def channel_name(cid: str) -> str:
        channel = fake.channels.get(cid) if fake is not None else None
        return str(channel.get("name")) if channel else "channel"

    line = _MENTION.sub(user, line)
    line = _CHANNEL.sub(lambda m: "#" + channel_name(m.group(1)), line)
    line = _TIMESTAMP.sub(lambda m: _RELATIVE if m.group(1) == "R" else _ABSOLUTE, line)
    line = _MASKED.sub(lambda m: m.group(1), line)  # [text](url): the text shows, as a link
    line = _LINK.sub(lambda m: f"#{channel_name(m.group(2))}" + (" › 💬" if m.group(3) else ""), line)
    line = re.sub(r"^(?:#{1,3}|-#) ", "", line)
    for mark in ("**", "__", "~~", "||", "`"):
        line = line.replace(mark, "")
    return line
