"""scripts/make_release_fixture.py against today's command line: every release adds its fixture with it
(docs/fixtures.md), so the commands and looks it relies on must keep working.  A few moves only: the full
run takes minutes and is the release's job, not the suite's."""
from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_release_fixture", ROOT / "scripts" / "make_release_fixture.py")
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)


def test_the_script_drives_todays_commands_and_compacts_the_database(tmp_path):
    db = tmp_path / "fixture.db"
    rel = script.Release(ROOT, sys.executable, db, log=lambda text: None)
    try:
        assert {"bloodwood", "bridges", "claygod", "gwent", "raiders"} <= set(rel.games)
        assert "reaction" in rel.games["bloodwood"]["kinds"] and rel.games["gwent"]["min"] == 2
        for command, verb in (("table", "act"), ("table", "vacation"), ("mod", "pause"), ("dispute", None),
                              ("tournament", "pair")):
            assert rel.has(command, verb), (command, verb)
        tid = rel.new_table("claygod", ["sp1", "sp2"], options={"clock": "48h", "vacation": 2})
        info = rel.play(tid, moves=1)
        assert info["status"] == "active" and info["version"] >= 1 and info["pending"]
        assert all(k is None or isinstance(k, int) for k in info["moves"].values())
        lobby = rel.new_table("bloodwood", ["sp3"], start=False)
        assert rel.look(lobby)["status"] == "lobby"
    finally:
        rel.close()
    assert not (ROOT / "_fixture_probe.py").exists()
    out = tmp_path / "out.db"
    script.compact(db, out)
    con = sqlite3.connect(out)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert dict(con.execute("SELECT id, status FROM tables")) == {tid: "active", lobby: "lobby"}
    finally:
        con.close()
