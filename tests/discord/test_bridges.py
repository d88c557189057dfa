"""Bridges through the fake Discord: two players choose their characters and spend their action points in the
same phase through the buttons, interleaved; the neutral phase's account reaches the thread."""
from bot.engine import get_game
from tests.discord.harness import assert_private_stays_private

GAME = get_game("bridges")


async def _do(h, table, user, wanted):
    """Click Act as ``user`` and pick exactly ``wanted`` among its choices (confirming a final one)."""
    choices = await h.open_choices(user, table)
    _seat, _version, legal = await h.bot.referee.legal(table.id, f"discord:{user.id}")
    assert wanted in legal, f"{wanted} is not offered to {user.name}: {legal}"
    await h.pick(user, choices, legal.index(wanted))
    await h.settled()


async def test_two_players_act_in_the_same_phase_through_the_buttons(harness):
    h, fake = harness, harness.fake
    # phase_end=explicit (BR-1): the last part ends a phase with AP left, which the book's default refuses
    table = await h.new_table(h.alice, "bridges", options="phase_end=explicit")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    state = await h.store.state(table.id)
    assert state["phase"] == "choose" and sorted(p.seat for p in GAME.to_act(state)) == [0, 1]

    # both are asked at once: Bob chooses first, then Alice may not take his class
    await _do(h, table, h.bob, {"type": "choose", "cls": "scout"})
    _seat, _version, legal = await h.bot.referee.legal(table.id, f"discord:{h.alice.id}")
    assert {"type": "choose", "cls": "scout"} not in legal
    await _do(h, table, h.alice, {"type": "choose", "cls": "burilla"})
    state = await h.store.state(table.id)
    assert state["phase"] == "actions" and state["round"] == 1
    assert sorted(p.seat for p in GAME.to_act(state)) == [0, 1]

    # interleaved: Alice 1 AP, Bob 2 AP, Alice her last one (§1.2.1); the action that spends the last AP ends the
    # phase (zero_ap: end, BR-1): nobody presses End, and no End is recorded (issue 35)
    await _do(h, table, h.alice, {"type": "move", "to": "chs"})
    await _do(h, table, h.bob, {"type": "move", "to": "chs"})
    await _do(h, table, h.bob, {"type": "move", "to": "BSE"})
    state = await h.store.state(table.id)
    assert [p.seat for p in GAME.to_act(state)] == [0] and state["round"] == 1 and state["chars"][1]["done"]
    await _do(h, table, h.alice, {"type": "move", "to": "BSE"})
    state = await h.store.state(table.id)
    assert state["round"] == 2 and sorted(p.seat for p in GAME.to_act(state)) == [0, 1]
    rows = await h.store.conn.execute_fetchall(
        "SELECT user_id, action FROM actions WHERE table_id = ? ORDER BY version", (table.id,))
    assert not [action for _user, action in rows if '"end"' in action]

    # the neutral phase is told on the live message, edited: a plain line per boss (the log keeps why), one line
    # for all, and the new round's board; the thread gets no post of that board (issue 35)
    posts = fake.in_channel(table.thread_id)
    live = posts[0]
    assert "Крабулон: ждёт" in live.content and "Ход боссов:" in live.content and "Раунд 2" in live.content
    assert "приоритет" not in live.content and "[chs]" not in live.content
    assert "Ближний сундук" in "\n".join(live.history)
    assert not [m for m in posts[1:] if "Раунд 2" in m.content or m.content.startswith("📋")]

    # ending with AP left (option explicit) asks for a confirmation first (BR-1)
    choices = await h.open_choices(h.bob, table)
    _seat, _version, legal = await h.bot.referee.legal(table.id, f"discord:{h.bob.id}")
    await h.pick(h.bob, choices, legal.index({"type": "end"}), confirm=False)
    state = await h.store.state(table.id)
    assert not state["chars"][1]["done"], "not ended before the confirmation"
    await assert_private_stays_private(h, table, [h.alice, h.bob])
