"""Properties every registered game must have, checked over many seeded random playouts.

- the engine accepts every action its bot chooses from the legal list, and every game ends (or is cut at
  the game's declared action bound, which must be rare);
- every pending seat has at least one legal action, listed deterministically;
- states survive a JSON round trip and replaying the steps reproduces every state byte for byte;
- the game's invariants (card conservation and the like) hold after every action;
- views: no view contains the RNG, and a seat's view does not change when everything it cannot see is
  re-dealt (so hidden cards cannot leak through a view), for every seat at a table of up to four, and for the
  public, the seats that must act and two others drawn at random at a larger one;
- bad input (wrong seat, malformed or unknown actions, stale timeouts) is refused and changes nothing.
"""
from __future__ import annotations

import json
import os
import random

import pytest

from bot.engine import Applied, Code, Rejection, all_games
from bot.engine.canonical import dumps
from bot.engine.playout import play, replay

GAMES = sorted(all_games())


def seat_counts(game):
    """Every seat count the game takes, or those its facts name (Bridges takes 1-12 and plays 1-6 here; its own
    tests cover the larger tables)."""
    return game.conformance_seat_counts()


def playouts_for(game, config):
    """500 seeded playouts per game in CI (about half a minute for Gwent); a game whose playouts are long says
    fewer; ``--playouts N`` for a soak run.  ``JUDGE_CONFORMANCE_GAMES=N`` caps the count: CI
    plays the full count on one Python version and a shortened run on the others."""
    if config.getoption("--playouts"):
        return config.getoption("--playouts")
    count = game.facts.conformance_playouts
    cap = os.environ.get("JUDGE_CONFORMANCE_GAMES", "").strip()
    if cap:
        if not cap.isdigit() or int(cap) < 1:
            pytest.fail(f"JUDGE_CONFORMANCE_GAMES must be a positive whole number, not {cap!r}")
        count = min(count, int(cap))
    return count


def option_sets(game):
    """The default options plus each option flipped to a non-default value (one at a time)."""
    sets = [{}]
    for opt in game.options:
        if opt.kind == "bool":
            sets.append({opt.name: not opt.default})
        elif opt.kind == "choice":
            sets += [{opt.name: c} for c in opt.choices if c != opt.default]
        elif opt.kind == "int" and opt.max is not None and opt.default != opt.max:
            sets.append({opt.name: min(opt.max, max(opt.min or 0, 30))})
    return [s for s in sets if _valid(game, s)]


def _valid(game, options):
    try:
        game.validate_options(options)
        return True
    except Exception:
        return False


def _fits(game, seats, options):
    try:
        game.initial_state(seats, seed="fits", options=options)
        return True
    except Exception as exc:
        if getattr(getattr(exc, "rejection", None), "code", None) != Code.BAD_SETUP:
            raise
        return False


BAD_ACTIONS = [None, 7, "play", {}, {"type": 5}, {"type": "no_such_action_type"}, {"type": "timeout"}]


#: each game's playouts are dealt into this many tests: the same playouts and checks as one test, but pytest-xdist's
#: workers share a game's minutes instead of one worker waiting on them
PARTS = 4


def part_of(i):
    """The test playout ``i`` is dealt to: round-robin, shifted by one each round, so that a game whose seat counts
    are a multiple of PARTS (Bloodwood's 5 to 12) does not give one part all its largest tables."""
    return (i + i // PARTS) % PARTS


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("name", GAMES)
def test_random_playouts(name, part, pytestconfig):
    game = all_games()[name]
    n = playouts_for(game, pytestconfig)
    counts, options = seat_counts(game), option_sets(game)
    cut = 0
    mine = [i for i in range(n) if part_of(i) == part]
    for i in mine:
        seats = counts[i % len(counts)]
        opts = options[i % len(options)]
        if not _fits(game, seats, opts):  # an option for some seat counts only (Raiders' pairs: four)
            opts = {}
        deep = i < 20 or i % 25 == 0
        rnd = random.Random(i)

        def check(state, deep=deep, rnd=rnd):  # bound now: the playout calls it within this round only
            game.check_invariants(state)
            if deep:
                assert json.loads(dumps(state)) == state, "state does not survive a JSON round trip"
                _check_views(game, state, rnd)
                _check_pending_and_legal(game, state)
                _check_bad_input(game, state, rnd)

        po = play(game, seats, seed=f"conf-{name}-{i}", options=opts, bot_seed=i, on_state=check)
        cut += po.cut
        if deep:
            again = replay(game, po.initial, po.steps)
            assert [dumps(s) for s in again] == [dumps(s) for s in po.states], "replay differs"
            fresh = game.initial_state(seats, seed=f"conf-{name}-{i}", options=opts, now=1_700_000_000.0)
            assert dumps(fresh.state) == dumps(po.initial), "initial state is not a function of seed/options"
    assert cut <= len(mine) * 0.05, f"{cut} of {len(mine)} playouts hit the action bound {game.max_actions}"


#: the deep check looks at every seat's view of each state at a table of up to this many seats; at a larger one
#: (Bloodwood's 5 to 12, Raiders' and Bridges' large tables), at the public's, those of the seats that must act
#: and of SAMPLED others drawn afresh for each state, so that every seat is still looked at along the playout
#: (each seat 190 to 270 times in a 12-seat Bloodwood game of some 750 steps) at a third of the cost
ALL_VIEWS_UP_TO = 4
SAMPLED = 2


def _viewers(game, state, rnd):
    seats = list(range(state["seats"]))
    if len(seats) <= ALL_VIEWS_UP_TO:
        return [None, *seats]
    acting = sorted({p.seat for p in game.to_act(state)})
    others = [s for s in seats if s not in acting]
    return [None, *acting, *rnd.sample(others, min(SAMPLED, len(others)))]


def _check_views(game, state, rnd):
    for seat in _viewers(game, state, rnd):
        text = dumps(game.view(state, seat))  # JSON, as json.dumps writes it, or a TypeError
        assert '"rng"' not in text, "a view contains the RNG"
        variant = game.unseen_variant(state, seat, rnd)
        game.check_invariants(variant)
        assert dumps(game.view(variant, seat)) == text, (
            f"seat {seat}'s view changed when only hidden information changed")
        if seat is None:  # what a seat may do out of turn must not depend on anything hidden
            for s in range(state["seats"]):
                assert game.anytime_actions(variant, s) == game.anytime_actions(state, s), (
                    f"seat {s}'s out-of-turn actions depend on hidden information")


def _check_pending_and_legal(game, state):
    pending = game.to_act(state)
    if state["outcome"] is not None:
        assert pending == [], "a finished game still waits for someone"
        return
    assert pending, "the game is not over but nobody may act"
    for p in pending:
        legal = game.legal_actions(state, p.seat)
        assert legal, f"seat {p.seat} must act but has no legal action"
        assert legal == game.legal_actions(state, p.seat), "legal actions are not deterministic"
        for action in legal[:3]:
            label = game.describe_action(state, p.seat, action, "ru")
            assert isinstance(label, str) and label
    owing = {p.seat for p in pending}
    for seat in range(state["seats"]):
        for action in game.anytime_actions(state, seat):
            assert seat not in owing, "an out-of-turn action offered to a seat that owes a decision"
            result = game.apply(state, seat, action, now=0.0)
            assert isinstance(result, Applied), f"offered out-of-turn action {action!r} was refused: {result}"
            game.check_invariants(result.state)


def _check_bad_input(game, state, rnd):
    before = dumps(state)
    pending = {p.seat for p in game.to_act(state)}
    idle = [s for s in range(state["seats"]) if s not in pending]
    for action in BAD_ACTIONS:
        seat = rnd.choice(sorted(pending) or [0])
        result = game.apply(state, seat, action, now=0.0)
        if action == {"type": "timeout"} and isinstance(result, Applied):
            pytest.fail("a timeout was accepted at time 0, before any deadline")
        assert isinstance(result, Rejection), f"bad action {action!r} was accepted"
    if idle and state["outcome"] is None:
        seat = rnd.choice(idle)
        legal = game.legal_actions(state, rnd.choice(sorted(pending)))
        if legal:
            result = game.apply(state, seat, legal[0], now=0.0)
            assert isinstance(result, Rejection) and result.code == Code.NOT_YOUR_TURN
    for seat in (-1, state["seats"], "0"):
        assert isinstance(game.apply(state, seat, {"type": "x"}), Rejection)
    assert dumps(state) == before, "a rejected action changed the state"


@pytest.mark.parametrize("name", GAMES)
def test_options_are_validated(name):
    game = all_games()[name]
    assert isinstance(game.validate_options({}), dict)
    with pytest.raises(Exception) as info:
        game.initial_state(game.min_seats, seed="s", options={"no_such_option_anywhere": 1})
    assert info.value.rejection.code == Code.BAD_OPTIONS
    with pytest.raises(Exception) as info:
        game.initial_state(game.max_seats + 1, seed="s")
    assert info.value.rejection.code == Code.BAD_SETUP
    for opt in game.options:
        bad = {"bool": "maybe", "int": "many", "choice": "no-such-choice"}[opt.kind]
        with pytest.raises(Exception) as info:
            game.validate_options({opt.name: bad})
        assert info.value.rejection.code == Code.BAD_OPTIONS
