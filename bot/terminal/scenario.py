"""Deterministic scenarios: a set-up (seed or stacked deck/dice) plus a list of steps, run straight on the
engine (no database), reporting every state and event as JSON.  The format is documented in
docs/scenarios.md; keep the two in step.

A scenario file is input from anyone (a dispute, a bug report), so it is bounded and checked before any
work: its size, its nesting, its values (plain JSON-like data only), the shape of every key.  Whatever is
wrong with it ends in one ScenarioError naming the key and the step, never in a traceback, a hang or a
runaway allocation (the limits are in docs/scenarios.md, "Limits")."""
from __future__ import annotations

import json
import math
import random
import re
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import yaml

from bot.engine import Applied, Code, Reject, Rejection, clone, get_game
from bot.engine.catalog import CatalogError
from bot.engine.position import PositionError, place, validate as validate_position
from bot.engine.rng import Rng, StackError

DEFAULT_START = 1_700_000_000.0
TOP_KEYS = {"game", "seats", "seed", "options", "stack", "now", "steps", "title", "description", "note", "expect",
            "state", "position", "deck_file"}
STEP_KEYS = {"seat", "action", "timeout", "expect", "rolls", "wait", "at", "position", "check", "note", "bot",
             "moderator"}
EXPECT_KEYS = {"code", "key", "rule"}

# ---------------------------------------------------------------------------------- limits
# A real scenario is a few kilobytes (the largest in tests/ is 12 KB: 181 steps, 144 check paths, 253 forced
# values); these leave ample room and keep the worst file within about a second of parsing and bounded memory.
MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32            # lists and mappings inside each other (YAML and Python recurse on nesting)
MAX_NODES = 100_000       # values in the whole file (each costs memory and time in the YAML parser)
MAX_STRING = 10_000       # characters of one string or key (a note may be long; nothing needs more)
MAX_NAME = 100            # a seat's name or an RNG tag: rendered into every event line
MAX_SEED = 1_000          # the seed is hashed at every draw
MAX_INT = 2**53           # any number: the largest integer JSON readers keep exactly, far above any count
MAX_STEPS = 5_000         # a stored table's later actions (scenario --from-table) are its steps
MAX_CHECKS = 5_000        # check paths in the file: each may walk a whole state or build a view
MAX_FORCED = 10_000       # values inside all forced rolls: they sit in the state, copied into every step's report
MAX_NOW = 10**10          # epoch seconds (the year 2286)
MAX_WAIT = 10 * 365 * 24 * 3600   # one step's clock move: ten years
MAX_MESSAGE = 300         # characters of an error message (it may quote the file)


class ScenarioError(ValueError):
    """The scenario file itself is wrong (not the game): unknown keys, bad values.  The message is always one
    printable line of bounded length, so that ``scenario error: …`` stays one line whatever the file holds."""

    def __init__(self, message: Any):
        text = " ".join(str(message).split())
        text = "".join(ch if ch.isprintable() else "?" for ch in text)
        if len(text) > MAX_MESSAGE:
            text = text[:MAX_MESSAGE - 1] + "…"
        super().__init__(text)


def _kind(value: Any) -> str:
    """What a value is, for a message ("a list", "a string"): never the value itself, which may be huge."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    kinds: dict[type, str] = {str: "a string", list: "a list", dict: "a mapping"}
    return kinds.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _where(path: tuple[Any, ...]) -> str:
    """A key path as the messages name it: ``step 3: 'action.card'`` or ``'stack.rolls'``."""
    if len(path) >= 2 and path[0] == "steps" and isinstance(path[1], int):
        rest = ".".join(map(str, path[2:]))
        return f"step {path[1]}" + (f": {rest!r}" if rest else "")
    return repr(".".join(map(str, path))) if path else "the file"


# ---------------------------------------------------------------------------------- reading the file
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: about 5x faster


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe YAML whose timestamps stay the strings they look like (a scenario holds JSON-shaped data)."""


_Loader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))


def _read_text(path: Path) -> str:
    """The file's text: a regular file (a FIFO would block), at most MAX_FILE_BYTES, UTF-8."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ScenarioError(f"{path}: is a directory, not a scenario file")
        if not stat.S_ISREG(info.st_mode):
            raise ScenarioError(f"{path}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise ScenarioError(f"{path}: {info.st_size} bytes; a scenario file is at most {MAX_FILE_BYTES} bytes")
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)  # the file may have grown since stat
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except PermissionError:
        raise ScenarioError(f"{path}: permission denied") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(f"{path}: a scenario file is at most {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _scan(text: str) -> None:
    """Walk the YAML events (a flat stream, no recursion) and refuse what would be costly to build: deep
    nesting (the composer recurses), too many values, long scalars (a long YAML 1.1 number such as
    1:2:3:… is slow to convert), several documents, and aliases — ``*a`` shares a value that every later
    walk (the report, the checks) expands again, so a few lines of them make a "billion laughs"."""
    depth = nodes = documents = 0
    for event in yaml.parse(text, Loader=_Loader):
        line = f"line {event.start_mark.line + 1}" if event.start_mark else "here"
        if isinstance(event, yaml.AliasEvent):
            raise ScenarioError(f"{line}: YAML aliases (*{event.anchor}) are not allowed in a scenario; "
                                "write the value out")
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise ScenarioError(f"{line}: a scenario file holds one YAML document")
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise ScenarioError(f"{line}: more than {MAX_NODES} values in one scenario")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise ScenarioError(f"{line}: lists and mappings nested deeper than {MAX_DEPTH} levels")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_STRING:
            raise ScenarioError(f"{line}: a value longer than {MAX_STRING} characters")


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    text = _read_text(path)
    try:
        _scan(text)
        doc = yaml.load(text, Loader=_Loader)
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML/JSON: {exc}") from None
    except Exception as exc:  # noqa: BLE001 PyYAML's converters fail in their own ways on a tagged value they
        # cannot read (`!!bool maybe` KeyError, `!!int ""` IndexError) or an integer too long to convert
        raise ScenarioError(f"{path}: not valid YAML/JSON: a value its type cannot hold "
                            f"({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping with at least 'game' and 'steps', not {_kind(doc)}")
    if isinstance(doc.get("deck_file"), str):  # a deck file beside the scenario is named from the scenario's folder
        doc["deck_file"] = str(path.parent / doc["deck_file"])
    return doc


# ---------------------------------------------------------------------------------- checking the document
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_plain(doc: Any) -> None:
    """Every value is plain JSON-like data within bounds: mappings (string or whole-number keys), lists,
    strings, finite numbers, true/false, null.  YAML's other types (sets, binary, ordered maps) and Python
    objects would break the report or reach an engine that never expects them; a huge number would reach
    engines as a count or an index.  Iterative, because the nesting is what is being checked."""
    todo: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    nodes = 0
    while todo:
        value, path = todo.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ScenarioError(f"more than {MAX_NODES} values in one scenario")
        if len(path) > MAX_DEPTH:
            raise ScenarioError(f"{_where(path[:3])}: lists and mappings nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, bool) or not isinstance(key, (str, int)):
                    raise ScenarioError(f"{_where(path)}: a key must be a string or a whole number, not {_kind(key)}")
                todo.append((key, path))
                todo.append((item, (*path, key)))
        elif isinstance(value, list):
            todo.extend((item, (*path, j)) for j, item in enumerate(value))
        elif value is None or isinstance(value, bool):
            pass
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                raise ScenarioError(f"{_where(path)}: the number is too large (at most 2**53 either way)")
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_INT:
                raise ScenarioError(f"{_where(path)}: numbers must be finite and at most 2**53 either way")
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                raise ScenarioError(f"{_where(path)}: a string longer than {MAX_STRING} characters")
            if _SURROGATE.search(value):  # a "\ud800" escape: the report could not be printed as UTF-8
                raise ScenarioError(f"{_where(path)}: a string with a lone surrogate (\\ud800-\\udfff)")
        else:
            raise ScenarioError(f"{_where(path)}: {_kind(value)} is not plain data "
                                "(use mappings, lists, strings, numbers, true/false, null)")


def _want(ok: bool, where: str, key: str, wanted: str, value: Any) -> None:
    """One shape rule: ``where: 'key' must be <wanted>, not <what it is>``."""
    if not ok:
        raise ScenarioError(f"{where}'{key}' must be {wanted}, not {_kind(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_expect(where: str, expect: Any) -> None:
    """``expect``: "applied", "rejected", a reason code, or a mapping of the refusal's code / key / rule."""
    _want(isinstance(expect, (str, dict)), where, "expect", "a reason code or a mapping of code, key, rule", expect)
    if isinstance(expect, dict):
        unknown = set(expect) - EXPECT_KEYS
        if unknown:
            raise ScenarioError(f"{where}'expect': unknown keys {sorted(map(str, unknown))} (code, key, rule)")
        for key, value in expect.items():
            _want(value is None or isinstance(value, str), where, f"expect.{key}", "a string or null", value)


def _check_rolls(where: str, key: str, rolls: Any) -> None:
    """Forced draws: a mapping of RNG tag to the list of values the next draws under that tag take."""
    _want(isinstance(rolls, dict), where, key, "a mapping of RNG tags to lists of values", rolls)
    for tag, values in rolls.items():
        if not isinstance(tag, str) or len(tag) > MAX_NAME:
            raise ScenarioError(f"{where}'{key}': an RNG tag is a string of at most {MAX_NAME} characters, "
                                f"not {_short(tag)}")
        _want(isinstance(values, list), where, f"{key}.{tag}", "a list of values", values)
        if None in values:  # the generator reads a null as "nothing forced": it would be skipped silently
            raise ScenarioError(f"{where}'{key}.{tag}': a forced value cannot be null")


_VIEW_SEAT = re.compile(r"[0-9]{1,4}")


def _check_check(where: str, spec: Any, seats: int) -> None:
    """``check``: dotted paths to expected values, or to one ``$`` test whose argument has the right type."""
    _want(isinstance(spec, dict), where, "check", "a mapping of paths to values", spec)
    for path, expected in spec.items():
        head, _, rest = str(path).partition(".")
        if head == "@after" and not rest.partition(".")[0]:
            raise ScenarioError(f"{where}check path {_short(path)}: @after.<mark>, e.g. @after.neutral")
        if head == "@view":
            who = rest.partition(".")[0]
            if who != "public" and not (_VIEW_SEAT.fullmatch(who) and int(who) < seats):
                raise ScenarioError(f"{where}check path {_short(path)}: @view.<seat number or public>")
        try:
            op = _operator(expected)
        except ScenarioError as exc:
            raise ScenarioError(f"{where}{exc}") from None
        if op is None:
            continue
        name, arg = op
        label = f"check.{str(path)[:60]}.{name}"
        if name == "$len":
            _want(_is_int(arg) and arg >= 0, where, label, "a whole number, 0 or more", arg)
        elif name in ("$min", "$max"):
            _want(_is_number(arg), where, label, "a number", arg)
        elif name == "$absent":
            _want(isinstance(arg, bool), where, label, "true or false", arg)


def _check_step(i: int, step: Any, seats: int) -> None:
    where = f"step {i}: "
    if not isinstance(step, dict):
        raise ScenarioError(f"step {i}: a step must be a mapping with keys among {sorted(STEP_KEYS)}, "
                            f"not {_kind(step)}")
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise ScenarioError(f"step {i}: unknown keys {sorted(map(str, unknown))}; known: {sorted(STEP_KEYS)}")
    acts = [key for key in ("action", "timeout", "bot", "moderator") if key in step]
    if len(acts) > 1:
        raise ScenarioError(f"step {i}: one of 'action', 'timeout', 'bot', 'moderator' per step, "
                            f"not {' and '.join(acts)}")
    if "moderator" in step:
        moderator = step["moderator"]
        _want(isinstance(moderator, dict) and isinstance(moderator.get("type"), str), where, "moderator",
              "a moderator's step of the record (a mapping with a 'type')", moderator)
    if "seat" in step:  # any whole number: a seat outside the table is the engine's "not a player" to report
        _want(_is_int(step["seat"]), where, "seat", "a whole number", step["seat"])
    if "action" in step:  # a string reaches the engine, which refuses it as malformed
        _want(isinstance(step["action"], (dict, str)), where, "action", "a mapping or a string", step["action"])
    for flag in ("timeout", "bot"):
        if flag in step and step[flag] is not True:
            raise ScenarioError(f"step {i}: {flag!r} must be true, not {_short(step[flag])}")
    if "expect" in step:
        _check_expect(where, step["expect"])
    if "rolls" in step:
        _check_rolls(where, "rolls", step["rolls"])
    if "wait" in step:
        wait = step["wait"]
        _want(_is_number(wait), where, "wait", "a number of seconds", wait)
        if not 0 <= wait <= MAX_WAIT:
            raise ScenarioError(f"step {i}: 'wait' must be from 0 to {MAX_WAIT} seconds (ten years), not {wait}")
    if "at" in step:
        at = step["at"]
        _want(_is_number(at), where, "at", "a number of epoch seconds", at)
        if not 0 <= at <= MAX_NOW:
            raise ScenarioError(f"step {i}: 'at' must be from 0 to {MAX_NOW} epoch seconds, not {at}")
        if "wait" in step:
            raise ScenarioError(f"step {i}: one of 'wait' and 'at' per step")
    if "position" in step:
        _want(isinstance(step["position"], dict), where, "position", "a mapping of state paths to values",
              step["position"])
        for path in step["position"]:
            _want(isinstance(path, str), where, "position", "keyed by dotted state paths", path)
    if "check" in step:
        _check_check(where, step["check"], seats)
    if "note" in step:
        _want(isinstance(step["note"], str), where, "note", "a string", step["note"])


def _game(doc: dict[str, Any]) -> Any:
    if "game" not in doc:
        raise ScenarioError("'game' is missing: which game does the scenario play?")
    name = doc["game"]
    _want(isinstance(name, str), "", "game", "a game's name", name)
    try:
        return get_game(name)
    except KeyError:
        raise ScenarioError(f"unknown game {_short(name)}") from None


def _names(doc: dict[str, Any], game: Any) -> list[str]:
    """The seats' names: a list of names, or a number of seats, within the game's own seat range (checked
    before anything is built: a huge number would otherwise be a huge list)."""
    seats = doc.get("seats", game.min_seats)
    _want(_is_int(seats) or isinstance(seats, list), "", "seats", "a number or a list of names", seats)
    count = seats if _is_int(seats) else len(seats)
    if not game.min_seats <= count <= game.max_seats:
        raise ScenarioError(f"'seats': {game.name} is played by {game.min_seats} to {game.max_seats} seats, "
                            f"not {count}")
    if _is_int(seats):
        return [f"P{i}" for i in range(seats)]
    for j, name in enumerate(seats):
        if not (isinstance(name, str) or _is_int(name)) or len(str(name)) > MAX_NAME:
            raise ScenarioError(f"'seats.{j}': a seat's name is a string of at most {MAX_NAME} characters, "
                                f"not {_short(name)}")
    return [str(name) for name in seats]


def _check_top(doc: dict[str, Any], game: Any, seats: int) -> None:
    """The shape of every top-level key but game and seats, and of every step (before any of them runs)."""
    for key in ("title", "description", "note"):
        if key in doc:
            _want(isinstance(doc[key], str), "", key, "a string", doc[key])
    if "seed" in doc:
        seed = doc["seed"]
        _want(isinstance(seed, str) or _is_int(seed), "", "seed", "a string", seed)
        if len(str(seed)) > MAX_SEED:
            raise ScenarioError(f"'seed': at most {MAX_SEED} characters")
    if "now" in doc:
        now = doc["now"]
        _want(_is_number(now), "", "now", "a number of epoch seconds", now)
        if not 0 <= now <= MAX_NOW:
            raise ScenarioError(f"'now' must be from 0 to {MAX_NOW} epoch seconds, not {now}")
    if doc.get("options") is not None:
        options = doc["options"]
        _want(isinstance(options, dict), "", "options", "a mapping of option names to values", options)
        for name, value in options.items():
            _want(isinstance(name, str), "", "options", "keyed by option names", name)
            _want(value is None or isinstance(value, (str, int, float)), "", f"options.{name}",
                  "a plain value (true/false, a number, a string)", value)
    if doc.get("stack") is not None:
        stack = doc["stack"]
        _want(isinstance(stack, dict), "", "stack", "a mapping of stack keys", stack)
        if stack.get("rolls") is not None:
            _check_rolls("", "stack.rolls", stack["rolls"])
    if "state" in doc:
        _want(isinstance(doc["state"], dict), "", "state", "a whole state (a mapping)", doc["state"])
    if "position" in doc:
        _want(isinstance(doc["position"], dict), "", "position", "a mapping of state paths to values",
              doc["position"])
        for path in doc["position"]:
            _want(isinstance(path, str), "", "position", "keyed by dotted state paths", path)
    if "expect" in doc:
        _check_expect("", doc["expect"])
    steps = doc.get("steps")
    _want(steps is None or isinstance(steps, list), "", "steps", "a list of steps", steps)
    if steps and len(steps) > MAX_STEPS:
        raise ScenarioError(f"'steps': {len(steps)} steps; a scenario has at most {MAX_STEPS}")
    for i, step in enumerate(steps or []):
        _check_step(i, step, seats)
    _check_totals(doc)


def _size(value: Any) -> int:
    """How many values ``value`` holds, itself included (its nesting is already bounded)."""
    todo, count = [value], 0
    while todo:
        item = todo.pop()
        count += 1
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return count


def _check_totals(doc: dict[str, Any]) -> None:
    """Totals whose cost multiplies with the game's: checks (each may walk a state or build a view) and forced
    values (the state carries them until drawn, and every step's report copies the state)."""
    steps = doc.get("steps") or []
    checks = sum(len(step.get("check") or {}) for step in steps)
    if checks > MAX_CHECKS:
        raise ScenarioError(f"'steps': {checks} check paths; a scenario has at most {MAX_CHECKS}")
    rolls = [(doc.get("stack") or {}).get("rolls") or {}, *(step.get("rolls") or {} for step in steps)]
    forced = sum(_size(values) - 1 for mapping in rolls for values in mapping.values())
    if forced > MAX_FORCED:
        raise ScenarioError(f"'rolls': {forced} forced values in all; a scenario has at most {MAX_FORCED}")


def _check_options(doc: dict[str, Any], game: Any) -> None:
    """Unknown options and bad values are an error in the file, unless the file expects the set-up to be
    refused (``expect: bad_options``): then the game's refusal is the report, as for a bad stack."""
    if "expect" in doc:
        return
    with _engine(game, "'options'"):
        try:
            game.validate_options(doc.get("options"))
        except Reject as r:
            raise ScenarioError(f"'options': {_option_problem(r.rejection)}") from None


def _option_problem(rejection: Rejection) -> str:
    """The game's refusal of an option in English, with its reason and the allowed values spelled out (the
    refusal carries the reason as a message key)."""
    from bot.i18n import t

    params = dict(rejection.params)
    if str(params.get("reason", "")).startswith("core.option."):
        params["reason"] = t(params["reason"], "en")
    text = t(rejection.key, "en", **params)
    if params.get("choices"):
        text += f" Choices: {params['choices']}."
    elif params.get("min") is not None or params.get("max") is not None:
        text += f" From {params.get('min')} to {params.get('max')}."
    return text


def _stack_misfit(rejection: Rejection, where: str) -> None:
    """A stacked value the draw cannot use is the file's mistake (exit 2), not a refusal the file could
    expect: the engine reports it as a bad_stack_value rejection."""
    if rejection.key == "core.reject.bad_stack_value":
        raise ScenarioError(f"{where}: {rejection.params.get('detail', 'a stacked value does not fit')}")


@contextmanager
def _engine(game: Any, where: str) -> Iterator[None]:
    """Run engine code on the file's input.  A stacked value the draw cannot use is the file's fault; any
    other exception is an engine that crashed on input its contract says it refuses (a garbage action, a
    stack of the wrong shape): a bug in the game, reported here as an error naming the step, not a traceback."""
    try:
        yield
    except ScenarioError:
        raise
    except StackError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 (the point: nothing escapes as a traceback)
        raise ScenarioError(f"{where}: the {game.name} engine failed instead of refusing the input "
                            f"({type(exc).__name__}: {exc}); a bug in the game, please report it") from None


# ---------------------------------------------------------------------------------- checks
def _get_path(obj: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj[part]
        else:
            raise KeyError(path)
    return obj


def _occurs(needle: Any, hay: Any) -> bool:
    """``needle`` is ``hay`` or occurs anywhere inside it (a list item, a dict key or value, at any depth)."""
    if hay == needle:
        return True
    if isinstance(hay, dict):
        return _hashable_in(needle, hay) or any(_occurs(needle, v) for v in hay.values())
    if isinstance(hay, list):
        return any(_occurs(needle, v) for v in hay)
    return False


def _hashable_in(needle: Any, mapping: dict[Any, Any]) -> bool:
    """``needle in mapping``, false for a list or mapping needle (never a key, and unhashable)."""
    return not isinstance(needle, (list, dict)) and needle in mapping


#: check operators: ``{"hands.1": {"$len": 5}}``; a plain value means equality
_OPERATORS = {
    "$len": lambda actual, arg: isinstance(actual, (list, dict, str)) and len(actual) == arg,
    "$contains": lambda actual, arg: _occurs(arg, actual),
    "$lacks": lambda actual, arg: not _occurs(arg, actual),
    "$ne": lambda actual, arg: actual != arg,
    "$min": lambda actual, arg: isinstance(actual, (int, float)) and actual >= arg,
    "$max": lambda actual, arg: isinstance(actual, (int, float)) and actual <= arg,
}


def _operator(expected: Any) -> tuple[str, Any] | None:
    if isinstance(expected, dict) and len(expected) == 1:
        (name, arg), = expected.items()
        if isinstance(name, str) and name.startswith("$"):
            if name not in _OPERATORS and name != "$absent":
                raise ScenarioError(f"unknown check operator {_short(name)}; known: {sorted([*_OPERATORS, '$absent'])}")
            return name, arg
    return None


def _root(path: str, state: dict[str, Any], game: Any, events: list[dict[str, Any]],
          derived: dict[Any, Any]) -> tuple[Any, str]:
    """Where a check path points: ``@view.<seat|public>.…`` a seat's (or the public) view, ``@events.…`` the
    step's events, ``@setup.…`` the set-up's events (the deal, the first turn; none for a position set up
    directly), ``@table.…`` the game's judge table (derived numbers such as scores), ``@after.<mark>.…`` the state
    at a boundary the game marked inside the step's action (Bridges: ``neutral``), anything else the state.  Views
    and the table are built once per step (``derived``), however many paths read them."""
    head, _, rest = path.partition(".")
    if head == "@events":
        return events, rest
    if head == "@setup":
        return derived["@setup"], rest
    if head == "@after":  # the state at a boundary the game marked inside this step's action
        name, _, rest = rest.partition(".")
        marks = derived.get("@marks") or {}
        if name not in marks:
            raise KeyError(path)
        return marks[name], rest
    if head == "@table":
        if "@table" not in derived:
            derived["@table"] = game.judge_table(state)
        return derived["@table"], rest
    if head == "@view":
        who, _, rest = rest.partition(".")
        if who != "public" and not (_VIEW_SEAT.fullmatch(who) and int(who) < state["seats"]):
            raise ScenarioError(f"check path {_short(path)}: @view.<seat number or public>")
        seat = None if who == "public" else int(who)
        if seat not in derived:
            derived[seat] = game.view(state, seat)
        return derived[seat], rest
    return state, path


def _checks(state: dict[str, Any], spec: dict[str, Any], game: Any,
            events: list[dict[str, Any]], setup: list[dict[str, Any]],
            marks: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    results = []
    derived: dict[Any, Any] = {"@setup": setup, "@marks": marks or {}}
    for path, expected in spec.items():
        op = _operator(expected)
        try:
            root, rest = _root(str(path), state, game, events, derived)
            actual = _get_path(root, rest) if rest else root
        except (KeyError, IndexError, ValueError):
            ok = op is not None and op[0] == "$absent" and bool(op[1])
            results.append({"path": path, "expected": expected, "actual": None, "ok": ok, "missing": True})
            continue
        if op is None:
            ok = actual == expected
        elif op[0] == "$absent":
            ok = not op[1]
        else:
            ok = _OPERATORS[op[0]](actual, op[1])
        results.append({"path": path, "expected": expected, "actual": actual, "ok": ok})
    return results


def _expected(expect: Any, result: Applied | Rejection) -> bool:
    """``expect``: "applied", "rejected", a reason code, or a mapping of the refusal's code / key / rule."""
    if isinstance(expect, dict):
        return isinstance(result, Rejection) and all(getattr(result, k) == v for k, v in expect.items())
    if isinstance(result, Rejection):
        return expect == "rejected" or expect == result.code
    return expect == "applied"


# ---------------------------------------------------------------------------------- running
def validate(doc: Any) -> tuple[Any, list[str]]:
    """Check a whole scenario document before anything runs; returns the game and the seats' names."""
    if not isinstance(doc, dict):
        raise ScenarioError(f"a scenario is a mapping with at least 'game' and 'steps', not {_kind(doc)}")
    _check_plain(doc)
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys: {sorted(map(str, unknown))}; known: {sorted(TOP_KEYS)}")
    game = _game(doc)
    names = _names(doc, game)
    _check_top(doc, game, len(names))
    _deck_file(doc, game)
    _check_options(doc, game)
    return game, names


def _deck_file(doc: dict[str, Any], game: Any) -> None:
    """``deck_file``: a deck of the scenario's own (Raiders), loaded and checked by the game, becomes the table's
    ``deck`` option (written into the document's options)."""
    if "deck_file" not in doc:
        return
    path = doc["deck_file"]
    _want(isinstance(path, str), "", "deck_file", "a file name", path)
    if not game.facts.deck_files:
        raise ScenarioError(f"'deck_file': {game.name} has no deck files")
    try:
        chosen = game.use_deck_file(Path(path))
    except CatalogError as exc:  # every mistake in the file, one line each
        lines = str(exc).splitlines()
        more = f" (+{len(lines) - 3} more)" if len(lines) > 3 else ""
        raise ScenarioError(f"'deck_file': {'; '.join(lines[:3])}{more}") from None
    options = dict(doc.get("options") or {})
    for name, value in chosen.items():
        if options.get(name, value) != value:
            raise ScenarioError(f"'deck_file' and 'options.{name}' name two different decks")
        options[name] = value
    doc["options"] = options


def run(doc: dict[str, Any], *, views: bool = False, locale: str | None = None,
        with_states: bool = True) -> dict[str, Any]:
    """Run a scenario document; returns the JSON-ready report (``ok`` is False when an expectation failed).
    Raises ScenarioError, and nothing else, when the document is malformed."""
    game, names = validate(doc)
    now = float(doc.get("now", DEFAULT_START))
    seed = str(doc.get("seed", "scenario"))
    with _engine(game, "set-up"):
        try:
            init = game.initial_state(len(names), seed=seed, options=doc.get("options"), now=now,
                                      stack=doc.get("stack"))
        except Reject as r:  # a refused set-up ends the run; it passes only when the file expects exactly that
            _stack_misfit(r.rejection, "set-up")
            refused = {"game": game.name, "seats": names, "error": r.rejection.to_json(),
                       "message": r.rejection.message(locale or "en")}
            return {**refused, "ok": "expect" in doc and _expected(doc["expect"], r.rejection)}
    seeded = init.state
    if "state" in doc or "position" in doc:
        try:
            init = Applied(_position(game, doc, init.state), [])
        except PositionError as exc:  # refused like a set-up the game refuses: expected, or the file's mistake
            where = _position_key(doc, exc.key)
            if "expect" not in doc:
                raise ScenarioError(f"{where}: {exc.problem}" + (f" ({exc.rule})" if exc.rule else "")) from None
            rejection = Rejection(Code.BAD_SETUP, "core.reject.bad_position", {"key": where, "problem": exc.problem},
                                  rule=exc.rule)
            return {"game": game.name, "seats": names, "error": rejection.to_json(),
                    "message": rejection.message(locale or "en"), "ok": _expected(doc["expect"], rejection)}
    if "expect" in doc:
        return {"game": game.name, "seats": names, "ok": False, "expectation_failed": doc["expect"],
                "final": init.state}
    state = init.state
    history = {state["version"]: state}   # the states met, by version: what a moderator's rollback returns to

    def snapshot(events: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {"events": events}
        if locale:
            out["text"] = [line for e in events if (line := game.render_event(e, locale, names))]
        if with_states:
            out["state"] = state
        if views:
            out["views"] = {str(s): game.view(state, s) for s in [None, *range(len(names))]}
        return out

    with _engine(game, "set-up"):
        report: dict[str, Any] = {
            "game": game.name, "seats": names, "seed": seed, "options": state["options"],
            "initial": snapshot(init.events), "steps": [], "checks": [],
        }
    ok = True
    for i, step in enumerate(doc.get("steps") or []):
        entry: dict[str, Any] = {"step": i}
        events: list[dict[str, Any]] = []
        if "note" in step:
            entry["note"] = step["note"]
        if "wait" in step:
            now += float(step["wait"])
            entry["wait"] = step["wait"]
        if "at" in step:  # the clock set to a time (a stored action's own time, from --from-table)
            now = float(step["at"])
            entry["at"] = step["at"]
        marks: dict[str, Any] = {}
        with _engine(game, f"step {i}"):
            if "rolls" in step:
                state = clone(state)  # the previous step's reported state must not show rolls pushed later
                rng = Rng(state["rng"])
                for tag, values in step["rolls"].items():
                    rng.push(tag, list(values))
                entry["rolls"] = step["rolls"]
            if "position" in step:  # set paths of the position reached, checked like a set-up position
                try:
                    state = place(state, step["position"])
                    validate_position(game, state, seeded)
                except PositionError as exc:
                    where = _position_key({"position": step["position"]}, exc.key)
                    raise ScenarioError(f"step {i}: {where}: {exc.problem}"
                                        + (f" ({exc.rule})" if exc.rule else "")) from None
                entry["position"] = step["position"]
            if "moderator" in step:  # a moderator's step of the record (scenario --from-table writes them)
                result = _moderator(game, state, step["moderator"], now, history, i)
                entry["moderator"] = step["moderator"]
                expect = step.get("expect", "applied")
                if isinstance(result, Rejection):
                    entry["result"] = "rejected"
                    entry["rejection"] = {**result.to_json(), "message": result.message(locale or "ru")}
                else:
                    state, events = result.state, result.events
                    entry["result"] = "applied"
                    entry.update(snapshot(result.events))
                if not _expected(expect, result):
                    entry["expectation_failed"] = expect
                    ok = False
            if "action" in step or "timeout" in step or "bot" in step:
                seat = _acting_seat(game, state, step, i)
                if "timeout" in step:
                    action = {"type": "timeout"}
                elif "bot" in step:
                    action = game.bot_action(state, seat, random.Random(i))
                else:
                    action = step["action"]
                result = game.apply(state, seat, action, now=now, marks=marks)
                if isinstance(result, Rejection):
                    _stack_misfit(result, f"step {i}")
                entry.update({"seat": seat, "action": action})
                expect = step.get("expect", "applied")
                passed = _expected(expect, result)
                if isinstance(result, Rejection):
                    entry["result"] = "rejected"
                    entry["rejection"] = {**result.to_json(), "message": result.message(locale or "ru")}
                else:
                    state, events = result.state, result.events
                    entry["result"] = "applied"
                    entry.update(snapshot(result.events))
                    if marks and with_states:
                        entry["after"] = marks
                if not passed:
                    entry["expectation_failed"] = expect
                    ok = False
            if "check" in step:
                try:
                    results = _checks(state, step["check"], game, events, init.events,
                                      marks if entry.get("result") == "applied" else None)
                except ScenarioError as exc:
                    raise ScenarioError(f"step {i}: {exc}") from None
                entry["check"] = results
                report["checks"] += [{"step": i, **r} for r in results]
                ok = ok and all(r["ok"] for r in results)
        history[state["version"]] = state
        report["steps"].append(entry)
    with _engine(game, "after the last step"):
        report["final"] = state
        report["to_act"] = [p.seat for p in game.to_act(state)]
        report["outcome"] = state.get("outcome")
    report["ok"] = ok
    return report


def _moderator(game: Any, state: dict[str, Any], action: dict[str, Any], now: float,
               history: dict[int, dict[str, Any]], i: int) -> Applied | Rejection:
    """A moderator's step as the record holds it, applied as replay applies it (bot/referee/record.py): a rollback
    to a version this scenario has been at, an upgrade (the state is already of today's rules: its version is
    counted), or a correction, an upheld dispute, a forfeit (bot/referee/moderation.py)."""
    from bot.engine.versions import CannotMigrate, upgraded_state
    from bot.referee.moderation import moderator_step, rollback_state

    kind = action.get("type")
    if kind == "rollback":
        to = action.get("to")
        if not _is_int(to) or to not in history:
            raise ScenarioError(f"step {i}: 'moderator': a rollback to version {_short(to)}, which this scenario "
                                f"has not been at (versions {min(history)}..{max(history)})")
        return Applied(rollback_state(history[to], state["version"] + 1), [])
    if kind == "upgrade":
        try:
            return Applied(upgraded_state(game, state, state["version"] + 1), [])
        except CannotMigrate as exc:
            raise ScenarioError(f"step {i}: 'moderator': the upgrade cannot be applied ({exc})") from None
    return moderator_step(game, state, action, now)


def _position(game: Any, doc: dict[str, Any], seeded: dict[str, Any]) -> dict[str, Any]:
    """The position the scenario starts from: the file's whole ``state`` (else the seeded start) with the dotted
    paths of ``position`` set over it, validated with the engine's invariants (bot/engine/position.py and the
    game's own position.py).  Raises PositionError naming the state key at fault."""
    state = clone(doc["state"]) if "state" in doc else seeded
    if "position" in doc:
        state = place(state, doc["position"])
    validate_position(game, state, seeded)
    return state


def _position_key(doc: dict[str, Any], key: str) -> str:
    """The file's key a position error names: ``'position.<key>'`` when the key at fault is a path the file set or
    lies under one, ``'position.<path>'`` when a path the file set lies under the key at fault (a conservation
    count, a shape), ``'state.<key>'`` in a whole state, else ``'position' (the state's <key>)``: a key of the
    seeded start the file's paths broke (a card moved out of the deck and not written elsewhere)."""
    for path in doc.get("position") or {}:
        if key and (key == path or key.startswith(path + ".")):
            return repr(f"position.{key}")
    for path in doc.get("position") or {}:
        if not key or path.startswith(key + "."):
            return repr(f"position.{path}")
    if "state" in doc:
        return repr(f"state.{key}" if key else "state")
    return "'position'" + (f" (the state's {key})" if key else "")


def _acting_seat(game: Any, state: dict[str, Any], step: dict[str, Any], i: int) -> int:
    """The step's seat, or the only seat that may act; the built-in bot plays only for a seat that owes a
    decision (it has nothing to choose from otherwise)."""
    pending = [p.seat for p in game.to_act(state)]
    if "seat" in step:
        seat = step["seat"]
    elif len(pending) == 1:
        seat = pending[0]
    else:
        raise ScenarioError(f"step {i}: say which seat acts ({len(pending)} seats may act)")
    if "bot" in step and seat not in pending:
        raise ScenarioError(f"step {i}: the bot plays for a seat that owes a decision; seat {seat} owes none now")
    return seat


def dump(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)


__all__ = ["ScenarioError", "load", "validate", "run", "dump"]
