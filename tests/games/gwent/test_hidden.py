"""Hidden information: hands, decks, exchange candidates, Eredin's pick and the Emperor's reveals reach only
the seats allowed to see them, in views, events, labels and the rendered board."""
import random

from bot.engine import visible_to
from bot.engine.playout import play
from bot.games.gwent import GAME
from bot.games.gwent.cards import catalogue

from .helpers import NAMES

PRIVATE_KINDS = {"dealt", "drew", "candidates", "mulligan_swap", "chose", "cancel_returned", "setup_step"}


def _events(po):
    events = list(GAME.initial_state(2, seed=po.initial["rng"]["seed"], options=po.initial["options"],
                                     now=1_700_000_000.0).events)
    state = po.initial
    for step in po.steps:
        applied = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        events += applied.events
        state = applied.state
    return events


def test_private_events_never_go_to_the_other_seat_or_the_channel():
    for variant in ("standard", "hardgwent"):
        po = play(GAME, 2, seed=f"hidden-{variant}", options={"variant": variant}, bot_seed=3)
        for e in _events(po):
            if e["kind"] in PRIVATE_KINDS:
                assert e["to"] is not None and len(e["to"]) == 1, e
                assert e["data"]["seat"] in e["to"]
            if e["kind"] == "revealed":  # named in the game thread (§7)
                assert e["to"] is None
            if e["kind"] == "shuffled":
                assert e["to"] == []


def test_the_other_seat_never_sees_a_hand_in_views_or_on_the_board():
    po = play(GAME, 2, seed="hidden-view", options={"variant": "hardgwent"}, bot_seed=5)
    for state in po.states[::4]:
        if not state["hand"][0]:
            continue
        for seat in (None, 1):
            view = GAME.view(state, seat)
            assert view["hand"] is None or all(c["uid"] in state["hand"][1] for c in view["hand"])
            assert view.get("candidates") in (None, []) or all(c["uid"] in state["cand"][1] for c in view["candidates"])
        rng = random.Random(1)
        for seat in (None, 0, 1):
            variant = GAME.unseen_variant(state, seat, rng)
            for full in (False, True):
                assert GAME.render_view(GAME.view(variant, seat), "ru", NAMES, full=full) == \
                    GAME.render_view(GAME.view(state, seat), "ru", NAMES, full=full)


def test_spectator_board_names_no_card_of_any_hand():
    po = play(GAME, 2, seed="hidden-text", options={}, bot_seed=7)
    state = next(s for s in po.states if s["phase"] == "play" and s["turn_no"] == 1)
    # words joined again where a line was wrapped; the full board, which names the most cards
    text = " ".join(GAME.render_view(GAME.view(state, None), "en", NAMES, full=True).split())
    on_board = {state["cards"][u]["id"] for side in (0, 1) for row in state["rows"][side].values() for u in row}
    for seat in (0, 1):
        for uid in state["hand"][seat]:
            cid = state["cards"][uid]["id"]
            if cid not in on_board:
                assert catalogue().card(cid).name_en not in text


def test_public_events_render_for_everyone_and_private_ones_only_for_their_seat():
    po = play(GAME, 2, seed="hidden-render", options={"variant": "hardgwent"}, bot_seed=2)
    for e in _events(po):
        line = GAME.render_event(e, "uk", NAMES)
        assert line is None or "gwent." not in line
        if e["kind"] == "drew":
            assert not visible_to(e, None) and not visible_to(e, 1 - e["data"]["seat"])
