"""Disputes through the referee service: raised within the table's window, queued, decided with each kind,
every decision in the record and the export, and the table still verifying with the moderator's steps."""
import pytest

from bot.engine import Code, Rejection
from bot.referee import disputes
from bot.referee.record import export_table, verify_export, verify_table
from bot.referee.service import Accepted
from bot.render.disputes import evidence_texts, queue_lines
from bot.render.text import render_message
from bot.storage.store import Store
from bot.referee.visibility import pending_messages
from tests.support.tables import new_toy, play_one


async def played(referee, store, tid, moves):
    for _ in range(moves):
        assert isinstance(await play_one(referee, store, tid), Accepted)


async def mover_of(store, tid):
    state = await store.state(tid)
    return (await store.seats(tid))[state["turn"]].user_id


async def finish(referee, store, tid):
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)


async def test_raise_tells_the_table_and_joins_the_server_queue(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    raiser = await mover_of(store, tid)  # the player who did not make move 1 and has not moved since
    d = await disputes.raise_dispute(referee, tid, raiser, move=1, text="  that card was not in the hand  ")
    assert d.status == "open" and d.move == 1 and d.version == 1 and d.text == "that card was not in the hand"
    notice = [m for m in await pending_messages(store, limit=500) if m.kind == "dispute"]
    assert notice[-1].payload["dispute"] == {"id": d.id, "event": "raised", "move": 1, "by": raiser,
                                             "text": "that card was not in the hand"}
    assert [x.id for x in await store.disputes(guild_id="", status="open")] == [d.id]
    assert await store.disputes(guild_id="123", status="open") == []
    lines = queue_lines(await store.disputes(status="open"), {tid: "toy"}, "en")
    assert "move 1" in lines[1] and "not in the hand" in lines[1]


async def test_a_private_dispute_keeps_its_text_from_the_table(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    raiser = await mover_of(store, tid)
    d = await disputes.raise_dispute(referee, tid, raiser, move=1, text="secret: I hold the 12", private=True)
    said = [m for m in await pending_messages(store, limit=500) if m.kind == "dispute"][-1]
    assert "12" not in str(said.payload)
    from bot.engine import get_game
    text = render_message(get_game("toy"), "dispute", said.payload, names=["a", "b"], locale="en", table_id=tid)
    assert "dispute #" in text and "moderators only" in text and "12" not in text.replace(f"#{d.id}", "")
    assert (await export_table(store, tid))["disputes"][0]["text"] is None
    assert (await export_table(store, tid, include_seed=True))["disputes"][0]["text"] == "secret: I hold the 12"


async def test_refusals_name_why(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    empty = await disputes.raise_dispute(referee, tid, "u:alice", move=1, text="x")
    assert isinstance(empty, Rejection) and empty.key == "disputes.reject.no_move"
    await played(referee, store, tid, 1)
    stranger = await disputes.raise_dispute(referee, tid, "u:carol", move=1, text="x")
    assert stranger.code == Code.NOT_A_PLAYER and stranger.key == "disputes.reject.not_seated"
    blank = await disputes.raise_dispute(referee, tid, "u:alice", move=1, text=" \n ")
    assert blank.key == "disputes.reject.empty"
    waiting = await mover_of(store, tid)
    first = await disputes.raise_dispute(referee, tid, waiting, move=1, text="x")
    again = await disputes.raise_dispute(referee, tid, waiting, move=1, text="y")
    assert again.key == "disputes.reject.already_disputed" and first.status == "open"
    # the disputing player moves: their window for move 1 closes with it (the Raiders book: before one's next move)
    await played(referee, store, tid, 1)
    other = next(s.user_id for s in await store.seats(tid) if s.user_id != waiting)
    late = await disputes.raise_dispute(referee, tid, waiting, move=1, text="z")
    assert late.key == "disputes.reject.window_next" and late.params["closed_by"] == 2
    await played(referee, store, tid, 1)  # the other player moved too
    closed = await disputes.raise_dispute(referee, tid, other, move=1, text="z")
    assert closed.key == "disputes.reject.window_next" and closed.params["closed_by"] == 3
    await finish(referee, store, tid)
    over = await disputes.raise_dispute(referee, tid, other, move=3, text="z")
    assert over.code == Code.GAME_OVER and over.key == "disputes.reject.table_over"


async def test_the_table_sets_the_window(env):
    store, referee, _ = env
    off = await new_toy(referee, options={"dispute_window": "off"})
    await played(referee, store, off, 1)
    assert (await disputes.raise_dispute(referee, off, await mover_of(store, off), move=1, text="x")).key == \
        "disputes.reject.off"
    two = await new_toy(referee, players=("carol", "dave"), options={"dispute_window": 2})
    await played(referee, store, two, 4)
    mover = await mover_of(store, two)
    late = await disputes.raise_dispute(referee, two, mover, move=1, text="x")  # moves 2, 3 and 4 followed it
    assert late.key == "disputes.reject.window_moves" and late.params["closed_by"] == 4
    assert (await disputes.raise_dispute(referee, two, mover, move=2, text="x")).status == "open"
    bad = await referee.create_table("toy", creator="u:x", creator_name="x", options={"dispute_window": "soon"})
    assert bad.key == "disputes.reject.bad_window"


async def test_reject_changes_nothing_but_is_recorded_and_announced(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x")
    version = (await store.get_table(tid)).version
    no_reason = await disputes.decide(referee, d.id, moderator="mod:m", kind="reject", reason=" ")
    assert no_reason.key == "disputes.reject.no_reason"
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind="reject", reason="the card was there")
    assert done.status == "rejected" and done.moderator == "mod:m" and done.reason == "the card was there"
    assert (await store.get_table(tid)).version == version
    twice = await disputes.decide(referee, d.id, moderator="mod:m", kind="uphold", reason="no")
    assert twice.key == "disputes.reject.decided"
    said = [m for m in await pending_messages(store, limit=500) if m.kind == "dispute"][-1].payload["dispute"]
    assert said["kind"] == "reject" and said["by"] == "mod:m" and said["reason"] == "the card was there"


async def test_uphold_rolls_back_to_before_the_move_and_verifies(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 2)
    before = await store.state(tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=2, text="wrong card")
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind="uphold", reason="misdeal")
    assert done.status == "upheld" and done.decision["mode"] == "rollback" and done.decision["steps"] == [3]
    now = await store.state(tid)
    assert {k: v for k, v in now.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
    await finish(referee, store, tid)
    doc = await export_table(store, tid)
    assert doc["disputes"][0]["status"] == "upheld" and doc["disputes"][0]["reason"] == "misdeal"
    assert verify_export(doc).ok


async def test_amend_applies_the_moderators_correction_as_its_own_step(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    first = await store.state(tid, 0)
    seat = first["turn"]
    other_card = max(first["hands"][seat])  # play_one played the lowest
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="meant the other card")
    missing = await disputes.decide(referee, d.id, moderator="mod:m", kind="amend", reason="r")
    assert missing.key == "disputes.reject.no_correction"
    illegal = await disputes.decide(referee, d.id, moderator="mod:m", kind="amend", reason="r",
                                    correction={"type": "play", "card": 99})
    assert isinstance(illegal, Rejection) and (await store.get_table(tid)).version == 1  # nothing written
    correction = await disputes.parse_correction(referee, d.id, str(first["hands"][seat].index(other_card) + 1))
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind="amend", reason="misclick",
                                 correction=correction)
    assert done.status == "amended" and done.decision["steps"] == [2, 3] and done.decision["seat"] == seat
    actions = await store.actions(tid)
    assert actions[-1].seat == -1 and actions[-1].user_id == "mod:m"
    assert actions[-1].action == {"type": "amend", "seat": seat, "action": {"type": "play", "card": other_card}}
    assert other_card in (await store.state(tid))["table"]
    log = await referee.history(tid)
    assert any(e["kind"] == "amended" and e["data"] == {"dispute": d.id, "by": "mod:m"} for e in log)
    await finish(referee, store, tid)
    assert (await verify_table(store, tid)).ok


async def test_a_forged_decision_step_fails_verification(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x")
    await disputes.decide(referee, d.id, moderator="mod:m", kind="uphold", reason="r")
    await finish(referee, store, tid)
    doc = await export_table(store, tid)
    assert verify_export(doc).ok
    doc["disputes"][0]["decision"]["steps"] = [3]  # a player's move, not the moderator's step
    assert [p.key for p in verify_export(doc).problems] == ["records.problem.dispute_step"]


async def test_undone_moves_and_finished_tables(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 2)
    d1 = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=2, text="x")
    other = next(s.user_id for s in await store.seats(tid) if s.user_id != d1.user_id)
    d2 = await disputes.raise_dispute(referee, tid, other, move=2, text="y")
    await disputes.decide(referee, d1.id, moderator="mod:m", kind="uphold", reason="r")
    undone = await disputes.decide(referee, d2.id, moderator="mod:m", kind="uphold", reason="r")
    assert undone.key == "disputes.reject.undone"
    await play_one(referee, store, tid)
    d3 = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=2, text="z")
    await finish(referee, store, tid)
    closed = await disputes.decide(referee, d3.id, moderator="mod:m", kind="uphold", reason="r")
    assert closed.key == "core.reject.reopen_revealed"
    assert (await disputes.decide(referee, d3.id, moderator="mod:m", kind="uphold", reason="r", reopen=True)).status \
        == "upheld"
    assert (await store.get_table(tid)).status == "active"
    assert (await disputes.decide(referee, d2.id, moderator="mod:m", kind="reject", reason="undone")).status == \
        "rejected"


async def test_evidence_shows_the_move_from_every_side_to_moderators(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x", private=True)
    ev = await disputes.evidence(referee, d.id)
    assert ev.before == await store.state(tid, 0) and ev.after == await store.state(tid, 1)
    assert ev.action.version == 1 and ev.in_play and ev.upholding is None
    assert ev.corrections == [{"type": "play", "card": c} for c in ev.before["hands"][ev.seat]]
    full = "\n".join(evidence_texts(ev, "en"))
    assert "kept from the table" in full and "Uphold: a rollback" in full
    mover_hand = str(ev.before["hands"][ev.seat])
    assert mover_hand.strip("[]").split(", ")[1] in evidence_texts(ev, "en", seat=ev.seat)[1]
    for locale in ("ru", "uk", "en"):
        assert all(evidence_texts(ev, locale, seat=s) for s in (None, 0, 1))


async def test_server_notes_are_kept_and_listed(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x")
    done = await disputes.decide(referee, d.id, moderator="mod:m", kind="reject", reason="a lead may be any card",
                                 note_rule="TOY-1")
    assert done.decision["note"] == "TOY-1"
    notes = await disputes.rulings(referee, None)
    assert [(n.rule, n.text, n.dispute_id) for n in notes] == [("TOY-1", "a lead may be any card", d.id)]
    assert await disputes.rulings(referee, None, ["TOY-2"]) == []
    assert await disputes.rulings(referee, "999") == []


async def test_an_open_dispute_survives_a_restart(tmp_path):
    from bot.referee.service import Referee

    store = await Store.open(tmp_path / "j.db")
    referee = Referee(store)
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x")
    await store.close()
    store = await Store.open(tmp_path / "j.db")
    referee = Referee(store)
    try:
        assert [x.id for x in await store.disputes(status="open")] == [d.id]
        assert (await disputes.decide(referee, d.id, moderator="mod:m", kind="uphold", reason="r")).status == "upheld"
        await finish(referee, store, tid)
        assert (await verify_table(store, tid)).ok
    finally:
        await store.close()


@pytest.mark.parametrize("kind", ["bogus", ""])
async def test_unknown_decision_kinds_are_refused(env, kind):
    store, referee, _ = env
    tid = await new_toy(referee)
    await played(referee, store, tid, 1)
    d = await disputes.raise_dispute(referee, tid, await mover_of(store, tid), move=1, text="x")
    assert (await disputes.decide(referee, d.id, moderator="m", kind=kind, reason="r")).key == "disputes.reject.bad_kind"
