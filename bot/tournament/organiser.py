"""The organiser's tools (docs/tournaments.md): check-in and requested byes (T-19), withdrawal after missed
rounds, results set by hand or by forfeit and the bracket corrections they cause (T-8c), the round's clock paused,
pairings swapped, forbidden or made again (T-22).

``OrganiserTools`` is a part of the ``Director`` (director.py), which keeps registration, rounds and results; every
tool begins with ``_as_organiser`` (the organiser or a moderator) and logs what it did with the reason.  The
organiser's entries in the tournament's log are read back by the pure functions below.
"""
from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.engine import Code, Rejection
from bot.engine.free_text import clean_text
from bot.i18n import t
from bot.referee.seated import same_user
from bot.referee.service import Referee
from bot.referee.steps import SYSTEM
from bot.storage.store import Store, TableRow
from bot.storage.tournaments import GameRow, NewGame, TournamentRefused, TournamentRow, Tournaments

from .corrections import Undo, corrected, dropped_after, invalidated
from .planning import bracket_matches
from .progress import Progress
from .settings import BRACKETS
from .standings import Points

PAIRING_TRIES = 5        # a round planned again when players dropped while it was paired (another process)
#: who may move at a table without the round counting as begun: the referee's own forced moves
REFEREE_MOVES = (SYSTEM, "auto", "preference")


def _reject(key: str, code: str = Code.ILLEGAL, **params: Any) -> Rejection:
    return Rejection(code, f"tournament.reject.{key}", params)


def checked_in_from(log: Sequence[Mapping[str, Any]]) -> set[str]:
    """The players who checked in, from the tournament's log."""
    return {user for e in log if e["action"] == "check_in" and (user := (e["data"] or {}).get("user")) is not None}


def byes_requested(log: Sequence[Mapping[str, Any]]) -> dict[str, set[int]]:
    """Each player's rounds with a requested bye, from the tournament's log (a request taken back is gone)."""
    wanted: dict[str, set[int]] = {}
    for e in log:
        data = e["data"] or {}
        if e["action"] == "bye_requested":
            wanted.setdefault(data["user"], set()).add(data["round"])
        elif e["action"] == "bye_withdrawn":
            wanted.setdefault(data["user"], set()).discard(data["round"])
    return wanted


def forbidden_pairs(log: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The pairs the organiser forbade (T-22), from the tournament's log."""
    return [(e["data"]["players"][0], e["data"]["players"][1]) for e in log if e["action"] == "forbid"]


def undone(tour: TournamentRow, every: Sequence[GameRow], round: int, board: int, got: Mapping[str, float],
           how: str) -> list[GameRow]:
    """Every game a bracket correction undoes (none outside a bracket): the later games it makes wrong, and
    every round after the first of them whole."""
    if tour.format not in BRACKETS:
        return []
    wrong = invalidated(corrected(every, round, board, dict(got), how), round, tour.round,
                        lambda gs, n: bracket_matches(tour, gs, n))
    dropped = dropped_after(wrong[0].round, tour.round) if wrong else []
    return sorted([*wrong, *(g for g in every if g.round in dropped and g not in wrong)],
                  key=lambda g: (g.round, g.board))


class _Director(Protocol):
    """What the organiser's tools use of the Director they are part of (director.py): its record, its
    rounds and results, and these tools themselves."""

    referee: Referee
    store: Store
    record: Tournaments

    def lock(self, tournament_id: int) -> asyncio.Lock: ...
    def points(self, t: TournamentRow) -> Points: ...
    def _deadline(self, t: TournamentRow) -> float | None: ...
    async def _tournament(self, tournament_id: int) -> TournamentRow | Rejection: ...
    async def _row(self, tournament_id: int) -> TournamentRow: ...
    async def _table(self, table_id: int) -> TableRow: ...
    async def _as_organiser(self, tournament_id: int, by: str, moderator: bool) -> TournamentRow | Rejection: ...
    async def _as_organiser_with_reason(self, tournament_id: int, by: str, moderator: bool,
                                        reason: str | None) -> tuple[TournamentRow, str] | Rejection: ...
    async def entry_refusal(self, t: TournamentRow, user_id: str,
                            roles: Collection[str] | None) -> Rejection | None: ...
    async def _plan(self, t: TournamentRow, number: int, attempt: int = 0,
                    games: list[GameRow] | None = None) -> list[NewGame] | None: ...
    async def materialise(self, tournament_id: int) -> list[int]: ...
    async def sync(self, tournament_id: int) -> Progress: ...
    async def checked_in(self, tournament_id: int) -> set[str]: ...
    async def _set_result(self, tournament_id: int, round: int, board: int, points: Mapping[str, float],
                          how: str, *, by: str, reason: str | None, moderator: bool,
                          confirm: bool = False) -> Progress | Undo | Rejection: ...
    async def _redo(self, tour: TournamentRow, every: list[GameRow], undone: list[GameRow], round: int, board: int,
                    got: dict[str, float], how: str, *, by: str, reason: str, confirm: bool) -> Undo | Rejection: ...
    async def _untouched(self, games: list[GameRow]) -> bool: ...


class OrganiserTools:
    """The organiser's tools, a part of the Director (its methods take the whole Director as ``self``)."""

    async def checked_in(self: _Director, tournament_id: int) -> set[str]:
        return checked_in_from(await self.record.log(tournament_id))

    async def check_in(self: _Director, tournament_id: int, user_id: str, *,
                       roles: Collection[str] | None = None) -> bool | Rejection:
        """An entered player says they will play (where the tournament asks for it, before round 1); the entry
        conditions are checked again, with the rating as it is now (T-23)."""
        async with self.lock(tournament_id):
            t = await self._tournament(tournament_id)
            if isinstance(t, Rejection):
                return t
            if not t.settings.get("check_in") or t.status != "registration":
                return _reject("no_check_in", tournament=tournament_id)
            if not any(e.user_id == user_id and e.status == "active" for e in await self.record.entries(t.id)):
                return _reject("not_entered")
            if user_id in await self.checked_in(t.id):
                return _reject("checked_in")
            if (refused := await self.entry_refusal(t, user_id, roles)) is not None:
                return refused
            await self.record.add_log(t.id, user_id, "check_in", None, {"user": user_id}, self.referee.now())
        return True

    async def requested_byes(self: _Director, tournament_id: int, number: int) -> set[str]:
        """Who asked for a bye in round ``number``."""
        return {u for u, rounds in byes_requested(await self.record.log(tournament_id)).items() if number in rounds}

    async def request_bye(self: _Director, tournament_id: int, user_id: str) -> tuple[bool, int] | Rejection:
        """A player asks to sit out the next round not yet paired, for ``requested_bye`` points (½ or 0);
        asking again takes it back.  (asked, round).  At most ``requested_byes`` per player; Swiss and
        multi-seat only; it replaces vacation inside an event (T-19)."""
        async with self.lock(tournament_id):
            t = await self._tournament(tournament_id)
            if isinstance(t, Rejection):
                return t
            limit = t.settings.get("requested_byes") or 0
            if not limit or t.status not in ("registration", "running"):
                return _reject("no_requested_byes", tournament=tournament_id)
            if not any(e.user_id == user_id and e.status == "active" for e in await self.record.entries(t.id)):
                return _reject("not_entered")
            number = t.round + 1
            if t.status == "running" and number > t.settings.get("rounds", 0):
                return _reject("no_round_left")
            mine = byes_requested(await self.record.log(t.id)).get(user_id, set())
            now = self.referee.now()
            if number in mine:
                await self.record.add_log(t.id, user_id, "bye_withdrawn", None, {"user": user_id, "round": number}, now)
                return False, number
            if len(mine) >= limit:
                return _reject("byes_used", max=limit)
            await self.record.add_log(t.id, user_id, "bye_requested", None, {"user": user_id, "round": number}, now)
            return True, number

    async def _withdraw_absent(self: _Director, t: TournamentRow, now: float) -> None:
        """``withdraw_after`` N: a player who lost N games by forfeit is withdrawn (T-19), as if they dropped
        out (they may come back, as T-4 allows)."""
        limit = t.settings.get("withdraw_after") or 0
        if not limit:
            return
        points = self.points(t)
        missed: dict[str, int] = {}
        for g in await self.record.games(t.id):
            if g.result == "forfeit" and g.points:
                for p, v in g.points.items():
                    if v <= points.loss:
                        missed[p] = missed.get(p, 0) + 1
        for e in await self.record.entries(t.id):
            if e.status == "active" and missed.get(e.user_id, 0) >= limit:
                try:
                    await self.record.leave(t.id, e.user_id, status="dropped", by=SYSTEM,
                                            reason=f"missed {missed[e.user_id]} rounds", now=now)
                except TournamentRefused:
                    pass


    # ------------------------------------------------------------------ the organiser
    async def adjust(self: _Director, tournament_id: int, round: int, board: int, points: Mapping[str, float], *, by: str,
                     reason: str | None, moderator: bool = False,
                     confirm: bool = False) -> Progress | Undo | Rejection:
        """Set a game's points by hand (a dispute, an unfinished table); the reason is required and logged
        with the points it replaced.  Adjusting the latest round's last open game pairs the next round.  In a
        bracket, a correction that makes later games wrong comes back as an ``Undo`` to confirm (``confirm``
        does it: docs/tournaments.md "Correcting a result")."""
        return await self._set_result(tournament_id, round, board, points, "adjusted", by=by, reason=reason,
                                      moderator=moderator, confirm=confirm)

    async def forfeit(self: _Director, tournament_id: int, round: int, board: int, losers: list[str], *, by: str,
                      reason: str | None, moderator: bool = False,
                      confirm: bool = False) -> Progress | Undo | Rejection:
        """Award a game by forfeit: each of ``losers`` scores a loss, everyone else at the table a win (0–0
        when all of them forfeit); recorded as a forfeit (T-15), logged with the reason and what it replaced."""
        games = {(g.round, g.board): g for g in await self.record.games(tournament_id)}
        g = games.get((round, board))
        if g is None or g.kind != "table":
            return _reject("no_game", Code.NOT_FOUND, round=round, board=board)
        if not losers or not set(losers) <= set(g.players):
            return _reject("bad_points", players=", ".join(g.players))
        t = await self._tournament(tournament_id)
        if isinstance(t, Rejection):
            return t
        points = self.points(t)
        got = {p: points.loss if p in losers else points.win for p in g.players}
        return await self._set_result(tournament_id, round, board, got, "forfeit", by=by, reason=reason,
                                      moderator=moderator, confirm=confirm)

    async def _set_result(self: _Director, tournament_id: int, round: int, board: int, points: Mapping[str, float],
                          how: str, *, by: str, reason: str | None, moderator: bool,
                          confirm: bool = False) -> Progress | Undo | Rejection:
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        games = {(g.round, g.board): g for g in await self.record.games(tournament_id)}
        g = games.get((round, board))
        if g is None:
            return _reject("no_game", Code.NOT_FOUND, round=round, board=board)
        if any(same_user(by, player) for player in g.players):  # a player of that game: another organiser decides
            return _reject("own_game", Code.FORBIDDEN, round=round, board=board)
        if set(points) != set(g.players) or any(not isinstance(v, (int, float)) or isinstance(v, bool)
                                                or not 0 <= v <= 100 for v in points.values()):
            return _reject("bad_points", players=", ".join(g.players))
        if t.status != "running" and t.status != "finished":
            return _reject("closed", tournament=tournament_id)
        got = {p: float(v) for p, v in points.items()}
        async with self.lock(tournament_id):
            t = await self._row(tournament_id)  # read again under the lock: a round may have been paired
            every = await self.record.games(tournament_id)
            wrong = undone(t, every, round, board, got, how)
            if wrong:
                undo = await self._redo(t, every, wrong, round, board, got, how, by=by, reason=reason,
                                        confirm=confirm)
            else:
                if g.table_id is not None:
                    table = await self._table(g.table_id)
                    if table.status == "active":
                        await self.referee.cancel(g.table_id, by, moderator=True, reason=reason)
                await self.record.settle(tournament_id, round, board, got, how, by=by, reason=reason,
                                         now=self.referee.now(), overwrite=True)
        if wrong:
            if isinstance(undo, Undo) and undo.done:  # the re-paired games' tables, and what follows from them
                undo.progress = await self.sync(tournament_id)
            return undo
        progress = await self.sync(tournament_id) if t.status == "running" else Progress(tournament_id)
        if t.format not in BRACKETS and round < t.round:
            # FIDE's practice (C.04): a correction changes scores, never a pairing already made
            progress.kept_pairings = list(range(round + 1, t.round + 1))
        return progress

    async def _redo(self: _Director, tour: TournamentRow, every: list[GameRow], undone: list[GameRow], round: int, board: int,
                    got: dict[str, float], how: str, *, by: str, reason: str, confirm: bool) -> Undo | Rejection:
        """A bracket correction whose winner played on (under the tournament's lock): without ``confirm`` the
        list of what it undoes (``undone``, by ``_undone``); with it, those tables cancelled (their players told
        why, in the table's language), the correction recorded, and the bracket paired again from the first
        wrong round."""
        first = undone[0].round
        dropped = dropped_after(first, tour.round)
        undo = Undo(tour.id, round, board, undone, first, dropped)
        if tour.status != "running":  # a finished event is not reopened by a correction
            return _reject("undo_finished", tournament=tour.id)
        if not confirm:  # kept in the log: what the organiser was shown, for a confirmation that comes back later
            undo.shown = await self.record.add_log(tour.id, by, "correction_shown", reason, {
                "round": round, "board": board, "points": got, "how": how,
                "undone": [[g.round, g.board, g.players] for g in undo.games]}, self.referee.now())
            return undo
        fixed = [g for g in corrected(every, round, board, got, how) if g not in undone]
        plan = await self._plan(replace(tour, round=first - 1), first, games=fixed) or []
        standing = [frozenset(g.players) for g in fixed if g.round == first]
        fresh = [n for n in plan if frozenset(n.players) not in standing]
        told = t("tournament.correction.cancelled", tour.locale, round=round, board=board)
        for g in undo.games:
            if g.table_id is not None and (await self._table(g.table_id)).status in ("lobby", "active"):
                await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason=told)
        own = next(g for g in every if (g.round, g.board) == (round, board))
        if own.table_id is not None and (await self._table(own.table_id)).status == "active":
            await self.referee.cancel(own.table_id, by, moderator=True, reason=reason)
        try:
            await self.record.redo(tour.id, round, board, got, how, first=first,
                                   removed=[(g.round, g.board) for g in undo.games], fresh=fresh,
                                   deadline=self._deadline(tour) if dropped else None, by=by, reason=reason,
                                   data={"undone": [[g.round, g.board, g.players] for g in undo.games],
                                         "from_round": first}, now=self.referee.now())
        except TournamentRefused:  # another process paired a round meanwhile: the organiser looks again
            return _reject("correction_expired")
        undo.done = True
        return undo

    async def confirm_correction(self: _Director, tournament_id: int, shown: int, *, by: str,
                                 moderator: bool = False) -> Undo | Progress | Rejection:
        """Apply a correction shown to the organiser (``shown``: its dry run's log entry) if it still undoes
        exactly what was shown; a bracket that moved since, or a correction already made, is refused."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        entry = next((e for e in await self.record.log(tournament_id)
                      if e["id"] == shown and e["action"] == "correction_shown"), None)
        if entry is None or t.status != "running":
            return _reject("correction_expired")
        data = entry["data"]
        gone = undone(t, await self.record.games(tournament_id), data["round"], data["board"],
                      data["points"], data["how"])
        if not gone or [[g.round, g.board, g.players] for g in gone] != data["undone"]:
            return _reject("correction_expired")
        return await self._set_result(tournament_id, data["round"], data["board"], data["points"], data["how"],
                                      by=by, reason=entry["reason"], moderator=moderator, confirm=True)

    async def pause_round(self: _Director, tournament_id: int, *, by: str, reason: str | None, resume: bool = False,
                          moderator: bool = False) -> float | Rejection:
        """Stop (or, ``resume``, restart) the clock of the current round: its deadline is put away with the
        time it had left, and given back from now on resuming; logged with the reason.  Returns the time left
        (pausing) or the new deadline (resuming)."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        reason = clean_text(reason)
        async with self.lock(tournament_id):
            now = self.referee.now()
            current = {r.number: r for r in await self.record.rounds(tournament_id)}[t.round]
            paused = [e for e in await self.record.log(tournament_id)
                      if e["action"] in ("round_paused", "round_resumed") and (e["data"] or {}).get("round") == t.round]
            is_paused = bool(paused) and paused[-1]["action"] == "round_paused"
            if resume:
                if not is_paused:
                    return _reject("round_not_paused", round=t.round)
                deadline = now + paused[-1]["data"]["left"]
                await self.record.set_deadline(tournament_id, t.round, deadline)
                await self.record.add_log(tournament_id, by, "round_resumed", reason,
                                          {"round": t.round, "deadline": deadline}, now)
                return deadline
            if is_paused:
                return _reject("round_paused", round=t.round)
            if not reason:
                return _reject("reason_needed")
            if current.deadline is None:
                return _reject("no_deadline", round=t.round)
            left = max(0.0, current.deadline - now)
            await self.record.set_deadline(tournament_id, t.round, None)
            await self.record.add_log(tournament_id, by, "round_paused", reason, {"round": t.round, "left": left}, now)
            return left

    async def _untouched(self: _Director, games: list[GameRow]) -> bool:
        """No one moved at any of these games' tables (the referee's forced moves do not count)."""
        for g in games:
            if g.kind == "table" and g.table_id is not None and any(
                    a.user_id not in REFEREE_MOVES for a in await self.store.actions(g.table_id)):
                return False
        return True

    async def swap(self: _Director, tournament_id: int, a: str, b: str, *, by: str, reason: str | None,
                   moderator: bool = False) -> Progress | Rejection:
        """Exchange two players in the current round's pairing (T-22): only before anyone moved at their
        tables, which are cancelled and made again with the players exchanged; a bye goes with the place.
        Logged with the reason."""
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            games = await self.record.games(tournament_id, t.round)
            where = {p: g for g in games for p in g.players}
            if a == b or a not in where or b not in where or any(
                    where[p].kind == "late" or (where[p].kind == "table" and where[p].settled) for p in (a, b)):
                return _reject("not_swappable", round=t.round)
            touched = {where[a].board: where[a], where[b].board: where[b]}
            if not await self._untouched(list(touched.values())):
                return _reject("round_begun", round=t.round)
            points = self.points(t)
            rewritten = []
            for board, g in touched.items():
                players = [b if p == a else a if p == b else p for p in g.players]
                if g.kind == "table":
                    rewritten.append((board, NewGame("table", players)))
                else:
                    value = next(iter(g.points.values())) if g.points else points.bye
                    rewritten.append((board, NewGame(g.kind, players, {players[0]: value}, g.result)))
            for g in touched.values():
                if g.table_id is not None:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="pairing edited")
            await self.record.rewrite_games(tournament_id, t.round, rewritten, by=by, reason=reason,
                                            data={"round": t.round, "players": [a, b]}, now=self.referee.now())
            progress = Progress(tournament_id, rounds=[])
            progress.tables = await self.materialise(tournament_id)
        return progress

    async def forbid(self: _Director, tournament_id: int, a: str, b: str, *, by: str, reason: str | None,
                     moderator: bool = False) -> bool | Rejection:
        """Two players must not meet in the rounds paired from now on (T-22): Swiss pairs them only where no
        other pairing exists, multi-seat rounds seat them apart where they can.  Logged with the reason."""
        begun = await self._as_organiser_with_reason(tournament_id, by, moderator, reason)
        if isinstance(begun, Rejection):
            return begun
        t, reason = begun
        if t.format not in ("swiss", "multiseat") or t.status not in ("registration", "running"):
            return _reject("no_forbid", tournament=tournament_id)
        entered = {e.user_id for e in await self.record.entries(tournament_id)}
        if a == b or a not in entered or b not in entered:
            return _reject("not_entered")
        await self.record.add_log(tournament_id, by, "forbid", reason, {"players": sorted([a, b])},
                                  self.referee.now())
        return True

    async def repair(self: _Director, tournament_id: int, *, by: str, moderator: bool = False,
                     reason: str | None = None) -> Progress | Rejection:
        """Pair the latest round again (after removing a player, say): only before anyone moved at any of
        its tables.  Its tables are cancelled and new ones made; the new lot differs from the old."""
        t = await self._as_organiser(tournament_id, by, moderator)
        if isinstance(t, Rejection):
            return t
        if t.status != "running":
            return _reject("closed", tournament=tournament_id)
        async with self.lock(tournament_id):
            games = await self.record.games(tournament_id, t.round)
            for g in games:
                if g.kind == "table" and (g.settled or g.table_id is not None and any(
                        a.user_id not in REFEREE_MOVES for a in await self.store.actions(g.table_id))):
                    return _reject("round_begun", round=t.round)
            for g in games:
                if g.table_id is not None:
                    await self.referee.cancel(g.table_id, SYSTEM, moderator=True, reason="re-paired")
            attempt = sum(1 for entry in await self.record.log(tournament_id)
                          if entry["action"] == "repair" and (entry["data"] or {}).get("round") == t.round) + 1
            now = self.referee.now()
            await self.record.drop_round(tournament_id, t.round, by=by, reason=clean_text(reason), now=now)
            for tries in range(PAIRING_TRIES):
                plan = await self._plan(replace(t, round=t.round - 1), t.round, attempt) or []  # the round exists
                try:
                    await self.record.add_round(tournament_id, t.round, plan, deadline=self._deadline(t), now=now)
                    break
                except TournamentRefused as refused:  # a player dropped meanwhile (another process)
                    if refused.reason != "entries_changed" or tries == PAIRING_TRIES - 1:
                        return _reject("paired", tournament=tournament_id)
            progress = Progress(tournament_id, rounds=[t.round])
            progress.tables = await self.materialise(tournament_id)
        return progress
