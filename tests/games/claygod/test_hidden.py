"""Hidden information: hands reach only their owner, the face-down table cards nobody (rule 1), the deck
order only the record; in views, events, boards, labels and the no-leak variant."""
import random

from bot.engine import visible_to
from bot.engine.canonical import dumps
from bot.engine.playout import play
from bot.games.claygod import GAME
from bot.games.claygod.cards import catalogue

from .helpers import NAMES

PRIVATE_TO_ONE = {"dealt", "drew"}
PRIVATE_TO_BOTH = {"gave", "swapped"}
RECORD_ONLY = {"shuffled", "table_cards_set", "table_card_set"}


def _events(po):
    events = list(GAME.initial_state(2, seed=po.initial["rng"]["seed"], options=po.initial["options"],
                                     now=1_700_000_000.0).events)
    state = po.initial
    for step in po.steps:
        applied = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        events += applied.events
        state = applied.state
    return events


def test_private_events_go_only_to_the_seats_allowed_to_see_them():
    seen = set()
    for i in range(6):
        po = play(GAME, 2, seed=f"hidden-{i}", bot_seed=i)
        for e in _events(po):
            seen.add(e["kind"])
            if e["kind"] in PRIVATE_TO_ONE:
                assert e["to"] == [e["data"]["seat"]], e
            elif e["kind"] in PRIVATE_TO_BOTH:
                assert e["to"] == [0, 1], e
            elif e["kind"] in RECORD_ONLY:
                assert e["to"] == [], e
            else:
                assert e["to"] is None, e
    assert {"dealt", "drew", "shuffled", "table_cards_set", "table_card_set", "gave"} <= seen


def test_public_events_name_only_cards_already_face_up():
    po = play(GAME, 2, seed="hidden-public", bot_seed=4)
    state, face_up = po.initial, set()
    for step in po.steps:
        applied = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        for e in applied.events:
            if e["kind"] in ("played", "discarded", "pandora"):
                face_up.add(e["data"]["card"])
            if e["to"] is None:
                named = {w for w in dumps(e["data"]).replace('"', " ").split() if w in catalogue().cards}
                assert named <= face_up, (e, named - face_up)
        state = applied.state


def test_views_and_boards_hide_the_other_hand_and_both_table_cards():
    po = play(GAME, 2, seed="hidden-view", bot_seed=5)
    rng = random.Random(1)
    for state in po.states[::3]:
        for seat in (None, 0, 1):
            view = GAME.view(state, seat)
            for s in (0, 1):
                assert view["players"][s]["hand"] == (state["players"][s]["hand"] if s == seat else None)
                assert view["players"][s]["table_card"] in ("face_down", None)
            variant = GAME.unseen_variant(state, seat, rng)
            for full in (False, True):
                assert GAME.render_view(GAME.view(variant, seat), "ru", NAMES, full=full) == \
                    GAME.render_view(view, "ru", NAMES, full=full)
            # words joined again where a line was wrapped; the full board, which names the most cards
            text = " ".join(GAME.render_view(view, "en", NAMES, full=True).split())
            hidden = [p["table_card"] for p in state["players"] if p["table_card"]]
            hidden += [c for s in (0, 1) if s != seat for c in state["players"][s]["hand"]]
            shown = set(state["discard"]) | (set(state["players"][seat]["hand"]) if seat is not None else set())
            shown_names = [catalogue().card(c).names["en"] for c in shown]
            for card in set(hidden) - shown:
                name = catalogue().card(card).names["en"]
                if not any(name in other for other in shown_names):  # "Eye" is part of "Dragon's Eye"
                    assert name not in text


def test_the_owner_does_not_see_its_own_table_card_and_labels_never_name_it():
    state = GAME.initial_state(2, seed="own-table", stack={"table_cards": ["pearl", "eye"],
                                                           "rolls": {"claygod.first": [0]}}).state
    view = GAME.view(state, 0)
    assert view["players"][0]["table_card"] == "face_down" and "pearl" not in dumps(view)
    label = GAME.describe_action(state, 0, {"type": "play_table"}, "en")
    assert "Pearl" not in label and "Eye" not in label


def test_private_lines_render_only_for_their_reader():
    po = play(GAME, 2, seed="hidden-lines", bot_seed=2)
    for e in _events(po):
        line = GAME.render_event(e, "uk", NAMES)
        assert line is None or "claygod." not in line
        if e["kind"] == "drew":
            assert not visible_to(e, None) and not visible_to(e, 1 - e["data"]["seat"])
