"""A seated moderator at the terminal (bot/referee/seated.py): every moderator view — ``scenario --from-table``,
``replay --moderator`` / ``--seat``, ``export --moderator``, ``picture --seat``, ``table log --moderator`` — takes
``--user`` and refuses a player of the table however they spell their name; every moderator step refuses
them too; another user looks (logged) and decides."""
import sqlite3

import pytest

from bot.terminal import cli

LOOK = "another moderator looks at its hidden state"      # moderation.reject.seated
DECIDE = "is for another moderator to decide"             # moderation.reject.seated_decide
OWN = "another moderator decides its disputes"            # disputes.reject.own_table


@pytest.fixture
def table(tmp_path, capsys):
    """Table 1, Clay God, of alice (seat 0, its creator) and bob (seat 1), one move made; ``run`` runs the CLI."""
    db = str(tmp_path / "j.db")

    def run(*a):
        capsys.readouterr()
        code = cli.main(["--db", db, "--locale", "en", *a])
        return code, capsys.readouterr()

    assert run("table", "new", "--game", "claygod", "--user", "alice")[0] == 0
    assert run("table", "join", "1", "--user", "bob")[0] == 0
    assert run("table", "start", "1", "--user", "alice", "--seed", "s")[0] == 0
    assert any(run("table", "act", "1", "1", "--user", user)[0] == 0 for user in ("alice", "bob"))
    run.db = db
    return run


def _looks(db):
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT moderator FROM moderation WHERE action = 'hidden_view'")]


@pytest.mark.parametrize("name", ["alice", "Alice", "ALICE", " alice ", "ａｌｉｃｅ"])
def test_every_moderator_view_refuses_a_player_of_the_table_however_typed(table, tmp_path, name):
    views = [("scenario", "--from-table", "1"), ("replay", "1", "--moderator"), ("export", "1", "--moderator"),
             ("picture", "1", "--seat", "1", "--out", str(tmp_path / "p.png")), ("replay", "1", "--seat", "1"),
             ("table", "log", "1", "--moderator"), ("verify", "1", "--moderator")]
    for args in views:
        code, out = table(*args, "--user", name)
        assert code == 1 and LOOK in out.err and not out.out, (args, out)
    assert not (tmp_path / "p.png").exists() and _looks(table.db) == []


def test_a_player_sees_their_own_seat_and_another_user_looks_logged(table, tmp_path):
    code, out = table("picture", "1", "--seat", "0", "--out", str(tmp_path / "own.png"), "--user", "Alice")
    assert code == 0 and (tmp_path / "own.png").exists(), out
    assert table("replay", "1", "--seat", "0", "--user", "alice")[0] == 0
    assert _looks(table.db) == []  # their own hand: no look behind the screen
    code, out = table("picture", "1", "--seat", "0", "--out", str(tmp_path / "op.png"), "--user", "op")
    assert code == 0 and (tmp_path / "op.png").exists(), out
    code, out = table("table", "log", "1", "--moderator", "--user", "op")
    assert code == 0 and "[1]" in out.out, out  # the versions, for a moderator not playing there
    assert table("scenario", "--from-table", "1", "--user", "op")[0] == 0
    code, out = table("verify", "1", "--moderator", "--user", "op")
    assert code == 0 and "OK: table 1" in out.out, out
    assert _looks(table.db) == ["cli:op"] * 4


def test_every_moderator_step_refuses_a_player_of_the_table(table):
    steps = [("mod", "rollback", "1", "--move", "0", "--reason", "undo"), ("mod", "ruling", "1", "--reason", "I win"),
             ("mod", "pause", "1", "--reason", "tea"), ("mod", "cancel", "1", "--reason", "bored")]
    for args in steps:
        for name in ("Alice", "BOB"):
            code, out = table(*args, "--user", name)
            assert code == 1 and DECIDE in out.err, (args, name, out)
    code, out = table("table", "cancel", "1", "--moderator", "--user", "bob")  # not its creator: a moderator's cancel
    assert code == 1 and DECIDE in out.err, out
    code, out = table("table", "status", "1", "--user", "alice")
    assert code == 0 and "paused" not in out.out.lower()

    assert table("mod", "pause", "1", "--reason", "tea", "--user", "op")[0] == 0
    code, out = table("mod", "resume", "1", "--user", "bob")
    assert code == 1 and DECIDE in out.err
    assert table("mod", "resume", "1", "--user", "op")[0] == 0
    assert table("table", "cancel", "1", "--moderator", "--user", "alice")[0] == 0  # its creator may, as any creator


def test_a_seated_moderator_neither_reads_nor_decides_the_opponents_private_dispute(table):
    for user in ("alice", "bob"):  # whoever may still dispute move 1
        if table("dispute", "1", "1", "secret", "words", "9931", "--private", "--user", user)[0] == 0:
            break
    else:
        raise AssertionError("nobody could dispute move 1")
    other = "bob" if user == "alice" else "alice"
    code, out = table("mod", "dispute", "--user", other.upper())
    assert code == 0 and "#1 · table #1" in out.out and "9931" not in out.out and "you play at it" in out.out
    assert "9931" in table("mod", "dispute", "--user", "op")[1].out
    assert "9931" in table("mod", "dispute", "--user", user)[1].out  # their own words
    for extra in ((), ("--correction", "1")):
        code, out = table("mod", "dispute", "1", "--decide", "amend" if extra else "reject", "--reason", "mine",
                          *extra, "--user", other)
        assert code == 1 and OWN in out.err, out
    code, out = table("mod", "dispute", "1", "--decide", "reject", "--reason", "fair", "--user", "op")
    assert code == 0, out
