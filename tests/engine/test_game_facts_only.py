"""Every per-game fact is declared on the game (``Game.facts`` and its hooks, bot/engine/contract.py): read from
the code's own syntax (stdlib ``ast``), no module of bot/ or cogs/ outside bot/games switches on a game's name
(compares with it, keys a dict by it, lists it in a collection, matches on it), reads a game's attribute with
``getattr``/``hasattr`` or imports a game's own modules (the registry is the way in).  A failure names the module
and the line.

A game's name may still be passed on (``get_game("claygod")`` for a demo, a command's default): that chooses a
game, it does not say anything about one."""
from __future__ import annotations

import ast
from pathlib import Path

from bot.engine import Game, all_games

ROOT = Path(__file__).resolve().parents[2]


def _constant_names(node: ast.AST, games: frozenset[str]) -> list[str]:
    """The game names among ``node``'s string constants (itself, or the items of a tuple/list/set)."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in games]


def _mentions_game(node: ast.AST) -> bool:
    return "game" in ast.unparse(node).lower() or "engine" in ast.unparse(node).lower()


def findings_in(source: str, module: str, games: frozenset[str]) -> list[str]:
    """What in ``source`` says something about a game outside the game: "module:line: what" each, by line, one
    finding per name and line (a comparison with a tuple of names is one switch, not two)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, module)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found += [f"{module}:{line}: compares with the game name {name!r}"
                          for name in _constant_names(side, games)]
        elif isinstance(node, ast.Dict):
            found += [f"{module}:{line}: a dict keyed by the game name {name!r}"
                      for key in node.keys if key is not None for name in _constant_names(key, games)]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            found += [f"{module}:{line}: a collection of game names ({name!r})"
                      for name in _constant_names(node, games)]
        elif isinstance(node, ast.Subscript):
            found += [f"{module}:{line}: an index by the game name {name!r}"
                      for name in _constant_names(node.slice, games)]
        elif isinstance(node, ast.MatchValue):
            found += [f"{module}:{line}: a case of the game name {name!r}"
                      for name in _constant_names(node.value, games)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{module}:{line}: imports the game package {m}" for m in modules if m.startswith("bot.games.")]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
              and node.args and _mentions_game(node.args[0])):
            found += [f"{module}:{line}: {node.func.id} on a game ({ast.unparse(node)})"]
    kept: dict[tuple[int, str], str] = {}
    for finding in found:
        _, line, what = finding.split(":", 2)
        kept.setdefault((int(line), what.split("'")[1] if "'" in what else what), finding)
    return [kept[key] for key in sorted(kept)]


def findings(root: Path = ROOT) -> list[str]:
    games = frozenset(all_games())
    found = []
    for top in ("bot", "cogs"):
        for path in sorted((root / top).rglob("*.py")):
            relative = path.relative_to(root)
            if relative.parts[:2] == ("bot", "games"):
                continue
            found += findings_in(path.read_text(encoding="utf-8"), relative.as_posix(), games)
    return found


def test_no_module_outside_the_games_says_something_about_one() -> None:
    assert findings() == []


def test_the_scan_names_each_kind_of_switch() -> None:
    """The check can fail, and names the module and the line of each kind of switch it knows."""
    games = frozenset({"claygod", "bridges"})
    source = "\n".join([
        'if game == "claygod": pass',                             # 1 a comparison
        'if game in ("bridges", "x"): pass',                      # 2 membership in a tuple of names
        'DRAWERS = {"bridges": draw}',                             # 3 a second registry
        'DUELS = ["claygod"]',                                     # 4 a list of names
        'drawer = DRAWERS["claygod"]',                            # 5 an index by name
        'co = getattr(game, "cooperative", False)',               # 6 a fact read around the contract
        'ok = hasattr(self.engine, "use_deck_file")',             # 7
        'match name:\n    case "bridges": pass',                   # 8-9 a case
        'get_game("claygod"); f(default="bridges")',              # 10 passing a name on is no switch
        'x = getattr(interaction.namespace, "game", None)',       # 11 nor a getattr on something else
        'from bot.games.claygod.cards import catalogue',          # 12 a game's own module, read around it
        'from bot.engine import get_game',                         # 13 the registry is the way in
    ])
    found = findings_in(source, "bot/somewhere.py", games)
    assert [f.split(":")[1] for f in found] == ["1", "2", "3", "4", "5", "6", "7", "9", "12"]
    assert all(f.startswith("bot/somewhere.py:") for f in found)
    assert "getattr on a game" in found[5] and "'bridges'" in found[2]


def test_every_registered_game_declares_consistent_facts() -> None:
    for name, game in all_games().items():
        facts = game.facts
        assert game.min_seats <= game.demo_seat_count() <= game.max_seats, name
        assert all(game.min_seats <= n <= game.max_seats for n in game.conformance_seat_counts()), name
        if facts.rating == "hook":  # a hook game ranks its own sides
            assert type(game).rated_sides is not Game.rated_sides, name
        if facts.deck_files:
            assert type(game).use_deck_file is not Game.use_deck_file, name
        if facts.pictures:
            assert type(game).picture is not Game.picture, name
