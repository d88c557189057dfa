"""Rules versions and the migrations of stored states.

Every game declares ``Game.rules_version``, a number it raises whenever its stored state, its options or any
outcome changes, and ``Game.migrations``: one ``Migration`` per step, the first bringing rules version 1 to 2,
the next 2 to 3, and so on (``rules_version == 1 + len(migrations)``).  Each game keeps its migrations in its
own package (bot/games/<game>/migrations.py); they are kept for ever, like the database's migrations.

A state carries its rules version under the framework key ``rules`` (``Game.initial_state`` sets it).  A
state without it was written before rules versions existed: it is version 1, whichever release wrote it,
so a migration 1→2 recognises every shape that ever existed by its keys.

A migration is pure: it gets a copy of the state (or of the options) and changes that copy, with no clock, no
randomness (the table's generator state is never touched) and no I/O, so that the same old state always gives
the same new one, byte for byte: that is what lets ``verify`` check an upgrade step of the record
(bot/referee/record.py).  A shape it does not know is refused with ``CannotMigrate``, never guessed at.

A new option gets, on an older table, the value that reproduces how that table was being played, not the new
default: that is what the options step of a migration is for.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .contract import Game, State, clone

#: the framework key of a state that holds its rules version (absent: version 1)
RULES = "rules"


class CannotMigrate(Exception):
    """A state (or options) no migration of this release can bring forward: written by a newer release, or
    of a shape no release of this game wrote.  ``key`` is an i18n key (upgrade.cannot.*) with ``params``."""

    def __init__(self, key: str, /, **params: Any):
        super().__init__(f"{key} {params}")
        self.key, self.params = key, params


def _unchanged(value: dict[str, Any]) -> None:
    return None


@dataclass(frozen=True)
class Migration:
    """One step of a game's rules, from ``to - 1`` to ``to``.  ``options`` changes a copy of the table's options
    in place (a lobby's, and a state's before ``state`` runs); ``state`` changes a copy of the whole state in
    place (its options already migrated).  Either raises CannotMigrate for a shape it does not know.
    ``note`` says in a line what changed (shown by ``upgrade --check``)."""

    to: int
    note: str
    state: Callable[[dict[str, Any]], None] = _unchanged
    options: Callable[[dict[str, Any]], None] = _unchanged


def rules_of(state: Mapping[str, Any]) -> int:
    """The rules version a state was written under (1: before rules versions were recorded)."""
    value = state.get(RULES, 1)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise CannotMigrate("upgrade.cannot.bad_version", found=str(value)[:20])
    return value


def check_declared(game: Game) -> None:
    """A game's declaration is consistent: one migration per step, numbered 2, 3, … up to its rules version."""
    steps = [m.to for m in game.migrations]
    if game.rules_version != 1 + len(steps) or steps != list(range(2, game.rules_version + 1)):
        raise AssertionError(f"{game.name}: rules_version {game.rules_version} with migrations to {steps}")


def _steps(game: Game, found: int) -> list[Migration]:
    if found > game.rules_version:
        raise CannotMigrate("upgrade.cannot.newer", found=found, known=game.rules_version)
    return list(game.migrations[found - 1:])


def migrate_options(game: Game, options: Mapping[str, Any], found: int) -> dict[str, Any]:
    """A table's options of rules version ``found`` as today's rules read them (a lobby's; or the options part
    of a state's migration)."""
    opts = clone(dict(options))
    for step in _steps(game, found):
        step.options(opts)
    return opts


def migrate_state(game: Game, state: Mapping[str, Any]) -> State:
    """``state`` brought to ``game.rules_version`` (a copy; the original is untouched).  Its ``version`` stays as
    it was.  Raises CannotMigrate for a newer or unknown shape."""
    if state.get("game") != game.name:
        raise CannotMigrate("upgrade.cannot.other_game", found=str(state.get("game"))[:40], game=game.name)
    found = rules_of(state)
    new = clone(dict(state))
    for step in _steps(game, found):
        if not isinstance(new.get("options"), dict):
            raise CannotMigrate("upgrade.cannot.shape", detail="options")
        step.options(new["options"])
        step.state(new)
        new[RULES] = step.to
    if found == game.rules_version and RULES not in new:  # a game still at rules version 1: mark it so
        new[RULES] = found
    return new


def upgraded_state(game: Game, before: Mapping[str, Any], new_version: int) -> State:
    """The state an upgrade step records: ``before`` migrated, renumbered to the step's table version (the same
    function live and in ``verify``, so both agree byte for byte)."""
    state = migrate_state(game, before)
    state["version"] = new_version
    return state


def check_playable(game: Game, state: State) -> None:
    """What the referee will do with a migrated state, tried once: who acts, what each seat may do and see, the
    game's invariants.  Anything that fails is a shape the migration did not bring forward (CannotMigrate)."""
    try:
        pending = game.to_act(state)
        game.view(state, None)
        for seat in range(state["seats"]):
            game.view(state, seat)
        for p in pending:
            game.legal_actions(state, p.seat)
        game.check_invariants(state)
    except CannotMigrate:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure means: not playable by this release
        raise CannotMigrate("upgrade.cannot.broken", error=f"{type(exc).__name__}: {str(exc)[:120]}") from None


def require_keys(state: Mapping[str, Any], keys: frozenset[str] | set[str], where: str = "state") -> None:
    """Refuse a state that lacks one of ``keys`` (a shape no release wrote)."""
    missing = sorted(k for k in keys if k not in state)
    if missing:
        raise CannotMigrate("upgrade.cannot.shape", detail=f"{where} without {', '.join(missing[:3])}")


def refuse_unknown(state: Mapping[str, Any], known: frozenset[str] | set[str], where: str = "state") -> None:
    """Refuse a state with a key that no release of the game ever wrote (a newer or foreign shape)."""
    unknown = sorted(k for k in state if k not in known)
    if unknown:
        raise CannotMigrate("upgrade.cannot.shape", detail=f"{where} with {', '.join(unknown[:3])}")


def former_readings(readings: Mapping[str, Any], known: frozenset[str]) -> Callable[[dict[str, Any]], None]:
    """An options migration: each option that did not exist yet gets the value that reproduces how the table was
    being played (``readings``, not today's default); an option no release knew is refused."""
    def migrate(options: dict[str, Any]) -> None:
        for name, value in readings.items():
            options.setdefault(name, value)
        refuse_unknown(options, known, "options")
    return migrate


FRAMEWORK_KEYS = frozenset({"game", "version", "seats", "options", "rng", "outcome", RULES})


def readable(game: Game, state: State) -> State:
    """``state`` as today's engine can read it: itself when it is of today's rules, else its migration (an old
    version of a table shown again: a replay, a picture, a message written before an upgrade and delivered
    after it).  Raises CannotMigrate."""
    if rules_of(state) == game.rules_version:
        return state
    return migrate_state(game, state)
