"""Out-of-turn windows that cost nothing (issue 27, bot/discord/windows.py): a Raiders interrupt window with a
deadline appears in every player's existing control message, edited, and sends nobody a new DM; every seat it
asks is offered "Pass until the turn ends" (bot/referee/standing.py); nothing public, nor how often anyone's
DMs are touched, differs whether or not a seat holds an answer; and the next player's ping opens with the
moves since their last decision (bot/discord/recap.py)."""
import re

from tests.discord.support import stacked_table
from tests.discord.window_deals import GAME, _click, _decks


def _shape(h, table, users):
    """What anyone but the players themselves can see, and how the players' DMs were touched (how many
    messages, how many times each was drawn), with the table's own number and the seed's hash taken out."""
    own = f"№{table.id}"

    def same(text):  # the seed's commitment differs with the deal, and says nothing about it
        text = re.sub(r"🔐 `[0-9a-f]+…`", "🔐 HASH", text.replace(own, "№N"))
        return re.sub(r"https://discord\.com/channels/\S+", "LINK", text)

    thread = [[same(text) for text in m.history] for m in h.fake.in_channel(table.thread_id)]
    touched = [[len(m.history) for m in h.fake.dms(u) if own in m.content] for u in users]
    return thread, touched


async def test_a_window_is_shown_in_place_and_looks_the_same_whether_or_not_a_seat_holds_an_answer(harness):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol]
    pdeck, *decks = _decks()
    shapes, offered = [], []
    for deck in decks:
        table = await stacked_table(h, "raiders", users, {"first": 0, "deck": deck, "properties": pdeck})
        h.new_pings(table)
        state = await h.store.state(table.id)
        capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
        before = {u.name: [m.id for m in fake.dms(u)] for u in users}
        await _click(h, h.alice, table, capture)
        state = await h.store.state(table.id)
        asked = GAME.to_act(state)
        assert sorted(p.seat for p in asked) == [0, 1, 2] and all(p.deadline for p in asked)
        assert h.new_pings(table) == [], "a window pings nobody"
        assert {u.name: [m.id for m in fake.dms(u)] for u in users} == before, "and makes no new DM"
        bobs = next(m for m in fake.dms(h.bob) if f"№{table.id}" in m.content)
        assert bobs.find(prefix="j:") is not None, "the window's choices are in Bob's control message"
        offered.append(len(GAME.legal_actions(state, 1)))
        # "Pass until the turn ends" is offered to him whatever he holds; he takes it (his own pass, recorded)
        await (await fake.click(h.bob, bobs, prefix=f"j:passall:{table.id}:")).answer()
        await h.settled()
        last = (await h.store.actions(table.id))[-1]
        assert (last.seat, last.user_id, last.action) == (1, f"discord:{h.bob.id}", {"type": "pass"})
        assert "все окна этого хода" in bobs.content
        for user in (h.carol, h.alice):
            await _click(h, user, table, {"type": "pass"})
        assert (await h.store.state(table.id))["window"] is None
        shapes.append(_shape(h, table, users))
        await _click(h, h.alice, table, {"type": "end"})
        bobs = [m for m in fake.dms(h.bob) if f"№{table.id}" in m.content]
        assert len(bobs) == 1 and bobs[0].id not in before["Bob"], "Bob's turn: a new control message, his ping"
        recap = bobs[0].content.split("```")[0]  # it opens with what happened since his pass, a line each
        assert "▸ \u2068Carol\u2069: пас." in recap and "▸ \u2068Alice\u2069: пас." in recap \
            and recap.count("\n▸ ") <= 6, recap
        await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
        await h.settled()
    assert offered[0] > 1 and offered[1] == 1, "Bob could answer at the first table only"
    assert shapes[0] == shapes[1], "something public, or the DMs' rhythm, differs when a seat holds an answer"
    assert fake.violations == []
