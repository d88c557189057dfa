"""Forced moves (``Game.auto_actions``): a decision whose single legal action tells nobody anything is taken
by the referee at once, recorded under the user ``auto``, unless the table turned it off (auto_forced=no)."""
from __future__ import annotations

from bot.engine import get_game
from bot.referee.service import AUTO, Accepted


async def _table(referee, game, options=None, stack=None, auto_forced=True):
    opts = dict(options or {}, **({} if auto_forced else {"auto_forced": False}))
    table = await referee.create_table(game, creator="u:a", creator_name="A", origin="terminal", options=opts)
    assert isinstance(await referee.join(table.id, "u:b", "B"), int)
    started = await referee.start(table.id, "u:a", seed="forced-1", stack=stack, moderator=stack is not None)
    assert isinstance(started, Accepted), started
    return table.id


async def _who(store, table_id):
    return [a.user_id for a in await store.actions(table_id)]


async def test_claygod_rolls_for_the_player_and_leaves_the_turn_to_them(env):
    store, referee, _ = env
    tid = await _table(referee, "claygod")
    game, state = get_game("claygod"), await store.state(tid)
    assert await _who(store, tid) == [AUTO]  # the opening roll
    seat = game.to_act(state)[0].seat
    assert {a["type"] for a in game.legal_actions(state, seat)} != {"roll"}  # now a real decision


async def test_claygod_with_forced_moves_off_offers_the_roll(env):
    store, referee, _ = env
    tid = await _table(referee, "claygod", auto_forced=False)
    game, state = get_game("claygod"), await store.state(tid)
    assert await _who(store, tid) == []
    assert [a["type"] for a in game.legal_actions(state, game.to_act(state)[0].seat)] == ["roll"]


async def test_gwent_takes_the_only_card_an_exchange_offers(env):
    store, referee, _ = env
    hand = ["decoy", "decoy", "scorch", "scorch", "commanders_horn", "commanders_horn", "clear_weather",
            "draug", "impenetrable_fog", "torrential_rain"]
    tid = await _table(referee, "gwent", options={"faction_a": "monsters", "faction_b": "scoiatael"},
                       stack={"decks": {0: hand + ["ghoul", "ghoul"]}})  # both candidates are one card
    game = get_game("gwent")
    state = await store.state(tid)
    for seat, leader in ((0, "eredin_bringer_of_death"), (1, "francesca_pureblood_elf")):  # §9 step 1
        assert isinstance(await referee.act(tid, f"u:{'ab'[seat]}", {"type": "leader_pick", "leader": leader}),
                          Accepted)
    state = await store.state(tid)
    give = next(a for a in game.legal_actions(state, 0) if a["type"] == "mulligan_give")
    assert isinstance(await referee.act(tid, "u:a", give), Accepted)
    actions = await store.actions(tid)
    assert [(a.user_id, a.action["type"]) for a in actions[-2:]] == [("u:a", "mulligan_give"),
                                                                     (AUTO, "mulligan_take")]
    state = await store.state(tid)
    assert state["mull"][0]["give"] is None and state["hand"][0]  # the exchange is complete


def test_bloodwood_takes_only_what_tells_nobody_anything():
    game = get_game("bloodwood")
    legal_one = [{"type": "discard", "card": "bite"}]
    state = {"hands": [["bite"], ["bite", "bite"]]}
    assert game.forced_action(state, 0, legal_one) == legal_one[0]   # the last card: the count is public
    assert game.forced_action(state, 1, legal_one) is None           # two of a kind: it would tell
    assert game.forced_action(state, 0, [{"type": "pass"}]) == {"type": "pass"}
    assert game.forced_action(state, 0, [{"type": "play", "card": "bite"}]) is None  # never a play
    assert game.forced_action(state, 0, [*legal_one, {"type": "pass"}]) is None      # a real choice


def test_raiders_ends_a_turn_for_an_empty_hand_only():
    game = get_game("raiders")
    end = [{"type": "end"}]
    assert game.forced_action({"players": [{"hand": []}]}, 0, end) == end[0]
    assert game.forced_action({"players": [{"hand": ["c1"]}]}, 0, end) is None  # it would tell: nothing usable
    last = [{"type": "discard", "card": "c1"}]
    assert game.forced_action({"players": [{"hand": ["c1"]}]}, 0, last) == last[0]
