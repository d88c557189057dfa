"""The end of the game (§4, BW-25, BW-26): right and wrong declarations, the naming steps, who may declare,
the reveal of every role, and the table where nobody can declare any more."""
from bot.engine import Code
from bot.games.bloodwood import GAME

from .helpers import NAMES, act, event, kinds, pending, public, put_mark, reject, run, set_turn, table

# ROLES_5: vampires are seats 0 (Dracula) and 2; werewolves are seats 1, 3, 4.


def declare(state, seat, names):
    moves = [(seat, {"type": "declare"})] + [(seat, {"type": "name", "seat": s}) for s in names]
    return run(state, *moves, (seat, {"type": "confirm"}))


def mutated_table(*seats):
    state = table()
    for seat in seats:
        state["dna"][seat] = "mutated"
    return state


def test_a_right_declaration_wins_for_the_declarers_team():
    state = mutated_table(1, 3, 4)
    state["dna"][4] = "forever"
    state, events = declare(state, 0, [4, 1, 3])
    assert state["outcome"] == {"winners": [0, 2], "reason": "bloodwood.outcome.declared.vampires", "params": {},
                                "scores": {"roles": ["dracula", "werewolf", "vampire", "werewolf", "werewolf"]}}
    judged = event(events, "declaration_judged")
    assert judged["to"] is None and judged["data"]["right"] and judged["data"]["named"] == [1, 3, 4]
    assert event(events, "roles_revealed")["to"] is None
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == []
    assert [p["role"] for p in GAME.view(state, None)["players"]] == state["roles"]


def test_missing_an_enemy_loses():
    state, _ = declare(mutated_table(1, 3, 4), 0, [1, 3])
    assert state["outcome"]["winners"] == [1, 3, 4]
    assert state["outcome"]["reason"] == "bloodwood.outcome.wrong_names.werewolves"


def test_naming_a_teammate_loses():
    state = mutated_table(0, 1, 2)
    set_turn(state, 3)
    state, events = declare(state, 3, [0, 2, 1])
    assert state["outcome"]["winners"] == [0, 2]
    assert state["outcome"]["reason"] == "bloodwood.outcome.wrong_names.vampires"
    line = GAME.render_event(event(events, "declaration_judged"), "ru", NAMES)
    assert "Аня, Боб, Вера" in line and "Ошибка" in line


def test_every_named_enemy_must_be_mutated():
    state, events = declare(mutated_table(1, 3), 0, [1, 3, 4])
    assert state["outcome"]["winners"] == [1, 3, 4]
    assert state["outcome"]["reason"] == "bloodwood.outcome.not_mutated.werewolves"
    assert event(events, "declaration_judged")["data"]["pure"] == [4]


def test_only_a_pure_player_may_declare():
    state = mutated_table(0)
    assert {"type": "declare"} not in GAME.legal_actions(state, 0)
    refusal = reject(state, 0, type="declare")
    assert (refusal.key, refusal.rule) == ("bloodwood.reject.mutated_cannot_declare", "§4")


def test_the_declaration_cannot_be_withdrawn_and_names_stay_private_until_confirmed():
    state, events = run(table(), (0, {"type": "declare"}))
    assert event(events, "declared")["to"] is None
    assert pending(state) == [(0, "turn", "bloodwood.prompt.declare")]
    assert GAME.legal_actions(state, 0) == [{"type": "name", "seat": s} for s in (1, 2, 3, 4)]
    assert reject(state, 0, type="confirm").key == "bloodwood.reject.name_someone"
    assert reject(state, 0, type="discard", card=state["hands"][0][0]).key == "bloodwood.reject.not_now"
    assert reject(state, 0, type="name", seat=0).key == "bloodwood.reject.name_self"
    state, events = run(state, (0, {"type": "name", "seat": 2}), (0, {"type": "name", "seat": 3}),
                        (0, {"type": "unname", "seat": 2}))
    assert public(events) == []
    assert reject(state, 0, type="unname", seat=2).key == "bloodwood.reject.already_unnamed"
    assert reject(state, 0, type="name", seat=3).key == "bloodwood.reject.already_named"
    assert GAME.view(state, 0)["step"]["named"] == [3]
    assert "named" not in GAME.view(state, None)["step"] and "named" not in GAME.view(state, 3)["step"]
    assert {"type": "unname", "seat": 3} in GAME.legal_actions(state, 0)
    assert {"type": "confirm"} in GAME.legal_actions(state, 0)


def test_a_declaration_out_of_time_is_judged_on_the_names_given():
    state = mutated_table(1, 3, 4)
    state["options"] = {**state["options"], "turn_seconds": 60}
    state, _ = run(state, (0, {"type": "declare"}), (0, {"type": "name", "seat": 1}))
    deadline = GAME.to_act(state)[0].deadline
    result = GAME.apply(state, 0, {"type": "timeout"}, now=deadline)
    assert result.state["outcome"]["reason"] == "bloodwood.outcome.wrong_names.werewolves"


def test_the_last_pure_player_may_still_declare():
    state = mutated_table(0, 2, 3, 4)
    set_turn(state, 1)
    state, _ = declare(state, 1, [0, 2])
    assert state["outcome"]["winners"] == [1, 3, 4]


def test_nobody_wins_when_everyone_is_mutated_forever():
    state = table(hands={0: ["keys"]})
    state["dna"] = ["pure", "forever", "forever", "forever", "forever"]
    put_mark(state, 0, "curse", left=1, since=0)
    state = act(state, 0, type="discard", card="keys")
    result = GAME.apply(state, 0, {"type": "draw_all", "day": 4, "night": 0}, now=1001.0)
    state = result.state
    assert state["outcome"]["winners"] == [] and state["outcome"]["reason"] == "bloodwood.outcome.stalemate"
    assert kinds(result.events)[-2:] == ["mutated_forever", "roles_revealed"]
    assert GAME.apply(state, 1, {"type": "pass"}).code == Code.GAME_OVER
