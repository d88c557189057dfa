"""The auditor's export of a tournament (issue 37 item 6, docs/tournaments.md "The auditor's export"): what an
outside program needs to recompute the standings and the ratings without the database.

- players under stable pseudonymous ids (an HMAC of the user id under the database's own key, migration 0016):
  the same in every export of this database, not reversible to a Discord id;
- every game's start and finish, the table's rated setting and whether rating counted it (and why not), forfeits,
  and who moved each seat: the player, a bot (a bot seat, or the bot that took a seat whose time ran out), or the
  referee (timeouts, forced moves, standing passes);
- a rating report: per rated game the openskill teams, ranks and each player's mu/sigma before and after; per
  player the figure before their first game of the event and after their last.

The organiser's own export (``Director.export``) keeps the user ids and the log; this one has neither.
"""
from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
from typing import Any

from bot.ratings import derive
from bot.ratings.model import FINGERPRINT, SHOWN_BASE, SHOWN_SCALE, Z, shown
from bot.ratings.outcomes import FORFEIT, Unrated
from bot.ratings.ratings import Ratings
from bot.referee.service import AUTO
from bot.referee.steps import SYSTEM
from bot.storage.audit import export_key, table_facts
from bot.storage.ratings import Connection, RatingRecord
from bot.storage.store import Store

FORMAT = "judge.tournament.audit/1"
#: a table's moves are counted only in these statuses: its seed and record are revealed then (bot/web/public.py)
ENDED = ("finished", "cancelled")
#: the moderation log's entry for a seat a bot took when its time ran out (bot/referee/timekeeper.py)
ZOMBIE = "clock_zombie"


def pseudonym(key: bytes, user_id: str) -> str:
    """A player's id in public exports: 16 hex digits of HMAC-SHA256 (64 bits: no collision among any server's
    players in practice, short enough to read in a CSV)."""
    return "p" + hmac.new(key, user_id.encode(), hashlib.sha256).hexdigest()[:16]


def who_moved(seats: list[tuple[int, str, bool]], actions: list[tuple[int, str, int]],
              zombies: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Per seat, how many of its actions its player made, a bot made, the referee made.

    ``seats``: (seat, user_id, is_bot now); ``actions``: (seat, user_id, version); ``zombies``: the clock's log
    entries {"seats", "version"}: from that version on the seat's moves, recorded under its player's id, are its
    bot's."""
    since: dict[int, int] = {}
    for z in zombies:
        for seat in z.get("seats") or []:
            since[seat] = min(since.get(seat, z["version"]), z["version"])
    counts = {seat: {"by_player": 0, "by_bot": 0, "by_referee": 0} for seat, _, _ in seats}
    bot_seat = {seat for seat, user, _ in seats if user.startswith("bot:")}
    for seat, user, version in actions:
        if seat not in counts:
            continue
        if user in (SYSTEM, AUTO):
            counts[seat]["by_referee"] += 1
        elif seat in bot_seat or (seat in since and version > since[seat]):
            counts[seat]["by_bot"] += 1
        else:
            counts[seat]["by_player"] += 1
    return [counts[seat] for seat, _, _ in seats]


def _table_facts(c: Connection, table_ids: list[int]) -> dict[int, dict[str, Any]]:
    return {table_id: {"status": f.status, "started_at": f.started_at, "finished_at": f.finished_at,
                       "rated": f.rated, "outcome": f.outcome, "seats": f.seats,
                       "moves": who_moved(f.seats, f.actions, f.logged), "results": f.results}
            for table_id, f in table_facts(c, table_ids, ZOMBIE).items()}


def _why_unrated(c: Connection, table_id: int, finished_at: float | None) -> str | None:
    """The rule that kept a finished table out of the ratings (docs/ratings.md R-0), as the derivation judged it."""
    if finished_at is None:
        return None
    for f in derive.finishes(c, finished_at):
        if f.table_id == table_id:
            try:
                derive.judge(f)
            except Unrated as why:
                return str(why.args[0]) if why.args else "unrated"
            return None
        if f.finished_at > finished_at:
            break
    return None


def _teams(c: Connection, table_id: int, finished_at: float) -> tuple[list[list[int]], list[int]] | None:
    """The openskill teams (by seat) and ranks the table was rated with."""
    for f in derive.finishes(c, finished_at):
        if f.table_id == table_id:
            try:
                st = derive.judge(f)
            except Unrated:
                return None
            return [list(team) for team in st.teams], list(st.ranks)
        if f.finished_at > finished_at:
            break
    return None


def _figure(mu: float, sigma: float, games: int | None = None) -> dict[str, Any]:
    out = {"mu": mu, "sigma": sigma, "shown": shown(mu, sigma)}
    if games is not None:
        out["games"] = games
    return out


async def audit_export(director: Any, tournament_id: int) -> dict[str, Any] | Any:
    """The auditor's export of a tournament, or the director's Rejection (no such tournament)."""
    data = await director.export(tournament_id)
    if not isinstance(data, dict):
        return data
    store: Store = director.store
    await Ratings(store).sync()  # the rating rows must be those of the record as it is now
    key = await export_key(store)
    entries = await director.record.entries(tournament_id)
    ids = {e.user_id: pseudonym(key, e.user_id) for e in entries}

    def p(user: str) -> str:
        return ids.get(user) or pseudonym(key, user)

    def hide(value: Any) -> Any:  # user ids inside settings (seeding order, ratings at the start ...)
        if isinstance(value, str):
            return ids.get(value, value)
        if isinstance(value, list):
            return [hide(v) for v in value]
        if isinstance(value, dict):
            return {ids.get(k, k): hide(v) for k, v in value.items()}
        return value

    table_ids = [g["table"] for g in data["games"] if g["table"]]

    def read(c: Connection) -> tuple[dict, dict, dict]:
        facts = _table_facts(c, table_ids)
        why, teams = {}, {}
        for tid, f in facts.items():
            if f["status"] != "finished":
                continue
            if f["results"]:
                teams[tid] = _teams(c, tid, f["finished_at"])
            else:
                why[tid] = _why_unrated(c, tid, f["finished_at"])
        return facts, why, teams

    facts, why, teams = await RatingRecord(store).read(read)
    games, rated_games = [], []
    for g in data["games"]:
        f = facts.get(g["table"]) if g["table"] else None
        game = {"round": g["round"], "board": g["board"], "kind": g["kind"], "table": g["table"],
                "players": [p(u) for u in g["players"]], "status": g["status"], "result": g["result"],
                "points": {p(u): v for u, v in (g["points"] or {}).items()} or None,
                "forfeit": g["result"] == "forfeit" or bool(f and (f["outcome"] or {}).get("reason") == FORFEIT),
                "started_at": f["started_at"] if f else None, "finished_at": f["finished_at"] if f else None,
                "rated": f["rated"] if f else False, "counted": bool(f and f["results"]),
                "unrated_because": why.get(g["table"]) if f else None,
                # only once the table has ended: before, how often a seat acted may tell a secret (a night role)
                "moves": [{"seat": seat, "player": p(user), **counts}
                          for (seat, user, _), counts in zip(f["seats"], f["moves"])]
                if f and f["status"] in ENDED else [],
                "rating": None}
        if f and f["results"]:
            by_seat = {seat: user for seat, user, _ in f["seats"]}
            found = teams.get(g["table"])
            game["rating"] = {
                "teams": [[p(by_seat[s]) for s in team] for team in found[0]] if found else None,
                "ranks": found[1] if found else None,
                "before": {p(u): _figure(r[2], r[3]) for u, r in f["results"].items()},
                "after": {p(u): _figure(r[4], r[5], r[6]) for u, r in f["results"].items()}}
            rated_games.append((f["finished_at"], g["table"], f["results"]))
        games.append(game)
    report: dict[str, dict[str, Any]] = {}
    for _, _, results in sorted(rated_games):  # in finish order: the first game's before, the last game's after
        for user, (_, _, mb, sb, mu, sigma, n) in results.items():
            row = report.setdefault(p(user), {"player": p(user), "before": _figure(mb, sb, n - 1), "games": 0})
            row["after"] = _figure(mu, sigma, n)
            row["games"] += 1
    for row in report.values():  # rated games the player finished elsewhere between this event's first and last
        row["elsewhere"] = row["after"]["games"] - row["before"]["games"] - row["games"]
    tour = data["tournament"]
    return {
        "format": FORMAT,
        "tournament": {k: tour[k] for k in ("id", "game", "format", "status", "title", "round", "options")}
        | {"settings": hide(tour["settings"])},
        "players": [{"id": ids[e.user_id], "name": e.name, "bot": e.is_bot, "number": e.number, "status": e.status}
                    for e in entries],
        "standings": [{**{k: v for k, v in s.items() if k not in ("user_id", "opponents")}, "player": p(s["user_id"]),
                       "opponents": [[p(u) for u in o] for o in s.get("opponents") or []]} for s in data["standings"]],
        "games": games,
        "ratings": {"model": json.loads(FINGERPRINT), "shown": {"base": SHOWN_BASE, "scale": SHOWN_SCALE, "z": Z},
                    "players": sorted(report.values(), key=lambda r: r["player"])},
    }


SEAT_FIELDS = ["round", "board", "table", "result", "forfeit", "started_at", "finished_at", "rated", "counted",
               "unrated_because", "seat", "player", "points", "by_player", "by_bot", "by_referee", "team", "rank",
               "mu_before", "sigma_before", "mu_after", "sigma_after", "games_after"]
REPORT_FIELDS = ["player", "games", "elsewhere", "mu_before", "sigma_before", "shown_before", "games_before",
                 "mu_after", "sigma_after", "shown_after", "games_after"]


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return repr(value)  # every digit: a recomputation compares to the last one
    return value


def audit_csv(data: dict[str, Any]) -> str:
    """The auditor's export as CSV: sections separated by a blank line, each opening with its header row — the
    tournament and the rating model (name, value), the players, the standings, one row per seat of every game,
    and the rating report."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["name", "value"])
    for k, v in data["tournament"].items():
        w.writerow([k, json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else _cell(v)])
    w.writerow(["format", data["format"]])
    for k, v in data["ratings"]["model"].items():
        w.writerow([f"model.{k}", _cell(v)])
    for k, v in data["ratings"]["shown"].items():
        w.writerow([f"shown.{k}", _cell(v)])
    w.writerow([])
    w.writerow(["id", "name", "bot", "number", "status"])
    for pl in data["players"]:
        w.writerow([_cell(pl[k]) for k in ("id", "name", "bot", "number", "status")])
    w.writerow([])
    fields = [k for k in (data["standings"][0] if data["standings"] else {"rank": 0}) if k != "opponents"]
    w.writerow(fields)
    for s in data["standings"]:
        w.writerow([_cell(s[k]) for k in fields])
    w.writerow([])
    w.writerow(SEAT_FIELDS)
    for g in data["games"]:
        rating = g["rating"] or {}
        team_of = {pl: i for i, team in enumerate(rating.get("teams") or []) for pl in team}
        rows = g["moves"] or [{"seat": i, "player": pl} for i, pl in enumerate(g["players"])]  # a bye: no table
        for m in rows:
            pl = m["player"]
            before, after = (rating.get("before") or {}).get(pl), (rating.get("after") or {}).get(pl)
            team = team_of.get(pl)
            w.writerow([_cell(v) for v in (
                g["round"], g["board"], g["table"], g["result"], g["forfeit"], g["started_at"], g["finished_at"],
                g["rated"], g["counted"], g["unrated_because"], m["seat"], pl, (g["points"] or {}).get(pl),
                m.get("by_player"), m.get("by_bot"), m.get("by_referee"), team,
                rating["ranks"][team] if team is not None else None,
                before and before["mu"], before and before["sigma"], after and after["mu"], after and after["sigma"],
                after and after["games"])])
    w.writerow([])
    w.writerow(REPORT_FIELDS)
    for r in data["ratings"]["players"]:
        b, a = r["before"], r["after"]
        w.writerow([_cell(v) for v in (r["player"], r["games"], r["elsewhere"], b["mu"], b["sigma"], b["shown"],
                                       b["games"], a["mu"], a["sigma"], a["shown"], a["games"])])
    return out.getvalue()
