"""Whole games: option combinations the conformance suite does not pair, the size limits of the text the
players read, and the built-in bot against random play."""
import random

from bot.engine import Applied
from bot.engine.playout import play
from bot.games.claygod import GAME

from .helpers import NAMES

COMBINATIONS = [
    {"turn_clock": "live", "clock_mode": "live"},
    {"maximum": "win_line", "frozen_combos": True, "flush_order": "colours", "win_needs": "both"},
    {"prince_skip": "enemy", "clock_mode": "turns", "clock_turns": 3, "turn_clock": "async"},
]


def test_option_combinations_play_to_the_end():
    for i, options in enumerate(COMBINATIONS * 4):
        po = play(GAME, 2, seed=f"combo-{i}", options=options, bot_seed=i, on_state=GAME.check_invariants)
        assert not po.cut and po.final["outcome"] is not None


def test_boards_fit_a_discord_message_and_labels_fit_a_button():
    po = play(GAME, 2, seed="sizes", options={"clock_mode": "live"}, bot_seed=11)
    for state in po.states[::2]:
        for seat in (None, 0, 1):
            for locale in ("ru", "uk", "en"):
                assert len(GAME.render_view(GAME.view(state, seat), locale, NAMES)) <= 1800
        for p in GAME.to_act(state):
            for action in GAME.legal_actions(state, p.seat):
                for locale in ("ru", "en"):
                    assert 0 < len(GAME.describe_action(state, p.seat, action, locale)) <= 80


def _match(seed: int, bot_seat: int) -> list[int] | None:
    rng = random.Random(seed)
    state = GAME.initial_state(2, seed=f"vs-{seed}", now=0.0).state
    for n in range(GAME.max_actions):
        if state["outcome"] is not None:
            return state["outcome"]["winners"]
        (pending,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, pending.seat)
        action = GAME.bot_action(state, pending.seat, rng) if pending.seat == bot_seat else rng.choice(legal)
        applied = GAME.apply(state, pending.seat, action, now=float(n))
        assert isinstance(applied, Applied)
        state = applied.state
    return None


def test_the_bot_beats_random_play():
    wins = sum(_match(i, i % 2) == [i % 2] for i in range(20))
    assert wins >= 16


def test_a_table_reloaded_from_its_stored_form_after_every_action_plays_the_same():
    """The service stores canonical JSON (sorted keys): nothing may depend on the order of a mapping."""
    from bot.engine.canonical import dumps, loads

    po = play(GAME, 2, seed="reload", bot_seed=9, options={"turn_clock": "live"})
    direct, stored = po.initial, loads(dumps(po.initial))
    for step in po.steps:
        one = GAME.apply(direct, step["seat"], step["action"], now=step["now"])
        two = GAME.apply(stored, step["seat"], step["action"], now=step["now"])
        assert isinstance(one, Applied) and isinstance(two, Applied)
        assert dumps(two.state) == dumps(one.state) and dumps(two.events) == dumps(one.events)
        assert [GAME.render_event(e, "ru", NAMES) for e in loads(dumps(two.events))] == \
            [GAME.render_event(e, "ru", NAMES) for e in one.events]
        GAME.check_invariants(two.state)
        direct, stored = one.state, loads(dumps(two.state))


def test_moves_made_after_the_turn_clock_are_lost_cleanly_in_every_stage():
    """Rule 8 (CG-26): a move that comes after its deadline is turned into the timeout, whatever was owed."""
    late_stages = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.initial_state(2, seed=f"late-{seed}", options={"turn_clock": "live"}, now=0.0).state
        now = 0.0
        for _ in range(300):
            pending = GAME.to_act(state)
            if not pending:
                break
            seat = pending[0].seat
            now += rng.choice([1, 3, 6, 11])
            action = GAME.bot_action(state, seat, rng)
            result = GAME.apply(state, seat, action, now=now)
            assert isinstance(result, Applied), (seed, action, result)
            if result.events and result.events[0]["kind"] == "timed_out":
                late_stages.add(state["turn"]["stage"])
            state = result.state
            GAME.check_invariants(state)
    assert {"roll", "action"} <= late_stages
