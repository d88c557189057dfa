"""The referee service and its SQLite record, exercised with the toy game (tests/support/toy.py)."""
from __future__ import annotations

import asyncio
import json

import pytest

from bot.engine import Code, Rejection, get_game
from bot.engine.canonical import dumps
from bot.engine.rng import commitment
from bot.referee.delivery import DeliveryError, Skip, drain
from bot.referee.record import RecordError, export_table, verify_export, verify_table
from bot.referee.service import Accepted, Referee
from bot.storage import steprows as steprows_module
from bot.storage.store import Store
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one


async def test_lobby_rules(env):
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:a", creator_name="A", origin="terminal")
    assert (await referee.join(table.id, "u:a", "A")).code == Code.ILLEGAL  # already seated
    assert (await referee.start(table.id, "u:a")).code == Code.BAD_SETUP    # one player is too few
    assert await referee.join(table.id, "u:b", "B") == 1
    assert (await referee.start(table.id, "u:b")).code == Code.FORBIDDEN    # only the creator starts
    for name in "cd":
        await referee.join(table.id, f"u:{name}", name)
    assert (await referee.join(table.id, "u:e", "E")).code == Code.ILLEGAL  # full at 4
    assert await referee.leave(table.id, "u:b") is True
    assert [s.seat for s in await store.seats(table.id)] == [0, 1, 2]       # renumbered, no gap
    bad = await referee.create_table("toy", creator="u:a", creator_name="A", options={"tricks": 9})
    assert isinstance(bad, Rejection) and bad.code == Code.BAD_OPTIONS
    assert (await referee.create_table("nope", creator="u:a", creator_name="A")).code == Code.NOT_FOUND


async def test_game_is_recorded_and_verifies(env):
    store, referee, clock = env
    tid = await new_toy(referee)
    table = await store.get_table(tid)
    assert table.seed_hash == commitment("seed-1") and table.status == "active"
    while (await store.get_table(tid)).status == "active":
        clock.t += 3
        assert isinstance(await play_one(referee, store, tid), Accepted)
    table = await store.get_table(tid)
    assert table.status == "finished" and table.outcome["reason"] == "toy.win"
    assert len(await store.actions(tid)) == table.version == 6
    assert len(await store.snapshot_texts(tid)) == 7
    report = await verify_table(store, tid)
    assert report.ok and report.snapshots_checked == 7
    finish = [m for m in await pending_messages(store, limit=500) if m.kind == "finish"]
    assert finish and finish[0].payload["seed"] == "seed-1"   # the seed is revealed at the end


async def test_replay_matches_every_snapshot_byte_for_byte(env):
    store, referee, clock = env
    from tests.support.toy import TOY

    tid = await new_toy(referee, players=("a", "b", "c"))
    for _ in range(5):
        clock.t += 1
        await play_one(referee, store, tid)
    snaps = await store.snapshot_texts(tid)
    table = await store.get_table(tid)
    state = TOY.initial_state(3, seed=table.seed, options=table.options, now=table.started_at).state
    assert dumps(state) == snaps[0][1]
    for action, (version, text) in zip(await store.actions(tid), snaps[1:]):
        state = TOY.apply(state, action.seat, action.action, now=action.at).state
        assert dumps(state) == text and version == action.version


async def test_bad_input_changes_nothing(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    state = await store.state(tid)
    idle = 1 - state["turn"]
    seats = await store.seats(tid)
    mover = seats[state["turn"]].user_id
    before = (await store.get_table(tid)).version, await store.snapshot_texts(tid)
    other_card = state["hands"][idle][0]
    checks = [
        (seats[idle].user_id, {"type": "play", "card": state["hands"][idle][0]}, None, Code.NOT_YOUR_TURN),
        ("u:stranger", {"type": "play", "card": 1}, None, Code.NOT_A_PLAYER),
        (mover, {"type": "play", "card": other_card}, None, Code.ILLEGAL),   # not in their hand
        (mover, "play 3", None, Code.MALFORMED),
        (mover, {"type": "play", "card": min(state["hands"][state["turn"]])}, 99, Code.STALE),
        (mover, {"type": "timeout"}, None, Code.TOO_EARLY),
    ]
    for user, action, version, code in checks:
        result = await referee.act(tid, user, action, expected_version=version)
        assert isinstance(result, Rejection) and result.code == code, (action, result)
    assert ((await store.get_table(tid)).version, await store.snapshot_texts(tid)) == before
    assert await store.actions(tid) == []


async def test_concurrent_clicks_apply_exactly_once(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    state = await store.state(tid)
    mover = (await store.seats(tid))[state["turn"]].user_id
    action = {"type": "play", "card": min(state["hands"][state["turn"]])}
    results = await asyncio.gather(*[referee.act(tid, mover, action, expected_version=0) for _ in range(5)])
    assert sum(isinstance(r, Accepted) for r in results) == 1
    assert all(r.code == Code.STALE for r in results if isinstance(r, Rejection))
    assert (await store.get_table(tid)).version == 1


async def test_version_conflict_between_two_referees(env, tmp_path):
    """Two processes on one database: the optimistic version check refuses the second writer."""
    store, referee, _ = env
    tid = await new_toy(referee)
    other_store = await Store.open(tmp_path / "judge.db")
    try:
        other = Referee(other_store)
        state = await store.state(tid)
        mover = (await store.seats(tid))[state["turn"]].user_id
        action = {"type": "play", "card": min(state["hands"][state["turn"]])}
        first, second = await asyncio.gather(referee.act(tid, mover, action), other.act(tid, mover, action))
        results = [first, second]
        assert sum(isinstance(r, Accepted) for r in results) == 1
    finally:
        await other_store.close()


async def test_crash_inside_the_transaction_stores_nothing(env, monkeypatch):
    store, referee, _ = env
    tid = await new_toy(referee)
    before = await store.snapshot_texts(tid), await pending_messages(store, limit=500)

    def boom(*args, **kwargs):  # the outbox rows fail after the action's other rows were written
        raise OSError("disk full")

    monkeypatch.setattr(steprows_module, "_message_rows", boom)
    with pytest.raises(OSError):
        await play_one(referee, store, tid)
    monkeypatch.undo()
    assert (await store.get_table(tid)).version == 0
    assert await store.actions(tid) == []
    assert (await store.snapshot_texts(tid), await pending_messages(store, limit=500)) == before
    assert isinstance(await play_one(referee, store, tid), Accepted)  # and the table goes on


async def test_reopen_database_mid_game_and_continue(tmp_path):
    path = tmp_path / "judge.db"
    store = await Store.open(path)
    referee = Referee(store)
    tid = await new_toy(referee)
    await play_one(referee, store, tid)
    await play_one(referee, store, tid)
    await store.close()                       # the process dies here

    store = await Store.open(path)            # ... and starts again
    referee = Referee(store)
    while (await store.get_table(tid)).status == "active":
        assert isinstance(await play_one(referee, store, tid), Accepted)
    assert (await verify_table(store, tid)).ok
    await store.close()


async def test_hidden_cards_only_in_private_messages(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    messages = await pending_messages(store, limit=500)
    hands = (await store.state(tid, 0))["hands"]
    table_msgs = [m for m in messages if m.target == "table"]
    assert table_msgs and all(m.kind == "start" for m in table_msgs)
    for m in table_msgs:
        assert all(e["to"] is None for e in m.payload["events"])
        assert m.payload["view"]["hand"] is None
    private = {m.seat: m for m in messages if m.target == "seat"}
    assert set(private) == {0, 1}
    for seat, m in private.items():
        assert m.payload["view"]["hand"] == hands[seat]
        dealt = [e for e in m.payload["events"] if e["kind"] == "dealt"]
        assert [e["data"]["seat"] for e in dealt] == [seat]


class FakeDeliverer:
    origins = None
    def __init__(self, fail_first=0, permanent=False):
        self.sent, self.fail_first, self.permanent, self.calls = [], fail_first, permanent, 0

    async def deliver(self, table, seats, message):
        self.calls += 1
        if message.target == "seat" and seats[message.seat].is_bot:
            raise Skip("bot")
        if self.calls <= self.fail_first:
            raise DeliveryError("503", permanent=self.permanent)
        self.sent.append(message.id)
        return f"ext-{message.id}"


async def test_outbox_is_delivered_once_in_order_with_retries(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await play_one(referee, store, tid)
    flaky = FakeDeliverer(fail_first=1)
    assert await drain(store, flaky) == 0         # the first message failed: the table's queue waits
    sent = await drain(store, flaky)
    assert sent == len(flaky.sent) and flaky.sent == sorted(flaky.sent)
    assert await drain(store, flaky) == 0          # nothing is sent twice
    assert await pending_messages(store) == []


async def test_each_front_end_drains_only_its_own_tables(env):
    """A terminal and the Discord bot may share one database: neither may consume the other's messages."""
    store, referee, _ = env
    terminal_table = await new_toy(referee)
    discord_table = await referee.create_table("toy", creator="u:carol", creator_name="carol", origin="discord")
    await referee.join(discord_table.id, "u:dave", "dave")
    await referee.start(discord_table.id, "u:carol")
    terminal = FakeDeliverer()
    terminal.origins = ("terminal", "demo")
    await drain(store, terminal)
    delivered = {m.table_id for m in await pending_messages(store, limit=1000)}
    assert delivered == {discord_table.id}       # the Discord table's messages are still waiting, untouched
    discord = FakeDeliverer()
    discord.origins = ("discord",)
    assert await drain(store, discord) > 0
    assert await pending_messages(store) == [] and terminal_table != discord_table.id


async def test_permanent_failure_is_recorded_for_moderators(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    broken = FakeDeliverer(fail_first=100, permanent=True)
    await drain(store, broken)
    failed = await store.failed_messages()
    assert failed and all(f[1] == tid for f in failed)
    assert await pending_messages(store) == []


async def test_deadline_timeout_is_applied_by_the_clock(env):
    store, referee, clock = env
    tid = await new_toy(referee, options={"turn_seconds": 60})
    state = await store.state(tid)
    assert (await store.get_table(tid)).next_deadline == clock.t + 60
    clock.t += 30
    assert await referee.tick() == []
    clock.t += 31
    done = await referee.tick()
    assert len(done) == 1 and done[0].seat == state["turn"]
    actions = await store.actions(tid)
    assert actions[0].user_id == "system" and actions[0].action == {"type": "timeout"}
    assert (await store.state(tid))["table"][state["turn"]] == min(state["hands"][state["turn"]])
    assert (await verify_table(store, tid, moderator=True)).ok


async def test_verify_detects_a_tampered_record(env):
    store, referee, clock = env
    tid = await new_toy(referee)
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    async with store.transaction() as db:
        state = json.loads((await store.snapshot_texts(tid))[3][1])
        state["tricks"][0] += 1
        await db.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = 3", (dumps(state), tid))
    report = await verify_table(store, tid)
    assert not report.ok and any("snapshot 3" in p for p in report.problems)
    doc = await export_table(store, tid)
    doc["table"]["seed"] = "another-seed"
    assert not verify_export(doc).commitment_ok


async def test_export_hides_the_seed_until_the_end(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    doc = await export_table(store, tid)
    assert doc["table"]["seed"] is None and "states" not in doc
    with pytest.raises(RecordError):
        verify_export(doc)


async def test_stacking_is_moderator_only_and_marked(env):
    store, referee, _ = env
    deck = list(range(12, 0, -1))
    table = await referee.create_table("toy", creator="u:a", creator_name="A")
    await referee.join(table.id, "u:b", "B")
    refused = await referee.start(table.id, "u:a", stack={"deck": deck})
    assert refused.code == Code.FORBIDDEN
    assert isinstance(await referee.start(table.id, "u:a", stack={"deck": deck}, moderator=True), Accepted)
    state = await store.state(table.id)
    assert state["hands"] == [[10, 11, 12], [7, 8, 9]]
    start = [m for m in await pending_messages(store) if m.kind == "start"][0]
    assert start.payload["stacked"] is True
    assert (await store.get_table(table.id)).stack == {"deck": deck}


async def test_bots_play_a_table_to_the_end(env):
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:a", creator_name="A", join=False)
    for _ in range(3):
        await referee.add_bot(table.id)
    await referee.start(table.id, "u:a")
    moves = await referee.drive_bots(table.id)
    assert moves == 9 and (await store.get_table(table.id)).status == "finished"


async def test_history_filters_by_seat(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    public = await referee.history(tid)
    assert all(e["to"] is None for e in public)
    mine = await referee.history(tid, seat=1)
    assert any(e["kind"] == "dealt" and e["data"]["seat"] == 1 for e in mine)
    assert not any(e["kind"] == "dealt" and e["data"]["seat"] == 0 for e in mine)
    everything = await referee.history(tid, moderator=True)
    assert any(e["kind"] == "shuffled" for e in everything)


async def test_a_seat_that_owes_nothing_is_offered_its_anytime_actions_and_may_take_them(env):
    """Bloodwood's declaration during another player's turn (BW-25) goes through the referee like any action:
    offered on request (never prompted), applied, and recorded."""
    _, referee, _ = env
    table = await referee.create_table("bloodwood", creator="u:p0", creator_name="P0")
    for i in range(1, 5):
        await referee.join(table.id, f"u:p{i}", f"P{i}")
    await referee.start(table.id, "u:p0", seed="anytime")
    state = await referee.store.state(table.id)
    game = get_game("bloodwood")
    owing = {p.seat for p in game.to_act(state)}
    idle = next(s for s in range(5) if s not in owing)
    seat, version, actions = await referee.legal(table.id, f"u:p{idle}")
    assert (seat, actions) == (idle, [{"type": "declare"}])
    result = await referee.act(table.id, f"u:p{idle}", {"type": "declare"}, expected_version=version)
    assert isinstance(result, Accepted)
    state = await referee.store.state(table.id)
    assert [p.seat for p in game.to_act(state)] == [idle]  # now naming the other team
    assert (await referee.store.get_table(table.id)).version == version + 1
