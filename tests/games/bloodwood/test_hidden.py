"""Hidden information over whole bot games: no view, event, board text or button label shown to a seat (or the
public) carries another seat's cards, a role it may not know, or the deck order."""
import json

import pytest

from bot.engine import visible_to
from bot.engine.playout import play
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import catalogue

from .helpers import NAMES

#: events that carry a hidden card or role, and so must never be public
PRIVATE_KINDS = {"dealt", "drew", "role", "leader_sight", "stolen_card", "cards_seen", "cards_returned",
                 "role_seen", "given_card", "deck_order"}
CARD_NAMES = sorted({c.name for c in catalogue().cards.values()}, key=len, reverse=True)


@pytest.fixture(scope="module")
def games():
    return [play(GAME, seats, seed=f"hidden-{seats}", bot_seed=seats, options=options)
            for seats, options in ((5, {}), (8, {"mirror": "reverse"}), (12, {"leaders": False}))]


def _all_events(po):
    state, events = po.initial, list(po.setup_events)
    for step in po.steps:
        result = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        state, events = result.state, events + result.events
    return events


def test_private_events_never_go_to_the_public(games):
    for po in games:
        events = _all_events(po)
        for e in events:
            if e["kind"] in PRIVATE_KINDS:
                assert e["to"] is not None and len(e["to"]) <= 2, e
        roles = po.initial["roles"]
        for e in events:
            if e["kind"] == "leader_sight":
                assert e["to"] == [e["data"]["seat"]] and roles[e["data"]["seat"]] in ("dracula", "alpha")
            if e["kind"] in ("role", "dealt", "drew", "cards_seen"):
                assert e["to"] == [e["data"]["seat"]]


def test_no_view_shows_another_seats_hand_or_an_unknown_role(games):
    for po in games:
        for state in po.states[::7]:
            for seat in [None, *range(state["seats"])]:
                view = GAME.view(state, seat)
                assert view["hand"] == (None if seat is None else state["hands"][seat])
                text = json.dumps(view)
                assert "decks\": {\"day\": " in text and '"rng"' not in text
                for s, player in enumerate(view["players"]):
                    if player["role"] is not None and state["outcome"] is None and seat != s:
                        assert seat is not None
                        leader = state["roles"][seat] in ("dracula", "alpha")
                        assert leader or [seat, s] in state["known"] or state["assigner"] == seat


def test_public_lines_and_boards_name_no_hidden_card(games):
    for po in games:
        state = po.initial
        for step in po.steps:
            result = GAME.apply(state, step["seat"], step["action"], now=step["now"])
            state = result.state
            for e in result.events:
                if visible_to(e, None):
                    line = GAME.render_event(e, "ru", NAMES)
                    if line and e["kind"] in ("draw", "gave", "stole", "voodoo_taken", "voodoo_returned"):
                        assert not any(name in line for name in CARD_NAMES), line
            board = GAME.render_view(GAME.view(state, None), "ru", NAMES, full=True)
            assert "Ваши карты" not in board
            for p in GAME.to_act(state):
                for action in GAME.legal_actions(state, p.seat):
                    label = GAME.describe_action(state, p.seat, action, "en")
                    named = [n for n in CARD_NAMES if n in label]
                    held = {catalogue().cards[c].name for c in state["hands"][p.seat]}
                    played = {catalogue().cards[state["in_flight"]["card"]].name} if state["in_flight"] else set()
                    assert set(named) <= held | played, (label, held)


def test_the_variant_used_by_the_no_leak_property_really_changes_hidden_things(games):
    import random

    state = games[2].states[40]
    rnd = random.Random(1)
    changed_hands = changed_roles = 0
    for _ in range(5):
        variant = GAME.unseen_variant(state, 0, rnd)
        changed_hands += variant["hands"][1:] != state["hands"][1:]
        changed_roles += variant["roles"] != state["roles"]
        assert variant["hands"][0] == state["hands"][0]
        assert json.dumps(GAME.view(variant, 0), sort_keys=True) == json.dumps(GAME.view(state, 0), sort_keys=True)
    assert changed_hands and changed_roles
