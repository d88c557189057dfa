"""Issue 37, items 1 and 5: the terminal's check-in, requested bye, swap and forbid (the Discord buttons' and
``/pairing``'s director calls, with the same refusals and the same records), and entry conditions (T-23)."""
import asyncio
import json
import sqlite3

import pytest

from bot.i18n import t
from bot.ratings.ratings import Ratings
from bot.referee.service import Referee
from bot.storage.store import Store
from bot.terminal.cli import main
from bot.tournament.director import Director
from tests.support.attendance import PARITY_ACTIONS, attendance_record, parity


def run(db, capsys, *args):
    code = main(["--db", str(db), "--locale", "en", "tournament", *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def log(db, *actions):
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT action, by, reason, data FROM tournament_log ORDER BY id").fetchall()
    return [(a, by, reason, json.loads(data) if data else None) for a, by, reason, data in rows if a in actions]


def games(db, number):
    with sqlite3.connect(db) as con:
        return [(board, json.loads(players), result) for board, players, result in con.execute(
            "SELECT board, players, result FROM tournament_games WHERE round = ? ORDER BY board", (number,))]


def test_check_in_bye_swap_and_forbid_at_the_terminal(tmp_path, capsys):
    db = tmp_path / "j.db"
    assert run(db, capsys, "new", "--game", "claygod", "--set", "rounds=3", "--set", "check_in=yes",
               "--user", "org")[0] == 0
    for name in ("ann", "ben", "cat", "dan", "eve", "fay"):
        assert run(db, capsys, "join", "1", "--user", name)[0] == 0
    code, out = run(db, capsys, "checkin", "1", "--user", "nobody")
    assert code == 1 and "not in the tournament" in out
    for name in ("ann", "ben", "cat", "dan", "eve"):  # fay does not check in: removed at the start
        code, out = run(db, capsys, "checkin", "1", "--user", name)
        assert code == 0 and "checked in" in out
    code, out = run(db, capsys, "checkin", "1", "--user", "ann")
    assert code == 1 and "already" in out
    # eve sits out round 1 for ½; asked twice it is taken back, a third time asked again
    code, out = run(db, capsys, "bye", "1", "--user", "eve")
    assert code == 0 and "round 1" in out and "½" in out
    code, out = run(db, capsys, "bye", "1", "--user", "eve")
    assert code == 0 and "taken back" in out
    assert run(db, capsys, "bye", "1", "--user", "eve")[0] == 0
    # forbid: the organiser only, with a reason, two entered players
    code, out = run(db, capsys, "forbid", "1", "cli:ann", "cli:ben", "--reason", "siblings", "--user", "ben")
    assert code == 1 and "organiser" in out
    code, out = run(db, capsys, "forbid", "1", "cli:ann", "cli:ben", "--user", "org")
    assert code == 1 and "reason" in out
    code, out = run(db, capsys, "forbid", "1", "cli:ann", "--reason", "x", "--user", "org")
    assert code == 2 and "two players" in out
    code, out = run(db, capsys, "forbid", "1", "cli:ann", "cli:ben", "--reason", "siblings", "--user", "org")
    assert code == 0 and "cli:ann and cli:ben will not meet" in out
    code, out = run(db, capsys, "start", "1", "--user", "org")
    assert code == 0 and "Round 1 paired" in out
    round1 = games(db, 1)
    assert [p for _, p, r in round1 if r == "requested"] == [["cli:eve"]]
    tables = [p for _, p, r in round1 if r is None]
    assert len(tables) == 2 and {"cli:ann", "cli:ben"} not in [set(p) for p in tables]
    assert "cli:fay" not in {p for _, ps, _ in round1 for p in ps}
    # swap one player of each table (nobody moved yet): the two tables are made again with them exchanged
    x, y = tables[0][0], tables[1][0]
    code, out = run(db, capsys, "swap", "1", x, y, "--reason", "asked", "--user", "ann")
    assert code == 1 and "organiser" in out
    code, out = run(db, capsys, "swap", "1", x, "cli:fay", "--reason", "asked", "--user", "org")
    assert code == 1 and "cannot be swapped" in out.lower()  # fay is not in the round (removed: no check-in)
    code, out = run(db, capsys, "swap", "1", x, y, "--reason", "asked", "--user", "org")
    assert code == 0 and f"Round 1: {x} and {y} swapped" in out
    after = [p for _, p, r in games(db, 1) if r is None]
    assert after[0][0] == y and after[1][0] == x
    # the record is the Discord path's (tests/discord/test_tournament_entry.py reads its own against the same)
    names = {f"cli:{n}": n for n in ("org", "ann", "ben", "cat", "dan", "eve", "fay")}
    assert attendance_record(log(db, *PARITY_ACTIONS), names) == parity(names[x], names[y])
    # check-in is over once it started; a second requested bye is over the limit (requested_byes: 1)
    code, out = run(db, capsys, "checkin", "1", "--user", "ann")
    assert code == 1 and "no check-in" in out
    code, out = run(db, capsys, "bye", "1", "--user", "eve")
    assert code == 1 and "At most 1" in out


# ---------------------------------------------------------------------------------------------- entry (T-23)
FIGURES = {"cli:low": (1300, 20), "cli:high": (1900, 20), "cli:green": (1500, 3), "cli:fit": (1600, 10)}


@pytest.fixture
def ratings(monkeypatch):
    """The players' (displayed rating, rated games) in Clay God, as the ratings cache would give them."""
    figures = dict(FIGURES)

    async def current(self, scope, game, users):
        return {u: figures[u] for u in users if u in figures}
    monkeypatch.setattr(Ratings, "current", current)
    return figures


def test_entry_conditions_at_the_terminal(tmp_path, capsys, ratings):
    db = tmp_path / "j.db"
    assert run(db, capsys, "new", "--game", "claygod", "--set", "min_rating=1400", "--set", "max_rating=1800",
               "--set", "min_rated_games=5", "--set", "check_in=yes", "--user", "org")[0] == 0
    expected = {"newbie": "no rating in this game yet", "low": "at least 1400; yours is 1300",
                "high": "up to 1800; yours is 1900", "green": "at least 5 rated games of this game; you have 3"}
    for name, why in expected.items():
        code, out = run(db, capsys, "join", "1", "--user", name)
        assert code == 1 and why in out, (name, out)
    assert run(db, capsys, "join", "1", "--user", "fit")[0] == 0
    assert run(db, capsys, "bot", "1")[0] == 0  # bot players are the organiser's filler: no conditions
    with sqlite3.connect(db) as con:
        assert [u for (u,) in con.execute("SELECT user_id FROM entries ORDER BY number")] == [
            "cli:fit", "bot:t1:2"]
    # checked again at check-in, with the rating as it is then
    ratings["cli:fit"] = (1850, 12)
    code, out = run(db, capsys, "checkin", "1", "--user", "fit")
    assert code == 1 and "yours is 1850" in out


def test_entry_settings_are_checked_and_a_role_is_discords(tmp_path, capsys, ratings):
    db = tmp_path / "j.db"
    code, out = run(db, capsys, "new", "--game", "claygod", "--set", "min_rating=1800", "--set", "max_rating=1400")
    assert code == 1 and "nobody would fit" in out
    code, out = run(db, capsys, "new", "--game", "claygod", "--set", "min_rated_games=3", "--set", "rated=no")
    assert code == 1 and "rated tournament" in out
    code, out = run(db, capsys, "new", "--game", "bridges", "--format", "multiseat", "--set", "max_rating=1400")
    assert code == 1 and "rated tournament" in out
    code, out = run(db, capsys, "new", "--game", "claygod", "--set", "role=123456789012")
    assert code == 2 and "Discord only" in out
    # a ceiling alone admits a newcomer (as chess's class sections do)
    assert run(db, capsys, "new", "--game", "claygod", "--set", "max_rating=1400")[0] == 0
    assert run(db, capsys, "join", "1", "--user", "newbie")[0] == 0

    # a tournament made on Discord with a role: the terminal cannot check it, and says so
    async def on_discord():
        store = await Store.open(db)
        try:
            made = await Director(Referee(store)).create("claygod", "swiss", creator="discord:1",
                                                        settings={"role": "<@&123456789012>"}, guild_id="9")
            assert made.settings["role"] == "123456789012"
            return made.id
        finally:
            await store.close()
    tid = asyncio.run(on_discord())
    code, out = run(db, capsys, "join", str(tid), "--user", "fit")
    assert code == 1 and "only Discord can check" in out


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
def test_every_refusal_names_the_condition_and_the_figures(locale):
    texts = {
        "entry_low": ({"min": 1400, "rating": 1312}, ("1400", "1312")),
        "entry_high": ({"max": 1800, "rating": 1923}, ("1800", "1923")),
        "entry_unrated_player": ({"min": 1400}, ("1400",)),
        "entry_games": ({"need": 5, "games": 2}, ("5", "2")),
        "entry_role": ({"role": "<@&77>"}, ("<@&77>",)),
        "entry_role_discord": ({"role": "<@&77>"}, ("<@&77>", "Discord")),
    }
    seen = set()
    for key, (params, figures) in texts.items():
        text = t(f"tournament.reject.{key}", locale, **params)
        assert all(f in text for f in figures) and "{" not in text, text
        seen.add(text)
    assert len(seen) == len(texts)


def test_a_tournament_stored_before_entry_conditions_admits_anyone(tmp_path, capsys, ratings):
    db = tmp_path / "j.db"
    assert run(db, capsys, "new", "--game", "claygod", "--set", "min_rating=1400")[0] == 0
    with sqlite3.connect(db) as con:  # as an older release wrote it: no entry settings at all
        settings = json.loads(con.execute("SELECT settings FROM tournaments").fetchone()[0])
        for name in ("min_rating", "max_rating", "min_rated_games", "role"):
            settings.pop(name)
        con.execute("UPDATE tournaments SET settings = ?", (json.dumps(settings),))
    assert run(db, capsys, "join", "1", "--user", "low")[0] == 0
    assert run(db, capsys, "join", "1", "--user", "newbie")[0] == 0
