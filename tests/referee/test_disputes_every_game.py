"""A dispute raised and settled with each kind of decision at a table of every game, the record verifying
after it; and Raiders' judge-assisted card upheld by a moderator in the table's dispute mode (issue 13)."""
import pytest

from bot.engine import all_games, get_game
from bot.referee import disputes
from bot.referee.moves import Moves
from bot.referee.record import verify_table
from bot.referee.service import Accepted
from bot.referee.visibility import pending_messages
from tests.games.raiders.helpers import judged_deck  # noqa: F401  (a fixture)

GAMES = [name for name in all_games() if name != "toy"]
PLAYERS = ("ann", "ben", "cid", "dan", "eve", "fay")


async def table_with_a_move(referee, store, name):
    """A table of ``name`` (its least seats, at least two) with its first public move made; returns the table id
    and a player who may dispute that move."""
    game = get_game(name)
    seats = max(2, game.min_seats)
    table = await referee.create_table(name, creator="u:ann", creator_name="ann", origin="terminal")
    for p in PLAYERS[1:seats]:
        assert isinstance(await referee.join(table.id, f"u:{p}", p), int)
    assert isinstance(await referee.start(table.id, "u:ann", seed="dispute"), Accepted)
    for _ in range(60):  # private steps (a secret mulligan) come before the first public move in some games
        if Moves(await referee.history(table.id)).latest >= 1:
            break
        state = await store.state(table.id)
        pending = game.to_act(state)[0].seat
        action = game.legal_actions(state, pending)[0]
        assert isinstance(await referee.act(table.id, f"u:{PLAYERS[pending]}", action, seat=pending), Accepted)
    assert Moves(await referee.history(table.id)).latest >= 1
    return table.id, "u:" + PLAYERS[seats - 1]


@pytest.mark.parametrize("kind", ["uphold", "reject", "amend"])
@pytest.mark.parametrize("name", GAMES)
async def test_every_game_settles_a_dispute_and_still_verifies(env, name, kind):
    store, referee, _ = env
    tid, raiser = await table_with_a_move(referee, store, name)
    d = await disputes.raise_dispute(referee, tid, raiser, move=1, text="not by the book")
    assert d.status == "open", d
    ev = await disputes.evidence(referee, d.id)
    correction = None
    if kind == "amend":
        assert ev.corrections, "the move's seat had choices before it"
        original = ev.action.action
        correction = next((a for a in ev.corrections if a != original), ev.corrections[0])
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind=kind, reason="checked the record",
                                 correction=correction)
    assert done.status == disputes.STATUS[kind], done
    actions = await store.actions(tid)
    if kind == "reject":
        assert all(a.seat >= 0 for a in actions)
    else:
        assert [a.version for a in actions if a.seat == -1] == done.decision["steps"]
    report = await verify_table(store, tid, moderator=True)
    assert report.ok, report.problems
    # what the table heard: the notices name the move, the moderator and the reason, nothing of the game's state
    notices = [m.payload["dispute"] for m in await pending_messages(store, limit=10_000) if m.kind == "dispute"]
    assert [n["event"] for n in notices] == ["raised", "decided"]
    assert set(notices[1]) == {"id", "event", "kind", "mode", "move", "by", "reason", "note"}
    for message in await pending_messages(store, limit=10_000):
        if message.target == "table":
            assert all(e["to"] is None for e in message.payload.get("events") or [])


async def _raiders_table_with_a_stated_manual_card(referee, store, mode):
    table = await referee.create_table("raiders", creator="u:ann", creator_name="ann", origin="terminal",
                                       options={"disputes": mode})
    await referee.join(table.id, "u:ben", "ben")
    await referee.join(table.id, "u:cid", "cid")
    stack = {"first": 0, "deck": ["house:c10", "house:h10"]}
    assert isinstance(await referee.start(table.id, "u:ann", seed="rd", stack=stack, moderator=True), Accepted)
    prop = (await store.state(table.id))["props"][0]["card"]
    for action in ({"type": "capture", "card": "house:c10", "prop": prop},
                   {"type": "shnyaga", "card": "house:h10", "target": None},
                   {"type": "state", "effect": {"do": "krutizna", "by": 3, "target": "house:c10"}}):
        assert isinstance(await referee.act(table.id, "u:ann", action), Accepted), action
    return table.id, Moves(await referee.history(table.id)).latest


@pytest.mark.parametrize("mode", ["void", "rollback"])
async def test_a_moderator_upholds_a_judge_assisted_step_in_the_tables_mode(env, judged_deck, mode):  # noqa: F811
    store, referee, _ = env
    tid, stated = await _raiders_table_with_a_stated_manual_card(referee, store, mode)
    # ben starts the table's own vote; cid raises the dispute with the moderators instead of voting
    assert isinstance(await referee.act(tid, "u:ben", {"type": "dispute", "entry": 0}), Accepted)
    d = await disputes.raise_dispute(referee, tid, "u:cid", move=stated, text="+3 is not what the card says")
    ev = await disputes.evidence(referee, d.id)
    assert ev.upholding == {"type": "uphold", "entry": 0} and "Разрешение споров" not in ev.rules
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind="uphold", reason="the card does not do that")
    assert done.decision["mode"] == "game"
    state = await store.state(tid)
    assert state["window"]["vote"] is None, "the moderator's decision ends the table's vote"
    if mode == "void":  # «Карта не срабатывает и уходит в битые карты»
        assert state["window"]["queue"][0]["effects"] == [] and "house:h10" in state["discard"]
    else:  # «Ход откатывается назад, карты возвращаются игрокам в руку»
        assert state["window"]["queue"] == [] and "house:h10" in state["players"][0]["hand"]
    step = (await store.actions(tid))[-1]
    assert step.seat == -1 and step.action == {"type": "uphold", "action": {"type": "uphold", "entry": 0}}
    log = await referee.history(tid)
    assert [e["kind"] for e in log if e["version"] == step.version] == ["moderator_upheld", "upheld"]
    assert (await verify_table(store, tid, moderator=True)).ok
    # the step no longer stands in the window: nothing is left there for a moderator to uphold
    assert (await disputes.evidence(referee, d.id)).upholding is None
