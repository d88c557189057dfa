"""/table replay and the Replay button: a table stepped through in one private message, edited in place.

Every step is checked against the terminal: its lines are ``python -m bot replay N [--seat S | --moderator]``'s
for that step (all steps together, in order, are that command's output), and its picture is the bytes of
``python -m bot picture N --version V [--seat S]``.  The probes: at every step of an unfinished table of every
game, the other player reads nothing private of Alice's, and custom_ids forged to ask for her seat or for a
moderator's view are refused without a picture.
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import random

import pytest
from PIL import Image

from bot.engine import Rejection, get_game
from bot.engine.contract import Code
from bot.engine.registry import GAME_MODULES
from bot.i18n import t
from bot.referee import replay as replays
from bot.terminal.records import cmd_picture, cmd_replay
from tests.discord.fake_discord import MANAGE_GUILD, FakeMessage
from tests.discord.harness import private_lines

GAMES = [importlib.import_module(module).GAME.name for module in GAME_MODULES]
#: the people's decisions made before the replay is looked at (the bots' come besides)
PEOPLE_MOVES = 3
FIRST, PREVIOUS, NEXT, LAST, GOTO = range(5)
PUBLIC, PLAYER, MODERATOR = range(3)


# ---------------------------------------------------------------------------------------------- helpers
async def in_play(h, game: str, moves: int = PEOPLE_MOVES) -> int:
    """A table of ``game``, Alice (seat 0), the bots the game needs and Bob, after ``moves`` of the
    people's decisions (the game's own bot choices, seeded) or its end."""
    table = await h.new_table(h.alice, game, bots=max(0, get_game(game).min_seats - 2))
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    engine, rng, made = get_game(game), random.Random(f"replay:{game}"), 0
    while made < moves:
        await h.bot.wait_for_bots()
        row = await h.table(table.id)
        if row.status != "active":
            break
        state, seats = await h.store.state(table.id), await h.store.seats(table.id)
        due = [p.seat for p in engine.to_act(state) if not seats[p.seat].is_bot]
        if not due:
            h.bot.schedule_bots(table.id)
            continue
        result = await h.bot.referee.act(table.id, seats[due[0]].user_id, engine.bot_action(state, due[0], rng),
                                         expected_version=row.version, seat=due[0])
        if isinstance(result, Rejection):
            assert result.code == Code.STALE, result
            continue
        h.bot.schedule_bots(table.id)
        made += 1
    await h.settled()
    return table.id


async def terminal_replay(h, capsys, table_id: int, *, seat: int | None = None, moderator: bool = False) -> list[str]:
    capsys.readouterr()
    args = argparse.Namespace(table=table_id, seat=seat, moderator=moderator, user="terminal-mod", locale="ru")
    assert await cmd_replay(args, h.settings) == 0
    return capsys.readouterr().out.splitlines()


async def terminal_picture(h, tmp_path, table_id: int, version: int, seat: int | None) -> bytes:
    out = tmp_path / f"t{table_id}-v{version}-s{seat}.png"
    args = argparse.Namespace(table=table_id, seat=seat, public=seat is None, version=version, out=str(out),
                              locale="ru")
    assert await cmd_picture(args, h.settings) == 0
    return pixels(out.read_bytes())


def pixels(data: bytes) -> tuple:
    """A picture's size and pixels: the terminal writes PNG, Discord is sent the same pixels as lossless WebP."""
    with Image.open(io.BytesIO(data)) as image:
        return image.size, image.convert("RGB").tobytes()


def code_lines(content: str) -> list[str]:
    """The step's lines: the first code block of the message."""
    return content.split("```\n", 1)[1].split("\n```", 1)[0].splitlines()


def button(message: FakeMessage, which: int) -> dict:
    return next(c for c in message.items() if c["custom_id"].startswith("j:rp:")
                and c["custom_id"].endswith(f":{which}"))


async def open_replay(h, user, table_id: int) -> FakeMessage:
    ix = await h.fake.slash(user, "table replay", table=table_id)
    message = await ix.answer()
    assert message is not None and message.ephemeral_for == user.id, ix.shown
    return message


async def press(h, user, message: FakeMessage, which: int) -> FakeMessage:
    ix = await h.fake.click(user, message, custom_id=button(message, which)["custom_id"])
    await ix.answer()
    return h.fake.messages[message.id]


async def every_step(h, user, message: FakeMessage) -> list[tuple[str, bytes | None]]:
    """⏮, then ▶ until it is disabled: each step's text and picture."""
    message = await press(h, user, message, FIRST)
    seen = []
    while True:
        seen.append((message.content, pixels(message.attachments[0]["data"]) if message.attachments else None))
        if button(message, NEXT).get("disabled"):
            return seen
        message = await press(h, user, message, NEXT)


async def looks_at(h, table_id: int) -> list[tuple[str, str]]:
    """The moderation log's looks at the table's hidden state: (who, what)."""
    rows = await h.store.conn.execute_fetchall(
        "SELECT moderator, data FROM moderation WHERE table_id = ? AND action = 'hidden_view' ORDER BY id",
        (table_id,))
    return [(r[0], r[1]) for r in rows]


async def crafted(h, user, channel_id: str, custom_id: str, *, values: list[str] | None = None) -> FakeMessage:
    """A click with a custom_id of the user's own making; the message it lands on, as it then reads."""
    if values is None:
        message = h.fake.crafted_message(channel_id, [custom_id])
        ix = await h.fake.click(user, message, custom_id=custom_id)
    else:
        message = h.fake.crafted_message(channel_id, [custom_id], component_type=3)
        ix = await h.fake.choose(user, message, values, custom_id=custom_id, crafted=True)
    await ix.answer()
    return h.fake.messages[message.id]


# ---------------------------------------------------------------------------------------------- the tests
@pytest.mark.long
@pytest.mark.parametrize("game", GAMES)
async def test_every_step_is_the_terminals_and_the_other_hand_never_shows(harness, capsys, tmp_path, game):
    h, fake = harness, harness.fake
    table_id = await in_play(h, game)
    table = await h.table(table_id)
    assert table.status == "active"
    seats = await h.store.seats(table_id)

    # Alice: her seat's replay, step by step, is the terminal's --seat 0, line for line and picture for picture
    steps = await every_step(h, h.alice, await open_replay(h, h.alice, table_id))
    expected = (await terminal_replay(h, capsys, table_id, seat=0))[1:]
    assert [line for content, _ in steps for line in code_lines(content)] == expected
    entries = (await replays.load(h.bot.referee, table, seat=0, moderator=False)).entries
    assert len(entries) == len(steps)
    for (content, png), entry in zip(steps, entries):
        assert png == await terminal_picture(h, tmp_path, table_id, entry.version, 0), content

    # Bob, at every step: none of Alice's private lines, his own picture; forged ids asking for her seat or for
    # a moderator's view are refused with no picture and nothing of hers
    bob = next(s.seat for s in seats if s.user_id == f"discord:{h.bob.id}")
    hers = [line for to, line in await private_lines(h, table) if 0 in to and bob not in to]
    mine = await open_replay(h, h.bob, table_id)
    bob_entries = (await replays.load(h.bot.referee, table, seat=bob, moderator=False)).entries
    # Bob plays here: a moderator's view is refused to him as to a moderator seated at the table
    refused_texts = {t("replay.reject.not_yours", "ru"), t("moderation.reject.seated", "ru", table=table_id)}
    thread = table.thread_id
    for step, ((content, png), entry) in enumerate(zip(await every_step(h, h.bob, mine), bob_entries)):
        assert not any(line in content for line in hers), (step, content)
        assert png == await terminal_picture(h, tmp_path, table_id, entry.version, bob)
        for forged in (f"j:rp:{table_id}:{PLAYER}:1:{step}:{NEXT}", f"j:rp:{table_id}:{MODERATOR}:1:{step}:{FIRST}",
                       f"j:rp:{table_id}:{MODERATOR}:0:{step}:{LAST}", f"j:rp:{table_id}:{PUBLIC}:1:{step}:{NEXT}",
                       f"j:rp:{table_id}:7:1:{step}:{NEXT}", f"j:rp:{table_id}:{PLAYER}:2:{step}:9"):
            landed = await crafted(h, h.bob, thread, forged)
            assert landed.content.removeprefix("✋ ") in refused_texts, (forged, landed.content)
            assert not landed.attachments and not landed.items()
        landed = await crafted(h, h.bob, thread, f"j:rps:{table_id}:{MODERATOR}:{step}", values=["1"])
        assert landed.content.removeprefix("✋ ") in refused_texts and not landed.attachments
    assert not any(line in m.content for m in fake.messages.values() if m.ephemeral_for == h.bob.id
                   for line in hers)


async def test_the_public_and_a_moderator_see_what_the_terminal_shows_them_and_the_look_is_logged(
        harness, capsys, tmp_path):
    h, fake = harness, harness.fake
    table_id = await in_play(h, "gwent", 4)
    table = await h.table(table_id)

    steps = await every_step(h, h.carol, await open_replay(h, h.carol, table_id))
    assert [line for content, _ in steps for line in code_lines(content)] == \
        (await terminal_replay(h, capsys, table_id))[1:]
    public = (await replays.load(h.bot.referee, table, seat=None, moderator=False)).entries
    assert [png for _, png in steps] == [await terminal_picture(h, tmp_path, table_id, e.version, None)
                                        for e in public]
    assert not any(f"[{e.version}]" in content for (content, _), e in zip(steps, public) if e.version)

    mod = fake.add_user("Mod", moderator=True)
    looks = len(await looks_at(h, table_id))
    message = await open_replay(h, mod, table_id)
    select = message.find(prefix="j:rps:")
    assert [o["label"] for o in select["options"]][1:] == [t("replay.as.seat", "ru", name=s.name)
                                                           for s in await h.store.seats(table_id)]
    steps = await every_step(h, mod, message)
    terminal = (await terminal_replay(h, capsys, table_id, moderator=True))[1:]
    shown = [line for content, _ in steps for line in code_lines(content)]
    assert shown == terminal[:len(shown)] and any("🔒" in line for line in shown)
    logged = await looks_at(h, table_id)
    # the opening look, then each step shown (⏮ and every ▶), then the terminal's own
    assert len(logged) - looks == 1 + len(steps) + 1
    assert {json.loads(data)["what"] for _, data in logged[looks:]} == {"replay"}
    assert {who for who, _ in logged[looks:-1]} == {f"discord:{mod.id}"}

    # the picture as Bob saw it, at the last step: his seat's view
    ix = await fake.choose(mod, fake.messages[message.id], ["2"], prefix="j:rps:")
    await ix.answer()
    shown = fake.messages[message.id]
    moderator = (await replays.load(h.bot.referee, table, seat=None, moderator=True)).entries
    assert pixels(shown.attachments[0]["data"]) == await terminal_picture(h, tmp_path, table_id, moderator[-1].version, 1)
    assert shown.find(prefix="j:rp:")["custom_id"].startswith(f"j:rp:{table_id}:{MODERATOR}:2:")

    # "What if…" from the step shown, for the moderator only: a trial of the position at that step's version
    assert shown.find(custom_id=f"j:wiv:{table_id}:{moderator[-1].version}")
    assert not (await open_replay(h, h.carol, table_id)).find(prefix="j:wiv:")
    trial = await fake.click(mod, shown, custom_id=f"j:wiv:{table_id}:{moderator[-1].version}")
    await trial.answer()
    assert trial.replies and all(r.ephemeral_for == mod.id for r in trial.replies)


async def test_the_buttons_at_the_first_and_the_last_step_and_going_to_a_move(harness):
    h, fake = harness, harness.fake
    table_id = await in_play(h, "claygod", 4)
    message = await open_replay(h, h.carol, table_id)
    last = (await replays.load(h.bot.referee, await h.table(table_id), seat=None, moderator=False))
    assert f"{len(last.entries)} из {len(last.entries)}" in message.content  # opened at the last step
    assert [bool(button(message, b).get("disabled")) for b in (FIRST, PREVIOUS, NEXT, LAST)] == \
        [False, False, True, True]
    message = await press(h, h.carol, message, FIRST)
    assert "шаг 1 из" in message.content
    assert [bool(button(message, b).get("disabled")) for b in (FIRST, PREVIOUS, NEXT, LAST)] == \
        [True, True, False, False]
    message = await press(h, h.carol, message, LAST)
    assert f"шаг {len(last.entries)} из" in message.content

    # "go to move": a form; its answer shows the step of that move
    ix = await fake.click(h.carol, message, custom_id=button(message, GOTO)["custom_id"])
    await ix.answer()
    assert ix.modal is not None and ix.modal["custom_id"].startswith(f"j:rpgo:{table_id}:{PUBLIC}:0:")
    answer = await fake.submit(h.carol, ix, {"move": "2"})
    await answer.answer()
    shown = fake.messages[message.id]
    step = last.step_of_move(2)
    assert f"шаг {step + 1} из" in shown.content and code_lines(shown.content)[0].startswith("2. ")
    # a number that names no move: the same step, and why
    ix = await fake.click(h.carol, shown, custom_id=button(shown, GOTO)["custom_id"])
    await ix.answer()
    answer = await fake.submit(h.carol, ix, {"move": "999"})
    await answer.answer()
    shown = fake.messages[message.id]
    assert f"шаг {step + 1} из" in shown.content and "999" in shown.content and shown.attachments
    # a form opened before a restart is answered after it
    ix = await fake.click(h.carol, shown, custom_id=button(shown, GOTO)["custom_id"])
    await ix.answer()
    await h.restart()
    answer = await fake.submit(h.carol, ix, {"move": "1"})
    await answer.answer()
    assert f"шаг {last.step_of_move(1) + 1} из" in fake.messages[message.id].content
    # a forged form asking for Alice's seat: refused
    answer = await fake.submit(h.carol, ix, {"move": "1"}, custom_id=f"j:rpgo:{table_id}:{PLAYER}:1:0")
    await answer.answer()
    assert fake.messages[message.id].content.removeprefix("✋ ") == t("replay.reject.not_yours", "ru")
    assert not fake.messages[message.id].attachments


async def test_a_finished_table_offers_its_replay_on_the_end_post_and_the_live_message_after_a_restart(harness):
    h, fake = harness, harness.fake
    table_id = await in_play(h, "raiders", 10_000)
    table = await h.table(table_id)
    assert table.status == "finished"
    live = await h.store.panel(table_id, -1)
    end = fake.in_channel(table.thread_id)[-1]
    for message in (fake.messages[live.message_id], end):
        # the replay, and beside it only the "Why?" of what the message cites: nothing to play any more
        ids = [c["custom_id"] for c in message.items()]
        assert ids[0] == f"j:replay:{table_id}" and all(i.startswith("j:why") for i in ids[1:]), ids
    await h.restart()
    ix = await fake.click(h.carol, end, custom_id=f"j:replay:{table_id}")
    message = await ix.answer()
    assert message.ephemeral_for == h.carol.id and message.attachments
    assert "как видели все" in message.content
    message = await press(h, h.carol, message, PREVIOUS)
    steps = len((await replays.load(h.bot.referee, table, seat=None, moderator=False)).entries)
    assert f"шаг {steps - 1} из {steps}" in message.content

    # a seated player is shown their own seat; a moderator seated there is a player too: never the moderator's
    # view, not even by a forged id
    h.alice.permissions_in[fake.guild_id] = h.alice.permissions | MANAGE_GUILD
    ix = await fake.click(h.alice, fake.messages[live.message_id], custom_id=f"j:replay:{table_id}")
    opened = await ix.answer()
    assert "глазами игрока Alice" in opened.content and not opened.find(prefix="j:rps:")
    landed = await crafted(h, h.alice, table.thread_id, f"j:rp:{table_id}:{MODERATOR}:0:0:{NEXT}")
    assert not landed.attachments and landed.content.startswith("✋") and not await looks_at(h, table_id)
