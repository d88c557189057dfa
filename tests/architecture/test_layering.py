"""The floor plan, read from the code's own imports (stdlib ``ast``): no import circle anywhere in bot/ and cogs/,
and no import that runs up or sideways between the layers declared in ``LAYERS`` (docs/architecture.md).

Every import counts: at the top of a module, inside a function (it runs when the function does, and a circle
through it is a circle all the same), and under ``if TYPE_CHECKING:`` (it never runs, but a type named from a
layer above is a dependency on that layer; and tools such as import-linter count it too).  Imports of
modules outside bot/ and cogs/ (the standard library, discord.py...) are not the floor plan's business.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Mapping

from tests.support.modules import ROOT, modules_of

#: The layers, lowest first.  A module may import its own package and any package of a lower layer; packages in
#: one layer are independent of each other (the two front ends of a layer never import one another).  A module
#: belongs to the longest package named here that contains it; one named by none is an error (declare it).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.i18n",),                      # the strings catalogue (ru/uk/en)
    ("bot.process",),                   # the process's settings, garbage-collector policy, bounded cache
    ("bot.engine",),                    # the contract, RNG, registry, catalogues, board text helpers
    ("bot.games",),                     # the five pure engines
    ("bot.rules",),                     # the citation catalogue: book paragraphs and rulings, by citation
    ("bot.storage",),                   # SQLite: the record, the outbox's rows, clocks, tournaments
    ("bot.render",),                    # text and pictures of tables, notices, standings
    ("bot.referee",),                   # the referee service and everything it rules with
    ("bot.ratings",),                   # ratings derived from the record (openskill), profiles, seeding
    ("bot.tournament",),                # the tournament director, pairing, standings
    ("bot.web",),                       # the public pages (read-only; the Discord layer links to them)
    ("bot.discord",),                   # the Discord front end's machinery
    ("bot.terminal", "cogs"),           # the terminal front end (its ``run`` starts Discord); the Discord commands
    ("bot", "bot.__main__"),            # the package itself (empty) and ``python -m bot``
)


# ------------------------------------------------------------------------------------------- reading the code
def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, wherever in it the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str | None:  # the module itself, or the package that holds the name
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [resolve(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # ``from package import module`` imports the module; ``from module import name`` the module
            targets = [resolve(f"{source}.{alias.name}") if f"{source}.{alias.name}" in known else resolve(source)
                       for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t is not None and t != name)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules_of(root)
    return {name: imports_of(name, path, known) for name, path in known.items()}


# ------------------------------------------------------------------------------------------- the two checks
def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One circle (its modules in import order, the first repeated at the end) per group of modules that import
    one another (a strongly connected component, Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, deps = work[-1]
            for dep in deps:
                if dep not in index:
                    index[dep] = low[dep] = len(index)
                    stack.append(dep)
                    on_stack.add(dep)
                    work.append((dep, iter(sorted(graph.get(dep, ())))))
                    break
                if dep in on_stack:
                    low[node] = min(low[node], index[dep])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph.get(node, ()):
                        groups.append(sorted(group))
    return [_one_circle(graph, set(group)) for group in sorted(groups)]


def _one_circle(graph: Mapping[str, Iterable[str]], group: set[str]) -> list[str]:
    """A path from the group's first module back to itself, through the group only (breadth first: a shortest)."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for dep in sorted(graph.get(node, ())):
                if dep == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if dep in group and dep not in came_from:
                    came_from[dep] = node
                    nxt.append(dep)
        frontier = nxt
    raise AssertionError(f"no circle through {sorted(group)}")  # pragma: no cover - a component has one


def package_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> tuple[int, str] | None:
    """(layer, package) of ``module``: the longest declared package containing it."""
    best = None
    for level, packages in enumerate(layers):
        for package in packages:
            if (module == package or module.startswith(package + ".")) and (
                    best is None or len(package) > len(best[1])):
                best = (level, package)
    return best


def layering_faults(graph: Mapping[str, Iterable[str]], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """Every import that runs upward or sideways between the layers, and every module in no declared package."""
    faults = []
    for module in sorted(graph):
        mine = package_of(module, layers)
        if mine is None or (mine[1] == "bot" and module != "bot"):
            faults.append(f"{module} is in no layer: declare its package in LAYERS (tests/architecture/test_layering.py)")
            continue
        for dep in sorted(graph[module]):
            theirs = package_of(dep, layers)
            if theirs is None or theirs[1] == mine[1]:
                continue
            if theirs[0] > mine[0]:
                faults.append(f"upward import: {module} (layer {mine[1]}) imports {dep} (layer {theirs[1]}, above)")
            elif theirs[0] == mine[0]:
                faults.append(f"sideways import: {module} ({mine[1]}) imports {dep} ({theirs[1]}, the same layer)")
    return faults


def circle_faults(graph: Mapping[str, Iterable[str]]) -> list[str]:
    return ["import circle: " + " → ".join(c) for c in circles(graph)]


# ------------------------------------------------------------------------------------------- the code itself
def test_the_code_has_no_import_circle():
    faults = circle_faults(import_graph())
    assert not faults, "\n".join(faults)


def test_no_import_runs_up_or_sideways_between_layers():
    faults = layering_faults(import_graph())
    assert not faults, "\n".join(faults)


def test_every_layer_names_packages_that_exist():
    known = modules_of(ROOT)
    for packages in LAYERS:
        for package in packages:
            assert package in known, f"LAYERS names {package}, which is no module of bot/ or cogs/"


def test_every_package_says_what_it_owns_and_may_import():
    for name, path in modules_of(ROOT).items():
        if path.name == "__init__.py" and name.count(".") <= 1 and name != "bot":
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            assert doc and "import" in doc, f"{path.relative_to(ROOT)}: a docstring saying what it may import"


# ------------------------------------------------------------------------------------------- the checks can fail
def test_a_circle_added_by_hand_is_named():
    graph = {name: set(deps) for name, deps in import_graph().items()}
    graph["bot.referee.timekeeper"].add("bot.referee.service")  # service imports timekeeper: now both ways
    faults = circle_faults(graph)
    assert faults == ["import circle: bot.referee.service → bot.referee.timekeeper → bot.referee.service"]


def test_a_longer_circle_and_a_self_import_are_named():
    graph = {"a.x": {"a.y"}, "a.y": {"a.z", "b"}, "a.z": {"a.x"}, "b": set(), "c": {"c"}}
    assert circle_faults(graph) == ["import circle: a.x → a.y → a.z → a.x", "import circle: c → c"]


def test_an_upward_or_sideways_import_is_named():
    graph = {name: set(deps) for name, deps in import_graph().items()}
    graph["bot.games.gwent.render"].add("bot.render.text")
    graph["bot.storage.clocks"].add("bot.referee.timecontrol")
    graph["cogs.play"].add("bot.terminal.session")
    faults = layering_faults(graph)
    assert faults == [
        "upward import: bot.games.gwent.render (layer bot.games) imports bot.render.text (layer bot.render, above)",
        "upward import: bot.storage.clocks (layer bot.storage) imports bot.referee.timecontrol (layer bot.referee, "
        "above)",
        "sideways import: cogs.play (cogs) imports bot.terminal.session (bot.terminal, the same layer)",
    ]


def test_an_undeclared_module_is_named():
    assert layering_faults({"bot.helpers": set(), "bot": set()}) == [
        "bot.helpers is in no layer: declare its package in LAYERS (tests/architecture/test_layering.py)"]


def test_imports_are_read_wherever_they_stand(tmp_path):
    """The reader, on a small tree written for the test: imports inside functions, under TYPE_CHECKING, relative
    ones and ``from package import module`` all count, and the circles and upward arrows they make are named."""
    files = {
        "bot/__init__.py": "",
        "bot/engine/__init__.py": "from .core import Game\n",
        "bot/engine/core.py": "class Game: ...\n",
        "bot/engine/helpers.py": "def f():\n    from bot.games import chess\n",
        "bot/games/__init__.py": "",
        "bot/games/chess.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.render import board\n",
        "bot/render/__init__.py": "",
        "bot/render/board.py": "from ..engine import Game\nfrom . import pieces\n",
        "bot/render/pieces.py": "import bot.render.board\nimport json\n",
        "cogs/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph["bot.engine.helpers"] == {"bot.games.chess"}
    assert graph["bot.games.chess"] == {"bot.render.board"}
    assert graph["bot.render.board"] == {"bot.engine", "bot.render.pieces"}
    assert circle_faults(graph) == ["import circle: bot.render.board → bot.render.pieces → bot.render.board"]
    assert layering_faults(graph) == [
        "upward import: bot.engine.helpers (layer bot.engine) imports bot.games.chess (layer bot.games, above)",
        "upward import: bot.games.chess (layer bot.games) imports bot.render.board (layer bot.render, above)",
    ]
