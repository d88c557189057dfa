"""The auditor's export (docs/tournaments.md "The auditor's export"): a rated Swiss of human players is exported,
then recomputed by an outside program that reads only the export (openskill, json, csv); who moved each seat;
pseudonymous ids; and the Swiss written as FIDE's TRF16 and read back."""
from __future__ import annotations

import csv
import io
import json
import random

from bot.engine import get_game
from bot.ratings.ratings import Ratings
from bot.terminal.cli import main
from bot.tournament.audit import audit_csv, audit_export, pseudonym, who_moved
from bot.tournament.director import Director
from bot.tournament.trf import write_trf

PLAYERS = [f"u:{100 + i}" for i in range(4)]   # Discord-like ids: they must not reach the export


async def play_as_humans(referee, table_id):
    """The players' own moves (not bot seats), chosen by the bots' policy: the table is rated."""
    for step in range(2000):
        state = await referee.store.state(table_id)
        row = await referee.store.get_table(table_id)
        if row.status != "active":
            return
        game = get_game(row.game)
        seats = await referee.store.seats(table_id)
        due = game.to_act(state)
        assert due, "an active table owes someone a move"
        seat = due[0].seat
        action = game.bot_action(state, seat, random.Random(f"{table_id}:{step}"))
        await referee.act(table_id, seats[seat].user_id, action, seat=seat, expected_version=row.version)
    raise AssertionError("the table did not end")


async def rated_swiss(referee, rounds=3, forfeit_in=None):
    """A Swiss of PLAYERS, every table played by its people; in round ``forfeit_in`` board 1 is not played but
    forfeited by its seat 1 (an organiser's forfeit)."""
    director = Director(referee)
    tour = await director.create("claygod", "swiss", creator="u:org", settings={"rounds": rounds}, origin="terminal",
                                 locale="en")
    for i, p in enumerate(PLAYERS):
        assert await director.join(tour.id, p, f"Игрок {i}") == i + 1
    await director.start(tour.id, by="u:org")
    for _ in range(20):
        t = await director.record.get(tour.id)
        if t.status != "running":
            return director, tour.id
        for g in await director.record.games(tour.id, t.round):
            if g.table_id and not g.settled and (t.round, g.board) == (forfeit_in, 1):
                await director.forfeit(tour.id, t.round, 1, [g.players[1]], by="u:org", reason="не явился")
            elif g.table_id and not g.settled:
                await play_as_humans(referee, g.table_id)
        await director.sync(tour.id)
    raise AssertionError("the tournament did not end")


# ---------------------------------------------------------------- the outside program: openskill, json, csv only
def recompute(model_params, games):
    """Every rated game in finish order, rated again with openskill from the before-figures the export gives;
    checks each player's before is their previous after (no rated game elsewhere between).  Returns
    {player: (mu, sigma)} after the last game, and how many games were checked."""
    from openskill.models import PlackettLuce
    model = PlackettLuce(mu=model_params["mu"], sigma=model_params["sigma"], beta=model_params["beta"],
                         tau=model_params["tau"], limit_sigma=model_params["limit_sigma"])
    now, checked = {}, 0
    for g in sorted(games, key=lambda g: (g["finished_at"], g["table"])):
        teams = [[model.rating(mu=g["before"][p][0], sigma=g["before"][p][1]) for p in team] for team in g["teams"]]
        for team in g["teams"]:
            for p in team:
                assert now.get(p, (model_params["mu"], model_params["sigma"])) == tuple(g["before"][p])
        rated = model.rate(teams, ranks=g["ranks"])
        for team, new in zip(g["teams"], rated):
            for p, r in zip(team, new):
                assert (r.mu, r.sigma) == tuple(g["after"][p]), (g["table"], p)  # to the last digit
                now[p] = (r.mu, r.sigma)
        checked += 1
    return now, checked


def from_json(text):
    data = json.loads(text)
    games = [{"table": g["table"], "finished_at": g["finished_at"], "teams": g["rating"]["teams"],
              "ranks": g["rating"]["ranks"],
              "before": {p: (f["mu"], f["sigma"]) for p, f in g["rating"]["before"].items()},
              "after": {p: (f["mu"], f["sigma"]) for p, f in g["rating"]["after"].items()}}
             for g in data["games"] if g["counted"]]
    return data["ratings"]["model"], games, data


def sections(text):
    out, current = [], []
    for row in csv.reader(io.StringIO(text)):
        if not row:
            out.append(current)
            current = []
        else:
            current.append(row)
    out.append(current)
    return [[dict(zip(s[0], r)) for r in s[1:]] for s in out]


def from_csv(text):
    head, players, standings, seats, report = sections(text)
    values = {r["name"]: r["value"] for r in head}
    params = {k: json.loads(values[f"model.{k}"]) for k in ("mu", "sigma", "beta", "tau")}
    params["limit_sigma"] = values["model.limit_sigma"] == "yes"
    games = {}
    for r in seats:
        if r["counted"] != "yes":
            continue
        g = games.setdefault(r["table"], {"table": int(r["table"]), "finished_at": float(r["finished_at"]),
                                          "rows": [], "before": {}, "after": {}})
        g["rows"].append(r)
        g["before"][r["player"]] = (float(r["mu_before"]), float(r["sigma_before"]))
        g["after"][r["player"]] = (float(r["mu_after"]), float(r["sigma_after"]))
    for g in games.values():
        n = 1 + max(int(r["team"]) for r in g["rows"])
        g["teams"] = [[r["player"] for r in g["rows"] if int(r["team"]) == i] for i in range(n)]
        g["ranks"] = [int(next(r["rank"] for r in g["rows"] if int(r["team"]) == i)) for i in range(n)]
    return params, list(games.values()), standings, seats, report


# ---------------------------------------------------------------- the tests
async def test_an_outside_program_recomputes_the_ratings_from_the_export(env):
    store, referee, _ = env
    director, tid = await rated_swiss(referee, rounds=2, forfeit_in=2)
    data = await audit_export(director, tid)
    text = json.dumps(data, ensure_ascii=False)
    assert not any(p in text for p in PLAYERS) and "u:org" not in text  # no user id, not even in the settings
    params, games, data = from_json(text)
    assert len(games) == 3  # 4 players, 2 rounds: 2 tables a round, all rated but the one forfeited
    forfeited = next(g for g in data["games"] if g["forfeit"])
    assert (forfeited["round"], forfeited["board"], forfeited["counted"]) == (2, 1, False)
    final, checked = recompute(params, games)
    assert checked == 3
    csv_params, csv_games, standings, seats, report = from_csv(audit_csv(data))
    assert csv_params == {k: params[k] for k in csv_params} and recompute(csv_params, csv_games) == (final, 3)
    check_trf(data, read_trf(write_trf(data)), rounds=2)
    # the report: before the first game, after the last, as openskill and the shown formula give them
    shown = data["ratings"]["shown"]
    for row, csv_row in zip(data["ratings"]["players"], report):
        assert (row["after"]["mu"], row["after"]["sigma"]) == final[row["player"]]
        assert row["before"] == {"mu": 25.0, "sigma": 25 / 3, "shown": 1500, "games": 0}
        assert row["after"]["shown"] == round(shown["base"] + shown["scale"] * (row["after"]["mu"] - shown["z"]
                                                                                 * row["after"]["sigma"]))
        assert row["elsewhere"] == 0 and csv_row["player"] == row["player"]
        assert float(csv_row["mu_after"]) == row["after"]["mu"]
    # ... and they are the bot's own figures
    key = (await store._one("SELECT key FROM export_key")) ["key"]
    current = await Ratings(store).current("", "claygod", PLAYERS)
    assert {pseudonym(key, u): v[0] for u, v in current.items()} == {
        r["player"]: r["after"]["shown"] for r in data["ratings"]["players"]}
    # the standings recomputed from the games alone
    points = {}
    for g in data["games"]:
        for p, v in (g["points"] or {}).items():
            points[p] = points.get(p, 0) + v
    assert {s["player"]: s["points"] for s in data["standings"]} == points
    assert {r["player"]: float(r["points"]) for r in standings} == points
    # times, the rated flag, who moved
    for g in data["games"]:
        if g["kind"] == "table" and not g["forfeit"]:
            assert g["started_at"] <= g["finished_at"] and g["rated"]
            assert all(m["by_player"] > 0 and m["by_bot"] == 0 for m in g["moves"])
    assert {r["by_player"] != "" for r in seats if r["table"]} == {True}


async def test_the_same_player_has_the_same_id_in_every_export(env):
    store, referee, _ = env
    director, tid = await rated_swiss(referee, rounds=1)
    first, second = await audit_export(director, tid), await audit_export(director, tid)
    assert [p["id"] for p in first["players"]] == [p["id"] for p in second["players"]]
    assert len({p["id"] for p in first["players"]}) == 4
    assert all(p["id"].startswith("p") and len(p["id"]) == 17 for p in first["players"])
    other = bytes(32)  # another database's key gives other ids: an id says nothing without the key
    assert pseudonym(other, PLAYERS[0]) != first["players"][0]["id"]


def test_who_moved_a_seat():
    seats = [(0, "u:1", True), (1, "u:2", False), (2, "bot:x", True)]
    actions = [(0, "u:1", 1), (1, "u:2", 2), (2, "bot:x", 3), (0, "u:1", 4), (1, "auto", 5), (0, "system", 6),
               (0, "u:1", 7), (0, "u:1", 8)]
    # the clock gave seat 0 to a bot at version 6: its moves after it, under its player's id, are the bot's
    counts = who_moved(seats, actions, [{"seats": [0], "version": 6}])
    assert counts == [{"by_player": 2, "by_bot": 2, "by_referee": 1},
                      {"by_player": 1, "by_bot": 0, "by_referee": 1},
                      {"by_player": 0, "by_bot": 1, "by_referee": 0}]


# ---------------------------------------------------------------- TRF: a small reader, as a checker reads it
def read_trf(text):
    players = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        rounds, column = [], 92
        while len(line) >= column + 7:
            rounds.append((int(line[column - 1:column + 3]), line[column + 4], line[column + 6]))
            column += 10
        players[int(line[4:8])] = {"name": line[14:47].strip(), "rating": line[48:52].strip(),
                                   "points": float(line[80:84]), "rank": int(line[85:89]), "rounds": rounds}
    return players


def check_trf(data, trf, rounds):
    """Every player's line against the export's standings and games, and both sides of each game alike."""
    start = {p["id"]: p["number"] for p in data["players"]}
    assert sorted(trf) == sorted(start.values())
    for s in data["standings"]:
        row = trf[start[s["player"]]]
        assert (row["name"], row["points"], row["rank"]) == (s["player"], s["points"], s["rank"])
        assert len(row["rounds"]) == rounds
        for number, (opponent, colour, result) in enumerate(row["rounds"], 1):
            game = next(g for g in data["games"] if g["round"] == number and s["player"] in g["players"])
            if game["kind"] == "bye":
                assert (opponent, colour, result) == (0, "-", "U")
                continue
            seat = game["players"].index(s["player"])
            other = game["players"][1 - seat]
            assert (opponent, colour) == (start[other], "wb"[seat])
            mine, theirs = game["points"][s["player"]], game["points"][other]
            if game["forfeit"]:
                assert result == ("+" if mine > theirs else "-")
            else:
                assert result == ("1" if mine > theirs else "=" if mine == theirs else "0")
            assert trf[opponent]["rounds"][number - 1][0] == start[s["player"]]  # both sides tell the same game


def test_a_swiss_as_trf_read_back(tmp_path, capsys):
    db = tmp_path / "j.db"

    def run(*args):
        code = main(["--db", str(db), "--locale", "en", "tournament", *args])
        return code, capsys.readouterr()

    assert run("new", "--game", "claygod", "--set", "rounds=3", "--title", "Кубок")[0] == 0
    assert run("bot", "1", "--count", "5")[0] == 0
    assert run("start", "1")[0] == 0
    assert run("export", "1", "--format", "trf", "--out", str(tmp_path / "t.trf"))[0] == 0
    assert run("export", "1", "--public", "--out", str(tmp_path / "t.json"))[0] == 0
    data = json.loads((tmp_path / "t.json").read_text())
    check_trf(data, read_trf((tmp_path / "t.trf").read_text()), rounds=3)
    code, out = run("new", "--game", "bloodwood", "--format", "multiseat", "--set", "rounds=1")
    assert code == 0
    code, out = run("export", "2", "--format", "trf")
    assert code == 1 and "TRF can hold only" in out.err
    code, out = run("export", "1", "--format", "swiss")  # new's --format is not export's
    assert code == 2 and "for export the file's" in out.err


async def test_the_demo_plays_a_rated_table_of_people(env):
    import time
    from bot.terminal.session import DEMO_PLAYERS, run_rated_demo_table
    store, referee, _ = env
    out = io.StringIO()
    began = time.perf_counter()
    first = await run_rated_demo_table(referee, locale="ru", out=out)
    spent = time.perf_counter() - began
    second = await run_rated_demo_table(referee, locale="ru", out=out)
    assert first.finished and first.verified and second.finished
    text = out.getvalue()
    assert text.count("Рейтинг: ") == 2 and "Игрок 1" in text
    changes = [await Ratings(store).table_changes(r.table_id) for r in (first, second)]
    assert [c.user_id for c in changes[0]] == list(DEMO_PLAYERS)
    assert {c.user_id: c.after for c in changes[0]} == {c.user_id: c.before for c in changes[1]}  # it moves on
    assert all(c.before != c.after for c in changes[1])
    print(f"one rated demo table: {spent:.2f} s")


async def test_a_table_still_playing_tells_no_counts_of_moves(env):
    store, referee, _ = env
    director = Director(referee)
    tour = await director.create("claygod", "swiss", creator="u:org", settings={"rounds": 1}, origin="terminal")
    for i, p in enumerate(PLAYERS):
        await director.join(tour.id, p, f"P{i}")
    await director.start(tour.id, by="u:org")
    table_id = (await director.record.games(tour.id, 1))[0].table_id
    state, row = await store.state(table_id), await store.get_table(table_id)
    game, seats = get_game("claygod"), await store.seats(table_id)
    seat = game.to_act(state)[0].seat
    await referee.act(table_id, seats[seat].user_id, game.bot_action(state, seat, random.Random(1)), seat=seat,
                      expected_version=row.version)
    data = await audit_export(director, tour.id)
    playing = next(g for g in data["games"] if g["table"] == table_id)
    assert playing["status"] == "active" and playing["moves"] == [] and playing["started_at"] is not None
