"""A position set up directly (a scenario's ``state`` / ``position``, docs/scenarios.md): the seeded start with
some keys set, or a whole state, checked with the invariants the engine keeps before anything is played on it.

What every game shares lives here: setting dotted paths over a state (``place``), the framework keys' checks, the
small value tests each game's ``position.py`` uses, and the last net (``settle``): the game's own invariants and a
trial read of the position (who acts, what each seat may do and see).  Each game's own checks (card conservation,
legal values, a consistent turn) are in ``bot/games/<game>/position.py``, next to its engine; a broken one raises
``PositionError`` naming the key and the invariant, never an assertion or a crash."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, cast

from .contract import Game, State, clone
from .rng import Rng


class PositionError(ValueError):
    """A position the engine does not keep: ``key`` is the dotted path at fault (``"chars.0.hp"``, ``""`` for the
    whole state), ``problem`` the broken invariant in a line of English, ``rule`` the rule-book paragraph it
    breaks where one says it (cited like a refusal's)."""

    def __init__(self, key: str, problem: str, rule: str | None = None):
        super().__init__(f"{key or 'state'}: {problem}" + (f" ({rule})" if rule else ""))
        self.key = key
        self.problem = problem
        self.rule = rule


# ------------------------------------------------------------------------------------------- setting paths
def _step(obj: Any, part: str, where: str) -> tuple[Any, Any]:
    """The container key/index ``part`` names inside ``obj`` (a list takes a whole-number index it has)."""
    if isinstance(obj, list):
        if not part.isdigit() or int(part) >= len(obj):
            raise PositionError(where, f"no item {part!r} in a list of {len(obj)}")
        return obj, int(part)
    if isinstance(obj, dict):
        return obj, part
    raise PositionError(where, "is not a list or a mapping, so nothing can be set inside it")


def place(state: State, position: Mapping[str, Any]) -> State:
    """A copy of ``state`` with each dotted path of ``position`` set to its value as a whole (a mapping replaces
    the mapping there, it is not merged: ``{"chars.1.hp": 3}`` changes one number, ``{"buildings": {}}`` clears
    them all).  A path's parents must exist; its last key may be new in a mapping (the checks judge it)."""
    new = clone(state)
    for path, value in position.items():
        parts = str(path).split(".")
        if not all(parts):
            raise PositionError(str(path), "an empty part in the path")
        obj: Any = new
        for depth, part in enumerate(parts[:-1]):
            container, key = _step(obj, part, ".".join(parts[:depth + 1]))
            if isinstance(container, dict) and key not in container:
                raise PositionError(".".join(parts[:depth + 1]), "no such key in the state")
            obj = container[key]
        container, key = _step(obj, parts[-1], str(path))
        container[key] = clone({"v": value})["v"]
    return new


# ------------------------------------------------------------------------------------------- value tests
def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def want(ok: bool, key: str, problem: str, rule: str | None = None) -> None:
    if not ok:
        raise PositionError(key, problem, rule)


def integer(value: Any, key: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number within [lo, hi] (either bound may be open)."""
    want(is_int(value), key, f"must be a whole number, not {_kind(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo if lo is not None else '…'}..{hi if hi is not None else '…'}"
        raise PositionError(key, f"{value} is outside {span}")
    return cast("int", value)


def flag(value: Any, key: str) -> bool:
    want(isinstance(value, bool), key, f"must be true or false, not {_kind(value)}")
    return bool(value)


def one_of(value: Any, key: str, choices: Iterable[Any], what: str = "value") -> Any:
    choices = list(choices)
    if value not in choices:
        shown = ", ".join(map(str, choices[:12])) + (", …" if len(choices) > 12 else "")
        raise PositionError(key, f"{_short(value)} is not a known {what} ({shown})")
    return value


def listing(value: Any, key: str, length: int | None = None) -> list[Any]:
    want(isinstance(value, list), key, f"must be a list, not {_kind(value)}")
    if length is not None:
        want(len(value) == length, key, f"must have {length} entries (one per seat), not {len(value)}")
    return cast("list[Any]", value)


def mapping(value: Any, key: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """A mapping; with ``keys``, exactly those (the shape the engine writes)."""
    want(isinstance(value, dict), key, f"must be a mapping, not {_kind(value)}")
    if keys is not None:
        keys = set(keys)
        missing, extra = sorted(keys - set(value)), sorted(set(value) - keys)
        want(not missing, key, f"lacks {', '.join(missing[:4])}")
        want(not extra, key, f"has keys the engine does not keep: {', '.join(map(str, extra[:4]))}")
    return cast("dict[str, Any]", value)


def seat(value: Any, key: str, seats: int, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    return integer(value, key, 0, seats - 1)


def conserved(key: str, found: Iterable[Any], wanted: Iterable[Any], what: str = "card") -> None:
    """Every one of ``wanted`` exactly once in ``found`` (card conservation): names the first card missing,
    doubled or unknown."""
    from collections import Counter

    have, need = Counter(list(found)), Counter(list(wanted))
    for card in sorted(set(have) | set(need), key=repr):
        if have[card] > need[card]:
            extra = "unknown" if not need[card] else f"{have[card]} times, the game has {need[card]}"
            raise PositionError(key, f"{what} {_short(card)} is {extra} (every {what} exactly once)")
        if have[card] < need[card]:
            raise PositionError(key, f"{what} {_short(card)} is missing (every {what} exactly once across "
                                     "deck, hands, board and discard)")


_JSON_KINDS: dict[type, str] = {str: "a string", list: "a list", dict: "a mapping"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


# ------------------------------------------------------------------------------------------- the whole check
FRAME_KEYS = frozenset({"game", "version", "seats", "options", "rng", "outcome", "rules"})


def _sort(value: Any) -> str:
    """A value's JSON type, for the shape check (a whole number and a fraction are both numbers)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return _JSON_KINDS.get(type(value), type(value).__name__)


def same_shape(value: Any, template: Any, key: str) -> None:
    """``value`` has the JSON shape the engine writes where the seeded start (``template``) has one: the same type
    (null stands for anything: a key the engine fills later, or empties), a mapping's known keys of their shapes,
    a list's items of the shape of the template's first item.  What the shape cannot say (ranges, ids, the turn)
    is for the game's own checks."""
    if template is None or value is None:
        return
    want(_sort(value) == _sort(template), key, f"must be {_sort(template)} (as the engine keeps it), "
                                                f"not {_kind(value)}")
    if isinstance(template, dict):
        for k, sub in template.items():
            if k in value:
                same_shape(value[k], sub, f"{key}.{k}")
    elif isinstance(template, list) and template:
        for j, item in enumerate(value):
            same_shape(item, template[0], f"{key}.{j}")


def check_frame(game: Game, state: State, template: State) -> None:
    """The framework keys (contract.py) and the game's own top-level keys, as the seeded ``template`` has them."""
    want(state.get("game") == game.name, "game", f"must be {game.name!r}")
    want(state.get("seats") == template["seats"], "seats",
         f"must be {template['seats']}, the scenario's number of seats")
    integer(state.get("version"), "version", 0)
    want(state.get("rules") == game.rules_version, "rules",
         f"must be {game.rules_version}, the {game.name} rules this engine plays (an older state: migrate it)")
    missing = sorted(set(template) - set(state) - game.optional_state_keys)
    want(not missing, missing[0] if missing else "", "is missing from the state")
    unknown = sorted(set(state) - set(template) - game.optional_state_keys)
    want(not unknown, unknown[0] if unknown else "", "is not a key of a " + game.name + " state")
    for key in sorted(set(template) - FRAME_KEYS):
        if key in state:
            want(state[key] is not None or template[key] is None or state["outcome"] is not None, key,
                 f"must be {_sort(template[key])} while the game runs, not null")
            same_shape(state[key], template[key], key)
    try:
        opts = game.validate_options(state["options"]) if isinstance(state["options"], dict) else None
    except Exception:  # noqa: BLE001 a Reject of a bad option value
        opts = None
    want(opts == state["options"], "options", "must be the table's complete, valid options")
    rng = mapping(state["rng"], "rng", ("seed", "n", "stack"))
    want(isinstance(rng["seed"], str), "rng.seed", "must be a string")
    integer(rng["n"], "rng.n", 0)
    stack = mapping(rng["stack"], "rng.stack")
    for tag, values in stack.items():
        want(isinstance(values, list) and bool(values) and None not in values, f"rng.stack.{tag}",
             "must be a non-empty list of forced values without null")
    outcome = state["outcome"]
    if outcome is not None:
        mapping(outcome, "outcome")
        for s in listing(outcome.get("winners"), "outcome.winners"):
            seat(s, "outcome.winners", state["seats"])
        want(isinstance(outcome.get("reason"), str), "outcome.reason", "must be a string")


def settle(game: Game, state: State) -> None:
    """The last net, after the game's own checks: its invariants (check_invariants' assertions) and a trial read
    of the position by what the referee will call (who acts, each seat's choices and view).  A failure there is
    an inconsistent position the game's checks did not name more precisely."""
    try:
        game.check_invariants(state)
    except AssertionError as exc:
        raise PositionError("", f"breaks an invariant of the {game.name} engine: {exc or 'an assertion'}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise PositionError("", f"is not a state the {game.name} engine can read ({type(exc).__name__}: "
                                f"{_short(str(exc))})") from None
    try:
        probe = clone(state)
        Rng(probe["rng"])
        pending = game.to_act(probe)
        if state["outcome"] is None and not pending:
            raise PositionError("", "the game is running but nobody owes a decision")
        for p in pending:
            game.legal_actions(probe, p.seat)
        for s in [None, *range(state["seats"])]:
            game.view(probe, s)
    except PositionError:
        raise
    except Exception as exc:  # noqa: BLE001 the point: an unreadable position is refused, not played
        raise PositionError("", f"is not a consistent {game.name} position: the engine cannot read it "
                                f"({type(exc).__name__}: {_short(str(exc))})") from None


def validate(game: Game, state: State, template: State) -> None:
    """Every check of a set-up position: the frame, the game's own (``check_position``), then ``settle``."""
    want(isinstance(state, dict), "", "must be a mapping")
    check_frame(game, state, template)
    try:
        game.check_position(state, template)
    except PositionError:
        raise
    except Exception as exc:  # noqa: BLE001 a value of a shape the game's checks did not expect
        raise PositionError("", f"is not a state the {game.name} engine can read ({type(exc).__name__}: "
                                f"{_short(str(exc))})") from None
    settle(game, state)


__all__ = ["PositionError", "place", "validate", "check_frame", "settle", "want", "integer", "flag", "one_of",
           "listing", "mapping", "seat", "conserved", "is_int"]
