"""Disputes at the terminal: ``python -m bot dispute`` by a player, ``mod dispute`` by the operator (the queue,
the evidence, each decision), ``rulings``, and the table exported and verified afterwards."""
from bot.terminal import cli


def test_a_dispute_from_the_terminal_to_a_verified_record(tmp_path, capsys):
    db = str(tmp_path / "j.db")
    run = lambda *a: cli.main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "toy", "--user", "ann") == 0
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ann", "--seed", "x") == 0
    mover = next(user for user in ("ann", "ben") if run("table", "act", "1", "1", "--user", user) == 0)
    waiting = "ben" if mover == "ann" else "ann"
    capsys.readouterr()

    assert run("dispute", "1", "1", "that", "card", "--user", "carl") == 1
    assert "Only a player of table #1" in capsys.readouterr().err
    assert run("dispute", "1", "2", "x", "--user", waiting) == 1
    assert "from 1 to 1" in capsys.readouterr().err
    assert run("dispute", "1", "1", "that", "card", "--user", waiting) == 0
    out = capsys.readouterr().out
    assert f"{waiting} disputes move 1 (dispute #1): that card" in out and "Dispute #1 about move 1 is open" in out

    assert run("mod", "dispute", "--user", "op") == 0
    assert "#1 · table #1" in capsys.readouterr().out
    assert run("mod", "dispute", "1", "--seat", "0", "--user", "op") == 0
    evidence = capsys.readouterr().out
    assert "Action: " in evidence and "Amend: one of the actions" in evidence and "as ann saw it" in evidence
    assert run("mod", "dispute", "1", "--decide", "amend", "--reason", "r", "--user", "op") == 1
    assert "An amend needs the action" in capsys.readouterr().err
    assert run("mod", "dispute", "1", "--decide", "amend", "--correction", "2", "--reason", "misclick",
               "--rule", "TOY-1", "--user", "op") == 0
    assert "Dispute #1: the move corrected" in capsys.readouterr().out
    assert run("mod", "dispute", "1", "--decide", "reject", "--reason", "late", "--user", "op") == 1
    assert "decided already" in capsys.readouterr().err
    assert run("rulings") == 0
    assert "TOY-1: misclick — op" in capsys.readouterr().out
    assert run("table", "log", "1", "--user", "ann") == 0
    log = capsys.readouterr().out
    assert "The move was corrected by op (dispute #1)" in log and "Rolled back to the start of the game by op" in log

    for _ in range(8):
        for user in ("ann", "ben"):
            if run("table", "act", "1", "1", "--user", user) == 0:
                break
    out_file = tmp_path / "t1.json"
    assert run("export", "1", "--out", str(out_file)) == 0
    capsys.readouterr()
    assert run("verify", "--file", str(out_file)) == 0
    assert "OK: table 1" in capsys.readouterr().out


def test_the_notice_channel_is_set_from_the_terminal_too(tmp_path, capsys):
    from bot.terminal.cli import main

    db = tmp_path / "judge.db"
    assert main(["--db", str(db), "server", "123", "--notice-channel", "456", "--moderator-role", "789"]) == 0
    out = capsys.readouterr().out
    assert "456" in out and "789" in out
    assert main(["--db", str(db), "server", "123", "--notice-channel", "-"]) == 0
    out = capsys.readouterr().out
    assert "456" not in out and "789" in out
