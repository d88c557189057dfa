"""Every button, menu and command a player or a spectator can reach works, in every game, at every stage.

For each of the five games — at its start, in its middle, at its end and paused by a moderator in its
middle — two seated players (Alice, who opened the table, and Bob) and a spectator (Carol), each in a
language of their own:
- press every button of every message of the table (the lobby message, the live table message — "My move",
  "My hand", "Full board": whatever it carries —, anything else in its thread), each as all three;
- press every button and menu of each player's control message in the DMs and of the private one "My move"
  opens, and whatever a press puts there for the same decision (a confirmation and its way back, a page);
- run every slash command Discord lets a member run, read from the synced command tree (a new command is
  covered without a word here), once with what it requires and once with every option, each filled as a
  user would (an autocompleted option with the first suggestion, a choice with the first choice), and press
  the buttons of its answer.  Alice runs them last: her /game cancel ends the table, so her later commands
  meet a cancelled one.
At the end the table's messages carry no buttons: what is pressed there is what they carried in the middle,
as a client that has not caught up still shows them.

A refusal is a fine answer.  What fails the test: an interaction left without an answer, the bot's "internal
error" line anywhere a user could read it, an ERROR (or any record with a traceback) in the bot's or
discord.py's log, or a Discord rule broken (the ``fake`` fixture's check).  The "Full board" button failed on
every Bridges table (its engine lacked the contract's ``full=``) while nothing pressed it.

The middle and the end are reached through the referee with the games' own bot choices for the two people
(seeded), not click by click: the clicks are what the rest of this file tests, at the positions so reached."""
from __future__ import annotations

import importlib
import logging
import random
from typing import Any

import pytest

from bot.engine import Rejection, get_game
from bot.engine.contract import Code
from bot.engine.registry import GAME_MODULES
from bot.i18n import t
from tests.discord.fake_discord import FakeMessage, FakeUser, Interaction
from tests.discord.harness import Harness, as_seen_now

GAMES = [importlib.import_module(module).GAME.name for module in GAME_MODULES]
STAGES = ["start", "middle", "end", "paused"]
#: the people's decisions played before the middle is looked at
MIDDLE = 12
#: a ceiling on the people's decisions of a whole game (the bots' are not counted): a game that does not end
#: within it fails the test rather than running on
WHOLE_GAME = 3000
#: presses of one control message and of what they lead to (a flat list pages; a final choice asks again)
PRESSES = 40
INTERNAL = [t(key, locale) for key in ("discord.internal", "core.reject.internal") for locale in ("ru", "uk", "en")]


class Tracebacks(logging.Handler):
    """Records with a traceback at any level (the ``error_log`` fixture sees ERROR and above only): a handler
    that caught an exception and logged it as a warning hid a crash from the player, not from this test."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.name.startswith(("discord", "judge")):
            self.records.append(record)


@pytest.fixture
def tracebacks():
    handler = Tracebacks()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
    assert not handler.records, "exceptions were logged:\n" + "\n".join(
        f"{r.name}: {r.getMessage()}\n{handler.format(r)}" for r in handler.records)


@pytest.fixture
async def world(fake, error_log, tracebacks, tmp_path):
    """The bot against the fake, with Alice (ru) and Bob (uk) to play and Carol (en) to watch, and a role to
    name in the commands that take one (roles arrive with the server, before the bot connects)."""
    h = Harness(fake, tmp_path / "judge.db")
    h.alice, h.bob, h.carol = (fake.add_user(n, locale=loc) for n, loc in (("Alice", "ru"), ("Bob", "uk"),
                                                                           ("Carol", "en-GB")))
    h.role = fake.add_role("players", h.alice, h.bob)
    await h.start_bot()
    yield h
    await h.stop_bot()


# ---------------------------------------------------------------------------------------------- positions
async def reach(h: Harness, table_id: int, people_moves: int) -> int:
    """Play the people's seats with the game's bot choices (seeded) until ``people_moves`` were made or the game
    ended; the bot seats play as always.  Returns how many were made."""
    game = get_game((await h.table(table_id)).game)
    rng = random.Random(f"every-control:{table_id}")
    made, idle = 0, 0
    while made < people_moves:
        await h.bot.wait_for_bots()
        table = await h.table(table_id)
        if table.status != "active":
            break
        state = await h.store.state(table_id)
        seats = await h.store.seats(table_id)
        due = [p.seat for p in game.to_act(state) if not seats[p.seat].is_bot]
        if not due:  # the bots' turn: their run was scheduled by the move before, or is now
            idle += 1
            assert idle < 100, f"nobody moves at version {table.version}: {game.to_act(state)}"
            h.bot.schedule_bots(table_id)
            continue
        idle = 0
        seat = due[0]
        action = game.bot_action(state, seat, rng)
        result = await h.bot.referee.act(table_id, seats[seat].user_id, action, expected_version=table.version,
                                         seat=seat)
        if isinstance(result, Rejection):
            assert result.code == Code.STALE, f"the game's own bot choice was refused: {result}"
            continue
        h.bot.schedule_bots(table_id)
        made += 1
    await h.settled()
    return made


async def table_at(h: Harness, game: str, stage: str, monkeypatch) -> tuple[int, dict[str, FakeMessage]]:
    """A table of ``game`` (Alice, Bob and the bot seats the game needs) at ``stage`` ("paused": the middle,
    paused by a moderator, where every move is refused and every read still answers); for the end, also every
    message of the table that carried components in the middle, as it was then: a finished table's messages
    lose their buttons, so what is pressed there is what a client that has not caught up still shows."""
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: f"every-control-{game}")
    table = await h.new_table(h.alice, game, bots=max(0, get_game(game).min_seats - 2))
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    earlier: dict[str, FakeMessage] = {}
    if stage in ("middle", "end", "paused"):
        made = await reach(h, table.id, MIDDLE)
        assert made == MIDDLE and (await h.table(table.id)).status == "active", "the game ended before its middle"
    if stage == "paused":
        moderator = h.fake.add_user("Mod", moderator=True)
        await (await h.fake.slash(moderator, "pause", table=table.id, reason="break")).answer()
        await h.settled()
        assert (await h.table(table.id)).paused_at is not None, "the moderator's /pause did not pause"
    if stage == "end":
        earlier = {m.id: as_seen_now(m) for m in await table_messages(h, table.id) if m.items()}
        await reach(h, table.id, WHOLE_GAME)
        assert (await h.table(table.id)).status == "finished", "the game did not end"
    return table.id, earlier


async def table_messages(h: Harness, table_id: int) -> list[FakeMessage]:
    """Every message of the table a user can click: the lobby message, everything in the table's thread (the
    live message among them) and the people's control messages in their DMs."""
    table = await h.table(table_id)
    found = [h.lobby(table), *h.fake.in_channel(table.thread_id)]
    for seat, row in enumerate(await h.store.seats(table_id)):
        panel = await h.store.panel(table_id, seat)
        if not row.is_bot and panel is not None and panel.message_id in h.fake.messages:
            found.append(h.fake.messages[panel.message_id])
    return found


# ---------------------------------------------------------------------------------------------- pressing
class Presser:
    """Presses components and runs commands, answering each interaction and keeping what was pressed."""

    def __init__(self, h: Harness):
        self.h = h
        self.pressed: list[str] = []

    async def press(self, user: FakeUser, message: FakeMessage, item: dict[str, Any]) -> Interaction:
        """A button clicked, or a menu's first and last options chosen (two presses), on ``message`` as the user
        sees it now."""
        fake, seen = self.h.fake, as_seen_now(message)
        if item["type"] == 2:
            ix = await fake.click(user, seen, custom_id=item["custom_id"])
            await ix.answer()
        else:
            values = list(dict.fromkeys([item["options"][0]["value"], item["options"][-1]["value"]]))
            for value in values:
                ix = await fake.choose(user, as_seen_now(self.shown(message, item)), [value],
                                       custom_id=item["custom_id"])
                await ix.answer()
        self.pressed.append(f"{user.name}: {item['custom_id']}")
        return ix

    def shown(self, seen: FakeMessage, item: dict[str, Any]) -> FakeMessage:
        """The message as it stands now if it still carries ``item`` as it was (a menu keeps its custom id when
        its options change: "Why?" under an edited live message), else as the user saw it (a stale click)."""
        current = self.h.fake.messages.get(seen.id)
        return current if current is not None and current.find(custom_id=item["custom_id"]) == item else seen

    async def every_component(self, user: FakeUser, message: FakeMessage) -> None:
        """Every button and menu of ``message`` as it stands now, and what pressing them puts in it for the same
        decision (a confirmation and its way back, another page; each custom_id once), pressed on the message
        as it stands then, or else as the user last saw it (a stale click: answered too).  The choices after a
        move made here are the next decision's, left alone: the game would go on for ever."""
        start = as_seen_now(message)
        queue = [(item, start) for item in start.items() if item.get("custom_id") and not item.get("disabled")]
        seen = {item["custom_id"] for item, _ in queue}
        versions = {decision(cid) for cid in seen}
        presses = 0
        while queue and presses < PRESSES:
            item, where = queue.pop(0)
            await self.press(user, self.shown(where, item), item)
            presses += 1
            now = self.h.fake.messages.get(message.id)
            if now is not None:  # what the press put in the message: a confirmation, a page, the next choices
                for new in now.items():
                    cid = new.get("custom_id")
                    if cid and cid not in seen and not new.get("disabled") and decision(cid) in versions:
                        seen.add(cid)
                        queue.append((new, as_seen_now(now)))
            await self.h.settled()

    async def every_command(self, user: FakeUser, table_id: int, channel_id: str) -> None:
        """Every command a member may run (no default permissions), typed in the table's thread: once with what
        it requires (the table it is about taken from the thread), once more with every option it takes, if it
        takes more; then every button of its answer (a log's pages, a leaderboard's, a lobby's)."""
        for path, spec in member_commands(self.h.fake):
            required = tuple(o["name"] for o in spec if o.get("required"))
            for options in dict.fromkeys((required, tuple(o["name"] for o in spec))):
                values: dict[str, Any] = {}
                for option in spec:
                    if option["name"] in options:
                        values[option["name"]] = await self.value(user, path, option, values, table_id,
                                                                  channel_id)
                ix = await self.h.fake.slash(user, path, channel_id=channel_id, **values)
                await ix.answer()
                self.pressed.append(f"{user.name}: /{path} {values}")
                await self.h.settled()
                for reply in list(ix.replies):
                    if reply.items() and reply.ephemeral_for in (None, user.id):
                        await self.every_component(user, reply)

    async def value(self, user: FakeUser, path: str, option: dict[str, Any], values: dict[str, Any],
                    table_id: int, channel_id: str) -> Any:
        """What a user would put in an option: a suggestion, a listed choice, the table, someone, something."""
        if option["name"] == "table":
            return table_id
        if option.get("choices"):
            return option["choices"][0]["value"]
        if option.get("autocomplete"):
            suggested = await self.h.fake.autocomplete(user, path, option["name"], channel_id=channel_id,
                                                       **{**values, option["name"]: ""})
            self.pressed.append(f"{user.name}: /{path} {option['name']}: autocomplete")
            if suggested:
                return suggested[0]["value"]
        return {3: "1", 4: 1, 5: False, 6: self.h.bob, 7: self.h.fake.channel_id, 8: self.h.role,
                10: 1.0}[option["type"]]


def decision(custom_id: str) -> tuple[str, ...]:
    """The table and version a control's custom_id is about (``j:<kind>:<table>:<version>:...``)."""
    return tuple(custom_id.split(":")[2:4])


def member_commands(fake) -> list[tuple[str, list[dict[str, Any]]]]:
    """(path, options) of every synced command a member without special permissions may run."""
    found: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]  # subcommands and their groups
        for sub in subs:
            walk(sub, [*path, sub["name"]])
        if not subs:
            found.append((" ".join(path), list(node.get("options") or [])))

    for command in fake.guild_commands or fake.commands:
        if command.get("default_member_permissions") is None:
            walk(command, [command["name"]])
    return found


#: the custom ids of what a finished table's live message may still carry: its citations' "Why?", its replay
READING = ("j:why:", "j:whys:", "j:replay:")


def internal_errors(fake) -> list[str]:
    """Every text any user was ever shown (edits and deleted messages included) that says "internal error"."""
    return [text for m in (*fake.messages.values(), *fake.removed.values()) for text in m.history
            if any(line in text for line in INTERNAL)]


# ---------------------------------------------------------------------------------------------- the test
@pytest.mark.long
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_every_button_menu_and_command_answers_without_an_error(world, monkeypatch, game, stage):
    h, fake = world, world.fake
    table_id, earlier = await table_at(h, game, stage, monkeypatch)
    presser = Presser(h)
    people = [h.alice, h.bob]
    spectator = h.carol

    live = await h.store.panel(table_id, -1)
    assert live is not None and live.message_id in fake.messages, "no live table message"
    if stage == "end":  # only what reads the finished table is left: no control of play
        left = [item.get("custom_id", "") for item in fake.messages[live.message_id].items()]
        assert all(cid.startswith(READING) for cid in left), f"a finished table's live message still has {left}"
    # the table's own messages as they stand before anything is pressed (the presses may end the game, which
    # takes their buttons: pressed then as a client that has not caught up still shows them)
    table = await h.table(table_id)
    thread = {mid: earlier.get(mid) or as_seen_now(fake.messages[mid])
              for mid in (table.thread_id, *(m.id for m in fake.in_channel(table.thread_id)))}
    assert thread[live.message_id].find(prefix="j:full:"), "the live message has no Full board button"
    # the control messages first, each as it stands when its turn comes (the presses before may have made the
    # next decision's, posted anew)
    owners = set()
    for seat, row in enumerate(await h.store.seats(table_id)):
        panel = await h.store.panel(table_id, seat)
        if row.is_bot or panel is None or panel.message_id not in fake.messages:
            continue
        message = earlier.get(panel.message_id) or as_seen_now(fake.messages[panel.message_id])
        owners.add(message.dm_of)
        await presser.every_component(fake.users[message.dm_of], message)
    controls = {row.user_id.split(":")[1] for row in await h.store.seats(table_id) if not row.is_bot}
    for message_id, message in thread.items():  # the lobby message, then the thread's
        if message_id not in fake.messages:  # deleted since: nothing left to click
            continue
        for user in (*people, spectator):
            for item in message.items():
                ix = await presser.press(user, presser.shown(message, item), item)
                private = ix.replies[-1] if ix.replies else None
                if private is not None and private.ephemeral_for == user.id and private.items():
                    await presser.every_component(user, private)  # "My move": the choices, privately
            await h.settled()
    assert stage == "end" or controls <= owners, "a person without a control message"

    # Alice last: she opened the table, so her /game cancel ends it, and her commands after it meet a cancelled one
    for user in (h.bob, spectator, h.alice):
        await presser.every_command(user, table_id, table.thread_id)
    # (a move made by a press or /play may have ended the game first: Bridges' team can fall early)
    assert (await h.table(table_id)).status in ("cancelled", "finished"), "the opener's /game cancel did not"

    assert any("j:full:" in p for p in presser.pressed), presser.pressed
    assert any("/table status" in p for p in presser.pressed), presser.pressed
    assert not internal_errors(fake), internal_errors(fake)
