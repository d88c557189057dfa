"""Ratings derived from the record: the finished tables replayed in finish order into a cache.

The cache (rating_results, ratings; migration 0011) is never a second truth.  SQLite triggers move
``rating_sync.dirty_from`` back to the earliest finish any change touched (a table finishing, a rollback
reopening it, a dispute settling it again, a corrected tournament result, a tournament's rating switched off);
``sync`` deletes the cached rows from that finish on and replays every finished table from there, starting from
each player's last cached figure before it.  ``replay`` is one pure function used by both ``sync`` and
``rebuild``, so the two cannot differ but by their starting point.

Everything here runs on a connection to the record (the store's database thread, or a script's own), through
storage's query functions (bot/storage/ratings.py): the rows are storage's, the arithmetic is rating's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from bot.ratings.model import FINGERPRINT, Skill, rate_ratings, rating, shown
from bot.ratings.outcomes import Standing, Unrated, places, standing
from bot.storage import ratings as record
from bot.storage.ratings import Connection, Finish, Key

__all__ = ["BEGINNING", "CLEAN", "Finish", "Key", "Result", "compare", "dirty_from", "finishes", "judge",
           "rebuild", "recompute", "replay", "stored", "sync"]
BEGINNING = -1e300
CLEAN = 1e300


@dataclass(frozen=True)
class Result:
    table_id: int
    user_id: str
    scope: str
    game: str
    finished_at: float
    seat: int
    place: int
    before: Skill
    after: Skill
    games: int

    def row(self) -> tuple:
        return (self.table_id, self.user_id, self.scope, self.game, self.finished_at, self.seat, self.place,
                self.before.mu, self.before.sigma, self.after.mu, self.after.sigma, self.games)


def judge(f: Finish) -> Standing:
    """The standing a finished table is rated by, or Unrated with the rule's reason (docs/ratings.md)."""
    if not f.rated:
        raise Unrated("casual")
    if any(u.startswith("bot:") for u in f.users):
        raise Unrated("bot_seat")
    if len(set(f.users)) != len(f.users):
        raise Unrated("hot_seat")
    if not f.tournament_rated:
        raise Unrated("tournament_casual")
    if not f.moved:
        raise Unrated("no_move")
    found = standing(f.game, f.options, len(f.users), f.outcome)
    if f.adjusted is not None:  # the organiser's corrected points decide, each player alone
        try:
            points = [float(f.adjusted[u]) for u in f.users]
        except (KeyError, TypeError, ValueError):
            raise Unrated("malformed") from None
        return Standing([[s] for s in range(len(f.users))], places(points))
    return found


def replay(finishes: Iterable[Finish], before: Callable[[Key], tuple[Skill, int]]) -> tuple[list[Result], dict[Key, tuple[Skill, int]]]:
    """Rate ``finishes`` (in finish order) one after another; ``before`` gives a player's skill and rated games
    before the first of them.  Returns the rows and every touched player's figures after the last."""
    now: dict[Key, tuple[Any, int]] = {}   # openskill's rating objects, kept from game to game
    out: list[Result] = []
    for f in finishes:
        try:
            st = judge(f)
        except Unrated:
            continue
        keys = [(f.scope, f.game, u) for u in f.users]
        for key in keys:
            if key not in now:
                skill, games = before(key)
                now[key] = (rating(skill), games)
        after = rate_ratings([[now[keys[s]][0] for s in team] for team in st.teams], st.ranks)
        for team, new_team, rank in zip(st.teams, after, st.ranks):
            for seat, new in zip(team, new_team):
                key = keys[seat]
                old, games = now[key]
                now[key] = (new, games + 1)
                out.append(Result(f.table_id, f.users[seat], f.scope, f.game, f.finished_at, seat, rank,
                                  Skill(old.mu, old.sigma), Skill(new.mu, new.sigma), games + 1))
    return out, {key: (Skill(r.mu, r.sigma), games) for key, (r, games) in now.items()}


def finishes(c: Connection, since: float = BEGINNING) -> Iterator[Finish]:
    """The finished tables from ``since`` on, in finish order (ties by table number)."""
    return record.finishes(c, since)


def _stored_before(c: Connection) -> Callable[[Key], tuple[Skill, int]]:
    def before(key: Key) -> tuple[Skill, int]:
        found = record.last_figures(c, key)
        return (Skill(found[0], found[1]), found[2]) if found else (Skill(), 0)
    return before


def _fresh(_key: Key) -> tuple[Skill, int]:
    return Skill(), 0


def dirty_from(c: Connection) -> float | None:
    dirty, model = record.sync_mark(c)
    if model != FINGERPRINT:
        return BEGINNING
    return None if dirty is None or dirty >= CLEAN else dirty


def sync(c: Connection) -> int:
    """Bring the cache up to the record (inside the caller's write transaction); returns how many finished
    tables were replayed (rated or not)."""
    since = dirty_from(c)
    if since is None:
        record.mark_clean(c)
        return 0
    before: Callable[[Key], tuple[Skill, int]]
    if since <= BEGINNING:
        affected: set[Key] = set()
        record.clear_cache(c)
        before = _fresh
    else:
        affected = record.keys_since(c, since)
        record.delete_results_since(c, since)
        before = _stored_before(c)
    replayed = list(finishes(c, since))
    results, now = replay(replayed, before)
    record.insert_results(c, (r.row() for r in results))
    record.put_ratings(c, ((*key, s.mu, s.sigma, shown(s.mu, s.sigma), games) for key, (s, games) in now.items()))
    for key in affected - set(now):  # players whose only later games went: their figure before them, or none
        found = record.last_figures(c, key)
        if found is None:
            record.delete_rating(c, key)
        else:
            record.put_ratings(c, [(*key, found[0], found[1], shown(found[0], found[1]), found[2])])
    record.mark_clean(c, FINGERPRINT)
    return len(replayed)


def recompute(c: Connection) -> list[Result]:
    """Every rated table's figures computed from the record alone, from nothing (what ``rebuild`` compares)."""
    return replay(list(finishes(c)), _fresh)[0]


def stored(c: Connection) -> list[tuple]:
    return record.stored_results(c)


def compare(fresh: list[Result], cached: list[tuple]) -> tuple[int, float]:
    """(rows that differ, the largest difference of a figure) between a recomputation and the cache."""
    a = sorted((r.row() for r in fresh), key=lambda r: (r[4], r[0], r[5]))
    differ, most = abs(len(a) - len(cached)), 0.0
    for x, y in zip(a, cached):
        if x[:7] != y[:7] or x[11] != y[11]:
            differ += 1
            continue
        gap = max(abs(p - q) for p, q in zip(x[7:11], y[7:11]))
        most = max(most, gap)
        differ += gap > 1e-9
    return differ, most


def rebuild(c: Connection) -> tuple[int, int, float]:
    """Sync, recompute everything from nothing and compare with the cache; where they differ (they should not),
    the recomputation is stored.  Inside the caller's write transaction.  Returns (rated rows, rows that
    differed, the largest difference of a figure)."""
    sync(c)
    fresh = recompute(c)
    differ, most = compare(fresh, stored(c))
    if differ:
        record.mark_dirty(c, BEGINNING, FINGERPRINT)
        sync(c)
    return len(fresh), differ, most
