"""The outbox's visibility filter is the referee's: storage hands a lean message back with the whole record of its
version (every seat's dealt cards among its events), and bot/referee/visibility.py alone cuts it to what the
message's recipient may see."""
from __future__ import annotations

from bot.referee.visibility import filled, pending_messages
from bot.storage.outbox import FROM_RECORD
from tests.support.tables import new_toy


async def test_storage_returns_the_whole_record_and_the_referee_cuts_it_per_recipient(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    state = await store.state(tid)
    pending = [p for p in await store.pending_records(limit=100) if p.message.table_id == tid]
    dealt = [p for p in pending if p.message.payload.get(FROM_RECORD) and p.state is not None]
    assert dealt, "the start's messages are stored lean"
    record = dealt[0]
    # storage filters nothing: both seats' dealt events (the hidden hands) come back with the raw row
    assert {tuple(e["to"]) for e in record.events if e["kind"] == "dealt"} == {(0,), (1,)}
    assert "view" not in record.message.payload

    delivered = {(m.target, m.seat): m.payload for m in await pending_messages(store, limit=100)
                 if m.table_id == tid and m.version == record.message.version and "view" in m.payload}
    table = delivered[("table", None)]
    assert table["view"]["hand"] is None and not [e for e in table["events"] if e["kind"] == "dealt"]
    for seat in (0, 1):
        mine = delivered[("seat", seat)]
        assert mine["view"]["hand"] == state["hands"][seat]
        assert [e["to"] for e in mine["events"] if e["kind"] == "dealt"] == [[seat]]


def test_a_payload_not_stored_lean_passes_as_stored():
    payload = {"what": "frozen", "events": [{"kind": "x", "to": [1], "data": {}}]}
    assert filled("toy", "table", None, payload, None, []) is payload


def test_without_a_readable_state_a_seat_gets_its_own_events_only():
    events = [{"kind": "a", "to": None, "data": {}}, {"kind": "b", "to": [0], "data": {}},
              {"kind": "c", "to": [1], "data": {}}]
    lean = {"version": 3, FROM_RECORD: True, "by": 0}
    assert filled("toy", "seat", 1, lean, None, events) == {"version": 3, "events": [events[2]], "view": None,
                                                            "by": 0}
    assert filled("toy", "table", None, lean, None, events)["events"] == [events[0]]
