"""Running the real bot against the fake Discord, and playing its users, for the end-to-end tests."""
from __future__ import annotations

import asyncio
import copy
import logging
import random
from pathlib import Path
from typing import Any, Awaitable, Callable

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord.client import JudgeBot
from bot.process.config import Settings
from bot.referee.service import Referee
from bot.storage.store import Store, TableRow
from bot.referee.upgrade import open_store
from bot.referee.visibility import pending_messages
from tests.discord.fake_discord import FakeDiscord, FakeMessage, FakeUser, Interaction
from tests.support.tables import Clock


class ErrorLog(logging.Handler):
    """Collects ERROR records from discord.py and from the bot: exceptions in views and event handlers are
    logged, not raised, so a test must look here to notice them."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("discord", "judge")):
            self.records.append(record)

    def report(self) -> str:
        return "\n".join(f"{r.name}: {r.getMessage()}\n{self.format(r) if r.exc_info else ''}" for r in self.records)


STARTUP_TIMEOUT = 30.0


async def eventually(check: Callable[[], Awaitable[Any]], timeout: float = 5.0, what: str = "condition") -> Any:
    """Like ``until`` for checks that must await (the database)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class Harness:
    def __init__(self, fake: FakeDiscord, db: Path, *, clock: Clock | None = None, locale: str = "ru"):
        self.fake = fake
        self.db = db
        self.clock = clock or Clock()
        self.settings = Settings(database=db, locale=locale, token=fake.token)
        self.bot: JudgeBot | None = None
        self._pings_seen: dict[int, int] = {}
        self.store: Store | None = None
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ the bot process
    async def start_bot(self, **options: Any) -> JudgeBot:
        self.store = await open_store(self.db)  # as the bot's run() opens it: open tables brought forward
        referee = Referee(self.store, clock=self.clock)
        self.bot = JudgeBot(self.settings, self.store, referee=referee, guild_ready_timeout=0.05,
                            delivery_idle=0.2, tick_seconds=0.02,
                            **{"delivery_settle": 0.0, **options})
        self._task = asyncio.create_task(self.bot.start(self.settings.token))
        # polled, not awaited: since Python 3.12 wait_for no longer wraps wait_until_ready() in a task of its
        # own, so awaiting it before start() has set the client up fails with "not properly initialised"
        bot = self.bot

        async def ready() -> bool:
            if self._task.done():  # the bot stopped before it was ready: show why, not a time-out
                self._task.result()
                raise AssertionError("the bot stopped before it was ready")
            return bot.is_ready()

        # a ceiling, not a wait: the first start on a worker imports the cogs, slow on a loaded CI machine
        await eventually(ready, timeout=STARTUP_TIMEOUT, what="the bot to be ready")
        await asyncio.wait_for(self.fake.ready.wait(), STARTUP_TIMEOUT)
        return self.bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            await asyncio.gather(self._task, return_exceptions=True)
            await self.store.close()
        self.bot = self.store = self._task = None

    async def restart(self) -> JudgeBot:
        await self.stop_bot()
        return await self.start_bot()

    async def unrecord(self, outbox_id: int) -> None:
        """As if the bot died after Discord took this message but before the outbox recorded it as sent."""
        await self.store.conn.execute("UPDATE outbox SET status = 'pending', attempts = 0 WHERE id = ?",
                                      (outbox_id,))
        await self.store.conn.commit()

    # ------------------------------------------------------------------ waiting for the bot
    async def settled(self, timeout: float = STARTUP_TIMEOUT) -> None:
        """Until bot players have moved and the outbox is empty (everything committed was delivered).  A ceiling,
        not a wait: a whole game's outbox (its pictures drawn at a phone's scale) on a loaded worker overran 5 s."""
        async def quiet() -> bool:
            await self.bot.wait_for_bots()
            return not await pending_messages(self.store, limit=1)
        await eventually(quiet, timeout, "the outbox to drain")

    async def table(self, table_id: int) -> TableRow:
        return await self.store.get_table(table_id)

    # ------------------------------------------------------------------ playing the users
    async def new_table(self, user: FakeUser, game: str, **values: Any) -> TableRow:
        before = {t.id for t in await self.store.find_tables()}
        ix = await self.fake.slash(user, "game new", game=game, **values)
        reply = await ix.text()
        tables = [t for t in await self.store.find_tables() if t.id not in before]
        assert len(tables) == 1, f"no table was created: {reply}"
        return tables[0]

    def lobby(self, table: TableRow) -> FakeMessage:
        return self.fake.messages[table.thread_id]

    async def join(self, user: FakeUser, table: TableRow) -> Interaction:
        ix = await self.fake.click(user, self.lobby(table), prefix="j:join:")
        await ix.answer()
        return ix

    async def start(self, user: FakeUser, table: TableRow) -> Interaction:
        ix = await self.fake.click(user, self.lobby(table), prefix="j:start:")
        await ix.answer()
        await self.settled()
        return ix

    def new_pings(self, table: TableRow) -> list[str]:
        """The users notified about the table since the last call: by new posts in its thread (mentions) and
        by new messages of the table in the players' DMs (a DM notifies its owner unless silent).  Edits never
        notify."""
        seen = self._pings_seen.get(table.id, 0)
        fresh = sorted((m for m in (*self.fake.messages.values(), *self.fake.removed.values())
                        if int(m.id) > seen and not m.ephemeral_for
                        and (m.channel_id == table.thread_id
                             or (m.dm_of is not None and f"/{table.thread_id}" in m.history[0]))),
                       key=lambda m: int(m.id))
        if fresh:
            self._pings_seen[table.id] = int(fresh[-1].id)
        return [uid for m in fresh for uid in m.pinged]

    def turn_message(self, table: TableRow) -> FakeMessage | None:
        """The latest message in the table's thread that carries the Act button."""
        for msg in reversed(self.fake.in_channel(table.thread_id)):
            if msg.find(prefix="j:act:"):
                return msg
        return None

    async def open_choices(self, user: FakeUser, table: TableRow, message: FakeMessage | None = None) -> FakeMessage:
        """Click Act as ``user``; returns the private message with their choices (or a refusal)."""
        message = message or self.turn_message(table)
        ix = await self.fake.click(user, message, prefix="j:act:")
        return await ix.answer()

    async def pick(self, user: FakeUser, choices: FakeMessage, index: int, *, confirm: bool = True) -> Interaction:
        """Choose the ``index``-th choice (0-based, in the engine's legal list) from a control message: its
        button, or its entry in one of the menus (paging a flat list if the decision was too large for
        menus).  A final action's confirmation is clicked too unless ``confirm`` is False."""
        while True:
            target = choice_component(choices, index)
            if target is not None:
                break
            select = choices.find(prefix="j:pick:")
            values = [int(o["value"]) for o in select["options"]]
            direction = "next" if index > values[-1] else "prev"
            pages = [c for c in choices.items() if c["custom_id"].startswith("j:page:")]
            current = int(select["custom_id"].rsplit(":", 1)[1])
            page = next(c for c in pages
                        if (int(c["custom_id"].rsplit(":", 1)[1]) > current) == (direction == "next"))
            turn = await self.fake.click(user, choices, custom_id=page["custom_id"])
            await turn.answer()
        if target["type"] == 2:
            ix = await self.fake.click(user, choices, custom_id=target["custom_id"])
        else:
            ix = await self.fake.choose(user, choices, [str(index)], custom_id=target["custom_id"])
        await ix.answer()
        if confirm and choices.find(prefix="j:ok:") is not None:
            ix = await self.fake.click(user, choices, prefix="j:ok:")
            await ix.answer()
        return ix

    async def act(self, user: FakeUser, table: TableRow, choose: Callable[[int], int] | None = None) -> str:
        """Act → pick a choice (``choose`` gets how many there are; default the first) → wait until the bot
        delivered what followed.  Returns the confirmation the player saw."""
        choices = await self.open_choices(user, table)
        assert choice_labels(choices), f"no choices offered: {choices.text}"
        legal = await self.bot.referee.legal(table.id, f"discord:{user.id}")
        index = choose(len(legal[2])) if choose else 0
        await self.pick(user, choices, index)
        await self.settled()
        return choices.content


def as_seen_now(message: FakeMessage) -> FakeMessage:
    """A copy of ``message`` as a user's client shows it now: a click on it later is a click by someone whose
    client has not yet shown a later edit (the bot drops the buttons of superseded turn messages)."""
    return copy.deepcopy(message)


def choice_component(message: FakeMessage, index: int) -> dict[str, Any] | None:
    """The button or menu of a control message that offers the ``index``-th choice."""
    for item in message.items():
        cid = item.get("custom_id") or ""
        if cid.startswith("j:do:") and int(cid.rsplit(":", 1)[1]) == index:
            return item
        if cid.startswith("j:pick:") and str(index) in {o["value"] for o in item["options"]}:
            return item
    return None


def choice_labels(message: FakeMessage) -> list[str]:
    """The labels of every choice a control message offers, in the engine's order (a flat list that pages
    shows its current page only)."""
    found: dict[int, str] = {}
    for item in message.items():
        cid = item.get("custom_id") or ""
        if cid.startswith("j:do:"):
            found[int(cid.rsplit(":", 1)[1])] = item["label"]
        elif cid.startswith("j:pick:"):
            found.update({int(o["value"]): o["label"] for o in item["options"]})
    return [found[i] for i in sorted(found)]


def redirect_discord(monkeypatch: Any, fake: FakeDiscord) -> None:
    monkeypatch.setattr(Route, "BASE", fake.base_url)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))


def random_choice(seed: str) -> Callable[[int], int]:
    rng = random.Random(seed)
    return rng.randrange


async def private_lines(h: Harness, table: TableRow, locale: str = "ru") -> list[tuple[list[int], str]]:
    """Every event of the table that is not public, as the text a player would read: (its seats, line)."""
    from bot.discord.render import display_names
    from bot.engine import get_game

    game = get_game(table.game)
    names = display_names(await h.store.seats(table.id))
    lines = []
    for event in await h.store.events(table.id):
        if event.to is not None:
            line = game.render_event(event.as_event(), locale, names)
            if line:
                lines.append((event.to, line))
    return lines


async def assert_private_stays_private(h: Harness, table: TableRow, users: list[FakeUser | None]) -> int:
    """No private event's text is in any channel message (edits included) or in another player's DMs, and
    each reached its own players' DMs unless they are closed.  ``users`` by seat, None for a bot seat.
    Returns how many lines were checked."""
    public = [text for _, text in h.fake.public_texts()]
    lines = await private_lines(h, table)
    # the same words may reach two seats by two private events (the leader sees every role, another seat learns
    # one by a Blood Test): a line is someone else's only for a seat that no event with those words was for
    entitled: dict[str, set[int]] = {}
    for seats, line in lines:
        entitled.setdefault(line, set()).update(seats)
    for seats, line in lines:
        assert not any(line in text for text in public), f"private text in a channel: {line}"
        for seat, user in enumerate(users):
            if user is None:
                continue
            dms = "\n".join(text for m in h.fake.dm_history(user) for text in m.history)
            if seat in seats and user.id not in h.fake.dm_blocked:
                assert line in dms, f"seat {seat} did not get: {line}"
            elif seat not in entitled[line]:
                assert line not in dms, f"seat {seat} got someone else's: {line}"
    return len(lines)
