"""The terminal speaks of the table it was asked about (issue 33: P2, P3, P5): a paused table's ``table status``
says so and ``table actions`` offers nothing ``act`` would refuse; a command prints its own table's notices only,
the others' staying pending for their own channel; the resume notice claims moved deadlines only where one
runs; a table frozen for an unknown shape tells its players that reason, not a version it never had."""
from __future__ import annotations

import asyncio
import random
import sqlite3

from bot.engine import Rejection, get_game
from bot.engine.versions import RULES
from bot.referee.service import Accepted, Referee
from bot.referee.upgrade import open_store
from bot.render.text import render_message
from bot.storage.store import Store, load_packed, pack_state
from bot.terminal import cli

ALL = ("ann", "ben")


class Terminal:
    """``python -m bot`` on one database, and a look into it."""

    def __init__(self, path):
        self.path = path

    def __call__(self, *args: str) -> int:
        return cli.main(["--db", str(self.path), "--locale", "en", *args])

    def rows(self, sql: str, *params) -> list[tuple]:
        conn = sqlite3.connect(str(self.path))
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def new(self, *options: str) -> int:
        """A lobby of ann's; its number."""
        given = [x for o in options for x in ("--option", o)]
        assert self("table", "new", "--game", "toy", "--user", "ann", *given) == 0
        return self.rows("SELECT MAX(id) FROM tables")[0][0]


def _toy_table(run: Terminal, *options: str) -> int:
    """A started toy table of ann and ben; its number."""
    table = run.new(*options)
    assert run("table", "join", str(table), "--user", "ben") == 0
    assert run("table", "start", str(table), "--user", "ann", "--seed", "x") == 0
    return table


def _move(run: Terminal, table: int) -> str:
    """Play card 1 by whoever is to move; who it was."""
    return next(user for user in ALL if run("table", "act", str(table), "1", "--user", user) == 0)


def test_a_command_prints_its_own_tables_notices_and_leaves_the_others_pending(tmp_path, capsys):
    run = Terminal(tmp_path / "j.db")
    untimed = _toy_table(run)
    timed = _toy_table(run, "clock=48h")
    engine_timed = _toy_table(run, "turn_seconds=600")
    for table in (untimed, timed, engine_timed):
        assert run("mod", "pause", str(table), "--reason", "a ruling is checked", "--user", "op") == 0
        assert run("mod", "resume", str(table), "--user", "op") == 0
    capsys.readouterr()

    _move(run, timed)
    out = capsys.readouterr().out
    assert out.count("Play resumes (op)") == 1, out                     # the timed table's own, not the others'
    assert "Every deadline moved on by the pause" in out
    pending = run.rows("SELECT table_id, COUNT(*) FROM outbox WHERE kind = 'clock' AND status = 'pending'"
                         " GROUP BY table_id ORDER BY table_id")
    assert pending == [(untimed, 2), (engine_timed, 2)]                 # paused + resumed: for their own channel

    assert run("table", "join", str(run.new()), "--user", "carl") == 0  # the red team's case: a lobby's join
    assert "Play resumes" not in capsys.readouterr().out

    _move(run, untimed)
    out = capsys.readouterr().out
    assert "The table is paused by op. Reason: a ruling is checked" in out and "▶️ Play resumes (op)." in out
    assert "deadline" not in out                                        # no clock: nothing moved on

    _move(run, engine_timed)                                            # the game's own timer is a clock too
    assert "Every deadline moved on by the pause" in capsys.readouterr().out
    assert run.rows("SELECT COUNT(*) FROM outbox WHERE kind = 'clock' AND status = 'pending'") == [(0,)]


def test_a_paused_tables_status_says_so_and_its_actions_offer_nothing(tmp_path, capsys):
    run = Terminal(tmp_path / "j.db")
    table = _toy_table(run, "clock=48h")
    mover = _move(run, table)
    waiting = "ben" if mover == "ann" else "ann"                         # the one to move now
    assert run("mod", "pause", str(table), "--reason", "checking   move 1", "--user", "op") == 0
    capsys.readouterr()

    assert run("table", "status", str(table), "--user", waiting) == 0
    status = capsys.readouterr().out
    assert "⏸️ The table is paused by the moderator op since " in status and " UTC (" in status
    assert "Reason: checking move 1. No moves are taken" in status
    assert "decide by" not in status                                   # a deadline moves on by an unknown pause

    assert run("table", "actions", str(table), "--user", waiting) == 0
    actions = capsys.readouterr().out
    assert "paused by the moderator op" in actions and "\n  1. " not in actions
    assert run("table", "act", str(table), "1", "--user", waiting) == 1  # what act says: refused, paused
    assert "is paused" in capsys.readouterr().err

    assert run("mod", "resume", str(table), "--user", "op") == 0
    capsys.readouterr()
    assert run("table", "status", str(table), "--user", waiting) == 0
    status = capsys.readouterr().out
    assert "paused by" not in status and "decide by" in status
    assert run("table", "actions", str(table), "--user", waiting) == 0
    assert "\n  1. " in capsys.readouterr().out


async def test_the_referees_legal_moves_of_a_paused_table_are_none_but_a_spectator_is_still_told_he_is_not_seated(
        tmp_path):
    from bot.referee import moderation

    store = await Store.open(tmp_path / "j.db")
    try:
        referee = Referee(store)
        table = await referee.create_table("toy", creator="cli:ann", creator_name="ann", origin="terminal")
        await referee.join(table.id, "cli:ben", "ben")
        assert isinstance(await referee.start(table.id, "cli:ann", seed="x"), Accepted)
        assert await moderation.pause(referee, table.id, moderator="cli:op", reason="why") is True
        for user in ("cli:ann", "cli:ben"):
            refused = await referee.legal(table.id, user)
            assert isinstance(refused, Rejection) and refused.key == "clock.reject.paused", refused
        assert (await referee.legal(table.id, "cli:carl")).key != "clock.reject.paused"
    finally:
        await store.close()


async def test_a_table_frozen_for_an_unknown_shape_tells_its_players_that_reason(tmp_path, capsys):
    path = tmp_path / "judge.db"
    store = await Store.open(path)
    referee = Referee(store)
    table = await referee.create_table("claygod", creator="cli:p0", creator_name="p0", origin="terminal")
    await referee.join(table.id, "cli:p1", "p1")
    assert isinstance(await referee.start(table.id, "cli:p0", seed="frozen"), Accepted)
    game, rng = get_game("claygod"), random.Random(3)
    for _ in range(4):
        state = await store.state(table.id)
        seat = game.to_act(state)[0].seat
        assert isinstance(await referee.act(table.id, f"cli:p{seat}", game.bot_action(state, seat, rng), seat=seat),
                          Accepted)
    await store.close()
    conn = sqlite3.connect(str(path))  # a state of rules version 1 with a key no release wrote
    for version, packed in conn.execute("SELECT version, state FROM snapshots WHERE table_id = ?", (table.id,)):
        state = {k: v for k, v in load_packed(packed).items() if k != RULES}
        conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                     (pack_state({**state, "from_the_future": 1}), table.id, version))
    conn.execute("UPDATE tables SET rules_version = 1 WHERE id = ?", (table.id,))
    conn.commit()
    conn.close()

    store = await open_store(path)
    try:
        frozen = (await store.get_table(table.id)).frozen
        assert frozen["key"] == "upgrade.cannot.shape" and frozen["found"] == 1, frozen
        detail = frozen["params"]["detail"]  # what the record holds that no release wrote: keys of the state
        refused = await Referee(store).act(table.id, "cli:p0", {"type": "roll"})
        assert isinstance(refused, Rejection) and refused.key == "upgrade.reject.frozen_why"
        said = {locale: refused.message(locale) for locale in ("ru", "uk", "en")}
        assert "matches no earlier version of the game" in said["en"] and "Table #" in said["en"]
        for text in said.values():
            assert "{" not in text and detail not in text and str(table.id) in text
        assert "rules version" not in said["en"]
        assert "версии" not in said["ru"] and "версії" not in said["uk"]
        row = await store._one("SELECT payload FROM outbox WHERE table_id = ? AND kind = 'upgrade'", (table.id,))
        notice = render_message(game, "upgrade", load_packed(row["payload"]), names=["p0", "p1"], locale="en",
                                table_id=table.id)
        assert "matches no earlier version of the game" in notice and detail not in notice
    finally:
        await store.close()
    capsys.readouterr()
    assert await asyncio.to_thread(cli.main, ["--db", str(path), "--locale", "en", "mod", "failures"]) == 0
    assert f"matches no earlier version of the game ({detail})" in capsys.readouterr().out  # a moderator's: whole
