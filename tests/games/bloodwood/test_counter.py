"""Counter windows (§6.8, §7.8, BW-17, BW-18): who is asked, Mirror and Amulet, Chains and the Tranquilizer,
the deadline, and the no-leak property: the public record is the same whether or not the target held a
counter card."""
import json

from bot.engine import Code, visible_to
from bot.games.bloodwood import GAME

from .helpers import NAMES, NOW, act, event, kinds, pending, public, put_mark, reject, run, table


def night(hands, **kw):
    base = {s: [] for s in range(1, 5)}
    return table(phase="night", hands={**base, **hands}, **kw)


def test_the_target_is_asked_with_a_deadline():
    state = night({0: ["bite", "keys"], 1: ["mirror", "amulet"]})
    state, events = run(state, (0, {"type": "play", "card": "bite", "target": 1}))
    assert [(p.seat, p.kind, p.prompt, p.deadline) for p in GAME.to_act(state)] == [
        (1, "reaction", "bloodwood.prompt.counter", NOW + 1 + 120)]
    assert GAME.legal_actions(state, 1) == [{"type": "allow"}, {"type": "counter", "card": "mirror"},
                                            {"type": "counter", "card": "amulet"}]
    assert event(events, "counter_window")["data"] == {"seat": 1} and state["in_flight"]["card"] == "bite"
    assert state["dna"][1] == "pure", "nothing happens before the answer"


def test_no_window_for_a_tranquilized_target_or_one_who_cannot_hold_a_usable_counter():
    state = night({0: ["bite", "bite", "bite"], 1: ["mirror", "amulet"], 2: [], 3: ["mirror"]})
    put_mark(state, 1, "sleep")
    put_mark(state, 3, "chains")
    for target in (1, 2, 3):
        result = GAME.apply(state, 0, {"type": "play", "card": "bite", "target": target}, now=NOW)
        assert "counter_window" not in kinds(result.events)
        assert result.state["dna"][target] == "mutated"


def test_mirror_turns_the_card_on_the_attacker_and_nobody_draws():
    state = night({0: ["bite", "keys"], 1: ["mirror", "vaccine"]})
    state, events = run(state, (0, {"type": "play", "card": "bite", "target": 1}),
                        (1, {"type": "counter", "card": "mirror"}))
    assert state["dna"] == ["mutated", "pure", "pure", "pure", "pure"]
    assert state["discard"] == ["mirror", "bite"] and state["hands"][1] == ["vaccine"]
    assert state["hands"][0] == ["keys"] and state["turn"]["seat"] == 1, "the attacker's turn ends without a draw"
    assert "draw" not in kinds(events)
    line = GAME.render_event(event(events, "countered"), "en", NAMES)
    assert line == "Боб answers with Mirror: Bite turns on Аня."
    no_effect = {"kind": "no_effect", "to": None, "data": {"card": "voodoo", "seat": 0, "rule": "BW-18"}}
    assert GAME.render_event(no_effect, "en", NAMES) == "Voodoo has no effect on Аня and is discarded. (see BW-18)"


def test_a_reflected_curse_mark_lands_on_the_attacker():
    state = night({0: ["curse_mark"], 1: ["mirror"]})
    state = act(state, 0, type="play", card="curse_mark", target=1)
    state = act(state, 1, type="counter", card="mirror")
    assert state["curse"][0]["left"] == 2 and state["curse"][1] is None


def test_a_reflected_card_that_cannot_act_on_the_attacker_is_discarded():
    state = night({0: ["chains"], 1: ["mirror"]})
    state = act(state, 0, type="play", card="chains", target=1)
    put_mark(state, 0, "chains")  # a chained player cannot play Chains: he is chained only now
    state, events = run(state, (1, {"type": "counter", "card": "mirror"}))
    assert event(events, "no_effect")["data"] == {"card": "chains", "seat": 0, "rule": "BW-18"}
    assert state["discard"][-1] == "chains" and not state["chains"][1]


def test_reflected_voodoo_does_nothing_by_default():
    state = night({0: ["voodoo", "bite"], 1: ["mirror", "keys"]})
    state, events = run(state, (0, {"type": "play", "card": "voodoo", "target": 1}),
                        (1, {"type": "counter", "card": "mirror"}))
    assert "no_effect" in kinds(events) and state["hands"][0] == ["bite"] and state["hands"][1] == ["keys"]


def test_mirror_reverse_option_lets_the_holder_play_the_card_on_the_attacker():
    state = night({0: ["voodoo", "bite", "chains"], 1: ["mirror", "keys"]}, options={"mirror": "reverse"})
    state = act(state, 0, type="play", card="voodoo", target=1)
    state = act(state, 1, type="counter", card="mirror")
    assert pending(state) == [(1, "choice", "bloodwood.prompt.keep_voodoo")]
    assert state["hands"][1] == ["bite", "chains", "keys"] and state["hands"][0] == []
    state = act(state, 1, type="keep", card="bite")
    state = act(state, 1, type="done")
    assert state["hands"][1] == ["bite"] and state["hands"][0] == ["chains", "keys"]
    assert state["turn"]["seat"] == 1


def test_mirror_reverse_bite_passes_a_curse_between_them():
    state = night({0: ["bite"], 1: ["mirror"]}, options={"mirror": "reverse"})
    put_mark(state, 0, "curse", left=1)
    state = act(state, 0, type="play", card="bite", target=1)
    state = act(state, 1, type="counter", card="mirror")
    assert state["dna"][0] == "mutated" and state["curse"][1]["left"] == 2 and state["curse"][0] is None


def test_amulet_cancels_and_ends_the_attackers_turn():
    state = night({0: ["tranquilizer", "keys"], 1: ["amulet"]})
    state, events = run(state, (0, {"type": "play", "card": "tranquilizer", "target": 1}),
                        (1, {"type": "counter", "card": "amulet"}))
    assert not state["sleep"][1] and not state["sleep"][0]
    assert state["discard"] == ["amulet", "tranquilizer"] and state["turn"]["seat"] == 1
    assert state["hands"][0] == ["keys"] and "draw" not in kinds(events)


def test_chains_forbid_the_mirror_but_not_the_amulet():
    state = night({0: ["bite"], 1: ["mirror", "amulet"]})
    put_mark(state, 1, "chains")
    state = act(state, 0, type="play", card="bite", target=1)
    assert GAME.legal_actions(state, 1) == [{"type": "allow"}, {"type": "counter", "card": "amulet"}]
    refusal = reject(state, 1, type="counter", card="mirror")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.chained", "§6.3")


def test_counter_refusals():
    state = night({0: ["bite"], 1: ["keys", "bite"]})
    state = act(state, 0, type="play", card="bite", target=1)
    assert reject(state, 1, type="counter", card="bite").key == "bloodwood.reject.not_a_counter"
    assert reject(state, 1, type="counter", card="mirror").key == "bloodwood.reject.not_in_hand"
    assert reject(state, 1, type="counter").code == Code.MALFORMED
    assert reject(state, 0, type="allow").code == Code.NOT_YOUR_TURN


def test_the_window_times_out_into_letting_the_card_resolve():
    state = night({0: ["bite"], 1: ["mirror"]})
    state = act(state, 0, type="play", card="bite", target=1)
    deadline = GAME.to_act(state)[0].deadline
    assert GAME.apply(state, 1, {"type": "timeout"}, now=deadline - 1).code == Code.TOO_EARLY
    result = GAME.apply(state, 1, {"type": "timeout"}, now=deadline)
    assert result.state["dna"][1] == "mutated" and kinds(result.events)[:2] == ["timed_out", "no_counter"]


def test_no_time_limit_when_the_option_is_zero():
    state = night({0: ["bite"], 1: ["mirror"]}, options={"counter_seconds": 0})
    state = act(state, 0, type="play", card="bite", target=1)
    assert GAME.to_act(state)[0].deadline is None


def _public_record(state, moves):
    """Public events, the spectator's and a third seat's views and the pending decisions after each move."""
    record = []
    for seat, action, now in moves:
        result = GAME.apply(state, seat, action, now=now)
        state = result.state
        record.append({
            "events": public(result.events),
            "spectator": GAME.view(state, None), "seat3": GAME.view(state, 3),
            "to_act": [(p.seat, p.kind, p.deadline, p.prompt) for p in GAME.to_act(state)],
            "text": [GAME.render_event(e, "ru", NAMES) for e in result.events if visible_to(e, None)],
        })
    return json.dumps(record, sort_keys=True)


def _with_target_hand(cards):
    state = night({0: ["bite", "keys"], 1: cards, 3: ["vaccine"]})
    return state


def test_declining_looks_exactly_like_having_nothing():
    attack = (0, {"type": "play", "card": "bite", "target": 1}, NOW + 5)
    answer = (1, {"type": "allow"}, NOW + 40)
    draw = (0, {"type": "draw", "deck": "night"}, NOW + 41)
    holding = _public_record(_with_target_hand(["mirror", "candle"]), [attack, answer, draw])
    empty = _public_record(_with_target_hand(["bite", "candle"]), [attack, answer, draw])
    assert holding == empty
    both_amulet = _public_record(_with_target_hand(["tranquilizer", "amulet"]), [attack, answer, draw])
    assert both_amulet == empty


def test_timing_out_looks_the_same_with_or_without_a_counter():
    attack = (0, {"type": "play", "card": "bite", "target": 1}, NOW + 5)
    timeout = (1, {"type": "timeout"}, NOW + 5 + 120)
    holding = _public_record(_with_target_hand(["mirror", "candle"]), [attack, timeout])
    empty = _public_record(_with_target_hand(["bite", "candle"]), [attack, timeout])
    assert holding == empty


def test_a_chained_target_with_a_day_card_is_asked_whether_or_not_it_is_an_amulet():
    """Chains forbid the Mirror, so a chained target is asked only for his day cards — still on backs alone."""
    def record(cards):
        state = night({0: ["curse_mark", "keys"], 1: cards})
        put_mark(state, 1, "chains")
        attack = (0, {"type": "play", "card": "curse_mark", "target": 1}, NOW + 5)
        return _public_record(state, [attack, (1, {"type": "allow"}, NOW + 9)])
    assert record(["amulet", "mirror"]) == record(["candle", "bite"])
    assert '"counter_window"' in record(["candle", "bite"])


def _refusal(state, seat, card):
    refusal = reject(state, seat, type="counter", card=card)
    return refusal.key.removeprefix("bloodwood.reject."), refusal.rule


def test_mirror_and_amulet_are_refused_in_the_books_words_against_the_leshy_and_the_hunter():
    """§6.8 / §7.8: «Не можна застосувати проти "The Leshy" та "The Hunter"» — whether the seat still owes
    its discard (or its card for the hunter) or has already given it."""
    state = night({0: ["leshy", "hunter"], 1: ["mirror", "bite", "keys"], 2: ["amulet", "vaccine"]})
    leshy = act(state, 0, type="play", card="leshy")
    assert _refusal(leshy, 1, "mirror") == ("counter_not_leshy_hunter", "§6.8")
    assert _refusal(leshy, 2, "amulet") == ("counter_not_leshy_hunter", "§7.8")
    assert reject(leshy, 1, type="counter", card="mirror").params["attack"] == "The Leshy"
    done = act(leshy, 2, type="discard", card="amulet")
    done = act(done, 2, type="discard", card="vaccine")
    assert _refusal(done, 1, "mirror") == ("counter_not_leshy_hunter", "§6.8")
    hunter = act(state, 0, type="play", card="hunter")
    assert hunter["step"]["kind"] == "give"
    assert _refusal(hunter, 1, "mirror") == ("counter_not_leshy_hunter", "§6.8")
    assert reject(hunter, 2, type="counter", card="amulet").params["attack"] == "The Hunter"


def test_mirror_and_amulet_do_not_answer_a_day_card_or_protect_another_player():
    """§6.8 / §7.8: «Не можна використати, щоб захистити іншого гравця. Вона не діє проти карт дня»."""
    state = table(hands={0: ["thief", "confession", "pandora", "keys"], 1: ["amulet", "bite"], 2: ["mirror"]})
    thief = act(state, 0, type="play", card="thief", target=1)
    assert thief["step"]["kind"] == "thief_back"
    assert _refusal(thief, 1, "amulet") == ("counter_not_day", "§7.8")
    confession = act(state, 0, type="play", card="confession", target=2)
    assert _refusal(confession, 2, "mirror") == ("counter_not_day", "§6.8")
    pandora = act(state, 0, type="play", card="pandora", target=1)
    assert pandora["step"]["kind"] == "draw" and pandora["step"]["seat"] == 1
    assert _refusal(pandora, 1, "amulet") == ("counter_not_day", "§7.8")
    assert _refusal(state, 1, "amulet") == ("counter_only", "§7.8"), "nothing is played on anyone"
    attacked = night({0: ["bite", "keys"], 1: ["amulet"], 2: ["mirror"]})
    attacked = act(attacked, 0, type="play", card="bite", target=1)
    assert _refusal(attacked, 2, "mirror") == ("counter_not_for_others", "§6.8")


def test_the_leshy_and_the_hunter_say_publicly_what_everyone_else_must_do():
    state = night({0: ["leshy", "hunter"], 1: ["bite", "keys", "vaccine"], 2: ["candle"]})
    _, events = run(state, (0, {"type": "play", "card": "leshy"}))
    assert event(events, "leshy_discards") == {"kind": "leshy_discards", "to": None,
                                               "data": {"seat": 0, "count": 2, "rule": "§6.6"}}
    line = GAME.render_event(event(events, "leshy_discards"), "en", NAMES)
    assert line == "The Leshy: every player but Аня discards 2 cards (all they hold if fewer). (see §6.6)"
    _, events = run(state, (0, {"type": "play", "card": "hunter"}))
    assert event(events, "hunter_gives")["data"] == {"seat": 0, "rule": "§6.7"} and event(events, "hunter_gives")["to"] is None
