"""Disputes: a player raises one about a move, a moderator settles it from the record, the table hears why.

**Raise.**  A seated player names a move by its public number (bot/referee/moves.py), says what is wrong (bounded
text) and may keep that text from the table (``private``).  The table hears that a dispute is open.  A move
may be disputed while the table's window lasts (``tables.dispute_window``): by default until the disputing
player's next move after it (the Raiders book's «до следующего хода»), or while at most N moves followed it,
or never ('off').  The game goes on meanwhile.

**Decide.**  A moderator, from the evidence (bot/render/disputes.py), with a reason:

- *uphold*: where the game settles such a dispute itself (``Game.upholding``: Raiders' judge-assisted card
  still waiting in the window, in the table's mode, "the card does not work" or "the step is rolled back"), its
  own moderator step; otherwise the table returns to right before the move (a rollback);
- *reject*: the move stands;
- *amend*: the table returns to right before the move and the moderator's correction, an action for the seat
  that made the move, is applied instead.

Every step is an action of seat -1 in the record (bot/referee/moderation.py ``rollback_step`` / ``moderator_step``),
written in one transaction with the decision, the moderation log and the table's notice, so a crash loses
nothing, replay applies the same steps and ``verify`` confirms the table.  A decision may also leave a
server-level ruling note on a rule id, shown wherever that rule is cited again on that server.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import Code, Game, Rejection, get_game
from bot.engine.versions import CannotMigrate, readable
from bot.engine.free_text import clean_name, clean_text
from bot.referee.moderation import behind, moderator_step, rollback_step
from bot.referee.moves import Moves
from bot.referee.seated import is_seated
from bot.referee.service import AUTO, Referee
from bot.referee.windowprefs import PREFERENCE
from bot.referee.steps import MODERATOR_SEAT, SYSTEM, messages_for, moderators_notice, next_deadline
from bot.referee.typed import parse_typed
from bot.storage.store import (ActionRow, DisputeClosed, DisputeRefused, DisputeRow, Message, ServerRuling, Step,
                               VersionConflict)
from bot.storage.rows import known

KINDS = ("uphold", "reject", "amend")
STATUS = {"uphold": "upheld", "reject": "rejected", "amend": "amended"}
TEXT_MAX = 500          # what a player writes about a move
MOST_OPEN = 3           # open disputes one player may have at one table
RULE_MAX = 40           # a rule id or paragraph ("GW-11", "§3.2", "Захват")
AROUND = 3              # log moves shown before and after the disputed one, as the players read them
NO_SERVER = ""          # the server key of tables that belong to none (the terminal)


def _reject(code: str, key: str, **params: Any) -> Rejection:
    return Rejection(code, key, params)


def server_of(guild_id: str | None) -> str:
    return guild_id or NO_SERVER


# ---------------------------------------------------------------------------------------------- raising
def window_closed(played: Moves, seats_by_version: dict[int, int], version: int, mine: list[int],
                  window: str) -> int | None:
    """The public number of the move that closed the window for disputing the move at ``version``, or None
    while it is open.  ``seats_by_version``: the seat that made each recorded action; ``mine``: the disputing
    player's seats."""
    after = [m for m in played.in_play() if m.version > version]
    if window == "next_move":
        return next((m.number for m in after if seats_by_version.get(m.version) in mine), None)
    return after[int(window)].number if len(after) > int(window) else None


async def raise_dispute(referee: Referee, table_id: int, user_id: str, *, move: int, text: str,
                        private: bool = False) -> DisputeRow | Rejection:
    store = referee.store
    table = await store.get_table(table_id)
    if table is None:
        return _reject(Code.NOT_FOUND, "core.reject.no_table", table=table_id)
    if table.status == "lobby":
        return _reject(Code.ILLEGAL, "core.reject.not_started", table=table_id)
    if table.status != "active":
        return _reject(Code.GAME_OVER, "disputes.reject.table_over", table=table_id)
    mine = referee.seats_of(await store.seats(table_id), user_id)
    if not mine:
        return _reject(Code.NOT_A_PLAYER, "disputes.reject.not_seated", table=table_id)
    if table.dispute_window == "off":
        return _reject(Code.FORBIDDEN, "disputes.reject.off", table=table_id)
    said = clean_text(text, limit=TEXT_MAX)
    if said is None:
        return _reject(Code.MALFORMED, "disputes.reject.empty")
    async with referee.lock(table_id):
        played = Moves(await referee.history(table_id))  # public events only: the numbers players see
        version = played.version_of(move) if move >= 1 else None
        if version is None:
            return _reject(Code.ILLEGAL, "disputes.reject.no_move", move=move, latest=played.latest)
        # only the players' own decisions close a window: never a step the referee took for a seat (a forced
        # roll, a timeout), which would close it before the player could say a word
        seats_by_version = {a.version: a.seat for a in await store.actions(table_id)
                            if a.user_id not in (AUTO, SYSTEM, PREFERENCE)}
        closed_by = window_closed(played, seats_by_version, version, mine, table.dispute_window)
        if closed_by is not None:
            key = "disputes.reject.window_next" if table.dispute_window == "next_move" else "disputes.reject.window_moves"
            return _reject(Code.ILLEGAL, key, move=move, closed_by=closed_by, moves=table.dispute_window)

        def notice(dispute_id: int) -> list[Message]:
            told = [Message("table", "dispute", {"dispute": {
                "id": dispute_id, "event": "raised", "move": move, "by": user_id,
                "text": None if private else said}})]
            if table.guild_id is not None:  # the server's moderators are told too (docs/discord.md)
                told.append(moderators_notice("dispute", dispute=dispute_id, move=move, by=user_id,
                                              text=None if private else said))
            return told

        try:
            dispute_id = await store.raise_dispute(table_id, user_id=user_id, seat=mine[0], move=move,
                                                   version=version, text=said, private=private, at=referee.now(),
                                                   notice=notice, most_open=MOST_OPEN)
        except DisputeRefused as refused:  # a move is disputed once per player (docs/discord.md, /dispute)
            return _reject(Code.ILLEGAL, f"disputes.reject.{refused.reason}", move=move, most=MOST_OPEN,
                           status=refused.status or "")
    referee.changed.set()
    return known(await store.dispute(dispute_id), f"dispute {dispute_id}")


# ---------------------------------------------------------------------------------------------- evidence
@dataclass(frozen=True)
class LogMove:
    """One step of the public log as players read it: its number (a rollback: the move returned to), its public
    events, and whether a rollback undid it and whether it is the disputed one."""

    number: int | None
    kind: str
    events: list[dict[str, Any]]
    undone: bool = False
    disputed: bool = False


def log_around(played: Moves, version: int, radius: int = AROUND) -> list[LogMove]:
    """The public log's steps around the one at ``version``: ``radius`` before and after it (public events only,
    so a notice in a channel may show them)."""
    shown = [e for e in played.entries if e.kind in ("move", "rollback", "upgrade")]
    at = next((i for i, e in enumerate(shown) if e.version == version), None)
    if at is None:
        return []
    return [LogMove(e.number, e.kind, [ev for ev in e.events if ev.get("to") is None], e.undone, e.version == version)
            for e in shown[max(0, at - radius):at + radius + 1]]


async def disputed_move(referee: Referee, table_id: int, version: int) -> LogMove | None:
    """The disputed move as the table's log shows it (the moderators' notice names it in words)."""
    found = log_around(Moves(await referee.history(table_id)), version, radius=0)
    return found[0] if found else None


def distinct_actions(game: Game, state: dict[str, Any], seat: int, actions: list[dict[str, Any]],
                     names: list[str]) -> list[dict[str, Any]]:
    """``actions`` without the ones a moderator could not tell apart (two copies of one card): the first of each
    label kept, in order.  Labels are compared in two languages, so a difference either of them shows stays."""
    seen, kept = set(), []
    for action in actions:
        key = tuple(game.describe_action(state, seat, action, locale, names) for locale in ("ru", "en"))
        if key not in seen:
            seen.add(key)
            kept.append(action)
    return kept


@dataclass(frozen=True)
class Evidence:
    """What a moderator reads before deciding: everything about the disputed move, hidden parts included."""

    dispute: DisputeRow
    game: Game
    names: list[str]
    guild_id: str
    action: ActionRow                 # the recorded action that made the move
    before: dict[str, Any]            # the state it was applied to
    after: dict[str, Any]             # the state it produced
    events: list[dict[str, Any]]      # its events, each with ``to`` (who could see it)
    rules: list[str]                  # the rules and rulings the engine cited in them
    notes: list[ServerRuling]         # this server's ruling notes on those rules
    in_play: bool                     # not undone by a later rollback
    upholding: dict[str, Any] | None  # the game's own step an uphold would take now (else a rollback)
    corrections: list[dict[str, Any]]  # what the move's seat could have done instead (an amend picks one)
    release: str | None = None        # what the table was started under and plays by (bot/referee/upgrade.py)
    started_rules: int | None = None
    rules_version: int = 1
    older: bool = False               # the move was made under older rules (before an upgrade)
    shown_before: dict[str, Any] | None = None  # ``before`` / ``after`` as today's rules read them, to show
    shown_after: dict[str, Any] | None = None
    around: list[LogMove] = field(default_factory=list)  # the public log near the move, the disputed one marked

    @property
    def seat(self) -> int:
        """The seat that made the move (for a correction of a correction: the seat it was made for)."""
        return self.action.action.get("seat", -1) if self.action.seat == MODERATOR_SEAT else self.action.seat


async def evidence(referee: Referee, dispute_id: int) -> Evidence | Rejection:
    store = referee.store
    dispute = await store.dispute(dispute_id)
    if dispute is None:
        return _reject(Code.NOT_FOUND, "disputes.reject.no_dispute", dispute=dispute_id)
    table = known(await store.get_table(dispute.table_id), f"table {dispute.table_id}")
    game = get_game(table.game)
    action = next(a for a in await store.actions(table.id) if a.version == dispute.version)
    before = await store.known_state(table.id, dispute.version - 1)
    events = [{"version": e.version, **e.as_event()} for e in await store.events(table.id, since=dispute.version)
              if e.version == dispute.version]
    rules = list(dict.fromkeys(str(cite) for e in events for cite in (e["data"].get("rule"), e["data"].get("ruling"))
                               if cite))
    notes = [n for rule in rules for n in await store.server_rulings(server_of(table.guild_id), rule=rule)]
    current = await store.known_state(table.id)
    public = [e for e in events if e["to"] is None]
    after = await store.known_state(table.id, dispute.version)
    older = behind(game, before)
    shown: tuple[dict[str, Any] | None, dict[str, Any] | None]
    try:  # a move made before an upgrade: its two tables shown as today's rules read them
        shown = readable(game, before), readable(game, after)
    except CannotMigrate:
        shown = None, None
    played = Moves(await referee.history(table.id))
    names = [s.name for s in await store.seats(table.id)]
    found = Evidence(dispute, game, names, server_of(table.guild_id),
                     action, before, after, events, rules, notes,
                     dispute.version not in played.undone_versions(),
                     game.upholding(current, public) if table.status == "active" else None, [],
                     table.release, table.started_rules, table.rules_version, older,
                     shown_before=shown[0], shown_after=shown[1],
                     around=log_around(played, dispute.version))
    if 0 <= found.seat < before["seats"] and not older:  # no corrections under rules no engine here plays
        return replace(found, corrections=distinct_actions(game, before, found.seat,
                                                           game.legal_actions(before, found.seat), names))
    return found


# ---------------------------------------------------------------------------------------------- deciding
async def decide(referee: Referee, dispute_id: int, *, moderator: str, kind: str, reason: str | None,
                 correction: dict[str, Any] | None = None, reopen: bool = False,
                 note_rule: str | None = None) -> DisputeRow | Rejection:
    """Settle an open dispute (see the module docstring).  ``correction``: the action an amend applies for the
    move's seat.  ``reopen``: a finished table may be reopened by an uphold or an amend (its seed is public:
    the players could then compute every hidden card).  ``note_rule``: keep the reason as this server's ruling
    note on that rule."""
    store = referee.store
    reason = clean_text(reason)
    if kind not in KINDS:
        return _reject(Code.MALFORMED, "disputes.reject.bad_kind", kind=clean_name(kind, limit=20))
    if reason is None:
        return _reject(Code.MALFORMED, "disputes.reject.no_reason")
    if kind == "amend" and not isinstance(correction, dict):
        return _reject(Code.MALFORMED, "disputes.reject.no_correction")
    rule = clean_name(note_rule, limit=RULE_MAX, fallback="") if note_rule is not None else None
    if note_rule is not None and not rule:
        return _reject(Code.MALFORMED, "disputes.reject.bad_rule")
    found = await evidence(referee, dispute_id)
    if isinstance(found, Rejection):
        return found
    dispute = found.dispute
    if await is_seated(referee, dispute.table_id, moderator):  # a player there (bot/referee/oversight.py)
        return _reject(Code.FORBIDDEN, "disputes.reject.own_table", table=dispute.table_id)
    async with referee.lock(dispute.table_id):
        dispute = known(await store.dispute(dispute_id), f"dispute {dispute_id}")
        if dispute.status != "open":
            return _reject(Code.ILLEGAL, "disputes.reject.decided", dispute=dispute_id, status=dispute.status)
        table = known(await store.get_table(dispute.table_id), f"table {dispute.table_id}")
        game = found.game
        steps: list[Step] = []
        decision: dict[str, Any] = {"kind": kind, "move": dispute.move}
        if kind != "reject":
            refused = _may_change(table.status, found.in_play, reopen, table.id, dispute.move)
            if refused is not None:
                return refused
            now = referee.now()
            state = await store.known_state(table.id)
            own = game.upholding(state, [e for e in found.events if e["to"] is None]) \
                if kind == "uphold" and table.status == "active" else None
            if own is not None:
                made = _applied_step(game, state, {"type": "uphold", "action": own}, moderator, now,
                                     {"dispute": dispute_id, "by": moderator})
                decision["mode"] = "game"
            else:
                played = Moves(await referee.history(table.id))
                back = rollback_step(game, found.before, table_version=table.version, to_version=dispute.version - 1,
                                     to_move=played.number_at(dispute.version - 1), moderator=moderator,
                                     reason=reason, at=now)
                made = [back]
                decision["mode"] = "rollback"
                if kind == "amend" and found.older:  # no engine of this release plays the move's rules
                    return _reject(Code.ILLEGAL, "upgrade.reject.amend_older", move=dispute.move)
                if kind == "amend":
                    amend = {"type": "amend", "seat": found.seat, "action": correction}
                    step = _applied_step(game, back.state, amend, moderator, now,
                                         {"dispute": dispute_id, "by": moderator})
                    made = step if isinstance(step, Rejection) else [back, *step]
                    decision.update(mode="amend", correction=correction, seat=found.seat)
            if isinstance(made, Rejection):
                return made
            steps = made
            decision["steps"] = [table.version + i + 1 for i in range(len(steps))]
        if rule:
            decision["note"] = rule
        notice = Message("table", "dispute", {"dispute": {
            "id": dispute_id, "event": "decided", "kind": kind, "mode": decision.get("mode"), "move": dispute.move,
            "by": moderator, "reason": reason, "note": rule}})
        try:
            await store.decide_dispute(dispute_id, status=STATUS[kind], moderator=moderator, reason=reason,
                                       decision=decision, at=referee.now(), expected_version=table.version,
                                       steps=steps, notice=notice)
        except VersionConflict:
            return _reject(Code.STALE, "core.reject.stale")
        except DisputeClosed:
            return _reject(Code.ILLEGAL, "disputes.reject.decided", dispute=dispute_id, status="?")
        if rule:
            await store.add_server_ruling(found.guild_id, rule=rule, text=reason, moderator=moderator,
                                          dispute_id=dispute_id, at=referee.now())
        if steps and behind(game, steps[-1].state):  # back before an upgrade: brought forward again at once
            from bot.referee.upgrade import upgrade_table
            await upgrade_table(store, table.id, now=referee.now())
            referee.forget(table.id)
        if steps:
            await referee.take_forced_moves(table.id)
    referee.changed.set()
    return known(await store.dispute(dispute_id), f"dispute {dispute_id}")


def _may_change(status: str, in_play: bool, reopen: bool, table_id: int, move: int) -> Rejection | None:
    """Why an uphold or an amend may not touch the table now, or None."""
    if status not in ("active", "finished"):
        return _reject(Code.ILLEGAL, "core.reject.table_closed", table=table_id)
    if status == "finished" and not reopen:
        return _reject(Code.ILLEGAL, "core.reject.reopen_revealed", table=table_id)
    if not in_play:
        return _reject(Code.ILLEGAL, "disputes.reject.undone", move=move)
    return None


def _applied_step(game: Game, state: dict[str, Any], action: dict[str, Any], moderator: str, at: float,
                  marker: dict[str, Any]) -> list[Step] | Rejection:
    """A moderator's correction or upholding step as recorded: the engine's events, and the referee's public
    marker naming the moderator and the dispute (so the log shows whose step it was)."""
    result = moderator_step(game, state, action, at)
    if isinstance(result, Rejection):
        return result
    new = result.state
    events = [*result.events, {"kind": "amended" if action["type"] == "amend" else "upheld", "to": None,
                               "data": marker}]
    outcome = new.get("outcome")
    messages = messages_for(game, new, events, kind="finish" if outcome is not None else "update",
                            extra={"by": MODERATOR_SEAT, "auto": False})
    return [Step(MODERATOR_SEAT, moderator, action, at, new, events, messages, next_deadline(game, new), outcome)]


async def parse_correction(referee: Referee, dispute_id: int, typed: str, *,
                           moderator: str | None = None) -> dict[str, Any] | Rejection:
    """A correction as a moderator types it: JSON, a number from the move's alternatives, or a label — read
    against the position before the disputed move, for the seat that made it.  Refused to a ``moderator``
    seated at the table before it is read: its refusals would tell them about the hidden position."""
    found = await evidence(referee, dispute_id)
    if isinstance(found, Rejection):
        return found
    if moderator is not None and await is_seated(referee, found.dispute.table_id, moderator):
        return _reject(Code.FORBIDDEN, "disputes.reject.own_table", table=found.dispute.table_id)
    if not 0 <= found.seat < found.before["seats"]:
        return _reject(Code.ILLEGAL, "disputes.reject.no_correction")
    number = typed.strip().lstrip("#№")
    if number.isdigit() and 1 <= int(number) <= len(found.corrections):  # numbered as the evidence lists them
        return found.corrections[int(number) - 1]
    return parse_typed(found.game, found.before, found.seat, typed, found.names)


# ---------------------------------------------------------------------------------------------- server notes
async def rulings(referee: Referee, guild_id: str | None, rules: list[str] | None = None) -> list[ServerRuling]:
    """A server's ruling notes: all, or those on the given rules (the rules a refusal or an event cites)."""
    server = server_of(guild_id)
    if rules is None:
        return await referee.store.server_rulings(server)
    return [n for rule in dict.fromkeys(rules) for n in await referee.store.server_rulings(server, rule=rule)]
