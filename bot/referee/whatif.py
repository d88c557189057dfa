"""A moderator's "what if": another legal move tried at any stored step of a table, on a scratch copy.

The stored state at a version (read by today's rules, bot/engine/versions.py) is copied into memory; a moderator
plays moves there by hand (typed as at the table: a number from the list, a label, or JSON, bot/referee/typed.py)
and may let the built-in bots play on (bot/engine/playout.py), for some moves or to the end.  Nothing of the real
table is written: not an action, a snapshot, an event or an outbox row — only the moderation log's row of the look
(bot/referee/oversight.py ``may_look``, ``what: whatif``), which is also where a moderator seated at the table is
refused.  The log keeps where the trial started and how many moves were tried, never the moves themselves: they
may name hidden cards, and the log is to say who looked, not what is hidden.

The scratch copy plays by the engine's rules alone, with the table's own random source, so it draws what the
table would have drawn.  Its clock advances a second per move, so no deadline passes in it: the bots always
move (never time out), and the table's time control, pause and forced moves are not simulated.
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from typing import Any, Sequence

from bot.engine import Code, Game, Rejection, get_game
from bot.engine.contract import Applied
from bot.engine.versions import CannotMigrate, readable
from bot.referee.moves import Moves
from bot.referee.oversight import may_look
from bot.referee.service import Referee
from bot.referee.typed import parse_typed
from bot.storage.store import TableRow

WHAT = "whatif"           # the moderation log's ``what`` of a trial's look
HAND_SECONDS = 1.0        # the scratch clock's step for a move made by hand
BOT_SECONDS = 1.0         # and for a bot's move


@dataclass(frozen=True)
class Tried:
    """One move of a trial: who made it, what, when (the scratch clock), the events, and by whom it was chosen."""

    seat: int
    action: dict[str, Any]
    at: float
    events: list[dict[str, Any]]
    by_bot: bool
    before: dict[str, Any] | None = None   # the position it was made in (kept for the moves made by hand: labels)


@dataclass(frozen=True)
class Trial:
    table: TableRow
    game: Game
    names: list[str]
    version: int                 # the stored step the trial starts from
    move: int                    # the public move number the table stood after there
    state: dict[str, Any]        # the scratch position now (at first: the stored state, read by today's rules)
    now: float                   # the scratch clock
    tried: tuple[Tried, ...] = ()
    cut: bool = False            # the bots stopped at their bound before an outcome
    bot_seed: int = 0            # varies the bots' choices (the same seed: the same playout)

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.state.get("outcome")

    def offers(self) -> list[tuple[int, dict[str, Any]]]:
        """Every legal move now, as (seat, action): the seats owing a decision in the engine's order, each seat's
        actions in the engine's order.  Numbered from 1, this is the list a typed number picks from."""
        return offers(self.game, self.state)


def offers(game: Game, state: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    seats = list(dict.fromkeys(p.seat for p in game.to_act(state)))
    return [(s, a) for s in seats for a in game.legal_actions(state, s)]


async def position(referee: Referee, table_id: int, *, version: int | None = None, move: int | None = None,
                   bot_seed: int = 0) -> Trial | Rejection:
    """The scratch copy of ``table_id`` at stored ``version`` (default: the latest), or right after public ``move``
    (0: the start, as ``mod rollback --move``), read by today's rules.  Not a look by itself: ``open_trial`` is
    the moderator's (checked and logged); this is for what only lists the moves there to that moderator."""
    store = referee.store
    table = await store.get_table(table_id)
    if table is None:
        return Rejection(Code.NOT_FOUND, "core.reject.no_table", {"table": table_id})
    if table.status == "lobby" or await store.state(table_id, 0) is None:
        return Rejection(Code.ILLEGAL, "core.reject.not_started", {"table": table_id})
    played = Moves(await referee.history(table_id))
    if move is not None:
        version = played.version_of(move)
        if version is None:
            return Rejection(Code.ILLEGAL, "whatif.reject.no_move", {"move": move, "latest": played.latest})
    version = table.version if version is None else version
    state = await store.state(table_id, version) if 0 <= version <= table.version else None
    if state is None:
        return Rejection(Code.ILLEGAL, "whatif.reject.no_version", {"version": version, "latest": table.version})
    game = get_game(table.game)
    try:
        state = readable(game, state)
    except CannotMigrate:
        return Rejection(Code.ILLEGAL, "whatif.reject.older", {"table": table_id, "version": version})
    actions = await store.actions(table_id)
    at = next((a.at for a in actions if a.version == version), None)
    if at is None:
        at = table.started_at if table.started_at is not None else table.created_at
    names = [s.name for s in await store.seats(table_id)]
    return Trial(table, game, names, version, played.number_at(version), state, at, bot_seed=bot_seed)


async def open_trial(referee: Referee, table_id: int, *, moderator: str, version: int | None = None,
                     move: int | None = None, logged: dict[str, Any] | None = None) -> Trial | Rejection:
    """``position`` for ``moderator``: refused to one seated at the table, and logged (with ``logged``)."""
    trial = await position(referee, table_id, version=version, move=move)
    if isinstance(trial, Rejection):
        return trial
    refused = await may_look(referee, table_id, moderator, WHAT, {"version": trial.version, **(logged or {})})
    return refused or trial


def pick(trial: Trial, text: str, *, seat: int | None = None) -> tuple[int, dict[str, Any]] | Rejection:
    """The move a moderator typed for the scratch position: a number from ``offers`` (or, with ``seat``, from that
    seat's own list), a label or JSON for the seat given or for the one seat that can make it."""
    game, state = trial.game, trial.state
    if state.get("outcome") is not None:
        return Rejection(Code.GAME_OVER, "core.reject.game_over")
    if seat is not None and not 0 <= seat < state["seats"]:
        # seats counted from 0, as the terminal names them (``--seat``, the one front end that gives one)
        return Rejection(Code.NOT_A_PLAYER, "core.cli.no_such_seat", {"seat": seat, "last": state["seats"] - 1})
    listed = trial.offers()
    text = text.strip()
    if seat is None and text.isdigit():
        n = int(text)
        if 1 <= n <= len(listed):
            return listed[n - 1]
        return Rejection(Code.ILLEGAL, "core.reject.no_such_choice", {"n": n, "count": len(listed)})
    seats = [seat] if seat is not None else list(dict.fromkeys(s for s, _ in listed))
    first: Rejection | None = None
    for s in seats:
        action = parse_typed(game, state, s, text, trial.names)
        if isinstance(action, Rejection):
            first = first or action
            continue
        applied = game.apply(state, s, action, now=trial.now + HAND_SECONDS)
        if isinstance(applied, Rejection):
            first = first or applied
            continue
        return s, action
    return first or Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")


def play(trial: Trial, seat: int, action: dict[str, Any]) -> Trial | Rejection:
    """The trial with ``seat``'s ``action`` made by hand; the engine's refusal (with its rule) if it is not legal."""
    now = round(trial.now + HAND_SECONDS, 3)
    applied = trial.game.apply(trial.state, seat, action, now=now)
    if isinstance(applied, Rejection):
        return applied
    made = Tried(seat, action, now, applied.events, False, trial.state)
    return replace(trial, state=applied.state, now=now, tried=(*trial.tried, made), cut=False)


def bots(trial: Trial, steps: int | None = None) -> Trial:
    """The trial played on by the built-in bots for ``steps`` moves, or to the end (within the game's bound of
    actions: ``cut`` says the bound stopped it).  Their choices come from a generator seeded by the trial's own
    seed and length, so the same trial plays on the same way."""
    game, state, now = trial.game, trial.state, trial.now
    rng = random.Random(f"{trial.table.id}:{trial.version}:{len(trial.tried)}:{trial.bot_seed}")
    made: list[Tried] = []
    bound = steps if steps is not None else game.max_actions
    while state.get("outcome") is None and len(made) < bound:
        if not game.to_act(state):
            break
        now = round(now + BOT_SECONDS, 3)
        seat = rng.choice(game.to_act(state)).seat  # never a timeout: the trial asks what the moves would do
        action = game.bot_action(state, seat, rng)
        applied = game.apply(state, seat, action, now=now)
        if not isinstance(applied, Applied):  # a bot's move the engine refuses: stop there, say nothing more
            break
        made.append(Tried(seat, action, now, applied.events, True))
        state = applied.state
    cut = steps is None and state.get("outcome") is None
    return replace(trial, state=state, now=now, tried=(*trial.tried, *made), cut=cut)


async def try_moves(referee: Referee, table_id: int, *, moderator: str, version: int | None = None,
                    move: int | None = None, actions: Sequence[str] = (), seat: int | None = None,
                    playout: bool = False, steps: int | None = None) -> Trial | Rejection:
    """A whole trial at once (the terminal's ``mod whatif``): open it, make the typed ``actions`` by hand in turn
    (``seat``: who makes them, where several owe a decision), then, with ``playout``, let the bots play on."""
    logged = {"moves": len(actions), "playout": "bots" if playout else "none", "steps": steps}
    trial = await open_trial(referee, table_id, moderator=moderator, version=version, move=move, logged=logged)
    if isinstance(trial, Rejection):
        return trial
    for text in actions:
        chosen = pick(trial, text, seat=seat)
        if isinstance(chosen, Rejection):
            return chosen
        trial = play(trial, *chosen)
        if isinstance(trial, Rejection):
            return trial
    return bots(trial, steps) if playout else trial


async def go_on(referee: Referee, trial: Trial, *, moderator: str, seat: int | None = None,
                action: dict[str, Any] | None = None, playout: bool = False,
                steps: int | None = None) -> Trial | Rejection:
    """A further step of a trial kept between clicks (Discord): a move by hand or the bots; each step is another
    look, checked and logged again (a moderator who took a seat at the table since is refused)."""
    logged = {"version": trial.version, "moves": len(trial.tried), "playout": "bots" if playout else "none",
              "steps": steps}
    refused = await may_look(referee, trial.table.id, moderator, WHAT, logged)
    if refused is not None:
        return refused
    if action is not None and seat is not None:
        return play(trial, seat, action)
    # a game to its end is thousands of engine steps: in a worker thread, so the bot's event loop stays responsive
    return await asyncio.to_thread(bots, trial, steps) if playout else trial


__all__ = ["Trial", "Tried", "WHAT", "offers", "position", "open_trial", "pick", "play", "bots", "try_moves", "go_on"]
