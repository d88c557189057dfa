"""Moderators' tools: read everything, roll a table back, record a ruling.

A rollback never rewrites the record.  It appends a moderator action (seat -1, ``{"type": "rollback",
"to": v}``) whose resulting state is the state after version ``v``, renumbered to the next version; the
actions after ``v`` stay in the record, and every old button becomes stale because versions only grow.
Replay and verification understand this action (bot/referee/record.py), and the two other moderator steps a dispute's
decision may record (bot/referee/disputes.py, ``moderator_step``): a correction and a game's own upholding step.

Players and Discord moderators name the position by its public move number (bot/referee/moves.py: versions also
count private steps, which players must not be able to count); the terminal's operator may still give a
version.  The rollback, the ruling and the cancellation are announced at the table naming the moderator
(their user key, ``by``) and the reason.

Every step here is refused to a moderator seated at the table (bot/referee/oversight.py ``may_decide``):
there they are a player, and another moderator decides.
"""
from __future__ import annotations

from typing import Any

from bot.engine import Applied, Code, Game, Rejection, clone, get_game
from bot.engine.versions import CannotMigrate, rules_of
from bot.engine.free_text import clean_text
from bot.referee.moves import Moves
from bot.referee.seated import may_decide
from bot.referee.service import Accepted, Referee
from bot.referee.steps import MODERATOR_SEAT, messages_for, next_deadline
from bot.referee.timecontrol import forfeit
from bot.storage.clocks import Clocks
from bot.storage.outbox import lean
from bot.storage.store import Message, Step, VersionConflict

def rollback_state(target: dict[str, Any], new_version: int) -> dict[str, Any]:
    """The state a rollback to ``target`` produces (shared with replay, so both agree byte for byte)."""
    state = clone(target)
    state["version"] = new_version
    return state


def rollback_step(game: Game, target: dict[str, Any], *, table_version: int, to_version: int, to_move: int,
                  moderator: str, reason: str | None, at: float) -> Step:
    """The recorded step of a rollback from ``table_version`` back to ``target`` (the state after ``to_version``,
    right after the public move ``to_move``): announced at the table, every seat shown its own view again."""
    state = rollback_state(target, table_version + 1)
    told = {"to": to_version, "move": to_move, "reason": reason, "by": moderator}
    event = {"kind": "rollback", "to": None, "data": told}
    # the announcement's own line tells the rollback: its event is not listed again
    messages = messages_for(game, state, [], kind="update", extra={"rollback": told, "events": []})
    # every seat gets its own view again: hands may differ from what they last saw
    messages += [Message("seat", "private", lean(state["version"]), seat=seat) for seat in range(state["seats"])]
    # a state of older rules (before an upgrade) is brought forward by the upgrade step that follows at once
    deadline = next_deadline(game, state) if not behind(game, state) else None
    return Step(MODERATOR_SEAT, moderator, {"type": "rollback", "to": to_version}, at, state, [event], messages,
                deadline, state.get("outcome"))


def behind(game: Game, state: dict[str, Any]) -> bool:
    """Whether ``state`` was written under older (or unknown) rules than the game's today (bot/referee/upgrade.py)."""
    try:
        return rules_of(state) != game.rules_version
    except CannotMigrate:
        return True


def moderator_step(game: Game, state: dict[str, Any], action: dict[str, Any], at: float) -> Applied | Rejection:
    """A moderator's step other than a rollback, applied to ``state`` — the same code live and in replay, so
    both agree: ``{"type": "amend", "seat": s, "action": a}`` is a correction, the action ``a`` a moderator
    entered for seat ``s``; ``{"type": "uphold", "action": a}`` the game's own step upholding a dispute
    (``Game.upholding``); ``{"type": "forfeit", "seats": [...]}`` those seats losing on time."""
    kind = action.get("type")
    if kind == "amend":
        return game.apply(state, action.get("seat", -1), action.get("action"), now=at)  # -1: apply refuses it
    if kind == "uphold":
        return game.moderate(state, action.get("action"), now=at)
    if kind == "forfeit" and isinstance(action.get("seats"), list) and action["seats"] \
            and state.get("outcome") is None:  # the time control's expiry (bot/referee/timekeeper.py)
        return Applied(*forfeit(state, action["seats"]))
    return Rejection(Code.MALFORMED, "core.reject.malformed")


async def rollback(referee: Referee, table_id: int, to_version: int | None = None, *, move: int | None = None,
                   moderator: str, reason: str | None, reopen: bool = False) -> Accepted | Rejection:
    """Return the table to ``to_version``, or to the position right after the public move ``move`` in play
    (0: the start).  By move number at least one move must be undone: returning to the latest move would
    undo only private steps, and the announcement would tell the table that there were some.

    A finished table's seed has been published, and the restored state draws from the same generator:
    every player could compute the hidden cards of the reopened game.  So a finished table is reopened only
    when the moderator says so (``reopen``), knowing that."""
    store = referee.store
    reason = clean_text(reason)
    async with referee.lock(table_id):
        table = await store.get_table(table_id)
        if table is None:
            return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
        refused = await may_decide(referee, table_id, moderator)
        if refused is not None:
            return refused
        if table.status == "lobby":
            return Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id})
        if table.status not in ("active", "finished"):
            return Rejection(Code.ILLEGAL, "core.reject.table_closed", {"table": table_id})
        if table.status == "finished" and not reopen:
            return Rejection(Code.ILLEGAL, "core.reject.reopen_revealed", {"table": table_id})
        played = Moves(await referee.history(table_id))  # public events only: see bot/referee/moves.py
        if move is not None:
            if played.latest == 0:
                return Rejection(Code.ILLEGAL, "moderation.reject.no_moves", {"table": table_id})
            if not 0 <= move < played.latest:
                key = "moderation.reject.latest_move" if move == played.latest else "moderation.reject.no_move"
                return Rejection(Code.ILLEGAL, key, {"table": table_id, "move": move, "latest": played.latest,
                                                     "last": played.latest - 1})
            to_version = played.version_of(move)
        if to_version is None or not 0 <= to_version < table.version:
            return Rejection(Code.ILLEGAL, "core.reject.bad_rollback", {"to": to_version, "version": table.version})
        to_move = played.number_at(to_version)
        game = get_game(table.game)
        step = rollback_step(game, await store.known_state(table_id, to_version), table_version=table.version,
                             to_version=to_version, to_move=to_move, moderator=moderator, reason=reason,
                             at=referee.now())
        try:
            await store.record_step(table_id, table.version, step)
        except VersionConflict:
            return Rejection(Code.STALE, "core.reject.stale")
        await store.add_moderation(table_id, moderator, "rollback", reason, {"to": to_version, "move": to_move,
                                                                            "from": table.version}, step.at)
        if behind(game, step.state) or table.frozen is not None:
            # back before an upgrade (or at a frozen table): today's rules take the table on again at once, or
            # it stays frozen, said again (bot/referee/upgrade.py)
            from bot.referee.upgrade import upgrade_table
            await upgrade_table(store, table_id, now=referee.now())
            referee.forget(table_id)
    referee.changed.set()
    return Accepted(table_id, step.state["version"], MODERATOR_SEAT, step.events, finished=step.outcome is not None)


async def ruling(referee: Referee, table_id: int, *, moderator: str, text: str) -> bool | Rejection:
    """Record a moderator's ruling and announce it at the table."""
    store = referee.store
    said = clean_text(text)
    table = await store.get_table(table_id)
    if table is None:
        return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
    refused = await may_decide(referee, table_id, moderator)
    if refused is not None:
        return refused
    if said is None:
        return Rejection(Code.MALFORMED, "core.reject.empty_ruling", {"table": table_id})
    await store.add_moderation(table_id, moderator, "ruling", said, None, referee.now())
    await store.enqueue(table_id, table.version, [Message("table", "ruling", {"text": said, "by": moderator})],
                        referee.now())
    referee.changed.set()
    return True


async def pause(referee: Referee, table_id: int, *, moderator: str, reason: str | None) -> bool | Rejection:
    """Stop a table: every action is refused (naming the moderator and the reason) and no deadline runs out
    until ``resume``.  Logged, and told at the table."""
    reason = clean_text(reason)
    if reason is None:
        return Rejection(Code.MALFORMED, "clock.reject.no_reason", {"table": table_id})
    async with referee.lock(table_id):
        table = await referee.store.get_table(table_id)
        if table is None:
            return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
        refused = await may_decide(referee, table_id, moderator)
        if refused is not None:
            return refused
        notice = Message("table", "clock", {"what": "paused", "by": moderator, "reason": reason})
        if not await Clocks(referee.store).pause(table_id, by=moderator, reason=reason, at=referee.now(),
                                                 notice=notice):
            key = "clock.reject.already_paused" if table.paused_at is not None else "core.reject.table_closed"
            return Rejection(Code.ILLEGAL, key, {"table": table_id})
        referee.forget(table_id)
        await referee.timekeeper.settle(table_id)
    referee.changed.set()
    return True


async def resume(referee: Referee, table_id: int, *, moderator: str, reason: str | None = None) -> bool | Rejection:
    """Let a paused table play on: every running deadline (the engine's and the time control's) moves on by
    the time it stood paused."""
    async with referee.lock(table_id):
        table = await referee.store.get_table(table_id)
        if table is None:
            return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
        refused = await may_decide(referee, table_id, moderator)
        if refused is not None:
            return refused
        if table.paused_at is None:
            return Rejection(Code.ILLEGAL, "clock.reject.not_paused", {"table": table_id})
        now = referee.now()
        state = await referee.store.known_state(table_id)
        engine_deadline = next_deadline(get_game(table.game), state)
        # "every deadline moved on" is said only where a deadline runs: a time control or the game's own timer
        notice = Message("table", "clock", {"what": "resumed", "by": moderator, "reason": clean_text(reason),
                                            "paused": round(now - table.paused_at),
                                            "timed": table.time_control is not None or engine_deadline is not None})
        if not await Clocks(referee.store).resume(table_id, by=moderator, reason=clean_text(reason), at=now,
                                                  notice=notice, next_deadline=engine_deadline):
            return Rejection(Code.ILLEGAL, "clock.reject.not_paused", {"table": table_id})
        referee.forget(table_id)
        await referee.timekeeper.settle(table_id)
    referee.changed.set()
    return True


async def cancel(referee: Referee, table_id: int, *, moderator: str, reason: str | None) -> bool | Rejection:
    """A moderator cancels a table (lobby or game).  At a table where they are seated they are a player: they
    cancel it only as its creator, as any creator may, and are refused otherwise."""
    table = await referee.store.get_table(table_id)
    if table is not None and table.creator != moderator:
        refused = await may_decide(referee, table_id, moderator)
        if refused is not None:
            return refused
    return await referee.cancel(table_id, moderator, moderator=True, reason=reason)
