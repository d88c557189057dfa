"""Moderators roll tables back without rewriting the record, and record rulings."""
from bot.engine import Code, Rejection
from bot.referee import moderation
from bot.referee.record import verify_table
from bot.referee.service import Accepted
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one


async def test_rollback_appends_and_replays(env):
    store, referee, clock = env
    tid = await new_toy(referee)
    for _ in range(3):
        clock.t += 1
        await play_one(referee, store, tid)
    before = await store.state(tid, 1)
    old_buttons_version = (await store.get_table(tid)).version
    result = await moderation.rollback(referee, tid, 1, moderator="mod:m", reason="misclick")
    assert isinstance(result, Accepted) and result.version == 4
    now = await store.state(tid)
    assert {k: v for k, v in now.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
    assert len(await store.actions(tid)) == 4                       # nothing was deleted
    state = await store.state(tid)
    mover = (await store.seats(tid))[state["turn"]].user_id
    stale = await referee.act(tid, mover, {"type": "play", "card": min(state["hands"][state["turn"]])},
                              expected_version=old_buttons_version)
    assert isinstance(stale, Rejection) and stale.code == Code.STALE
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    assert (await verify_table(store, tid)).ok                      # replay understands the rollback
    history = await referee.history(tid)
    assert any(e["kind"] == "rollback" and e["data"]["reason"] == "misclick" for e in history)


async def test_rollback_reopens_a_finished_table_and_rejects_bad_targets(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    version = (await store.get_table(tid)).version
    bad = await moderation.rollback(referee, tid, version, moderator="mod:m", reason=None, reopen=True)
    assert isinstance(bad, Rejection) and bad.key == "core.reject.bad_rollback"
    # the seed is public now: reopening must be asked for knowingly, and a refusal changes nothing
    unasked = await moderation.rollback(referee, tid, version - 1, moderator="mod:m", reason="x")
    assert isinstance(unasked, Rejection) and unasked.key == "core.reject.reopen_revealed"
    assert (await store.get_table(tid)).version == version
    assert isinstance(await moderation.rollback(referee, tid, version - 1, moderator="mod:m", reason="x",
                                                reopen=True), Accepted)
    table = await store.get_table(tid)
    assert table.status == "active" and table.outcome is None
    assert isinstance(await play_one(referee, store, tid), Accepted)
    assert (await store.get_table(tid)).status == "finished"
    assert (await verify_table(store, tid)).ok


async def test_ruling_is_recorded_and_announced(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    assert await moderation.ruling(referee, tid, moderator="mod:m", text="Card 3 stands.") is True
    rulings = [m for m in await pending_messages(store, limit=500) if m.kind == "ruling"]
    assert rulings and rulings[0].payload["text"] == "Card 3 stands."
