"""The public pages' reads (bot/storage/public_reads.py): what each returns for a small record of toy tables and
a toy tournament, that the public events leave the private ones in the database, and that the marks change
when what a page depends on does."""
from __future__ import annotations

from bot.storage import public_reads as reads
from bot.storage.public_reads import Scope
from bot.web.sample import bot_tournament
from tests.support.tables import new_toy, play_one


async def test_a_tables_reads(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    before = await reads.table_marks(store, tid)
    await play_one(referee, store, tid)
    after = await reads.table_marks(store, tid)
    assert before.status == after.status == "active" and after.version > before.version
    assert await reads.table_marks(store, 999) is None

    events = await reads.public_events(store, tid)
    every = await store.events(tid)
    assert any(e.to is not None for e in every), "the toy deals privately: the filter would be untested"
    assert [(e.version, e.kind) for e in events] == [(e.version, e.kind) for e in every if e.to is None]
    moved = await reads.movers(store, tid)
    assert {v: (m.seat, m.at) for v, m in moved.items()} == {a.version: (a.seat, a.at) for a in await store.actions(tid)}
    assert await reads.seat_names(store, [tid]) == {tid: ["alice", "bob"]}
    assert await reads.table_statuses(store, [tid, 999]) == {tid: "active"}
    assert await reads.table_event(store, tid) is None
    await reads.ping(store)


async def test_the_index_and_player_reads_follow_the_record(env):
    store, referee, _ = env
    local = await new_toy(referee)
    everywhere, here = Scope.all_servers(), Scope.server(None)
    marks = await reads.index_marks(store, everywhere)
    assert [t.id for t in await reads.started_tables(store, here, 10)] == [local]
    assert await reads.started_tables(store, Scope.server("42"), 10) == []

    tour = await bot_tournament(referee, "toy", "round_robin", 3, guild_id="42")
    assert await reads.index_marks(store, everywhere) != marks
    counts = {c.guild_id: (c.tables, c.tournaments) for c in await reads.server_counts(store)}
    assert counts[None] == (1, 0) and counts["42"][1] == 1 and counts["42"][0] >= 3
    assert [t.id for t in await reads.scope_tournaments(store, Scope.server("42"), 5)] == [tour]
    assert await reads.scope_tournaments(store, here, 5) == []

    tables = await reads.started_tables(store, Scope.server("42"), 10)
    link = await reads.table_event(store, tables[0].id)
    assert link.tournament_id == tour and link.round >= 1
    assert await reads.tournament_marks(store, tour) is not None and await reads.tournament_marks(store, 999) is None
    assert await reads.next_stage_id(store, tour) is None

    entered = await reads.player_entries(store, f"bot:t{tour}:1", 10)
    assert [(row.id, entry.name) for row, entry in entered] == [(tour, "Bot 1")]
    player = await reads.player_marks(store, "u:alice")
    await play_one(referee, store, local)
    assert await reads.player_marks(store, "u:alice") != player
