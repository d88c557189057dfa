"""Ratings in Discord: the change at the end of a rated table, /profile (one's own, another's, a hidden one),
/leaderboard with its page buttons."""
from __future__ import annotations

import random
import re

import pytest

from bot.engine import get_game
from bot.engine.board_text import display_width
from bot.referee.service import Accepted


async def played_claygod(h, first, second, seed):
    """A Clay God table between two members, played to its end by the game's bot choices (through the referee:
    what a click does), delivered."""
    table = await h.new_table(first, "claygod")
    await h.join(second, table)
    await h.start(first, table)
    game, rng, referee = get_game("claygod"), random.Random(seed), h.bot.referee
    seats = await h.store.seats(table.id)
    while (state := await h.store.state(table.id)).get("outcome") is None:
        seat = game.to_act(state)[0].seat
        assert isinstance(await referee.act(table.id, seats[seat].user_id, game.bot_action(state, seat, rng),
                                            seat=seat), Accepted)
    await h.settled()
    return await h.table(table.id), state["outcome"]


async def test_the_end_of_a_rated_table_shows_each_change(claygod, harness):
    h, fake = harness, harness.fake
    table, outcome = await played_claygod(h, h.alice, h.bob, "d1")
    winner = h.alice if outcome["winners"] == [0] else h.bob
    expected = {"Alice": "+69 → 1\u202f569?" if winner is h.alice else "\u221237 → 1\u202f463?",
                "Bob": "+69 → 1\u202f569?" if winner is h.bob else "\u221237 → 1\u202f463?"}
    posts = fake.in_channel(table.thread_id)
    closing = posts[-1].content
    assert "Рейтинг: " in closing, closing
    rating = next(part for part in closing.split("\n") if part.startswith("Рейтинг: "))
    # two new players: openskill's figures for a win and a loss (tests/ratings: by hand), shown as 1500 + 20·ordinal
    # (each name isolated, U+2068 … U+2069, as every name in a message)
    assert rating == "Рейтинг: " + " · ".join(f"\u2068{n}\u2069 {expected[n]}" for n in ("Alice", "Bob")), rating
    # the live message (the table's first post in its thread) says it too
    assert any("Рейтинг: " in m.content for m in posts if m is not posts[-1])


async def test_profile_own_another_and_hidden(claygod, harness):
    h, fake = harness, harness.fake
    table, _ = await played_claygod(h, h.alice, h.bob, "d2")
    ix = await fake.slash(h.alice, "profile")
    own = await ix.answer()
    assert own.ephemeral_for == h.alice.id
    assert "Профиль: \u2068Alice\u2069" in own.content and "Глиняный БОГ: Карты: 1" in own.content
    assert f"<#{table.thread_id}>" in own.content  # the recent table, linked to its thread
    assert len(own.attachments) == 1 and own.attachments[0]["filename"] == "rating-claygod.png"
    # a phone's line: a thread link shows as the thread's short name ("#12 Глиняный БОГ"), counted as such
    shown = re.sub(r"<#\d+>", "#12 Глиняный БОГ", own.content)
    assert all(display_width(line) <= 60 for line in shown.split("\n")), shown

    ix = await fake.slash(h.carol, "profile", player=h.bob, game="claygod")
    other = await ix.answer()
    assert "Профиль: \u2068Bob\u2069" in other.content and "рейтинговых 1 из 1" in other.content

    await (await fake.slash(h.bob, "my-profile", visible=False)).answer()
    hidden = await (await fake.slash(h.carol, "profile", player=h.bob)).text()
    assert hidden == "Профиль игрока \u2068Bob\u2069 скрыт." and "1\u202f" not in hidden
    mine = await (await fake.slash(h.bob, "profile")).text()
    assert "Ваш профиль скрыт" in mine and "Глиняный БОГ: Карты: 1" in mine
    board = await (await fake.slash(h.carol, "leaderboard", game="claygod")).text()
    assert "Alice" in board and "Bob" not in board  # a hidden profile is left out of the leaderboard
    await (await fake.slash(h.bob, "my-profile", visible=True)).answer()
    assert "Bob" in await (await fake.slash(h.carol, "leaderboard", game="claygod")).text()


@pytest.mark.long
async def test_leaderboard_pages_with_buttons(claygod, harness):
    h, fake = harness, harness.fake
    players = [fake.add_user(f"P{i:02d}") for i in range(12)]  # six tables: twelve rated players
    for i in range(0, 12, 2):
        await played_claygod(h, players[i], players[i + 1], f"lb{i}")
    ix = await fake.slash(h.alice, "leaderboard", game="claygod")
    first = await ix.answer()
    assert "стр. 1/2" in first.content and first.content.count("?") >= 10
    assert [c["label"] for c in first.items()] == ["Дальше ▶"]
    rows = [line for line in first.content.split("\n") if line[:1].isdigit()]
    assert len(rows) == 10 and rows[0].startswith("1. ") and all(display_width(r) <= 40 for r in rows)
    ix = await fake.click(h.alice, first, prefix="j:lb:")
    await ix.answer()
    second = fake.messages[first.id]
    assert "стр. 2/2" in second.content and [c["label"] for c in second.items()] == ["◀ Назад"]
    assert len([line for line in second.content.split("\n") if line[:1].isdigit()]) == 2
    bridges = await (await fake.slash(h.alice, "leaderboard", game="bridges")).text()
    assert "кооперативная" in bridges


async def test_a_casual_table_from_the_lobby_options(claygod, harness):
    h = harness
    table = await h.new_table(h.alice, "claygod", options="rated=no")
    assert (await h.table(table.id)).rated is False and (await h.table(table.id)).options.get("rated") is None
    assert "Рейтинговая: нет" in h.lobby(table).content
