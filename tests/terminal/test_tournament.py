"""``python -m bot tournament``: a Swiss of bot players and a Bloodwood multi-seat event from the terminal."""
import csv
import json

from tests.support.events import tournament_cli as run


def test_swiss_from_the_terminal(tmp_path, capsys):
    db = tmp_path / "j.db"
    assert run(db, "new", "--game", "claygod", "--set", "rounds=2", "--title", "Cup", capsys=capsys)[0] == 0
    assert run(db, "bot", "1", "--count", "4", capsys=capsys)[0] == 0
    code, out = run(db, "start", "1", "--user", "someone", capsys=capsys)
    assert code == 1 and "organiser" in out.err
    code, out = run(db, "start", "1", capsys=capsys)
    assert code == 0 and "Round 2 paired" in out.out and "is over" in out.out
    code, out = run(db, "standings", "1", capsys=capsys)
    lines = out.out.splitlines()
    assert lines[0].split() == ["#", "Player", "Pts", "W-D-L", "BH-1", "BH", "SB"] and len(lines) == 5
    assert run(db, "export", "1", "--out", str(tmp_path / "t.json"), capsys=capsys)[0] == 0
    data = json.loads((tmp_path / "t.json").read_text())
    assert data["tournament"]["status"] == "finished" and len(data["games"]) == 4
    assert sum(s["points"] for s in data["standings"]) == 4
    assert run(db, "export", "1", "--out", str(tmp_path / "t.csv"), capsys=capsys)[0] == 0
    rows = list(csv.reader((tmp_path / "t.csv").open()))
    assert rows[0][:2] == ["user_id", "name"] and len(rows) == 1 + 4 + 1 + 1 + 4
    code, out = run(db, "adjust", "1", "--round", "1", "--board", "1", "--points", "nobody=1", "--reason", "x",
                    capsys=capsys)
    assert code == 1 and "every player" in out.err


def test_bloodwood_multiseat_from_the_terminal(tmp_path, capsys):
    db = tmp_path / "j.db"
    run(db, "new", "--game", "bloodwood", "--format", "multiseat", "--set", "rounds=1", "--set", "table_size=5")
    run(db, "bot", "1", "--count", "10")
    code, out = run(db, "start", "1", capsys=capsys)
    assert code == 0 and "is over" in out.out
    code, out = run(db, "results", "1", capsys=capsys)
    assert out.out.count("Round 1, table") == 2 and "(played; table" in out.out
    code, out = run(db, "new", "--game", "bloodwood", "--format", "swiss", capsys=capsys)
    assert code == 1 and "two-player" in out.err


def test_every_tournament_command_applies_the_round_deadline_and_the_organisers_tools(tmp_path, capsys):
    import sqlite3
    db = tmp_path / "j.db"
    run(db, "new", "--game", "toy", "--set", "rounds=2", "--set", "round_hours=1", "--user", "org")
    for who in ("alice", "bob", "carol", "dave"):
        assert run(db, "join", "1", "--user", who)[0] == 0
    assert run(db, "start", "1", "--user", "org")[0] == 0
    code, out = run(db, "forfeit", "1", "--round", "1", "--board", "1", "--loser", "cli:nobody", "--reason", "x",
                    "--user", "org", capsys=capsys)
    assert code == 1
    with sqlite3.connect(db) as con:
        (a, b) = json.loads(con.execute("SELECT players FROM tournament_games WHERE round = 1 AND board = 1")
                            .fetchone()[0])
    assert run(db, "forfeit", "1", "--round", "1", "--board", "1", "--loser", b, "--reason", "absent",
               "--user", "org")[0] == 0
    assert run(db, "pause", "1", "--reason", "outage", "--user", "org")[0] == 0
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT deadline FROM rounds WHERE number = 1").fetchone()[0] is None
    assert run(db, "resume", "1", "--user", "org")[0] == 0
    with sqlite3.connect(db) as con:  # the round's deadline passes while nobody runs the bot
        con.execute("UPDATE rounds SET deadline = 1 WHERE number = 1")
    code, out = run(db, "results", "1", capsys=capsys)    # any tournament command applies it first
    lines = [line for line in out.out.splitlines() if line.startswith("Round 1")]
    assert len(lines) == 2 and all("forfeit" in line for line in lines)
    assert "Round 2" in out.out
