"""The one contract every game engine implements.

A game is a stateless object of pure functions over a *state*: a plain JSON dict (no tuples, no floats
that need care, no objects).  The referee service stores states as canonical JSON, so the state must
survive a JSON round trip unchanged; the conformance suite checks this for every game.

Framework keys every state carries (games must not repurpose them):

    game      the registered game name
    version   how many actions have been applied (0 = the initial state)
    seats     the number of seats; seats are the integers 0..seats-1
    options   the validated table options (house rules), complete with defaults
    rng       the table's random source (see rng.py); never part of any view
    outcome   None while the game runs, else {"winners": [...], "reason": key, "params": {...}, "scores": ...}
    rules     the game's rules version the state is written under (versions.py; absent: 1, an older record)

Everything else is the game's own.  A game writes:

    setup(state, ctx, stack)         deal, place, choose the first player (ctx.rng only)
    to_act(state) -> [Pending]       who owes a decision now; empty once the game is over
    legal_actions(state, seat)       every legal action for that seat, in a deterministic order
    anytime_actions(state, seat)     optional: what a seat may do although it owes nothing now
    out_of_turn(state, seat, action) optional: why such an action is refused now (a Rejection)
    judge_table(state)               optional: the numbers a judge reads off the table (scores...), derived
    _apply(state, seat, action, ctx) mutate the (already copied) state; raise Reject for user mistakes
    upholding / _moderate            optional: a moderator's step upholding a dispute the game settles itself
    _view(state, seat | None)        what that seat (or a spectator, None) may know of the game's own keys
    unseen_variant(state, seat, rng) a state that differs from ``state`` only in what ``seat`` cannot see
    check_invariants(state)          assertions (card conservation and the like) used by the tests
    check_position(state, template)  a position set up directly (a scenario's state/position): PositionError
                                     naming the key and the invariant (bot/games/<game>/position.py)
    describe_action / render_view / render_event   localised text for humans
    render_event_detail              optional: an event's line as the log shows it (default: render_event)

and gets, from this base class, the template methods the service calls: ``initial_state`` and ``apply``
(which validate, copy, apply, bump the version and collect events), ``view`` (which adds the framework
keys game, version, seats, seat, to_act and outcome to ``_view``), plus option validation.

Time: an action is applied at a time ``now`` (epoch seconds, chosen by the service and stored with the
action, so replay is exact).  A Pending may carry an absolute ``deadline``; when it passes, the service
submits ``{"type": "timeout"}`` for that seat and the game's ``_timeout`` decides what happens.
"""
from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable, Mapping, Sequence, TypeVar, cast

import orjson

from .rng import Rng, StackError, rng_state

State = dict[str, Any]
Action = dict[str, Any]

#: ``visible_to`` value for an event every seat and every spectator may see.
PUBLIC = None
#: ``visible_to`` value for an event kept in the record only (moderators, replay), shown to no seat.
RECORD: tuple[int, ...] = ()


class Code:
    """Reason codes of a rejection.  Stable strings: the Discord layer and tests match on them."""

    NOT_YOUR_TURN = "not_your_turn"
    NOT_A_PLAYER = "not_a_player"
    STALE = "stale"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    GAME_OVER = "game_over"
    BAD_OPTIONS = "bad_options"
    BAD_SETUP = "bad_setup"
    TOO_EARLY = "too_early"
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    INTERNAL = "internal"
    BUSY = "busy"            # the database did not take the write in time (another process held it)


#: each registered game's ``Game.cite_text``, by name (filled by bot/engine/registry.py, which imports this module)
CITE_GLOSSES: dict[str, Callable[[str, str], str | None]] = {}


def cite_text(cite: str, locale: str) -> str:
    """A citation as ``locale`` reads it: glossed by the game whose citation it is, else bare.  A refusal does
    not know its game, and a citation names one game's paragraph only, so every game is asked."""
    for gloss in CITE_GLOSSES.values():
        shown = gloss(cite, locale)
        if shown is not None:
            return shown
    return cite


@dataclass(frozen=True)
class Rejection:
    """A refused action or request.  ``key``/``params`` form a localisable message; ``rule`` cites the
    rule-book paragraph or ruling id (docs/rulings/<game>.md) that the refusal rests on."""

    code: str
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def message(self, locale: str) -> str:
        from bot.i18n import has, t

        params = dict(self.params)
        reason = params.get("reason")
        if isinstance(reason, str) and has(reason):  # a reason given as its key (an option's core.option.*)
            params["reason"] = t(reason, locale, **{k: v for k, v in params.items() if k != "reason"})
        text = t(self.key, locale, **params)
        if self.rule:
            text += " " + t("core.cite", locale, rule=cite_text(self.rule, locale))
        return text

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "key": self.key, "params": dict(self.params), "rule": self.rule}


class Reject(Exception):
    """Raised inside game code for a user mistake; the template turns it into a Rejection."""

    def __init__(self, key: str, /, rule: str | None = None, code: str = Code.ILLEGAL, **params: Any):
        super().__init__(key)
        self.rejection = Rejection(code=code, key=key, params=params, rule=rule)


@dataclass(frozen=True)
class Pending:
    """A decision owed by one seat.

    kind: "turn" (the seat's ordinary move), "reaction" (an out-of-turn window such as a counter card),
    or "choice" (a decision the rules demand from a seat, e.g. which cards to hand over).
    deadline: absolute epoch seconds, or None.  prompt: i18n key telling the seat what is asked.
    about: for a window (a ``reaction``), the seats it is about — public facts only (the target of Voodoo,
    the owner of an attacked property): they are told it opened, whether or not they hold an answer.
    since: when a window asked the seat (epoch seconds, from the state): a seat's window preference passes
    for it a hand-independent delay after it (bot/referee/windowprefs.py).
    """

    seat: int
    kind: str = "turn"
    deadline: float | None = None
    prompt: str | None = None
    about: tuple[int, ...] = ()
    since: float | None = None


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)
    scores: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Applied:
    state: State
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Option:
    """One table option (house rule).  Its label is the i18n key ``<game>.option.<name>``; a choice's
    label is ``<game>.option.<name>.<choice>``."""

    name: str
    kind: str  # "bool" | "int" | "choice"
    default: Any
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    def coerce(self, raw: Any) -> Any:
        """The validated value, or ValueError with a short reason (an i18n key)."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in ("1", "true", "yes", "on", "да", "так"):
                return True
            if isinstance(raw, str) and raw.lower() in ("0", "false", "no", "off", "нет", "ні"):
                return False
            raise ValueError("core.option.want_bool")
        if self.kind == "int":
            if isinstance(raw, bool):
                raise ValueError("core.option.want_int")
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise ValueError("core.option.want_int") from None
            if isinstance(raw, float) and raw != value:
                raise ValueError("core.option.want_int")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise ValueError("core.option.out_of_range")
            return value
        if self.kind == "choice":
            if raw not in self.choices:
                raise ValueError("core.option.want_choice")
            return raw
        raise AssertionError(f"unknown option kind {self.kind}")


#: how a finished table's outcome is rated (bot/ratings/outcomes.py, docs/ratings.md): ``duel`` a win and a loss
#: or a draw between two seats; ``free_for_all`` every seat alone, the winners first and the others sharing the next
#: place; ``none`` statistics only; ``hook`` the game ranks its own sides (``Game.rated_sides``: teams, scores)
RATING_KINDS = ("duel", "free_for_all", "none", "hook")


@dataclass(frozen=True)
class GameFacts:
    """What the layers above the engines need to know about a game besides its rules (as OpenSpiel's GameType):
    declared once on the game (``Game.facts``), so that no front end, rating or tournament switches on its name.

    cooperative: the players win or lose together (a tournament scores every seat alike; never rated).
    rating: one of ``RATING_KINDS``; a game is rated only where it says how.
    listed: where the game stands in lists of games (the leaderboards: a leaderboard's button keeps its game's
        place in that list, so a game keeps its number for good; a new game takes a higher one).
    demo_seats: the seats of a demo table or a terminal table made without a count (None: ``min_seats``).
    conformance_seats: the seat counts the conformance suite plays (None: every count the game takes).
    conformance_playouts: the conformance suite's seeded playouts per seat count and options.
    pictures: the game draws its table and hand (``Game.picture``).
    deck_files: a scenario may bring a deck of its own (``Game.use_deck_file``).
    """

    cooperative: bool = False
    rating: str = "none"
    listed: int = 1000
    demo_seats: int | None = None
    conformance_seats: tuple[int, ...] | None = None
    conformance_playouts: int = 500
    pictures: bool = False
    deck_files: bool = False

    def __post_init__(self) -> None:
        if self.rating not in RATING_KINDS:
            raise ValueError(f"rating {self.rating!r} is none of {RATING_KINDS}")
        if self.cooperative and self.rating != "none":
            raise ValueError("a co-operative game is not rated (docs/ratings.md R-5)")
        if self.conformance_playouts < 1:
            raise ValueError("conformance_playouts must be at least 1")


class Ctx:
    """What game code gets while applying: the random source, the clock and the event sink."""

    def __init__(self, state: State, now: float):
        self.state = state
        self.now = now
        self.rng = Rng(state["rng"])
        self.events: list[dict[str, Any]] = []
        #: when a caller asks for them (a scenario's ``@after.<mark>`` checks), copies of the state at the
        #: boundaries inside one action that a game names with ``mark`` (Bridges: after the neutral phase)
        self.marks: dict[str, State] | None = None

    def mark(self, name: str) -> None:
        """A boundary inside the action being applied (the state as it stands now, before the rest of the
        action's automatic sequel): kept only when the caller asked for marks, so it costs nothing at a table."""
        if self.marks is not None:
            self.marks[name] = clone(self.state)

    def emit(self, kind: str, /, to: Iterable[int] | None = PUBLIC, **data: Any) -> None:
        """Record an event.  ``to`` is PUBLIC (None), RECORD (()), or the seats that may see it.  ``kind`` is
        positional-only so that an event may carry a data field of that name; ``to`` is the one reserved word."""
        visible = None if to is None else sorted(set(to))
        self.events.append({"kind": kind, "to": visible, "data": data})


_CLONE_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def _not_json(obj: Any) -> Any:
    raise TypeError(f"{type(obj).__name__} is copied by pickle")


#: what ``clone`` copies: a state, or any JSON container inside one (a view's list, a player's entry)
_Json = TypeVar("_Json", bound=dict[str, Any] | list[Any])


def clone(state: _Json) -> _Json:
    """A deep copy of a JSON-shaped state: an orjson round trip, about twice as fast as pickle (which is
    several times faster than copy.deepcopy), keys in the same order.  The copy is what storing and reloading
    the state gives (a tuple comes back a list, two references to one list come back two lists, NaN comes
    back None: a state holding one cannot be stored), which is all a state may rely on.  What orjson
    refuses (int keys, ints beyond 64 bits, subclasses of the builtin types, dataclasses, datetimes, lone
    surrogates) is copied by pickle, as before, types and all."""
    try:
        return cast(_Json, orjson.loads(orjson.dumps(state, default=_not_json, option=_CLONE_OPTIONS)))
    except TypeError:
        return cast(_Json, pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)))


def visible_to(event: Mapping[str, Any], seat: int | None) -> bool:
    """May ``seat`` (None = spectator / public channel) see this event?"""
    to = event.get("to")
    if to is None:
        return True
    return seat is not None and seat in to


class Game:
    """Base class: subclass, set the class attributes, implement the hooks listed in the module doc."""

    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: playouts in the conformance suite are cut after this many actions
    max_actions: ClassVar[int] = 5000
    #: top-level state keys the engine keeps only for a while (a position set up directly may lack them)
    optional_state_keys: ClassVar[frozenset[str]] = frozenset()
    #: keys a ``stack`` (moderator set-up / scenario) may carry, besides "rolls"
    stack_keys: ClassVar[tuple[str, ...]] = ()
    #: action types the referee may take for a seat whose only legal action it is (a table setting allows
    #: it): only where having a single choice tells nobody anything (Clay God's roll at the start of a turn)
    auto_actions: ClassVar[frozenset[str]] = frozenset()
    #: action types that let an out-of-turn window (a ``reaction``) go by: the answer the referee gives for a
    #: seat that chose to pass every window of a turn (``turn_key``), recorded as that seat's own
    window_passes: ClassVar[frozenset[str]] = frozenset()
    #: the game's rules version: raised, with a migration of stored states (``migrations``, versions.py), by
    #: every change to its stored state, its options or any outcome
    rules_version: ClassVar[int] = 1
    #: ``versions.Migration`` steps 1→2, 2→3, …: ``rules_version == 1 + len(migrations)``
    migrations: ClassVar[tuple[Any, ...]] = ()
    #: what the layers above need to know of the game (GameFacts): ratings, demos, pictures, the test suite
    facts: ClassVar[GameFacts] = GameFacts()

    # ------------------------------------------------------------------ template methods (do not override)
    def validate_options(self, raw: Mapping[str, Any] | None, *, clock: float | None = None) -> dict[str, Any]:
        """The table's options, each coerced, the defaults filled in; at a correspondence table (option ``pace``,
        bot/engine/pace.py) each real-time rule in its correspondence form (``correspond``), ``clock`` being the
        table's per-decision clock in seconds where it has one.  Raises Reject (bad_options)."""
        raw = dict(raw or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise Reject("core.reject.unknown_option", code=Code.BAD_OPTIONS, name=unknown[0], game=self.name)
        result = {}
        for name, opt in known.items():
            if name not in raw:
                result[name] = opt.default
                continue
            try:
                result[name] = opt.coerce(raw[name])
            except ValueError as exc:
                raise Reject(
                    "core.reject.bad_option", code=Code.BAD_OPTIONS, name=name, value=str(raw[name]),
                    reason=str(exc), choices=", ".join(opt.choices), min=opt.min, max=opt.max,
                ) from None
        if result.get("pace") == "correspondence":
            self.correspond(result, frozenset(raw), clock)
        self.check_options(result)
        return result

    def initial_state(
        self,
        seats: int,
        *,
        seed: str,
        options: Mapping[str, Any] | None = None,
        now: float = 0.0,
        stack: Mapping[str, Any] | None = None,
    ) -> Applied:
        """The state before any action, and the set-up events (deals, first-player lot).

        Raises Reject (code bad_options / bad_setup) for invalid input.  ``stack`` forces random results:
        ``{"rolls": {tag: [values]}}`` for the RNG plus the game's own ``stack_keys`` (a stacked deck).
        """
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise Reject("core.reject.seat_count", code=Code.BAD_SETUP, game=self.name,
                         min=self.min_seats, max=self.max_seats, got=seats)
        opts = self.validate_options(options)
        stack = dict(stack or {})
        unknown = sorted(set(stack) - {"rolls", *self.stack_keys})
        if unknown:
            raise Reject("core.reject.bad_stack", code=Code.BAD_SETUP, key=unknown[0])
        state: State = {
            "game": self.name, "version": 0, "seats": seats, "options": opts,
            "rng": rng_state(seed), "outcome": None, "rules": self.rules_version,
        }
        ctx = Ctx(state, now)
        rolls = stack.pop("rolls", None) or {}
        if not isinstance(rolls, Mapping) or not all(isinstance(v, list) for v in rolls.values()):
            raise Reject("core.reject.bad_stack", code=Code.BAD_SETUP, key="rolls")
        for tag, values in rolls.items():
            ctx.rng.push(str(tag), list(values))
        try:
            self.setup(state, ctx, stack)
        except StackError as exc:
            raise Reject("core.reject.bad_stack_value", code=Code.BAD_SETUP, detail=str(exc)[:200]) from None
        return Applied(state, ctx.events)

    def apply(self, state: State, seat: int, action: Any, *, now: float = 0.0,
              marks: dict[str, State] | None = None) -> Applied | Rejection:
        """Validate and apply one action by ``seat``; never mutates ``state``.  ``marks``, when given, receives
        a copy of the state at each boundary the game marks inside the action (``Ctx.mark``).

        Returns Applied(new_state, events) or a Rejection (user mistakes never raise).  A programming
        error inside the game does raise; the service turns it into an INTERNAL rejection.
        """
        if state.get("outcome") is not None:
            return Rejection(Code.GAME_OVER, "core.reject.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
            return Rejection(Code.NOT_A_PLAYER, "core.reject.not_a_player")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Rejection(Code.MALFORMED, "core.reject.malformed")
        pending = {p.seat: p for p in self.to_act(state)}
        if seat not in pending and action not in self.anytime_actions(state, seat):
            return self.out_of_turn(state, seat, action)
        if action["type"] == "timeout":
            deadline = pending[seat].deadline
            if deadline is None or now < deadline:
                return Rejection(Code.TOO_EARLY, "core.reject.no_deadline_passed")
        new = clone(state)
        ctx = Ctx(new, now)
        ctx.marks = marks
        try:
            if action["type"] == "timeout":
                self._timeout(new, seat, ctx)
            else:
                self._apply(new, seat, action, ctx)
        except Reject as r:
            return r.rejection
        except StackError as exc:  # a moderator's stacked value that does not fit this draw: refused, not a crash
            return Rejection(Code.BAD_SETUP, "core.reject.bad_stack_value", {"detail": str(exc)[:200]})
        new["version"] = state["version"] + 1
        return Applied(new, ctx.events)

    def moderate(self, state: State, action: Any, *, now: float = 0.0) -> Applied | Rejection:
        """Apply a moderator's step of the game's own (``upholding``); never mutates ``state``.  Recorded as
        an action of seat -1, so that replay applies it again (bot/referee/record.py)."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Rejection(Code.MALFORMED, "core.reject.malformed")
        new = clone(state)
        ctx = Ctx(new, now)
        try:
            self._moderate(new, action, ctx)
        except Reject as r:
            return r.rejection
        new["version"] = state["version"] + 1
        return Applied(new, ctx.events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None = spectator, the public channel) may know.  Never contains the RNG."""
        return {
            "game": self.name, "version": state["version"], "seats": state["seats"], "seat": seat,
            "options": state["options"], "outcome": state["outcome"],
            "to_act": [
                {"seat": p.seat, "kind": p.kind, "deadline": p.deadline, "prompt": p.prompt,
                 **({"about": list(p.about)} if p.about else {}),
                 **({"since": p.since} if p.since is not None else {})}
                for p in self.to_act(state)
            ],
            **self._view(state, seat),
        }

    def outcome(self, state: State) -> Outcome | None:
        o = state.get("outcome")
        if o is None:
            return None
        return Outcome(tuple(o["winners"]), o["reason"], o.get("params") or {}, o.get("scores"))

    # ------------------------------------------------------------------ hooks (override)
    def check_options(self, options: dict[str, Any]) -> None:
        """Cross-option checks; raise Reject(code=BAD_OPTIONS) when options contradict each other."""

    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """A correspondence table's options (bot/engine/pace.py): each real-time rule in its correspondence form
        where it was not ``given``, refused (Reject) where a value given is still real-time; ``clock``: the
        table's per-decision clock in seconds, or None.  A game without real-time rules has nothing to do."""

    def setup(self, state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def to_act(self, state: State) -> list[Pending]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def choice_group(self, state: State, seat: int, action: Action) -> str:
        """The group an offered action is listed under (front ends show one menu per group, so that no
        decision needs paging): by default its type.  Group names are i18n keys ``<game>.group.<name>``."""
        return cast("str", action["type"])

    def forced_action(self, state: State, seat: int, legal: list[Action]) -> Action | None:
        """The action the referee takes for ``seat`` at once (when the table allows forced moves), or None:
        by default the single legal action when its type is one of ``auto_actions``.  A game narrows it where
        a single choice would tell the table something only the seat knows."""
        if len(legal) == 1 and legal[0].get("type") in self.auto_actions:
            return legal[0]
        return None

    def turn_key(self, state: State) -> Any:
        """Which turn the table is in, as plain JSON (the same for every window of one turn, different for the
        next), for a seat's standing pass of every window of a turn; None where the game offers none."""
        return None

    def confirm(self, state: State, seat: int, action: Action) -> bool:
        """Whether the action cannot be taken back and ends something for good (a declaration that ends the
        game, a final pass): front ends ask for a confirmation first."""
        return False

    def anytime_actions(self, state: State, seat: int) -> list[Action]:
        """Actions ``seat`` may take although it owes no decision now (Bloodwood's declaration of the end
        during another player's turn).  Offered when the seat asks for its choices; never prompted, never
        timed out, never taken by the built-in bots.  Must depend only on what every seat can see: whether
        a seat may act must not tell anyone what is hidden.  ``_apply`` receives them like any action."""
        return []

    def choices(self, state: State, seat: int) -> list[Action]:
        """What ``seat`` may do now: its legal actions when it owes a decision, else its anytime actions."""
        if any(p.seat == seat for p in self.to_act(state)):
            return self.legal_actions(state, seat)
        return self.anytime_actions(state, seat)

    def judge_table(self, state: State) -> dict[str, Any]:
        """What a forum judge writes on the table after a move (scores, row totals...), derived from the state
        when asked, never stored in it: scenario checks read it as ``@table.…``."""
        return {}

    def out_of_turn(self, state: State, seat: int, action: Action) -> Rejection:
        """The refusal of an action from a seat that owes nothing and was not offered it.  Games with
        anytime actions override this to say why this one is not possible now (from public facts only)."""
        return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")

    def _apply(self, state: State, seat: int, action: Action, ctx: Ctx) -> None:
        raise NotImplementedError

    def upholding(self, state: State, disputed: Sequence[Mapping[str, Any]]) -> Action | None:
        """The moderator's step (for ``moderate``) that upholds, in the game's own way, a dispute about the move
        whose events are ``disputed``, or None: the referee then rolls the table back to before that move.
        Raiders: a judge-assisted card still waiting in the window is settled in the table's dispute mode."""
        return None

    def _moderate(self, state: State, action: Action, ctx: Ctx) -> None:
        """Apply a step ``upholding`` offered; games without any refuse every one."""
        raise Reject("core.reject.malformed", code=Code.MALFORMED)

    def _timeout(self, state: State, seat: int, ctx: Ctx) -> None:
        """A deadline passed for ``seat``.  Games with deadlines override this."""
        raise Reject("core.reject.no_deadline_passed", code=Code.TOO_EARLY)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def unseen_variant(self, state: State, seat: int | None, rng: Any) -> State:
        """A copy of ``state`` in which everything ``seat`` cannot see is re-dealt at random (``rng`` is a
        ``random.Random``).  Used by the no-leak property test: the seat's view must not change."""
        raise NotImplementedError

    def check_invariants(self, state: State) -> None:
        """Assert the game's invariants (card conservation, value ranges)."""

    def check_position(self, state: State, template: State) -> None:
        """A position set up directly (a scenario's ``state``/``position``): raise
        ``bot.engine.position.PositionError`` naming the key and the broken invariant (card conservation, legal
        values, a consistent turn).  ``template`` is the seeded start of the same table, for the shapes the
        engine writes.  The framework keys are checked before, ``check_invariants`` and a trial read after."""

    def bot_action(self, state: State, seat: int, rng: Any) -> Action:
        """The built-in bot player's choice (``rng`` is a ``random.Random``, never the table's RNG).
        The default plays uniformly at random; games override it with something less silly."""
        return cast("dict[str, Any]", rng.choice(self.legal_actions(state, seat)))

    def demo_seat_count(self) -> int:
        """The seats of a table made without a count (a demo, the terminal's ``table new``)."""
        return self.facts.demo_seats if self.facts.demo_seats is not None else self.min_seats

    def conformance_seat_counts(self) -> list[int]:
        """The seat counts the conformance suite plays."""
        seats = self.facts.conformance_seats
        return list(seats) if seats is not None else list(range(self.min_seats, self.max_seats + 1))

    def rated_sides(self, options: Mapping[str, Any], seats: int,
                    outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
        """For ``facts.rating == "hook"``: the sides of a finished table (lists of seats) and their competition
        places (1 best, a tie sharing one), from its options, seat count and stored outcome.  Raise ValueError
        for an outcome that cannot be rated as stored."""
        raise NotImplementedError

    def use_deck_file(self, path: Path) -> dict[str, Any]:
        """For ``facts.deck_files``: a scenario's own deck file, validated and loaded (CatalogError lists every
        mistake); returns the table options that choose it."""
        raise NotImplementedError

    def forget_deck_files(self) -> None:
        """For ``facts.deck_files``: forget every deck file ``use_deck_file`` loaded in this process, so that the
        option's choices are the shipped ones again (a test's own deck must not change the next test's options)."""

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        """For ``facts.pictures``: the ``bot.engine.canvas.Canvas`` of ``view`` — ``kind`` "table" (the table as
        the view's seat sees it) or "hand" (the seat's own hand) — or None where there is no such picture."""
        return None

    def cite_text(self, cite: str, locale: str) -> str | None:
        """A citation of this game's as a reader of ``locale`` sees it where that differs from the bare citation
        (a book heading in the book's language, glossed: ``«Захват»: Capture``); None leaves it bare."""
        return None

    # ------------------------------------------------------------------ text for humans (override)
    def describe_action(self, state: State, seat: int, action: Action, locale: str,
                        names: Sequence[str] = ()) -> str:
        """A short label for a button or a log line.  Must only show what ``seat`` may know.  ``names``
        are the players' names by seat (public), for labels that name a seat."""
        return cast("str", action["type"])

    def render_view(self, view: Mapping[str, Any], locale: str, names: Sequence[str], *,
                    full: bool = False) -> str:
        """The table as text for one viewer (the view already hides what it must), read on a phone: every
        line at most ``bot.engine.board_text.PHONE_WIDTH`` columns (``display_width``), whose decision is awaited
        stated once.  By default long lists (discard piles, full rows, long hands) are summarised with counts;
        ``full=True`` lists them completely, still wrapped to the same width."""
        raise NotImplementedError

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        """One event as a line of text, or None for events that are not worth a line."""
        return None

    def render_event_detail(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        """The same event as the log shows it (the table's log, the terminal's ``table log``, a dispute's
        evidence, the public page): by default the same line.  A game whose live line is kept short (Bridges'
        bosses: what they did) gives here the reasoning too (which priority line, why)."""
        return self.render_event(event, locale, names)

    def milestone(self, event: Mapping[str, Any]) -> str | None:
        """Whether a public event closes a stage of play the forum judge marks with a copy of the table (a
        Gwent round, a Bloodwood day, a Bridges round, a Raiders capture): "before" — the table as it stood
        before the step that emitted it (a round's end clears the field in the same step) —, "after", or None.
        Front ends post the event's line with the public table then (docs/discord.md, "Move posts")."""
        return None

    def parse_action(self, state: State, seat: int, text: str, names: Sequence[str] = ()) -> Action | Rejection:
        """Turn a typed command into an action: a number picks from the legal list (1-based), anything
        else is matched against the action labels.  Games may extend this with their own syntax."""
        text = text.strip()
        legal = self.choices(state, seat)
        if not legal:  # nothing is open to this seat now: say that, not "no choice number 1 of 0"
            return Rejection(Code.NOT_YOUR_TURN, "core.reject.not_your_turn")
        if text.isdigit():
            i = int(text)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            return Rejection(Code.ILLEGAL, "core.reject.no_such_choice", {"n": i, "count": len(legal)})
        wanted = text.casefold()
        for locale in ("ru", "uk", "en"):
            matches = [a for a in legal if self.describe_action(state, seat, a, locale, names).casefold() == wanted]
            if len(matches) == 1:
                return matches[0]
        return Rejection(Code.MALFORMED, "core.reject.unparsed", {"text": text[:100]})
