"""The play experience on Discord, measured: full games played by people through the buttons of the fake
Discord (tests/discord/fake_discord.py), with every seat a user of the fake whose decisions come from the
game's own bot logic, and the real bot (discord.py 2.7.1) refereeing.  No network; figures go into
docs/discord.md ("Measured experience").

    .venv/bin/python benchmarks/discord_ux.py [--games N] [--out DIR] [--settle 0.3,0] [--game NAME]
                                               [--closed-dms K] [--no-auto-forced] [--option GAME:NAME=VALUE]
                                               [--tournament GAME:PLAYERS | --tournament ''] [--stale-tokens]

How a seat plays: ``Game.bot_action`` picks the action; the player finds it in their control message in
their DMs (or, with closed DMs, in the private copy "My move" under the live table message opens, which
stays on their screen and is redrawn after each click, so that a player acting again clicks there) and
clicks the component that carries that choice's index (a button, or the option of a select menu, paging
if need be); a confirmation is clicked too.  Then everyone waits until the bot delivered everything (the
outbox is empty), as people would read before clicking.

Per game (``decision``: an action a person applied by clicking; moves the referee takes by itself, like
Clay God's forced roll, are not decisions, but what they cost is counted):

- API calls / decision: the bot's rate-limited writes (posts, edits, DM posts and edits, pins, deletions,
  thread edits); answers to interactions are not rate-limited and not counted;
- clicks / decision: every component interaction (choices, menus, pages, confirmations, "My move");
- pings / decision: notifications: a new message that mentions someone, or a new message in someone's DMs
  (unless sent silently); self-pings: pings of the user whose own click was the last thing any user did;
- new DMs / decision: new messages in the players' DMs however sent (posts, followups; silent or not); and,
  per player, the new DMs beyond their own turns (decisions passing to them from another player, a window in
  between not counting), the windows they played in (answered with other than a pass) and one per table;
- deadlines under an hour: decisions whose engine deadline was closer than an hour when they were asked;
- one-choice lists: control messages (DM, ephemeral or redrawn) offering exactly one choice;
- widest line: display columns (emoji and wide characters 2) of the widest line shown anywhere, code
  blocks included (tests/discord/transcript.py ``shown_lines``); the widest prose line: outside code blocks.

With ``--stale-tokens`` the games are played at correspondence pace, hours between decisions: before each
decision every interaction token given so far is expired (Discord's fifteen minutes have long passed), so the
bot reaches a player only through the click that player is making now (its answer, and the token's followups
and edits in the minutes after it) or through ordinary, rate-limited calls.  The mode adds, per game
(docs/discord.md, issue 35):

- pings to the seat a window is about: of the out-of-turn windows opened (a reaction asked that was not
  asked before), those whose ``about`` seat (``Pending.about``, the target of the card, the owner of the
  attacked property) got a new DM that notifies them before the next decision; a window that names no
  ``about`` seat is counted apart (``unnamed``), with how many of them pinged anyone who owes the window;
- decisions without a deadline: decisions whose seat was shown no deadline (the engine's, or the table's
  clock, as ``with_deadlines`` shows it) when asked, at a correspondence table;
- turn pings whose first line is not "your move": new DMs that notify a player owing a turn (not a window)
  whose first line does not begin with "▶ " and the locale's "your move" (``YOUR_MOVE``);
- players not told the end: players who got no new DM after the move that ended the game;
- KB uploaded / decision: the pictures' bytes (``FakeDiscord.uploads``), and the largest one.

After the games, a one-round Swiss tournament (``--tournament``, default four players of Gwent) is played the
same way, from ``/tournament start`` on.  The run ends with one summary line per game (docs/discord.md).

Counting starts with the click on "Start" (the lobby is not counted; that click itself is not counted
among the clicks either, but a ping right after it is a self-ping).  ``--settle`` is the delivery
worker's wait after a commit (production: 1.0 s), a comma-separated list of values to measure.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yarl  # noqa: E402
from discord.gateway import DiscordWebSocket  # noqa: E402
from discord.http import Route  # noqa: E402

from bot.engine import get_game  # noqa: E402
from bot.referee.timecontrol import with_deadlines  # noqa: E402
from bot.storage.clocks import Clocks  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from tests.discord.harness import ErrorLog, Harness, choice_component  # noqa: E402
from tests.discord.transcript import Figures, Transcript  # noqa: E402

GAMES = (("claygod", 2), ("gwent", 2), ("bloodwood", 6), ("raiders", 3), ("bridges", 2))
NAMES = ("Alice", "Bob", "Carol", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee")
TARGETS = {"api": 1.2, "clicks": 1.1, "self_pings": 0, "one_choice": 0, "widest": 40}
#: clicks on one decision before the driver gives up on it (a stale list is redrawn and clicked again)
RETRIES = 4
#: the answers to an out-of-turn window that let it pass (the engines' action types)
PASSES = ("pass", "allow")
#: a deadline closer than this is one a player away from the table would miss
SHORT_DEADLINE = 3600
#: how a turn ping's first line begins, per locale (issue 35: the news first)
YOUR_MOVE = ("▶ Ваш ход", "▶ Ваш хід", "▶ Your move")
#: issue 35's ceilings with expired tokens: rate-limited calls and kilobytes uploaded per decision
STALE_TARGETS = {"api": 2.0, "kb": 15.0}


@dataclass
class Run:
    game: str
    seats: int
    seed: str
    settle: float
    auto_forced: bool
    closed: int
    figures: Figures = field(default_factory=Figures)
    decisions: int = 0          # actions applied by a person's click (the driver's count)
    recorded: int = 0           # the same, read from the record (actions by Discord users)
    forced: int = 0             # actions the referee took for a seat (user "auto")
    stale: int = 0              # clicks that applied nothing (the list was out of date, or refused)
    fallbacks: int = 0          # decisions not found on the DM control message, taken through "My move"
    one_choice_owed: int = 0    # one-choice lists for a decision the seat owed (a forced move shown)
    one_choice_reactions: int = 0  # the same for a reaction (kept on purpose: see classify_one_choice)
    one_choice_examples: list[str] = field(default_factory=list)
    reactions: int = 0          # decisions that answered an out-of-turn window (Pending kind "reaction")
    reaction_passes: int = 0    # of them, a pass (Raiders' "pass", Bloodwood's "allow")
    short_deadlines: int = 0    # decisions whose deadline was under an hour away when they were asked
    turns: dict[str, int] = field(default_factory=dict)    # per user: decisions passing to them from another
    played: dict[str, int] = field(default_factory=dict)   # per user: windows they played in (not a pass)
    tables: dict[str, int] = field(default_factory=dict)   # per user: tables they sat at
    new_dms: dict[str, int] = field(default_factory=dict)  # per user: new messages in their DMs
    stale_tokens: bool = False  # every earlier token expired before each decision (correspondence pace)
    correspondence: bool = False   # the table's pace
    has_clock: bool = False        # the table has a per-decision clock (time control)
    windows: int = 0            # windows opened (a reaction asked that was not asked the decision before)
    windows_named: int = 0      # of them, windows naming the seat they are about (Pending.about)
    windows_pinged: int = 0     # of those, windows whose ``about`` seat got a notifying DM
    unnamed_pinged: int = 0     # windows naming nobody in which some seat owing the window got a notifying DM
    no_deadline: int = 0        # decisions shown without any deadline when asked
    turn_pings: int = 0         # notifying DMs to a player who owes a turn (not a window)
    turn_pings_bad: int = 0     # of them, those whose first line is not "▶ your move"
    bad_ping_example: str = ""
    untold_end: int = 0         # players without a new DM after the game's end
    uploaded: int = 0           # bytes of files uploaded since the start
    largest_upload: int = 0
    uploads: dict[str, list[int]] = field(default_factory=dict)  # picture kind ("table", "hand") -> [files, bytes]
    finished: bool = False
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    transcript: str = ""


# ---------------------------------------------------------------------------------------------- a player
class Driver:
    def __init__(self, h: Harness, fake: FakeDiscord, run: Run, table_id: int, users: dict[int, FakeUser],
                 transcript: Transcript | None = None):
        self.h, self.fake, self.run, self.table_id, self.users = h, fake, run, table_id, users
        self.transcript = transcript  # for the stale-tokens figures (what each decision's delivery sent)
        self.private: dict[str, FakeMessage] = {}  # each player's latest "My move" answer (still on screen)

    def control(self, user: FakeUser) -> FakeMessage | None:
        """The player's control message for this table in their DMs (the newest that offers something)."""
        mark = f":{self.table_id}:"
        for message in reversed(self.fake.dms(user)):
            if any(mark in (c.get("custom_id") or "") for c in message.items()):
                return message
        return None

    def live(self) -> FakeMessage | None:
        table_thread = next(m.channel_id for m in self.fake.messages.values()
                            if m.find(prefix=f"j:act:{self.table_id}:") or m.find(prefix=f"j:full:{self.table_id}"))
        for message in reversed(self.fake.in_channel(table_thread)):
            if message.find(prefix=f"j:act:{self.table_id}:"):
                return message
        return None

    async def my_move(self, user: FakeUser) -> FakeMessage | None:
        live = self.live()
        if live is None:
            return None
        ix = await self.fake.click(user, live, prefix=f"j:act:{self.table_id}:")
        answer = await ix.answer()
        if answer is not None:
            self.private[user.id] = answer
        return answer

    async def pick(self, user: FakeUser, message: FakeMessage, index: int) -> bool:
        """Click the component carrying choice ``index`` (paging a flat list to it); then the confirmation,
        if one is asked.  False when the message does not offer it."""
        for _ in range(20):
            target = choice_component(message, index)
            if target is not None:
                break
            pages = [c for c in message.items() if (c.get("custom_id") or "").startswith("j:page:")]
            select = message.find(prefix="j:pick:")
            if not pages or select is None:
                return False
            shown = [int(o["value"]) for o in select["options"]]
            current = int(select["custom_id"].rsplit(":", 1)[1])
            forward = index > max(shown)
            page = next((c for c in pages if (int(c["custom_id"].rsplit(":", 1)[1]) > current) == forward), None)
            if page is None:
                return False
            await (await self.fake.click(user, message, custom_id=page["custom_id"])).answer()
        else:
            return False
        if target["type"] == 2:
            ix = await self.fake.click(user, message, custom_id=target["custom_id"])
        else:
            ix = await self.fake.choose(user, message, [str(index)], custom_id=target["custom_id"])
        await ix.answer()
        if message.find(prefix="j:ok:") is not None:
            await (await self.fake.click(user, message, prefix="j:ok:")).answer()
        return True

    async def decide(self, seat: int, index: int) -> None:
        user = self.users[seat]
        message = None if user.id in self.fake.dm_blocked else self.control(user)
        if message is not None and await self.pick(user, message, index):
            return
        if message is not None:
            self.run.fallbacks += 1
        # the private copy "My move" opened last is still on the player's screen, redrawn in place after
        # each click: a player acting again uses it, else opens it anew
        shown = self.private.get(user.id)
        if shown is not None and choice_component(shown, index) is not None and await self.pick(user, shown, index):
            return
        message = await self.my_move(user)
        if message is None or not await self.pick(user, message, index):
            raise RuntimeError(f"seat {seat} is offered no choice {index}: {message.text if message else None!r}")

    async def play(self) -> None:
        game = get_game(self.run.game)
        tries = 0
        last: int | None = None  # the seat of the last decision that was not a window's answer
        since = self.transcript.mark() if self.transcript is not None else 0
        reacting: set[int] = set()  # the seats asked a reaction at the previous decision
        for _ in range(20_000):
            table = await self.h.table(self.table_id)
            state = await self.h.store.state(self.table_id)
            if self.run.stale_tokens and self.transcript is not None:
                reacting = self.observe(game, table, state, since, reacting)
            if table.status != "active":
                self.run.finished = table.status == "finished"
                return
            pending = game.to_act(state)
            if not pending:
                raise RuntimeError(f"nobody to act at version {state['version']}")
            seat = pending[0].seat
            choices = game.choices(state, seat)
            action = game.bot_action(state, seat, random.Random(f"{self.run.seed}:{state['version']}:{seat}"))
            index = index_of(choices, action)
            owed = pending[0]
            # the engines' deadlines are on the referee's clock (the harness's, not the wall's)
            if owed.deadline is not None and owed.deadline - self.h.bot.referee.now() < SHORT_DEADLINE:
                self.run.short_deadlines += 1
            if self.run.stale_tokens:
                if not await self.shown_deadline(game, table, state, seat):
                    self.run.no_deadline += 1
                # hours since anyone clicked: every token so far has outlived its fifteen minutes
                self.fake.expire_tokens()
                since = self.transcript.mark() if self.transcript is not None else 0
            await self.decide(seat, index)
            await self.h.settled(timeout=20)
            if (await self.h.table(self.table_id)).version == table.version:
                self.run.stale += 1
                tries += 1
                if tries >= RETRIES:
                    raise RuntimeError(f"seat {seat}'s choice {index} was never applied at version {table.version}")
                continue
            tries = 0
            self.run.decisions += 1
            if owed.kind == "reaction":
                self.run.reactions += 1
                if action.get("type") in PASSES:
                    self.run.reaction_passes += 1
                else:
                    who = self.users[seat].id
                    self.run.played[who] = self.run.played.get(who, 0) + 1
            else:
                if seat != last:  # the decision passed to this seat (a window in between does not count)
                    who = self.users[seat].id
                    self.run.turns[who] = self.run.turns.get(who, 0) + 1
                last = seat
        raise RuntimeError("the game did not end")

    async def shown_deadline(self, game: Any, table: Any, state: dict[str, Any], seat: int) -> bool:
        """Whether ``seat``'s decision is shown with a deadline (the engine's or the table's clock)."""
        view = await with_deadlines(Clocks(self.h.store), table, game.view(state, None))
        return any(p.get("seat") == seat and p.get("deadline") is not None for p in view.get("to_act") or [])

    def observe(self, game: Any, table: Any, state: dict[str, Any], since: int, reacting: set[int]) -> set[int]:
        """What the last decision's delivery (the transcript since ``since``) told whom: the windows it opened and
        whether their seat was pinged, the turn pings' first lines, and at the end who was told.  Returns the
        seats now asked a reaction."""
        entries = self.transcript.entries[since:]
        ids = {seat: user.id for seat, user in self.users.items()}

        def pinged(user_id: str) -> list[Any]:
            return [e for e in entries if e.ok and e.created and user_id in e.pings
                    and e.channel_id in self.fake.dm_channels]

        pending = game.to_act(state) if table.status == "active" else []
        now = {p.seat for p in pending if p.kind == "reaction"}
        if now - reacting:  # a window opened: a seat is asked a reaction it was not asked the decision before
            self.run.windows += 1
            about = {a for p in pending if p.kind == "reaction" for a in [getattr(p, "about", None)]
                     if a is not None}
            if about:
                self.run.windows_named += 1
                self.run.windows_pinged += all(pinged(ids[a]) for a in about if a in ids)
            else:
                self.run.unnamed_pinged += any(pinged(ids[s]) for s in now if s in ids)
        for p in pending:
            if p.kind == "reaction" or p.seat not in ids:
                continue
            for e in pinged(ids[p.seat]):
                self.run.turn_pings += 1
                first = (e.text or "").lstrip().split("\n", 1)[0]
                if not first.startswith(YOUR_MOVE):
                    self.run.turn_pings_bad += 1
                    self.run.bad_ping_example = self.run.bad_ping_example or clip(first, 60)
        if table.status != "active":
            told = {self.fake.dm_channels[e.channel_id] for e in entries
                    if e.ok and e.created and not e.ephemeral and e.channel_id in self.fake.dm_channels}
            self.run.untold_end += sum(1 for uid in set(ids.values()) if uid not in told)
        return now


def index_of(choices: list[dict[str, Any]], action: dict[str, Any]) -> int:
    """Where the bot's action is in the list a person is offered.  A bot may take in one action what a
    person does in two steps (Bloodwood's bot plays a card with its target; the list offers the card, and
    the target is asked next): then the listed choice the action extends."""
    if action in choices:
        return choices.index(action)
    extended = [i for i, c in enumerate(choices) if all(action.get(k) == v for k, v in c.items())]
    if not extended:
        raise RuntimeError(f"the bot's action {action} is not offered: {choices}")
    return max(extended, key=lambda i: len(choices[i]))


async def classify_one_choice(h: Harness, transcript: Transcript, start: int, run: Run) -> None:
    """Tell apart, among the lists offering one choice, a decision the seat owed (a forced move shown to
    a person), a reaction owed (the referee never takes one: answering at once would tell the table the
    seat had nothing to answer with), and a single action offered to a seat that owes nothing
    (Bloodwood's declaration of the end, offered at any time): each choice's custom_id names the table
    version and the seat."""
    game = get_game(run.game)
    for entry in transcript.one_choice(start):
        ids = [c.get("custom_id") or "" for row in entry.components for c in row.get("components", [])]
        cid = next(i for i in ids if i.startswith(("j:do:", "j:pick:")))
        table_id, version, seat = (int(v) for v in cid.split(":")[2:5])
        state = await h.store.state(table_id, version)
        owed = [p for p in game.to_act(state) if p.seat == seat] if state is not None else []
        if owed and owed[0].kind == "reaction":
            # never taken by the referee: answering at once would tell the table the seat had no answer
            run.one_choice_reactions += 1
        elif owed:
            run.one_choice_owed += 1
            label = next((c.get("label") or (c.get("options") or [{}])[0].get("label") for row in entry.components
                          for c in row.get("components", []) if (c.get("custom_id") or "") == cid), "?")
            if len(run.one_choice_examples) < 3:
                run.one_choice_examples.append(f"entry {entry.n}: «{label}»")


# ---------------------------------------------------------------------------------------------- one game
async def play_game(game_name: str, seats: int, *, seed: str, settle: float, auto_forced: bool = True,
                    closed: int = 0, options: str = "", stale_tokens: bool = False) -> Run:
    run = Run(game_name, seats, seed, settle, auto_forced, closed, stale_tokens=stale_tokens)
    began = time.perf_counter()
    fake = await FakeDiscord().start()
    Route.BASE = fake.base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    users = [fake.add_user(NAMES[i]) for i in range(seats)]
    for user in users[seats - closed:]:
        fake.dm_blocked.add(user.id)
    transcript = Transcript(fake)
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(fake, Path(tmp) / "ux.db")
        await h.start_bot(delivery_settle=settle)
        try:
            given = " ".join([options, "" if auto_forced else "auto_forced=no"]).strip()
            table = await h.new_table(users[0], game_name, **({"options": given} if given else {}))
            for user in users[1:]:
                await h.join(user, table)
            start, uploads = transcript.mark(), len(fake.uploads)
            with mock.patch("bot.referee.service.new_seed", lambda: seed):
                await h.start(users[0], table)
            by_seat = {s.seat: fake.users[s.user_id.split(":", 1)[1]] for s in await h.store.seats(table.id)}
            opened = await h.table(table.id)
            run.correspondence = (opened.options or {}).get("pace") == "correspondence"
            run.has_clock = opened.time_control is not None
            try:
                await Driver(h, fake, run, table.id, by_seat, transcript).play()
            except Exception as exc:  # noqa: BLE001 - a benchmark reports what went wrong and goes on
                run.problems.append(f"{type(exc).__name__}: {exc}")
            await h.settled(timeout=20)
            rows = await h.store.conn.execute_fetchall(
                "SELECT user_id, COUNT(*) FROM actions WHERE table_id = ? GROUP BY user_id", (table.id,))
            run.recorded = sum(n for user, n in rows if user.startswith("discord:"))
            run.forced = sum(n for user, n in rows if user == "auto")
            run.figures = transcript.figures(start)
            count_uploads(run, fake.uploads[uploads:])
            run.figures.clicks -= 1  # the click on Start: it opens play, it is no decision's (self-pings need it)
            dms = transcript.new_dms_by_user(start)
            run.new_dms = {user.id: dms.get(user.id, 0) for user in by_seat.values()}
            run.tables = {user.id: 1 for user in by_seat.values()}
            await classify_one_choice(h, transcript, start, run)
            title = f"{game_name}, {seats} players, seed {seed}, delivery_settle {settle}" + \
                ("" if auto_forced else ", auto_forced=no") + (f", {closed} with closed DMs" if closed else "")
            run.transcript = transcript.markdown(title, since=start)
        finally:
            await h.stop_bot()
            logging.getLogger().removeHandler(errors)
            transcript.detach()
            await fake.stop()
    run.problems += [f"Discord rule broken: {v}" for v in fake.violations]
    run.problems += [f"logged: {r.name}: {r.getMessage()}" for r in errors.records]
    run.seconds = time.perf_counter() - began
    return run


async def play_tournament(game_name: str, players: int, *, seed: str, settle: float,
                          stale_tokens: bool = False) -> Run:
    """A one-round Swiss tournament of ``players`` through the fake Discord: /tournament new, everyone enters
    by its button, /tournament start opens the round's tables, each played to its end as ``play_game`` plays
    one.  Counted from the start of the round (the enrolment is not)."""
    run = Run(game_name, players, seed, settle, True, 0, stale_tokens=stale_tokens)
    began = time.perf_counter()
    fake = await FakeDiscord().start()
    Route.BASE = fake.base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    users = [fake.add_user(NAMES[i]) for i in range(players)]
    transcript = Transcript(fake)
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(fake, Path(tmp) / "ux.db")
        await h.start_bot(delivery_settle=settle)
        try:
            await (await fake.slash(users[0], "tournament new", game=game_name, format="swiss", rounds=1,
                                    hours=48)).answer()
            director = h.bot.tournaments.director
            tid = (await director.record.find())[0].id
            message = fake.messages[(await director.record.get(tid)).message_id]
            for user in users:
                await (await fake.click(user, message, prefix="j:tjoin:")).answer()
            start, uploads = transcript.mark(), len(fake.uploads)
            with mock.patch("bot.referee.service.new_seed", lambda: seed):
                await (await fake.slash(users[0], "tournament start")).answer()
                await h.settled(timeout=20)
            ended = []
            try:
                for g in await director.record.games(tid, 1):
                    if g.kind != "table":
                        continue
                    by_seat = {s.seat: fake.users[s.user_id.split(":", 1)[1]] for s in await h.store.seats(g.table_id)}
                    opened = await h.table(g.table_id)
                    run.correspondence = (opened.options or {}).get("pace") == "correspondence"
                    run.has_clock = opened.time_control is not None
                    await Driver(h, fake, run, g.table_id, by_seat, transcript).play()
                    ended.append(run.finished)
                    for user in by_seat.values():
                        run.tables[user.id] = run.tables.get(user.id, 0) + 1
            except Exception as exc:  # noqa: BLE001 - a benchmark reports what went wrong and goes on
                run.problems.append(f"{type(exc).__name__}: {exc}")
            await h.settled(timeout=20)
            run.finished = bool(ended) and all(ended)
            run.figures = transcript.figures(start)
            count_uploads(run, fake.uploads[uploads:])
            dms = transcript.new_dms_by_user(start)
            run.new_dms = {user.id: dms.get(user.id, 0) for user in users}
            await classify_one_choice(h, transcript, start, run)
            run.transcript = transcript.markdown(f"tournament of {game_name}, {players} players, seed {seed}",
                                                 since=start)
        finally:
            await h.stop_bot()
            logging.getLogger().removeHandler(errors)
            transcript.detach()
            await fake.stop()
    run.problems += [f"Discord rule broken: {v}" for v in fake.violations]
    run.problems += [f"logged: {r.name}: {r.getMessage()}" for r in errors.records]
    run.seconds = time.perf_counter() - began
    return run


# ---------------------------------------------------------------------------------------------- figures
def count_uploads(run: Run, uploads: list[tuple[str, str, int]]) -> None:
    """The files uploaded (message id, filename, bytes), in all and by the picture's kind (its name's last part)."""
    sizes = [size for _, _, size in uploads]
    run.uploaded, run.largest_upload = sum(sizes), max(sizes, default=0)
    for _, name, size in uploads:
        kind = name.rsplit(".", 1)[0].rsplit("-", 1)[-1]
        counted = run.uploads.setdefault(kind, [0, 0])
        counted[0] += 1
        counted[1] += size


def per(n: float, d: int) -> float:
    return n / d if d else float("nan")


def summary_rows(runs: list[Run]) -> dict[str, Any]:
    """The figures of several games of one kind, summed."""
    f = Figures()
    for run in runs:
        for name in vars(f):
            if name.startswith("widest"):
                continue
            setattr(f, name, getattr(f, name) + getattr(run.figures, name))
    widest = max(runs, key=lambda r: r.figures.widest).figures
    code = max(runs, key=lambda r: r.figures.widest_code).figures
    decisions = sum(r.decisions for r in runs)
    return {"f": f, "decisions": decisions, "widest": widest.widest, "widest_line": widest.widest_line,
            "widest_code": code.widest_code, "widest_code_line": code.widest_code_line,
            "recorded": sum(r.recorded for r in runs), "forced": sum(r.forced for r in runs),
            "stale": sum(r.stale for r in runs), "fallbacks": sum(r.fallbacks for r in runs),
            "finished": sum(r.finished for r in runs),
            "owed": sum(r.one_choice_owed for r in runs), "one_reactions": sum(r.one_choice_reactions for r in runs),
            "examples": [f"{r.seed} {e}" for r in runs for e in r.one_choice_examples][:3],
            "seconds": sum(r.seconds for r in runs),
            "reactions": sum(r.reactions for r in runs), "reaction_passes": sum(r.reaction_passes for r in runs),
            "short": sum(r.short_deadlines for r in runs),
            "prose": max(runs, key=lambda r: r.figures.widest_prose).figures,
            "excess": [excess(r) for r in runs],
            "stale_tokens": any(r.stale_tokens for r in runs),
            "correspondence": all(r.correspondence for r in runs), "clock": all(r.has_clock for r in runs),
            **{k: sum(getattr(r, k) for r in runs) for k in (
                "windows", "windows_named", "windows_pinged", "unnamed_pinged", "no_deadline", "turn_pings",
                "turn_pings_bad", "untold_end", "uploaded")},
            "largest_upload": max(r.largest_upload for r in runs),
            "upload_kinds": {k: [sum(r.uploads.get(k, [0, 0])[i] for r in runs) for i in (0, 1)]
                             for k in sorted({k for r in runs for k in r.uploads})},
            "bad_ping": next((r.bad_ping_example for r in runs if r.bad_ping_example), "")}


def stale_figures(s: dict[str, Any]) -> dict[str, str]:
    """The stale-tokens figures of ``summary_rows`` as shown (issue 35's "How it will be checked")."""
    d = s["decisions"]
    named = s["windows_named"]
    about = (f"{100 * s['windows_pinged'] / named:.0f} % ({s['windows_pinged']} of {named})" if named
             else "— (no window names its seat)" if s["windows"] else "— (no window)")
    unnamed = s["windows"] - named
    return {"about": about,
            "unnamed": f"{unnamed} (of them with a ping to a seat owing it: {s['unnamed_pinged']})",
            "no_deadline": f"{s['no_deadline']}" + ("" if s["correspondence"] else " (not a correspondence table)")
                           + ("" if s["clock"] else " (the table has no clock)"),
            "bad_pings": f"{s['turn_pings_bad']} of {s['turn_pings']}",
            "untold": str(s["untold_end"]),
            "kb": f"{per(s['uploaded'] / 1024, d):.1f}"}


def excess(run: Run) -> tuple[int, int]:
    """New DMs beyond what a player is owed, summed over the players of one game, and the largest for one
    player: a player is owed one new DM per decision passing to them from another player (their own turns;
    a window in between does not count), one per window they played in, and the first control message of
    each table."""
    over = [run.new_dms.get(u, 0) - (run.turns.get(u, 0) + run.played.get(u, 0) + run.tables.get(u, 1))
            for u in run.new_dms]
    return sum(max(0, o) for o in over), max(over, default=0)


def clip(line: str, limit: int = 100) -> str:
    return line if len(line) <= limit else line[:limit - 1] + "…"


def mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def report(label: str, runs: list[Run]) -> str:
    s = summary_rows(runs)
    f, d = s["f"], s["decisions"]
    api, clicks, pings = per(f.api_calls, d), per(f.clicks, d), per(f.pings, d)
    lines = [
        f"## {label}",
        f"games {len(runs)} (finished {s['finished']}), {s['seconds']:.0f} s; decisions {d} "
        f"(record: {s['recorded']} by players, {s['forced']} forced moves by the referee)",
        "",
        "| figure | value | target |",
        "|---|---|---|",
        f"| rate-limited API calls / decision | {api:.2f} ({f.api_calls}: posts {f.posts}, edits {f.edits}, DM posts {f.dm_posts}, "
        f"DM edits {f.dm_edits}, other {f.other_writes}) | ≤ {TARGETS['api']} {mark(api <= TARGETS['api'])} |",
        f"| clicks / decision | {clicks:.2f} ({f.clicks}) | ≤ {TARGETS['clicks']} {mark(clicks <= TARGETS['clicks'])} |",
        f"| pings / decision | {pings:.2f} ({f.pings}) | |",
        f"| new DMs / decision | {per(f.new_dms, d):.2f} ({f.new_dms}: posted {f.dm_posts}, as interaction "
        f"answers {f.new_dms - f.dm_posts}) | {'≤ 0.3 ' + mark(per(f.new_dms, d) <= 0.3) if 'raiders' in label else ''} |",
        f"| new DMs beyond own turns + windows played (all players; most for one) | "
        f"{sum(e[0] for e in s['excess'])}; {max(e[1] for e in s['excess'])} | 0 {mark(all(e[0] == 0 for e in s['excess']))} |",
        f"| window answers (of them passes) | {s['reactions']} ({s['reaction_passes']}) | |",
        f"| decisions with a deadline under an hour | {s['short']} | |",
        f"| widest prose line | {s['prose'].widest_prose} | |",
        f"| self-pings | {f.self_pings} | 0 {mark(f.self_pings == 0)} |",
        f"| one-choice lists, decision owed | {s['owed']} | 0 {mark(s['owed'] == 0)} |",
        f"| one-choice lists, reaction owed (never taken by the referee) | {s['one_reactions']} | |",
        f"| one-choice lists, nothing owed (a single action offered any time) | "
        f"{f.one_choice - s['owed'] - s['one_reactions']} | |",
        f"| widest line | {s['widest']} | ≤ {TARGETS['widest']} {mark(s['widest'] <= TARGETS['widest'])} |",
        f"| widest line in a code block | {s['widest_code']} | ≤ {TARGETS['widest']} "
        f"{mark(s['widest_code'] <= TARGETS['widest'])} |",
        f"| distinct lines wider than {TARGETS['widest']} | {f.wide_lines} | |",
        f"| interaction answers (not rate-limited) / decision | {per(f.responses, d):.2f} | |",
        f"| DM channels opened, reads | {f.dm_opens}, {f.reads} | |",
        f"| clicks that applied nothing (stale list) | {s['stale']} | |",
        f"| decisions not on the DM control message (taken via My move) | {s['fallbacks']} | |",
        "",
        f"widest line: `{clip(s['widest_line'])}`",
        f"widest code line: `{clip(s['widest_code_line'])}`",
        f"widest prose line: `{clip(s['prose'].widest_prose_line)}`",
    ]
    if s["stale_tokens"]:
        st = stale_figures(s)
        kb = per(s["uploaded"] / 1024, d)
        lines[-4:-4] = [
            f"| **stale tokens**: rate-limited calls / decision | {api:.2f} | ≤ {STALE_TARGETS['api']:g} "
            f"{mark(api <= STALE_TARGETS['api'])} |",
            f"| KB uploaded / decision (largest file) | {kb:.1f} ({s['uploaded'] / 1024:.0f} KB in all; "
            f"{s['largest_upload'] / 1024:.1f} KB) | ≤ {STALE_TARGETS['kb']:g} {mark(kb <= STALE_TARGETS['kb'])} |",
            "| files uploaded, by picture | " + ", ".join(f"{k} {n} ({b / 1024:.0f} KB)" for k, (n, b)
                                                      in s["upload_kinds"].items()) + " | |",
            f"| pings to the seat a window is about | {st['about']} | 100 % |",
            f"| windows naming no seat they are about | {st['unnamed']} | |",
            f"| decisions without a deadline | {st['no_deadline']} | 0 {mark(s['no_deadline'] == 0)} |",
            f"| turn pings whose first line is not \"your move\" | {st['bad_pings']} | 0 "
            f"{mark(s['turn_pings_bad'] == 0)} |",
            f"| players not told the end | {st['untold']} | 0 {mark(s['untold_end'] == 0)} |",
        ]
        if s["bad_ping"]:
            lines.append(f"a turn ping's first line: `{s['bad_ping']}`")
    if s["examples"]:
        lines.append("one-choice lists owed: " + "; ".join(s["examples"]))
    problems = [f"- {run.seed}: {p}" for run in runs for p in run.problems]
    if problems:
        lines += ["", "problems:", *problems[:20], *([f"- … {len(problems) - 20} more"] if len(problems) > 20 else [])]
    return "\n".join(lines)


SUMMARY_HEAD = ("| game, players | decisions | clicks / decision | pings / decision | new DMs / decision | "
                "new DMs beyond own turns + windows played | rate-limited calls / decision | "
                "deadlines under 1 h | widest prose line | self-pings |\n|---|---|---|---|---|---|---|---|---|---|")


def summary_line(game: str, seats: int, runs: list[Run]) -> str:
    """One line of the table docs/discord.md keeps ("Measured experience")."""
    s = summary_rows(runs)
    f, d = s["f"], s["decisions"]
    return (f"| {game}, {seats} | {d} | {per(f.clicks, d):.2f} | {per(f.pings, d):.2f} | {per(f.new_dms, d):.2f} | "
            f"{sum(e[0] for e in s['excess'])} | {per(f.api_calls, d):.2f} | {s['short']} | "
            f"{s['prose'].widest_prose} | {f.self_pings} |")


STALE_HEAD = ("| game, players | decisions | pings to the seat a window is about | decisions without a deadline | "
              "turn pings not opening with \"your move\" | players not told the end | rate-limited calls / decision | "
              "KB uploaded / decision |\n|---|---|---|---|---|---|---|---|")


def stale_line(game: str, seats: int, runs: list[Run]) -> str:
    """One line of the stale-tokens table (docs/discord.md, issue 35)."""
    s = summary_rows(runs)
    st, d = stale_figures(s), s["decisions"]
    return (f"| {game}, {seats} | {d} | {st['about']} | {st['no_deadline']} | {st['bad_pings']} | {st['untold']} | "
            f"{per(s['f'].api_calls, d):.2f} | {st['kb']} |")


def source_version() -> str:
    """The commit measured, and whether the working tree had changes besides it."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git)"
    return f"commit {commit}" + (f" with {len(changed)} changed files not committed" if changed else "")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games per kind (different seeds)")
    parser.add_argument("--out", type=Path, default=None, help="where the transcripts go (default: a temp dir)")
    parser.add_argument("--settle", default="0.3,0", help="delivery_settle values to measure, comma-separated")
    parser.add_argument("--game", action="append", help="only these games (claygod, gwent, bloodwood, raiders, bridges)")
    parser.add_argument("--closed-dms", type=int, default=0, help="players (the last ones) with closed DMs")
    parser.add_argument("--no-auto-forced", action="store_true", help="play with the table option auto_forced=no")
    parser.add_argument("--tournament", default="gwent:4", metavar="GAME:PLAYERS",
                        help="also a one-round Swiss tournament of that game ('' for none)")
    parser.add_argument("--option", action="append", default=[], metavar="GAME:NAME=VALUE",
                        help="a table option for one game's tables (raiders:window_seconds=86400)")
    parser.add_argument("--stale-tokens", action="store_true",
                        help="hours between decisions: every earlier interaction token expired before each one")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="discord-ux-"))
    out.mkdir(parents=True, exist_ok=True)
    settles = [float(v) for v in args.settle.split(",") if v.strip()]
    games = [(g, n) for g, n in GAMES if not args.game or g in args.game]
    print(f"# Discord play experience, {time.strftime('%Y-%m-%d')}: "
          f"python benchmarks/discord_ux.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"code: {source_version()}; transcripts: {out}\n")
    failed = False
    table: list[str] = []
    stale_table: list[str] = []
    for settle in settles:
        for game, seats in games:
            runs = []
            for i in range(args.games):
                seed = f"ux-{game}-{i}"
                options = " ".join(o.split(":", 1)[1] for o in args.option if o.split(":", 1)[0] == game)
                run = await play_game(game, seats, seed=seed, settle=settle, auto_forced=not args.no_auto_forced,
                                      closed=min(args.closed_dms, seats), options=options,
                                      stale_tokens=args.stale_tokens)
                name = f"{game}-{i}-settle{settle:g}" + ("-noauto" if args.no_auto_forced else "") + \
                    (f"-closed{args.closed_dms}" if args.closed_dms else "") + \
                    ("-stale" if args.stale_tokens else "") + ".md"
                (out / name).write_text(run.transcript, encoding="utf-8")
                runs.append(run)
                failed |= bool(run.problems) or not run.finished
            label = f"{game} · {seats} players · delivery_settle {settle:g} s" + \
                (" · auto_forced=no" if args.no_auto_forced else "") + \
                (f" · {args.closed_dms} with closed DMs" if args.closed_dms else "") + \
                (" · stale tokens" if args.stale_tokens else "")
            print(report(label, runs), end="\n\n", flush=True)
            stale_table.append(stale_line(game, seats, runs))
            table.append(summary_line(game, seats, runs).replace("|", f"| settle {settle:g} s:", 1)
                         if len(settles) > 1 else summary_line(game, seats, runs))
        if args.tournament:
            game, players = args.tournament.split(":")
            run = await play_tournament(game, int(players), seed=f"ux-tournament-{game}", settle=settle,
                                        stale_tokens=args.stale_tokens)
            (out / f"tournament-{game}-settle{settle:g}.md").write_text(run.transcript, encoding="utf-8")
            failed |= bool(run.problems) or not run.finished
            print(report(f"tournament of {game} · {players} players · one round · delivery_settle {settle:g} s",
                         [run]), end="\n\n", flush=True)
            table.append(summary_line(f"tournament: {game}", int(players), [run]))
            stale_table.append(stale_line(f"tournament: {game}", int(players), [run]))
    print(SUMMARY_HEAD, *table, sep="\n")
    if args.stale_tokens:
        print("", STALE_HEAD, *stale_table, sep="\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
