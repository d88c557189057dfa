"""Canonical JSON is written by orjson where that is provably byte-for-byte what json.dumps writes, and read
by orjson where that returns what json.loads returns (bot/engine/canonical.py): fuzzed values, the edges
where the two libraries differ, and every state of real playouts of each game."""
from __future__ import annotations

import collections
import dataclasses
import datetime
import decimal
import enum
import json
import uuid
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.engine import all_games
from bot.engine.canonical import _fast, digest, dumps, dumps_bytes, loads
from bot.engine.playout import play

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def old_dumps(obj: Any) -> str:
    """The canonical form as it always was: what every stored record was written with."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def outcome(call, *args) -> tuple[str, Any]:
    """A call's result, or the type of what it raised: the two implementations must agree on either."""
    try:
        return "ok", call(*args)
    except Exception as exc:  # noqa: BLE001 - the exception's type is what is compared
        return "raised", type(exc)


EDGE_INTS = [0, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 10**30,
             -(10**40)]
EDGE_FLOATS = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-320, 1e-7, 1e-5, -1e-5, 2.5e-5, 9.99e-5, 1e-4,
               0.0001234, 0.1, 1 / 3, 1e15, 9999999999999998.0, 1e16, -1e16, 1.2345678901234567e19, 1e21, 1e22,
               1e23, 1.7976931348623157e308, 1_700_000_123.456]
# keys and strings: Cyrillic, emoji, the JSON escapes, other control characters, DEL, U+0085, U+2028/2029,
# the last BMP code point before an astral one (UTF-16 would sort them the other way round)
EDGE_CHARS = "aZ0 _-.+eEяЖё😀🂡\"\\/\b\f\n\r\t\x00\x01\x1f\x7f\x85\u2028\u2029\ufeff\uffff\U00010000"
texts = st.text(st.sampled_from(EDGE_CHARS) | st.characters(exclude_categories=["Cs"]), max_size=12)
ints = st.sampled_from(EDGE_INTS) | st.integers(-(2**70), 2**70) | st.integers(-1000, 1000)
floats = st.sampled_from(EDGE_FLOATS) | st.floats(allow_nan=False, allow_infinity=False) | st.floats(-1e6, 1e6)
scalars = st.none() | st.booleans() | ints | floats | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=4).map(tuple)
    | st.dictionaries(texts, inner, max_size=5),
    max_leaves=40,
)


@FUZZ
@given(json_values)
@example({"big": 2**64, "small": 1e-5, "huge": 1e16, "tiny": 1e-7, "zero": -0.0, "min": 5e-324, "e22": 1e22})
@example({"\uffff": 1, "\U00010000": 2, "я": 3, "z": 4, "": 5, "\x00": 6})
@example(["1e-5", "0.00001", "e-", "+", {"a-b": "x.0000"}])  # strings that only look like exponents
def test_dumps_writes_exactly_what_json_dumps_writes(value):
    text = old_dumps(value)
    assert dumps(value) == text
    assert dumps_bytes(value) == text.encode()
    assert digest(value) == digest_of(text)
    assert repr(loads(text)) == repr(json.loads(text))  # repr: 1 is not 1.0, -0.0 is not 0.0
    assert repr(loads(text.encode())) == repr(json.loads(text))


def digest_of(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


@FUZZ
@given(json_values, st.sampled_from([float("nan"), float("inf"), float("-inf")]), st.data())
def test_nan_and_infinity_are_refused_wherever_they_are(value, bad, data):
    """orjson would write them as null: the fallback to json.dumps must see them and raise ValueError."""
    holder = data.draw(st.sampled_from(["list", "dict", "bare"]))
    poisoned = [value, bad] if holder == "list" else {"k": value, "v": [bad]} if holder == "dict" else bad
    with pytest.raises(ValueError):
        dumps(poisoned)
    with pytest.raises(ValueError):
        dumps_bytes(poisoned)


@FUZZ
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(1e-5)
@example(1e16)
@example(1e-7)
def test_every_float_orjson_writes_differently_is_noticed(value):
    """The cheap float check must flag every float on which orjson and repr differ (orjson's own format is
    an assumption of bot/engine/canonical.py: an orjson upgrade that changes it fails here)."""
    if orjson.dumps(value).decode() != repr(value):
        assert _fast(value) is None and _fast([value]) is None and _fast({"a": value}) is None
    assert dumps(value) == repr(value) and dumps([1, value]) == f"[1,{value!r}]"


class Colour(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    HIGH = 3


class Word(enum.StrEnum):
    HELLO = "hello"


class Text(str):
    pass


class Number(int):
    pass


class Real(float):
    pass


class Mapping(dict):
    pass


class Items(list):
    pass


@dataclasses.dataclass
class Point:
    x: int = 1


Pair = collections.namedtuple("Pair", "a b")
LOOP: list[Any] = []
LOOP.append(LOOP)

ODD_VALUES = {
    "enum": Colour.RED, "intenum": Level.HIGH, "strenum": Word.HELLO, "str subclass": Text("t"),
    "int subclass": Number(7), "float subclass": Real(1.5), "dict subclass": Mapping(b=1, a=2),
    "list subclass": Items([1]), "ordered dict": collections.OrderedDict([("b", 1), ("a", 2)]),
    "namedtuple": Pair(1, 2), "dataclass": Point(), "datetime": datetime.datetime(2024, 1, 2, 3, 4, 5),
    "date": datetime.date(2024, 1, 2), "uuid": uuid.UUID(int=7), "decimal": decimal.Decimal("1.5"),
    "set": {1}, "bytes": b"x", "bytearray": bytearray(b"x"), "complex": 1j, "fragment": orjson.Fragment(b"1"),
    "int keys": {10: "a", 2: "b"}, "mixed keys": {1: "a", "b": 2}, "none key": {None: 1}, "bool key": {True: 1},
    "float key": {1.5: 1}, "str subclass key": {Text("k"): 1}, "enum key": {Word.HELLO: 1},
    "lone surrogate": "\ud800", "surrogate key": {"\udfff": 1}, "circular": LOOP, "nan": float("nan"),
    "deep": json.loads("[" * 300 + "]" * 300), "big": [2**64, -(2**63) - 1],
}


@pytest.mark.parametrize("name", list(ODD_VALUES))
def test_what_json_dumps_writes_differently_or_refuses_behaves_as_before(name):
    """Subclasses, enums, UUIDs, dataclasses, datetimes, non-str keys, lone surrogates...: the same text as
    json.dumps, or the same exception type where json.dumps refuses (dumps_bytes: where .encode() does)."""
    value = ODD_VALUES[name]
    assert outcome(dumps, value) == outcome(old_dumps, value)
    assert outcome(dumps_bytes, value) == outcome(lambda v: old_dumps(v).encode(), value)


LOADS_EDGES = [
    "18446744073709551616", "-9223372036854775809", "18446744073709551615", "-9223372036854775808",
    "[123456789012345678901234567890]", '{"a":1000000000000000000000}', "NaN", "[Infinity,-Infinity]", "1e400",
    "-1e400", "1.7976931348623159e308", "-0", "-0.0", "1E5", "1e-5", "5e-324", "1.5e-324", '"\\ud800"',
    '"\\ud83d\\ude00"', '{"a":1,"a":2}', " [1 , 2] ", '"\\u0000\\u2028"', "[" * 300 + "]" * 300, "0.30000000000000004",
    "9007199254740993", '{"b":1,"a":{"d":[],"c":null}}', "", "[1,]", "{'a':1}", '"\x00"', "\ufeff[1]", "01", "tru",
]


@pytest.mark.parametrize("text", LOADS_EDGES)
def test_loads_returns_what_json_loads_returns(text):
    for given_as in (text, text.encode("utf-8", "surrogatepass")):  # json.loads reads str and bytes apart
        got, want = outcome(loads, given_as), outcome(json.loads, given_as)
        assert (got[0], repr(got[1])) == (want[0], repr(want[1]))
    assert outcome(loads, "\ufeff[1]".encode()) == ("ok", [1])  # json.loads reads a UTF-8 BOM in bytes
    assert outcome(loads, '"\udc80"')[1] == "\udc80"             # a lone surrogate in the str itself


@FUZZ
@given(st.recursive(
    st.none() | st.booleans() | ints | st.floats() | st.text(max_size=8),  # NaN, ±inf and lone surrogates too
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
), st.booleans(), st.booleans())
def test_loads_of_any_json_text_equals_json_loads(value, ascii_only, as_bytes):
    text = json.dumps(value, ensure_ascii=ascii_only)  # the forms older or foreign writers could have stored
    given_as: Any = text.encode("utf-8", "surrogatepass") if as_bytes else text
    assert repr(loads(given_as)) == repr(json.loads(given_as))


def playout_states(per_game: int = 2):
    for name, game in all_games().items():
        if name == "toy":
            continue
        for i in range(per_game):
            seats = game.min_seats + i % (game.max_seats - game.min_seats + 1)
            po = play(game, seats, seed=f"canonical-{name}-{i}", bot_seed=i, max_actions=250)
            yield name, [po.initial, *po.states]


@pytest.mark.parametrize("name,states", list(playout_states()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_state_of_real_playouts_encodes_as_before_and_mostly_fast(name, states):
    fast = 0
    for state in states:
        text = old_dumps(state)
        assert dumps(state) == text and dumps_bytes(state) == text.encode()
        assert loads(text) == json.loads(text) == state
        fast += _fast(state) is not None
    # the point of it: real states take orjson's path, not the fallback (a false alarm only costs time)
    assert fast >= 0.9 * len(states), f"{name}: only {fast} of {len(states)} states encoded by orjson"
