"""Judge-assisted (manual) cards and the book's two ways of settling a dispute, by the table's vote (RD-15,
RD-16): «1. Ход откатывается назад, карты возвращаются игрокам в руку. 2. Карта «не срабатывает» и уходит в
битые карты»."""
import pytest

from .helpers import GAME, act, all_pass, arrange, card, kinds, new_table, refused


def _capture_with_a_manual_step(seats, mode):
    state = arrange(new_table(seats, options={"disputes": mode}),
                    hands={0: ["c10", "h10", "s6"], 1: ["d6"], **{s: ["d7"] for s in range(2, seats)}},
                    free=["bank1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("bank1")})
    state, events = act(state, 0, {"type": "shnyaga", "card": card("h10"), "target": None})
    assert state["window"]["owe"] == {"seat": 0, "what": "state", "entry": 0, "left": 1}
    boost = {"type": "state", "effect": {"do": "krutizna", "by": 3, "target": card("c10")}}
    assert boost in GAME.legal_actions(state, 0) and GAME.choice_group(state, 0, boost) == "state_krutizna"
    state, events = act(state, 0, boost)
    assert kinds(events) == ["stated"] and events[0]["to"] is None, "the stated outcome is public"
    return state


def test_a_manual_card_shows_its_text_and_its_stated_outcome_resolves(judged_deck):
    state = _capture_with_a_manual_step(2, "rollback")
    board = GAME.render_view(GAME.view(state, 1), "ru", ["Аня", "Боб"], full=True)
    assert "Откатиться✋" in board and "+3" in board
    state, events = all_pass(state)
    assert state["props"][0]["owner"] == 0, "5 + 3 ≥ the bank's 8"


@pytest.mark.parametrize("mode", ["rollback", "void"])
def test_an_upheld_dispute_applies_the_tables_mode(judged_deck, mode):
    state = _capture_with_a_manual_step(3, mode)
    dispute = {"type": "dispute", "entry": 0}
    assert dispute not in GAME.legal_actions(state, 0), "nobody disputes their own step"
    state, _ = act(state, 1, dispute)
    assert [p.seat for p in GAME.to_act(state)] == [2], "the author does not vote; the disputer voted"
    state, events = act(state, 2, {"type": "vote", "uphold": True})
    assert "dispute_settled" in kinds(events)
    if mode == "rollback":
        assert card("h10") in state["players"][0]["hand"] and state["window"]["queue"] == []
    else:
        assert card("h10") in state["discard"] and state["window"]["queue"][0]["effects"] == []
    state, events = all_pass(state)
    assert state["props"][0]["owner"] is None, "without the +3 the ♣10 (5) falls to the bank (8)"
    assert card("c10") in state["discard"]


def test_a_rejected_dispute_leaves_the_step_and_it_cannot_be_disputed_again(judged_deck):
    state = _capture_with_a_manual_step(3, "void")
    state, _ = act(state, 1, {"type": "dispute", "entry": 0})
    state, events = act(state, 2, {"type": "vote", "uphold": False})
    assert [e["data"]["upheld"] for e in events if e["kind"] == "dispute_settled"] == [False]
    assert {"type": "dispute", "entry": 0} not in GAME.legal_actions(state, 2)
    assert refused(state, 2, {"type": "dispute", "entry": 0}).rule == "RD-16"
    state, _ = all_pass(state)
    assert state["props"][0]["owner"] == 0


def test_in_a_two_player_game_the_disputer_alone_decides(judged_deck):
    state = _capture_with_a_manual_step(2, "void")
    state, events = act(state, 1, {"type": "dispute", "entry": 0})
    assert "dispute_settled" in kinds(events) and state["window"]["vote"] is None


def test_a_dispute_is_raised_only_while_the_window_is_open(judged_deck):
    state = _capture_with_a_manual_step(2, "void")
    state, _ = all_pass(state)
    assert refused(state, 1, {"type": "dispute", "entry": 0}).code == "not_your_turn"
