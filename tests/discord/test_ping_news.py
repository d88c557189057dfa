"""The ping says the news first (issue 35, item 3; bot/discord/recap.py): the control message posted anew to
ping a player opens with "▶ your move — table, game: the move that gave it to them" in the reader's language,
then the public moves since their last decision, each line whole, its prose within one phone screen; and at a
table's end every player gets one DM of their own with their result and rating change."""
from __future__ import annotations

import random

import pytest

from bot.discord import panels
from bot.discord.recap import SCREEN_ROWS, rows
from bot.engine import get_game
from bot.i18n import t
from bot.render.text import game_title
from bot.referee.service import Accepted
from bot.web.links import table_url
from tests.discord.harness import eventually
from tests.discord.support import BASE

GAMES = ("claygod", "gwent", "bridges", "bloodwood", "raiders")
STRETCH = 40  # decisions: enough for the move to pass to Bob (a Raiders turn is many steps and windows)


def first_line(message) -> str:
    return message.content.split("\n", 1)[0]


def new_pings(h, user, seen: set[str]) -> list:
    """``user``'s DMs that notified them since the last look (each looked at as first posted: not edited)."""
    fresh = [m for m in h.fake.dm_history(user) if m.pinged and m.id not in seen]
    seen.update(m.id for m in fresh)
    return [m for m in fresh if len(m.history) == 1]


async def public_lines(h, table, locale: str) -> set[str]:
    game, seats = get_game(table.game), await h.store.seats(table.id)
    return set(panels.public_lines(game, await h.bot.referee.history(table.id), seats, locale))


async def play(h, table, moves: int, want=None, *, seed: str = "p") -> None:
    """``moves`` decisions, each the game's bot choice (``want``: the first legal action it accepts instead)
    taken for whoever is asked first, through the referee as a click takes it, delivered before the next (a
    correspondence table: each move read before the next is made)."""
    game, rng = get_game(table.game), random.Random(seed)
    seats = await h.store.seats(table.id)
    for _ in range(moves):
        state = await h.store.state(table.id)
        if state.get("outcome") is not None:
            return
        seat = game.to_act(state)[0].seat
        action = next((a for a in game.legal_actions(state, seat) if want(a)), None) if want else None
        action = action or game.bot_action(state, seat, rng)
        assert isinstance(await h.bot.referee.act(table.id, seats[seat].user_id, action, seat=seat), Accepted)
        await h.settled()


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
async def test_every_turn_ping_opens_with_your_move_the_table_and_the_move_in_the_readers_language(
        claygod, harness, name):
    h = harness
    game = get_game(name)
    others = [h.carol, *(h.fake.add_user(n) for n in ("Dan", "Eve"))][:max(0, game.min_seats - 2)]
    table = await h.new_table(h.alice, name)
    for user in (h.bob, *others):  # people at every seat: Bloodwood's five too
        await h.join(user, table)
    await h.store.set_user(f"discord:{h.bob.id}", locale="en")  # Bob reads English, the others the server's Russian
    await h.start(h.alice, table)
    seen, checked = set(), {"ru": 0, "en": 0}
    for i in range(STRETCH):
        if checked["ru"] >= 2 and checked["en"] >= 2:
            break
        await play(h, table, 1, seed=f"{name}{i}")
        for user, locale in ((h.alice, "ru"), (h.bob, "en"), *((u, "ru") for u in others)):
            for ping in new_pings(h, user, seen):
                if ping.content.startswith("🏁"):  # the end's own DM (below)
                    continue
                if ping.content.startswith("⚡"):  # a window about this seat, not a turn (test_window_pings.py)
                    assert rows(ping.content) <= SCREEN_ROWS, ping.content
                    continue
                head = t("discord.ping.first", locale, table=table.id, game=game_title(game, locale))
                first = first_line(ping)
                if first != head:  # bare only where no move gave it (the table's first turn, a rollback)
                    assert first.startswith(head + ": "), first
                    assert first[len(head) + 2:] in await public_lines(h, table, locale), first  # a move of it
                prose = ping.content
                assert rows(prose) <= SCREEN_ROWS, f"{rows(prose)} rows:\n{prose}"
                checked[locale] += 1
    # Bridges asks its co-operative players together: the move passes to Bob only when Alice's step did not
    # already ask him, and may not in the stretch
    assert checked["ru"] and (checked["en"] or name == "bridges"), checked


async def test_a_gwent_round_result_appears_whole_in_the_next_ping(harness):
    h = harness
    game = get_game("gwent")
    table = await h.new_table(h.alice, "gwent")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    seen: set[str] = set()
    pings: list[str] = []
    for _ in range(40):  # the decks, then a pass whenever there is one: round 1 ends at once
        await play(h, table, 1, want=lambda a: a.get("type") == "pass")
        pings += [m.content for u in (h.alice, h.bob) for m in new_pings(h, u, seen)]
        ends = [e for e in await h.bot.referee.history(table.id) if e["kind"] in ("round_end", "round_draw",
                                                                                 "round_nilfgaard")]
        if ends and any("Раунд 1 " in p for p in pings):
            break
    line = panels.public_lines(game, [ends[0]], await h.store.seats(table.id), "ru")[0]
    told = [p for p in pings if "Раунд 1 " in p]
    assert told and all(line in p for p in told), (line, told)  # whole in every ping that tells it


def end_dms(h, user, table) -> list:
    return [m for m in h.fake.dm_history(user) if m.history[0].startswith(
        (f"🏁 Стол №{table.id},", f"🏁 Table #{table.id},"))]


# noqa below: ``linked`` is the fixture imported above, not a redefinition
async def test_every_player_is_told_the_end_once_a_zombie_seat_and_one_on_vacation_too(claygod, linked):  # noqa: F811
    h, fake = linked, linked.fake  # the bot serves the public pages (web.base_url): the notice links the table's
    table = await h.new_table(h.alice, "claygod", options="clock=1h clock_expiry=zombie vacation=2")
    await h.join(h.bob, table)
    await h.store.set_user(f"discord:{h.bob.id}", locale="en")
    await h.start(h.alice, table)
    game, seats = get_game("claygod"), await h.store.seats(table.id)
    alice, bob = (next(s.seat for s in seats if s.user_id == f"discord:{u.id}") for u in (h.alice, h.bob))
    while game.to_act(await h.store.state(table.id))[0].seat != bob:  # Alice's turn may be several steps
        await play(h, table, 1)
    answer = await (await fake.slash(h.alice, "game vacation", days=1, table=table.id)).text()
    assert "🏖️" in answer, answer                       # Alice is away
    h.clock.t += 2 * 3600                                 # Bob lets his hour run out: a bot takes his seat
    async def taken() -> bool:  # at the keeper's next look
        return (await h.store.seats(table.id))[bob].is_bot
    await eventually(taken, what="a bot to take Bob's seat")
    await h.settled()
    rng = random.Random(2)
    while (state := await h.store.state(table.id)).get("outcome") is None:  # played out, moves not waiting for
        seat = game.to_act(state)[0].seat                                    # their delivery (Alice's clock is
        user = (h.alice if seat == alice else h.bob).id                      # stopped by her vacation only)
        assert isinstance(await h.bot.referee.act(table.id, f"discord:{user}", game.bot_action(state, seat, rng),
                                                  seat=seat), Accepted)
    await h.settled()
    outcome = (await h.store.state(table.id))["outcome"]
    last = (await h.store.actions(table.id))[-1]
    for user, seat, locale in ((h.alice, alice, "ru"), (h.bob, bob, "en")):
        told = end_dms(h, user, table)
        assert len(told) == 1, [m.history[0] for m in told]
        text = told[0].content
        won = seat in outcome["winners"]
        assert text.split("\n")[0].endswith({"ru": ("ваша победа.", "вы проиграли."),
                                             "en": ("you won.", "you lost.")}[locale][0 if won else 1]), text
        assert ("Ваш рейтинг: 1\u202f" if locale == "ru" else "Your rating: 1,") in text, text  # rated: before → after
        assert " → " in text
        # a DM that notifies, but for the player whose own move ended the game (no self-ping: they saw it)
        assert told[0].pinged == ([] if seat == last.seat else [user.id]), (seat, last.seat)
        assert f"<{table_url(BASE, table.id)}>" in text, text
    assert "a bot played your seat" in end_dms(h, h.bob, table)[0].content
    # a crash after Discord took the end notices, before the outbox recorded them: not sent twice
    rows_ = await h.store.conn.execute_fetchall(
        "SELECT id FROM outbox WHERE table_id = ? AND kind = 'end'", (table.id,))
    assert len(rows_) == 2
    for (outbox_id,) in rows_:
        await h.unrecord(outbox_id)
    await h.restart()
    await h.settled()
    assert len(end_dms(h, h.alice, table)) == 1 and len(end_dms(h, h.bob, table)) == 1


async def test_a_player_whose_dms_are_closed_is_told_the_end_in_the_end_post(harness):
    from tests.discord.support import started_toy
    from tests.discord.support import play_out

    h, fake = harness, harness.fake
    fake.dm_blocked.add(h.bob.id)
    table = await started_toy(h)
    await play_out(h, table)
    end_post = fake.in_channel(table.thread_id)[-1]
    assert f"🏁 <@{h.bob.id}>" in end_post.content and h.bob.id in end_post.pinged, end_post.content
    assert len(end_dms(h, h.alice, table)) == 1 and end_dms(h, h.bob, table) == []
