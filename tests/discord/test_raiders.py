"""Raiders through the fake Discord: a capture opens the interrupt window and every player answers it through
their buttons (a шняга where one can be played, then a pass each); the capture resolves only after the last
pass, and no hand reaches anyone else."""
from bot.engine import get_game
from tests.discord.harness import assert_private_stays_private

GAME = get_game("raiders")


async def _do(h, table, user, wanted):
    choices = await h.open_choices(user, table)
    _seat, _version, legal = await h.bot.referee.legal(table.id, f"discord:{user.id}")
    assert wanted in legal, f"{wanted} is not offered to {user.name}: {legal}"
    await h.pick(user, choices, legal.index(wanted))
    await h.settled()


async def test_a_capture_window_answered_by_every_player(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "raiders")
    await h.join(h.bob, table)
    await h.join(h.carol, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    by_seat = {s.seat: u for s in await h.store.seats(table.id)
               for u in (h.alice, h.bob, h.carol) if s.user_id == f"discord:{u.id}"}
    state = await h.store.state(table.id)
    mover = state["turn"]["seat"]
    capture = next(a for a in GAME.legal_actions(state, mover) if a["type"] == "capture")
    await _do(h, table, by_seat[mover], capture)

    state = await h.store.state(table.id)
    assert sorted(p.seat for p in GAME.to_act(state)) == [0, 1, 2], "everyone is asked, whatever they hold"
    # each player's pass is one button among their choices; a seat that can play a шняга plays one first
    played = 0
    for seat in ((mover + 1) % 3, (mover + 2) % 3, mover):
        state = await h.store.state(table.id)
        legal = GAME.legal_actions(state, seat)
        shnyaga = next((a for a in legal if a["type"] == "shnyaga"), None)
        if shnyaga and not played:
            await _do(h, table, by_seat[seat], shnyaga)
            played += 1
            state = await h.store.state(table.id)
            while state["window"] and state["window"]["owe"]:
                owed = state["window"]["owe"]["seat"]
                await _do(h, table, by_seat[owed], GAME.legal_actions(state, owed)[-1])
                state = await h.store.state(table.id)
            assert state["window"]["passed"] == [], "a шняга gives everyone another say"
    for _round in range(2):
        for seat in range(3):
            state = await h.store.state(table.id)
            if state["window"] and seat not in state["window"]["passed"]:
                await _do(h, table, by_seat[seat], {"type": "pass"})
    state = await h.store.state(table.id)
    assert state["window"] is None and state["turn"]["captured"]

    thread = "\n".join(text for m in fake.in_channel(table.thread_id) for text in m.history)
    assert ": захват «" in thread and thread.count(": пас.") >= 3
    assert "Ждём ответа на карту" in thread or "Ответ на карту" in thread
    await assert_private_stays_private(h, table, [h.alice, h.bob, h.carol])
