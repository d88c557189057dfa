"""Raiders deals and clicks shared by the out-of-turn window tests (test_windows.py, test_window_pings.py), whose
tables are dealt by ``support.stacked_table``: a Discord table plays by correspondence, so its windows close by
themselves after 2 hours (RD-25)."""
import random

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


async def _click(h, user, table, wanted):
    state = await h.store.state(table.id)
    seat = next(s.seat for s in await h.store.seats(table.id) if s.user_id == f"discord:{user.id}")
    legal = GAME.legal_actions(state, seat)
    control = next(m for m in reversed(h.fake.dms(user)) if m.find(prefix="j:") and f"№{table.id}" in m.content)
    await h.pick(user, control, legal.index(wanted))
    await h.settled()
