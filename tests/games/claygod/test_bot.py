"""The built-in bot and the Clock: a blind card is worth what it may turn out to be (the Clock among
them), and a bot whose Clock runs races for the enemy's fall (ruling CG-25)."""
import random
from collections import Counter

from bot.engine.playout import play
from bot.games.claygod import GAME, bot

from .helpers import act, ready, table


def _blind_spot(clock_seen: bool):
    """Seat 0 must act with 2s showing: no hand card is affordable, the face-down card is."""
    state = table(hands=(["demon", "monster", "cerberus", "snowflake", "trumpet"], []),
                  table_cards=["sunset", "pearl"])
    if clock_seen:  # the Clock lies face up in the used pile: the face-down card cannot be it
        for zone in (state["deck"], state["players"][1]["hand"]):
            if "clock" in zone:
                zone.remove("clock")
        state["discard"].append("clock")
    GAME.check_invariants(state)
    return ready(state, 0, dice=(2, 2, 2, 2, 2, 2, 2))


def test_the_blind_card_counts_the_clock_that_may_be_under_it():
    unseen = _blind_spot(clock_seen=False)
    seen = _blind_spot(clock_seen=True)
    risky = bot.blind_value(unseen, 0, bot.unseen_cards(unseen, 0))
    safe = bot.blind_value(seen, 0, bot.unseen_cards(seen, 0))
    assert "clock" in bot.unseen_cards(unseen, 0) and "clock" not in bot.unseen_cards(seen, 0)
    assert risky < 0 < safe, "one chance in sixty of a lost game outweighs an average spell"
    assert bot.choose(unseen, 0, random.Random(1))["type"] != "play_table"
    assert bot.choose(seen, 0, random.Random(1)) == {"type": "play_table"}


def test_the_bot_keeps_the_clock_while_the_enemy_is_healthy_and_uses_it_when_the_enemy_is_low():
    healthy = ready(table(hands=(["clock", "sunset"], [])), 0)
    assert bot.choose(healthy, 0, random.Random(2)) != {"type": "play", "card": "clock"}
    low = ready(table(hands=(["clock", "ghost"], []), stats=[{"health": 10}, {"health": 12}]), 0,
                dice=(1, 1, 5, 5, 5, 1, 1))  # the face-down card is out of reach: some energy is below 2
    assert bot.card_value(low, 0, "clock") > 0 > bot.card_value(healthy, 0, "clock")
    assert bot.choose(low, 0, random.Random(2)) == {"type": "play", "card": "clock"}


def test_the_bot_hands_the_clock_to_its_opponent():
    state = table(hands=(["demon", "sunset"], ["clock", "fairy_alice", "pearl", "eye", "mask"]))
    state = act(ready(state, 0), 0, type="play_two", cards=["demon", "sunset"])
    assert state["turn"]["stage"] == "give"
    assert bot.choose(state, 1, random.Random(3)) == {"type": "give", "card": "clock"}


def test_under_its_own_clock_the_bot_races_for_the_enemys_fall():
    hands = (["fairy_alice", "scarecrow"], [])  # health +7, or the enemy's health -4; one orange 3 for both
    dice = (1, 3, 1, 3, 1, 1, 1)
    calm = ready(table(hands=hands), 0, dice=dice)
    assert bot.choose(calm, 0, random.Random(4)) == {"type": "play", "card": "fairy_alice"}
    racing = ready(table(hands=hands), 0, dice=dice)
    racing["players"][0]["effects"].append({"kind": "clock", "card": "clock", "caster": 0, "turns_left": 5})
    assert bot.choose(racing, 0, random.Random(4)) == {"type": "play", "card": "scarecrow"}


def test_the_bot_does_not_lock_its_own_last_dice_with_the_pyramid():
    state = ready(table(hands=(["pyramid", "ghost"], [])), 0)
    for colour in ("red", "yellow", "green", "light_blue"):  # four held for good: the pyramid makes six
        state["players"][0]["dice"][colour].update(frozen=True, frozen_turns=None)
    assert bot.choose(state, 0, random.Random(5)) != {"type": "play", "card": "pyramid"}
    assert bot.card_value(state, 0, "pyramid") < -100


def test_bot_games_end_by_the_rules_not_by_a_blind_clock_or_a_freeze_and_thaw_stall():
    """Demo games used to end by the Clock about one time in nine (played blind from the table) and some
    ran for thousands of actions, both players freezing and thawing one die.  Played by post (the Clock in
    turns, no turn clock): the book's real-time clocks against the playout's 1-30 s a step would time out
    most decisions and say nothing of the bot's play."""
    reasons, longest = Counter(), 0
    for i in range(30):
        po = play(GAME, 2, seed=f"bot-{i}", bot_seed=i, options={"clock_mode": "turns", "turn_clock": "off"})
        assert not po.cut
        reasons[po.final["outcome"]["reason"]] += 1
        longest = max(longest, len(po.steps))
    assert reasons["claygod.outcome.clock"] <= 1 and reasons["claygod.outcome.frozen"] <= 1
    assert longest < 1000


def test_the_bot_decides_only_on_what_its_seat_may_know():
    """Re-dealing everything the seat cannot see (the other hand, both face-down cards, the deck) never
    changes its choice."""
    po = play(GAME, 2, seed="blind", bot_seed=7)
    for state in po.states[::3]:
        if state["outcome"] is not None:
            continue
        (pending,) = GAME.to_act(state)
        variant = GAME.unseen_variant(state, pending.seat, random.Random(state["version"]))
        assert variant != state or not state["deck"]
        mine = bot.choose(state, pending.seat, random.Random(0))
        assert bot.choose(variant, pending.seat, random.Random(0)) == mine


def test_the_bot_knows_which_win_line_the_table_plays():
    """CG-34: with win_needs both, health alone above 200 is no win, and the bot does not count it as one."""
    effects = [{"do": "change", "who": "self", "stat": "health", "by": 7}]
    either = ready(table(stats=[{"health": 195}, {}]), 0)
    both = ready(table(stats=[{"health": 195}, {}], win_needs="both"), 0)
    assert bot.preview(either, 0, effects) >= bot.WIN / 2
    assert bot.preview(both, 0, effects) < 10
