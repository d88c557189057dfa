"""Issue 23: rules versions, migrations of stored states, upgrades recorded as steps, frozen tables, backups,
``upgrade --check`` and ``verify`` across an upgrade.

A table "started under the old shape" is made here by playing a table with today's code and then rewriting
every stored state of it into the shape an unversioned release wrote (``_age``): what the real releases wrote
is covered by the fixtures (tests/fixtures/releases/), this by small hand-made shapes that each test can name.
"""
from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.engine import Rejection, all_games, get_game
from bot.engine.canonical import dumps
from bot.engine.versions import (
    RULES, CannotMigrate, check_declared, migrate_options, migrate_state, rules_of, upgraded_state,
)
from bot.games.bloodwood import migrations as bloodwood_migrations
from bot.games.bridges import migrations as bridges_migrations
from bot.games.claygod import migrations as claygod_migrations
from bot.games.gwent import migrations as gwent_migrations
from bot.i18n import t
from bot.referee.moderation import rollback
from bot.referee.moves import Moves
from bot.referee.record import export_table, verify_export, verify_table
from bot.referee.service import Accepted, Referee
from bot.storage.backup import backups, take_backup
from bot.storage.db import MIGRATIONS, migration_files
from bot.referee.upgrade import open_store, upgrade_tables
from bot.storage.store import Store, load_packed, pack_state
from bot.terminal.cli import main
from tests.support.upgrades import _claygod_v1, continue_fixture, play_to_end

GAMES = ("claygod", "gwent", "bloodwood", "bridges", "raiders")


def _rules(name: str) -> int:
    """Today's rules version of a game (the session's bumps move it; the tests follow)."""
    return get_game(name).rules_version


def _fresh(name: str, seats: int | None = None, seed: str = "mig", **options) -> dict:
    game = get_game(name)
    return game.initial_state(seats or game.min_seats, seed=seed, options=options).state


def _before_pace(options: dict) -> dict:
    """Options as a table of rules version 2 (Raiders: 1) stored them: no ``pace`` (issue 27)."""
    return {k: v for k, v in options.items() if k != "pace"}


# ---------------------------------------------------------------------------------------------- declarations
@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_rules_version_and_one_migration_a_step(name):
    game = get_game(name)
    check_declared(game)
    assert _fresh(name)[RULES] == game.rules_version


def test_rules_of_reads_the_key_and_takes_a_missing_one_for_version_1():
    assert rules_of({}) == 1 and rules_of({RULES: 3}) == 3
    for bad in (0, "2", True, -1):
        with pytest.raises(CannotMigrate):
            rules_of({RULES: bad})


# ---------------------------------------------------------------------------------------------- Clay God
def test_claygod_1_to_2_gives_new_options_the_former_readings_and_fills_the_new_keys():
    old = _claygod_v1(_fresh("claygod"))
    old["turn"]["steps"] = [{"kind": "freeze_own", "turns": 1}, {"kind": "flush"}]
    old["players"][0]["dice"]["red"].update(frozen=True, frozen_turns=1)
    before = dumps(old)
    new = migrate_state(get_game("claygod"), old)
    assert dumps(old) == before, "a migration never changes what it was given"
    assert new[RULES] == 3 and new["options"]["pace"] == "live"
    assert {k: new["options"][k] for k in claygod_migrations.FORMER_READINGS} == claygod_migrations.FORMER_READINGS
    assert new["options"]["thrown_combos"] is False, "issue 29's option: the former reading (no combination)"
    assert new["options"]["count_turns"] == "every" and new["options"]["two_cards"] == "in_order"
    assert all(p["table_place"] is True for p in new["players"])
    red = new["players"][0]["dice"]["red"]
    assert red == {**old["players"][0]["dice"]["red"], "frozen_rolls": None, "frozen_by": None}
    assert new["turn"]["extra"] is False
    assert new["turn"]["steps"] == [{"kind": "freeze_own", "rolls": 1}, {"kind": "flush", "up_to": 5}]
    assert dumps(migrate_state(get_game("claygod"), old)) == dumps(new), "pure: the same bytes every time"


def test_claygod_1_to_2_keeps_an_option_the_table_already_had():
    old = _claygod_v1(_fresh("claygod", win_needs="both"))
    old["options"]["win_needs"] = "both"  # a table of 7b76092..ed09e3e chose it
    assert migrate_state(get_game("claygod"), old)["options"]["win_needs"] == "both"


def test_claygod_2_to_3_gives_thrown_combos_its_former_reading_and_touches_nothing_else():
    state = _fresh("claygod", thrown_combos=True)
    old = {**state, RULES: 2, "options": {k: v for k, v in state["options"].items() if k != "thrown_combos"}}
    new = migrate_state(get_game("claygod"), old)
    assert new == {**state, "options": {**state["options"], "thrown_combos": False}}
    assert migrate_options(get_game("claygod"), old["options"], 2)["thrown_combos"] is False


def test_todays_unversioned_claygod_state_migrates_to_itself_but_for_the_key():
    state = _fresh("claygod")  # thrown_combos: false, the value a table of rules version 2 gets
    old = {k: v for k, v in state.items() if k != RULES}
    old["options"] = {k: v for k, v in state["options"].items() if k in claygod_migrations.OPTIONS_V2}
    assert migrate_state(get_game("claygod"), old) == state


# ---------------------------------------------------------------------------------------------- Gwent
def test_gwent_1_to_2_drops_the_stored_judges_table_and_sets_the_former_readings():
    state = _fresh("gwent")
    old = {k: v for k, v in state.items() if k != RULES}
    old["options"] = {k: v for k, v in _before_pace(state["options"]).items()
                      if k not in gwent_migrations.FORMER_READINGS}
    old["table"] = {"score": [0, 0], "rows": [], "weather": []}  # faa7141..703ed64 stored it
    new = migrate_state(get_game("gwent"), old)
    assert "table" not in new and new[RULES] == 3 and new["options"]["pace"] == "live"
    assert new["options"]["emperor_shown_to"] == "owner" and new["options"]["empty_hand_take"] == "play"
    assert new["options"]["treacherous_crach"] is True and new["options"]["scorch_spares_zero"] is True
    assert new["options"]["bran_weather_floor"] is True
    assert {k: v for k, v in new.items() if k != "options"} == {k: v for k, v in state.items() if k != "options"}


@pytest.mark.parametrize("value", ["autopass", "play"])
def test_gwent_2_to_3_keeps_the_empty_hand_reading_a_table_had(value):
    state = _fresh("gwent", empty_hand_take=value)
    new = migrate_state(get_game("gwent"), {**state, RULES: 2})
    assert new == state and new["options"]["empty_hand_take"] == value


# ---------------------------------------------------------------------------------------------- the others
@pytest.mark.parametrize("name,module", [("bloodwood", bloodwood_migrations), ("bridges", bridges_migrations)])
def test_options_added_since_get_their_former_readings(name, module):
    state = _fresh(name, seats=5 if name == "bloodwood" else 2)
    old = {k: v for k, v in state.items() if k != RULES}
    old["options"] = {k: v for k, v in _before_pace(state["options"]).items() if k not in module.FORMER_READINGS}
    new = migrate_state(get_game(name), old)
    assert {k: new["options"][k] for k in module.FORMER_READINGS} == module.FORMER_READINGS
    assert {k: v for k, v in new.items() if k != "options"} == {k: v for k, v in state.items() if k != "options"}


def test_raiders_version_2_changed_outcomes_not_shapes_an_unversioned_state_is_todays_but_for_the_key():
    state = _fresh("raiders")
    assert state[RULES] == 2
    old = {k: v for k, v in state.items() if k != RULES}
    old["options"] = _before_pace(state["options"])
    assert migrate_state(get_game("raiders"), old) == state
    with pytest.raises(CannotMigrate):
        migrate_state(get_game("raiders"), {**old, "from_the_future": 1})


@pytest.mark.parametrize("name", GAMES)
def test_a_table_from_before_pace_keeps_the_real_time_rules_it_was_played_by(name):
    """Issue 27: the former reading of ``pace`` is live, and nothing else of the table changes (Clay God's ten
    seconds stay ten seconds, Bloodwood's counter window two minutes)."""
    game = get_game(name)
    # Bridges: pace came with rules version 3, beside zero_ap (an older table gets wait, which reads the same
    # in every later version: rules version 4 changed what end means)
    bridges = name == "bridges"
    before = 2 if bridges else game.rules_version - 1
    state = _fresh(name, seats=5 if name == "bloodwood" else None, **({"zero_ap": "wait"} if bridges else {}))
    options = {k: v for k, v in _before_pace(state["options"]).items() if not (bridges and k == "zero_ap")}
    old = {**state, RULES: before, "options": options}
    new = migrate_state(game, old)
    assert new == state and new["options"]["pace"] == "live"
    assert migrate_options(game, old["options"], before) == state["options"]


def test_a_lobby_s_options_migrate_like_a_state_s():
    game = get_game("bloodwood")
    options = {k: v for k, v in _before_pace(_fresh("bloodwood", seats=5)["options"]).items()
               if k not in bloodwood_migrations.FORMER_READINGS}
    assert migrate_options(game, options, 1)["reshuffle"] == "draw"
    assert migrate_options(game, options, 2) == {**options, "pace": "live"}
    today = {**options, "pace": "correspondence"}
    assert migrate_options(game, today, 3) == today  # already today's: nothing to do


# ---------------------------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("name", ["claygod", "gwent", "bloodwood", "bridges"])
def test_an_unknown_shape_or_a_newer_version_cannot_be_migrated(name):
    game = get_game(name)
    state = _fresh(name, seats=5 if name == "bloodwood" else None)
    with pytest.raises(CannotMigrate) as newer:
        migrate_state(game, {**state, RULES: game.rules_version + 1})
    assert newer.value.key == "upgrade.cannot.newer"
    old = {k: v for k, v in state.items() if k != RULES}
    with pytest.raises(CannotMigrate) as unknown:
        migrate_state(game, {**old, "from_the_future": 1})
    assert unknown.value.key == "upgrade.cannot.shape"
    with pytest.raises(CannotMigrate):
        migrate_state(game, {**old, "options": {**old["options"], "no_such_option": True}})
    with pytest.raises(CannotMigrate):
        migrate_state(get_game("raiders" if name != "raiders" else "gwent"), old)  # another game's state


# ---------------------------------------------------------------------------------------------- tables
async def _played(path, name: str, moves: int, seats: int = 2) -> int:
    """A table of ``name`` with human seats, ``moves`` moves in, stored at ``path``."""
    store = await Store.open(path)
    referee = Referee(store)
    table = await referee.create_table(name, creator="cli:p0", creator_name="p0", origin="terminal")
    for i in range(1, seats):
        await referee.join(table.id, f"cli:p{i}", f"p{i}")
    assert isinstance(await referee.start(table.id, "cli:p0", seed=f"up-{name}"), Accepted)
    game, rng = get_game(name), random.Random(5)
    for _ in range(moves):
        state = await store.state(table.id)
        seat = game.to_act(state)[0].seat
        result = await referee.act(table.id, f"cli:p{seat}", game.bot_action(state, seat, rng), seat=seat)
        assert isinstance(result, Accepted), result
    await store.close()
    return table.id


def _rewrite_states(path, table_id: int, change, since: int = 0) -> None:
    """Rewrite the stored states of a table from version ``since`` on (what another release would have written)
    and its row."""
    conn = sqlite3.connect(str(path))
    for version, packed in conn.execute("SELECT version, state FROM snapshots WHERE table_id = ? AND version >= ?",
                                        (table_id, since)).fetchall():
        conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                     (pack_state(change(load_packed(packed))), table_id, version))
    conn.execute("UPDATE tables SET rules_version = 1, started_rules = NULL, release = NULL WHERE id = ?",
                 (table_id,))
    conn.commit()
    conn.close()


async def test_a_claygod_table_of_the_old_shape_is_upgraded_played_to_its_end_and_verifies(tmp_path):
    path = tmp_path / "judge.db"
    table_id = await _played(path, "claygod", 12)
    _rewrite_states(path, table_id, _claygod_v1)
    run = await continue_fixture(path)
    assert run.ok, run.explain()
    [upgraded] = run.upgrade.tables
    assert (upgraded.table_id, upgraded.found, upgraded.to, upgraded.ok) == (table_id, 1, _rules('claygod'), True)
    assert run.upgrade.backup is not None and run.upgrade.backup.is_file()  # rules migration: backed up first
    store = await Store.open(path)
    try:
        table = await store.get_table(table_id)
        assert table.rules_version == _rules('claygod')
        assert table.started_rules is None and table.release is None
        actions = await store.actions(table_id)
        step = next(a for a in actions if a.action.get("type") == "upgrade")
        assert step.seat == -1 and step.user_id == "system" and step.action["from"] == 1
        assert step.action["release"] == "2026.11.27" and len(step.action["chain"]) == 64
        before, after = await store.state(table_id, step.version - 1), await store.state(table_id, step.version)
        assert dumps(after) == dumps(upgraded_state(get_game("claygod"), before, step.version))
        events = [e for e in await store.events(table_id) if e.kind == "upgrade"]
        assert events[0].to is None and events[0].data["options"]["count_turns"] == "every"
        report = await verify_table(store, table_id)
        assert report.ok and report.recorded > 0 and [u["version"] for u in report.upgrades] == [step.version]
        # the log numbers moves as before: the upgrade is not one
        played = Moves([{"version": e.version, **e.as_event()} for e in await store.events(table_id)])
        assert next(e for e in played.entries if e.version == step.version).kind == "upgrade"
        # the table's message after the upgrade shows the options to its players
        row = await store._one("SELECT payload FROM outbox WHERE table_id = ? AND version = ? AND target = 'table'",
                               (table_id, step.version))
        assert load_packed(row["payload"])["upgrade"]["options"]["two_cards"] == "in_order"
        # tampering with the record before the upgrade breaks the chain the upgrade published
        doc = await export_table(store, table_id)
        doc["snapshots"][3]["sha256"] = "0" * 64
        assert any(p.key == "records.problem.chain" or p.key == "records.problem.differs"
                   for p in verify_export(doc).problems)
        doc = await export_table(store, table_id)
        doc["snapshots"][step.version]["sha256"] = "0" * 64  # the upgrade is not the migration any more
        assert any(p.key == "records.problem.upgrade" for p in verify_export(doc).problems)
    finally:
        await store.close()


async def test_a_gwent_table_of_the_old_shape_continues_and_shows_its_versions(tmp_path, capsys):
    path = tmp_path / "judge.db"
    table_id = await _played(path, "gwent", 8)

    def v1(state):
        old = {k: v for k, v in state.items() if k != RULES}
        old["options"] = {k: v for k, v in _before_pace(state["options"]).items()
                          if k not in gwent_migrations.FORMER_READINGS}
        old["table"] = {"score": [0, 0]}
        return old

    _rewrite_states(path, table_id, v1)
    code = await asyncio.to_thread(main, ["--db", str(path), "--locale", "en", "table", "status", str(table_id),
                                          "--user", "cli:p0"])
    out = capsys.readouterr().out
    assert code == 0 and f"now rules version {_rules('gwent')}" in out and "not recorded" in out
    run = await continue_fixture(path)
    assert run.ok, run.explain()
    code = await asyncio.to_thread(main, ["--db", str(path), "verify", str(table_id)])
    out = capsys.readouterr().out
    assert code == 0 and f"upgrades: 1→{_rules('gwent')}" in out and "OK:" in out


async def test_a_new_table_records_the_release_and_rules_it_started_under(env):
    store, referee, _ = env
    table = await referee.create_table("claygod", creator="cli:a", creator_name="a", origin="terminal")
    assert table.rules_version == _rules('claygod')
    await referee.join(table.id, "cli:b", "b")
    await referee.start(table.id, "cli:a")
    started = await store.get_table(table.id)
    assert (started.release, started.started_rules, started.rules_version) == ("2026.11.27", _rules('claygod'), _rules('claygod'))
    assert (await upgrade_tables(store)).tables == []  # nothing to migrate: today's rules
    assert (await store.get_table(table.id)).version == started.version
    doc = await export_table(store, table.id, include_seed=True)
    assert doc["table"]["release"] == "2026.11.27" and doc["table"]["started_rules"] == _rules('claygod')


# ---------------------------------------------------------------------------------------------- frozen
async def test_a_table_no_migration_can_bring_forward_is_frozen_with_a_message_and_the_rest_play_on(
        tmp_path, capsys):
    path = tmp_path / "judge.db"
    frozen_id = await _played(path, "claygod", 6)
    other_id = await _played(path, "gwent", 4)
    _rewrite_states(path, frozen_id, lambda s: {**s, RULES: 7}, since=4)  # by a release from the future
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE tables SET rules_version = 7 WHERE id = ?", (frozen_id,))
    conn.commit()
    conn.close()

    code = await asyncio.to_thread(main, ["--db", str(path), "--locale", "en", "upgrade", "--check"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert f"table #{frozen_id}" in out and "CANNOT be migrated" in out and f"rules version 7, known up to {_rules('claygod')}" in out
    assert "untouched" in out and not (tmp_path / "judge.db-backups").exists()

    store = await open_store(path)
    try:
        referee = Referee(store)
        [report] = store.upgrade_report.tables
        assert (report.table_id, report.ok, report.reason) == (frozen_id, False, "upgrade.cannot.newer")
        table = await store.get_table(frozen_id)
        assert table.frozen["found"] == 7 and table.frozen["known"] == _rules('claygod')
        state = await store.state(frozen_id)
        refused = await referee.act(frozen_id, "cli:p0", {"type": "roll"})
        assert isinstance(refused, Rejection) and refused.key == "upgrade.reject.frozen"
        for locale in ("ru", "uk", "en"):
            text = refused.message(locale)
            assert str(frozen_id) in text and "7" in text and "{" not in text
        assert isinstance(await referee.view(frozen_id, "cli:p0"), Rejection)
        notice = await store._one("SELECT kind, payload FROM outbox WHERE table_id = ? AND kind = 'upgrade'",
                                  (frozen_id,))
        assert load_packed(notice["payload"])["what"] == "frozen"
        from bot.render.notices import frozen_line
        for locale in ("ru", "uk", "en"):
            line = frozen_line(load_packed(notice["payload"]), frozen_id, locale)
            assert "7" in line and "{" not in line
        logged = await store._one("SELECT action FROM moderation WHERE table_id = ? AND action = 'frozen'",
                                  (frozen_id,))
        assert logged is not None
        # the other table plays on
        assert (await play_to_end(referee, other_id))[0] == "finished"
        assert (await verify_table(store, other_id)).ok
        assert state["version"] == (await store.state(frozen_id))["version"]
    finally:
        await store.close()

    code = await asyncio.to_thread(main, ["--db", str(path), "--locale", "uk", "mod", "failures"])
    out = capsys.readouterr().out
    assert code == 0 and f"Стіл №{frozen_id} зупинено" in out

    # opened again: the same reason is not told twice
    store = await open_store(path)
    try:
        count = await store._one("SELECT COUNT(*) AS n FROM outbox WHERE table_id = ? AND kind = 'upgrade'",
                                 (frozen_id,))
        assert count["n"] == 1
        # nor tried again, nor backed up again, by the release that froze it: still listed
        assert [(u.table_id, u.ok) for u in store.upgrade_report.tables] == [(frozen_id, False)]
        assert store.upgrade_report.backup is None and len(backups(path)) == 1
        # a moderator rolls it back to a state this release can read: it plays on
        referee = Referee(store)
        done = await rollback(referee, frozen_id, 2, moderator="cli:mod", reason="back before the future")
        assert isinstance(done, Accepted), done
        table = await store.get_table(frozen_id)
        assert table.frozen is None and rules_of(await store.state(frozen_id)) == _rules('claygod')
        assert (await play_to_end(referee, frozen_id))[0] == "finished"
    finally:
        await store.close()


async def test_a_moderator_may_cancel_a_frozen_table(tmp_path):
    path = tmp_path / "judge.db"
    table_id = await _played(path, "gwent", 3)
    # unversioned, with a key no release of Gwent ever wrote
    _rewrite_states(path, table_id, lambda s: {**{k: v for k, v in s.items() if k != RULES}, "something_new": 1})
    store = await open_store(path)
    try:
        referee = Referee(store)
        assert (await store.get_table(table_id)).frozen["key"] == "upgrade.cannot.shape"
        assert await referee.cancel(table_id, "cli:mod", moderator=True, reason="frozen") is True
        assert (await store.get_table(table_id)).status == "cancelled"
    finally:
        await store.close()


async def test_a_rollback_back_before_an_upgrade_is_upgraded_again_at_once(tmp_path):
    path = tmp_path / "judge.db"
    table_id = await _played(path, "claygod", 10)
    _rewrite_states(path, table_id, _claygod_v1)
    store = await open_store(path)
    try:
        referee = Referee(store)
        upgraded = (await store.get_table(table_id)).version
        done = await rollback(referee, table_id, 4, moderator="cli:mod", reason="a mistake")
        assert isinstance(done, Accepted), done
        table = await store.get_table(table_id)
        assert table.version == upgraded + 2 and table.rules_version == _rules('claygod') and table.frozen is None
        assert rules_of(await store.state(table_id)) == _rules('claygod')
        assert (await play_to_end(referee, table_id))[0] == "finished"
        report = await verify_table(store, table_id)
        assert report.ok, report.problems
        assert len(report.upgrades) == 2
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- backups
async def test_opening_a_database_of_an_older_schema_backs_it_up_first(tmp_path):
    path = tmp_path / "judge.db"
    conn = sqlite3.connect(str(path))
    for number, script in migration_files()[:8]:
        conn.executescript(f"BEGIN;\n{script.read_text(encoding='utf-8')}\n;PRAGMA user_version = {number};\nCOMMIT;")
    conn.close()
    store = await Store.open(path)
    await store.close()
    [taken] = backups(path)
    assert taken.name.startswith("judge.db-") and taken.name.endswith(f"-schema-8-to-{len(migration_files())}.db")
    (version,) = sqlite3.connect(str(taken)).execute("PRAGMA user_version").fetchone()
    assert version == 8
    store = await Store.open(path)  # already migrated: no second backup
    await store.close()
    assert len(backups(path)) == 1
    assert MIGRATIONS.is_dir()


def test_backups_are_bounded(tmp_path):
    path = tmp_path / "judge.db"
    sqlite3.connect(str(path)).execute("CREATE TABLE x (y)").connection.commit()
    for _ in range(4):
        take_backup(path, "rules", keep=2)
    assert len(backups(path)) == 2


def test_every_new_string_speaks_three_languages():
    for key in ("upgrade.notice", "upgrade.frozen", "upgrade.reject.frozen", "upgrade.cannot.newer",
                "upgrade.cannot.shape", "upgrade.cli.cannot", "upgrade.versions"):
        assert len({t(key, locale) for locale in ("ru", "uk", "en")}) == 3, key


def test_games_registered_are_the_ones_checked():
    assert set(GAMES) <= set(all_games())


async def test_a_dispute_about_a_move_made_before_the_upgrade_is_upheld_by_a_rollback_then_upgraded_again(tmp_path):
    from bot.referee import disputes

    path = tmp_path / "judge.db"
    table_id = await _played(path, "claygod", 9)
    store = await Store.open(path)
    referee = Referee(store)
    last = (await store.actions(table_id))[-1]
    played = Moves(await referee.history(table_id))
    raised = await disputes.raise_dispute(referee, table_id, f"cli:p{1 - last.seat}", move=played.latest,
                                          text="that was not allowed")
    assert not isinstance(raised, Rejection), raised
    await store.close()
    _rewrite_states(path, table_id, _claygod_v1)

    store = await open_store(path)
    try:
        referee = Referee(store)
        ev = await disputes.evidence(referee, raised.id)
        assert ev.older and ev.corrections == [] and ev.shown_before[RULES] == _rules('claygod')
        from bot.render.disputes import evidence_texts
        assert f"now rules version {_rules('claygod')}" in evidence_texts(ev, "en")[0]
        refused = await disputes.decide(referee, raised.id, moderator="cli:mod", kind="amend", reason="x",
                                        correction={"type": "roll"})
        assert isinstance(refused, Rejection) and refused.key == "upgrade.reject.amend_older"
        done = await disputes.decide(referee, raised.id, moderator="cli:mod", kind="uphold", reason="indeed")
        assert not isinstance(done, Rejection), done
        assert rules_of(await store.state(table_id)) == _rules('claygod') and (await store.get_table(table_id)).frozen is None
        assert (await play_to_end(referee, table_id))[0] == "finished"
        report = await verify_table(store, table_id)
        assert report.ok, report.problems
        assert len(report.upgrades) == 2
    finally:
        await store.close()


async def test_a_table_that_ended_under_older_rules_verifies_against_its_stored_states(tmp_path):
    path = tmp_path / "judge.db"
    table_id = await _played(path, "claygod", 0)
    store = await Store.open(path)
    assert (await play_to_end(Referee(store), table_id))[0] == "finished"
    await store.close()
    _rewrite_states(path, table_id, _claygod_v1)
    store = await open_store(path)
    try:
        assert store.upgrade_report.tables == []  # a finished table is history: never migrated
        report = await verify_table(store, table_id)
        assert report.ok, report.problems
        assert report.upgrades == [] and report.recorded > 0
        assert "checked against the stored states' digests only" in report.across_upgrades()
        doc = await export_table(store, table_id)
        doc["recorded_states"][1]["state"] = doc["recorded_states"][1]["state"].replace('"health":', '"health" :')
        doc["snapshots"][1]["sha256"] = "1" * 64
        assert not verify_export(doc).ok
    finally:
        await store.close()
