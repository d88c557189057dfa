"""Building Bloodwood tables in a chosen position: stacked roles and first player, then hands, phase, DNA and
marks set by hand (cards are moved between zones, never created), so each test states exactly what it
checks."""
from __future__ import annotations

from bot.engine import visible_to
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import catalogue
from bot.games.bloodwood.state import back
from tests.support.engine import acting

NAMES = ["Аня", "Боб", "Вера", "Гена", "Дина", "Женя",
         "Зоя", "Иван", "Катя", "Лёва", "Маша", "Ника"]
NOW = 1000.0
#: 5 seats: the werewolves are the larger team (no leader), the vampires are led by Dracula
ROLES_5 = ["dracula", "werewolf", "vampire", "werewolf", "werewolf"]
ROLES_6 = ["dracula", "werewolf", "vampire", "alpha", "vampire", "werewolf"]


def table(seats=5, roles=None, first=0, options=None, hands=None, phase="day", **stack):
    """A table at the start of ``first``'s turn.  ``hands`` maps seats to the exact cards they hold (the
    cards come from the decks; the replaced ones go back); seats not listed keep their dealt cards."""
    roles = roles or {5: ROLES_5, 6: ROLES_6}.get(seats)
    full = {"rolls": {"bloodwood.first": [first]}, **stack}
    if roles:
        full["roles"] = roles
    state = GAME.initial_state(seats, seed="test", options=options or {}, now=NOW, stack=full).state
    for seat, cards in (hands or {}).items():
        set_hand(state, seat, cards)
    if phase != state["phase"]:
        state["phase"] = phase
    GAME.check_invariants(state)
    return state


def set_hand(state, seat, cards):
    """Give ``seat`` exactly ``cards``: its current cards go to the bottom of their decks, the wanted ones
    are taken from the decks (or the discard pile)."""
    for cid in state["hands"][seat]:
        state["decks"][back(cid)].append(cid)
    state["hands"][seat] = []
    for cid in cards:
        take_from_supply(state, cid)
        state["hands"][seat].append(cid)
    state["hands"][seat].sort()


def take_from_supply(state, cid):
    deck = state["decks"][back(cid)]
    if cid in deck:
        deck.remove(cid)
    else:
        state["discard"].remove(cid)


def put_mark(state, seat, mark, left=2, since=0):
    """Lay a Curse Mark / Chains / Tranquilizer in front of ``seat`` (the card comes from the supply)."""
    card = {"curse": "curse_mark", "chains": "chains", "sleep": "tranquilizer"}[mark]
    take_from_supply(state, card)
    if mark == "curse":
        state["curse"][seat] = {"left": left, "since": since}
    else:
        state[mark][seat] = True


def set_turn(state, seat):
    """Make it the start of ``seat``'s turn (same phase and count)."""
    state["turn"]["seat"] = seat
    state["step"] = {"kind": "turn", "opened": NOW, "seat": seat, "card": None}


apply, act, reject = acting(GAME, now=NOW + 1)


def run(state, *moves):
    """Apply (seat, action-dict) pairs in order; return the final state and all events."""
    events = []
    for who, action in moves:
        result = apply(state, who, **action)
        state = result.state
        events += result.events
    return state, events


def kinds(events):
    return [e["kind"] for e in events]


def event(events, kind):
    return next(e for e in events if e["kind"] == kind)


def public(events):
    return [e for e in events if visible_to(e, None)]


def seen_by(events, seat):
    return [e for e in events if visible_to(e, seat)]


def pending(state):
    return [(p.seat, p.kind, p.prompt) for p in GAME.to_act(state)]


def deck_size(deck):
    return sum(c.copies for c in catalogue().cards.values() if c.deck == deck)
