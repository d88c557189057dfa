"""The code's shape: engines never import Discord or storage; the Discord package has no import circle."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_discord_package_has_no_import_circle():
    package = ROOT / "bot" / "discord"
    graph = {p.stem: {m.rsplit(".", 1)[-1] for m in imports_of(p) if m.startswith("bot.discord.")}
             for p in package.glob("*.py") if p.stem != "__init__"}
    assert "client" not in set().union(*graph.values()), "only the entry point and cogs import the client"
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' → '.join(path + (name,))}"
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, path + (name,))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_engines_import_neither_discord_nor_storage():
    for path in (ROOT / "bot" / "games").rglob("*.py"):
        for module in imports_of(path):
            assert not module.startswith(("discord", "bot.discord", "bot.storage", "aiosqlite", "bot.referee.service")), \
                (path, module)
