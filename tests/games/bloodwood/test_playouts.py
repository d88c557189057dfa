"""Whole bot games at the smallest and largest tables, with every option, and the size limits of the text the
players read: every event line renders in every language, boards fit a Discord message, labels a button."""
import random
import re

import pytest

from bot.engine.playout import play
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import catalogue

from .helpers import NAMES

OPTION_SETS = [{}, {"leaders": False}, {"turn_seconds": 40, "counter_seconds": 20}, {"role_deal": "host"},
               {"first_player": "host", "extra_turn_specials": "other", "mirror": "reverse"}]


@pytest.mark.parametrize("seats", [5, 12])
@pytest.mark.parametrize("options", OPTION_SETS)
def test_games_end(seats, options):
    po = play(GAME, seats, seed=f"end-{seats}-{sorted(options)}", options=options, bot_seed=seats,
              on_state=GAME.check_invariants)
    assert not po.cut and po.final["outcome"] is not None
    outcome = po.final["outcome"]
    if outcome["winners"]:
        roles = po.final["roles"]
        teams = {"vampire": "v", "dracula": "v", "werewolf": "w", "alpha": "w"}
        assert len({teams[roles[s]] for s in outcome["winners"]}) == 1, "the winners are one team"
        assert len(outcome["winners"]) == sum(teams[r] == teams[roles[outcome["winners"][0]]] for r in roles)


def test_text_fits_and_every_event_renders_in_every_language():
    po = play(GAME, 12, seed="text", bot_seed=5, options={"turn_seconds": 40})
    state = po.initial
    rendered = 0
    for step in po.steps:
        result = GAME.apply(state, step["seat"], step["action"], now=step["now"])
        state = result.state
        for event in result.events:
            for locale in ("ru", "uk", "en"):
                line = GAME.render_event(event, locale, NAMES)
                if event["to"] == []:
                    assert line is None, "record-only events are not shown"
                    continue
                assert line and not re.search(r"\{\w+", line), (event, line)
                rendered += 1
        for seat in (None, 0, 7):
            for locale in ("ru", "uk", "en"):
                assert len(GAME.render_view(GAME.view(state, seat), locale, NAMES)) <= 1800
        for p in GAME.to_act(state):
            for action in GAME.legal_actions(state, p.seat):
                label = GAME.describe_action(state, p.seat, action, "ru")
                assert 0 < len(label) <= 80 and "{" not in label
            assert len(GAME.legal_actions(state, p.seat)) <= 25
    assert rendered > 1000


@pytest.mark.long
def test_the_bot_team_beats_players_who_move_at_random():
    """A team of built-in bots against a team choosing uniformly among its legal moves (never declaring, which
    would only hand the bots the game)."""
    bot_wins = games = 0
    # 96 games (about 2 s): with a few dozen, one game either way decides whether ~70 % clears the bar.
    for i in range(96):
        seats = 5 + i % 8
        state = GAME.initial_state(seats, seed=f"versus-{i}", now=1e9).state
        rng, now, bot_team = random.Random(i), 1e9, ("vampires", "werewolves")[i % 2]
        while state["outcome"] is None:
            p = rng.choice(GAME.to_act(state))
            now += 5
            if catalogue().team(state["roles"][p.seat]) == bot_team:
                action = GAME.bot_action(state, p.seat, rng)
            else:
                action = rng.choice([a for a in GAME.legal_actions(state, p.seat) if a["type"] != "declare"])
            state = GAME.apply(state, p.seat, action, now=now).state
        if state["outcome"]["winners"]:
            games += 1
            bot_wins += catalogue().team(state["roles"][state["outcome"]["winners"][0]]) == bot_team
    assert bot_wins >= 0.6 * games
