"""Out-of-turn windows that cost nothing (issue 27, bot/discord/windows.py): a Raiders interrupt window with a
deadline appears in every player's existing control message, edited, and sends nobody a new DM; every seat it
asks is offered "Pass until the turn ends" (bot/referee/standing.py); nothing public, nor how often anyone's
DMs are touched, differs whether or not a seat holds an answer; and the next player's ping opens with the
moves since their last decision (bot/discord/recap.py)."""
import random
import re

from bot.engine import get_game

GAME = get_game("raiders")


def _answers(deck, pdeck):
    """How many answers besides the pass Bob (seat 1) has in the window Alice's first capture opens, with the
    fighter deck ``deck`` (top first) and the property deck ``pdeck``; and that capture."""
    state = GAME.initial_state(3, seed="w", stack={"first": 0, "deck": deck, "properties": pdeck},
                               options={"window_seconds": 600}).state
    capture = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "capture")
    return len(GAME.legal_actions(GAME.apply(state, 0, capture, now=0.0).state, 1)) - 1, capture


def _decks():
    """Two deals alike in everything but Bob's hand: with it he can answer the window, without it not (every
    Raiders card has a шняга; whether it can be applied in that window is what differs)."""
    state = GAME.initial_state(3, seed="a", stack={"first": 0}).state
    hands = [p["hand"] for p in state["players"]]
    deck = [c for hand in hands for c in hand] + [state["deck"][-1]] + state["deck"][:-1]  # the trump was on top
    pdeck = list(state["pdeck"])
    assert _answers(deck, pdeck)[0] > 0
    bobs, dealt = list(range(6, 12)), sum(len(h) for h in hands) + 1
    rng = random.Random(1)
    for _ in range(300):
        pick = rng.sample(bobs + list(range(dealt, len(deck))), 6)
        other = list(deck)
        for j, i in zip(bobs, pick):
            other[j] = deck[i]
        for j, i in zip([i for i in pick if i not in bobs], [j for j in bobs if j not in pick]):
            other[j] = deck[i]
        assert sorted(other) == sorted(deck)
        if _answers(other, pdeck)[0] == 0 and _answers(other, pdeck)[1] == _answers(deck, pdeck)[1]:
            return pdeck, deck, other
    raise AssertionError("no deal without an answer for Bob")


async def _table(h, users, stack):
    # a Discord table plays by correspondence: its windows close by themselves after 2 hours (RD-25)
    table = await h.new_table(users[0], "raiders")
    for user in users[1:]:
        await h.join(user, table)
    started = await h.bot.referee.start(table.id, f"discord:{users[0].id}", moderator=True, stack=stack)
    assert not hasattr(started, "code"), started
    await h.settled()
    return await h.table(table.id)


async def _click(h, user, table, wanted):
    state = await h.store.state(table.id)
    seat = next(s.seat for s in await h.store.seats(table.id) if s.user_id == f"discord:{user.id}")
    legal = GAME.legal_actions(state, seat)
    control = next(m for m in reversed(h.fake.dms(user)) if m.find(prefix="j:") and f"№{table.id}" in m.content)
    await h.pick(user, control, legal.index(wanted))
    await h.settled()


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
        table = await _table(h, users, {"first": 0, "deck": deck, "properties": pdeck})
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
