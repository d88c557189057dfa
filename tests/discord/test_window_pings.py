"""Windows that reach whom they are about (issue 35, bot/discord/windows.py): the owner of the property a Raiders
capture attacks gets one new DM for the window, opening with what happened and until when, and nobody else is
pinged; the live message names the seats the window still waits for and its deadline; /table windows sets a
player's window preference."""
import sqlite3

from bot.engine import get_game
from tests.discord.support import stacked_table
from tests.discord.window_deals import _click

GAME = get_game("raiders")


async def _bob_owns_a_property(h, table):
    """The dealt position with the property on the table made Bob's, guarded by a fighter from his hand: a
    test-only shortcut (as bloodwood_table in test_out_of_turn) to a position the record reaches after a few
    turns; it is still Alice's turn, and she may attack it."""
    from bot.games.raiders.cards import fighter
    from bot.storage.store import pack_state

    state = await h.store.state(table.id)
    guard = next(c for c in state["players"][1]["hand"] if fighter(state, c).is_fighter)
    state["players"][1]["hand"].remove(guard)
    state["props"][0].update(guard=guard, owner=1)
    GAME.check_invariants(state)
    await h.store.conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                               (pack_state(state), table.id, state["version"]))
    await h.store.conn.commit()
    h.bot.referee.forget(table.id)
    return state


def _owner(state, prop):
    return next(p for p in state["props"] if p["card"] == prop)["owner"]


def _waiting(live):
    return [line for line in live.content.splitlines() if line.startswith("⏳ Ждём ответа:")]


async def test_the_owner_of_an_attacked_property_is_pinged_once_per_window_and_the_live_message_names_the_awaited(
        harness):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol]
    table = await stacked_table(h, "raiders", users, {"first": 0})
    state = await _bob_owns_a_property(h, table)
    h.new_pings(table)
    capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture" and _owner(state, a["prop"]) == 1)
    before = {u.name: {m.id for m in fake.dm_history(u)} for u in users}
    await _click(h, h.alice, table, capture)
    view = GAME.view(await h.store.state(table.id), None)
    assert {s for p in view["to_act"] for s in p.get("about", [])} == {1}, "the window is about Bob"
    assert h.new_pings(table) == [h.bob.id], "Bob alone is pinged: the window is about his property"
    fresh = [m for m in fake.dm_history(h.bob) if m.id not in before["Bob"]]
    assert len(fresh) == 1, [m.content for m in fresh]
    first = fresh[0].content.splitlines()[0]
    assert first.startswith(f"⚡ Стол №{table.id}, Рейдеры: ") and "Alice" in first and " UTC." in first, first
    assert "это касается вас" in first and ". —" not in first
    assert fresh[0].find(prefix="j:") is not None, "his choices come with it"
    assert {m.id for m in fake.dm_history(h.carol)} == before["Carol"], "Carol gets no new DM"
    live = h.turn_message(table)
    assert len(_waiting(live)) == 1 and all(u.name in _waiting(live)[0] for u in users), live.content
    await _click(h, h.carol, table, {"type": "pass"})
    live = h.turn_message(table)
    assert "Carol" not in _waiting(live)[0] and "Bob" in _waiting(live)[0], "whom it still waits for"
    assert "<t:" in _waiting(live)[0], "and until when"
    for user in (h.alice, h.bob):
        await _click(h, user, table, {"type": "pass"})
    assert (await h.store.state(table.id))["window"] is None
    assert h.new_pings(table) == [], "nobody pinged again in that window, nor when Alice's turn goes on"
    assert not _waiting(h.turn_message(table)), "no window, no waiting line"
    told = [m for m in fake.dm_history(h.bob) if any(text.startswith("⚡") for text in m.history)]
    assert len(told) == 1, "one ping for the window"
    await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
    await h.settled()


async def test_a_window_about_nobody_pings_nobody(harness):
    """A capture of a property nobody owns yet is about no seat: the window is shown, never pinged."""
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol]
    table = await stacked_table(h, "raiders", users, {"first": 0})
    h.new_pings(table)
    state = await h.store.state(table.id)
    capture = next((a for a in GAME.legal_actions(state, 0) if a["type"] == "capture"
                    and next(p for p in state["props"] if p["card"] == a["prop"])["owner"] is None), None)
    assert capture is not None
    await _click(h, h.alice, table, capture)
    assert h.new_pings(table) == []
    assert not [m for u in users for m in fake.dm_history(u) if any(text.startswith("⚡") for text in m.history)]
    await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
    await h.settled()


async def test_table_windows_sets_the_players_preference_everywhere_or_at_one_table(harness):
    h, fake = harness, harness.fake
    reply = await (await fake.slash(h.bob, "table windows", mode="after", hours=2.5)).text()
    assert "за всеми столами" in reply and "2.5 ч" in reply, reply
    table = await stacked_table(h, "raiders", [h.alice, h.bob], {"first": 0})
    reply = await (await fake.slash(h.bob, "table windows", mode="held", table=table.id)).text()
    assert f"за столом №{table.id}" in reply, reply
    reply = await (await fake.slash(h.carol, "table windows", mode="ask", table=table.id)).text()
    assert reply.startswith("✋"), reply
    with sqlite3.connect(h.db) as conn:
        rows = conn.execute("SELECT user_id, table_id, mode, hours FROM window_preferences ORDER BY table_id").fetchall()
    assert rows == [(f"discord:{h.bob.id}", 0, "after", 2.5), (f"discord:{h.bob.id}", table.id, "held", 1.0)]
    await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
    await h.settled()


async def test_held_leaves_a_window_unshown_to_a_seat_without_an_answer_and_shows_it_to_one_with(harness):
    """Bob asked to be shown only windows he can answer: the same capture (of a property nobody owns) edits his
    control message where he holds an answer and leaves it as it was where he holds none; the moment the
    referee passes for him is the same in both (tests/referee/test_window_preferences.py)."""
    from tests.discord.window_deals import _decks

    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol]
    await (await fake.slash(h.bob, "table windows", mode="held", hours=3)).answer()
    pdeck, *decks = _decks()
    drawn = []
    for deck in decks:
        table = await stacked_table(h, "raiders", users, {"first": 0, "deck": deck, "properties": pdeck})
        state = await h.store.state(table.id)
        bobs = next(m for m in fake.dms(h.bob) if f"№{table.id}" in m.content)
        shown = len(bobs.history)
        capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
        await _click(h, h.alice, table, capture)
        assert 1 in [p.seat for p in GAME.to_act(await h.store.state(table.id))], "the window asks him all the same"
        drawn.append(len(bobs.history) - shown)
        await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
        await h.settled()
    assert drawn[0] >= 1 and drawn[1] == 0, drawn
