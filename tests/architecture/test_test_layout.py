"""The tests' own floor plan: no test module imports from another test module.  A helper, constant or fixture two
test files share lives once in a support module (tests/support/<topic>.py, tests/discord/support.py, a game's
tests/games/<game>/helpers.py) or in its folder's conftest.py; importing a test module would also run its
collection-time code and, for a fixture, register it twice.  Every import counts, inside a function too.
"""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """The dotted name an ``from … import`` names, a relative one resolved against the importing module."""
    if not level:
        return module or ""
    parts = importer.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_test_module(dotted: str) -> bool:
    return dotted.rpartition(".")[2].startswith("test_")


def imports_of_test_modules(root: Path = TESTS) -> list[str]:
    """One line per import of a test module by a module under ``root`` (the folder of package ``root.name``)."""
    faults = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        is_package = rel.name == "__init__"
        name = ".".join(rel.parts[:-1] if is_package else rel.parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(node.module, node.level, name, is_package)
                # ``from tests.discord import test_play`` names the test module as the imported name
                targets = [source] + [f"{source}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                if target.split(".")[0] == root.name and _is_test_module(target) and target != name:
                    faults.append(f"{path.relative_to(root.parent)}:{node.lineno}: {name} imports test module "
                                  f"{target}; move what it shares to a support module or a conftest.py")
                    break
    return faults


def test_no_test_module_imports_another():
    faults = imports_of_test_modules()
    assert not faults, "\n".join(faults)


# ------------------------------------------------------------------------------------------- the check can fail
def test_an_import_of_a_test_module_is_named(tmp_path):
    tests = tmp_path / "tests"
    (tests / "discord").mkdir(parents=True)
    for init in (tests / "__init__.py", tests / "discord" / "__init__.py"):
        init.write_text("")
    (tests / "discord" / "support.py").write_text("def started(): ...\n")
    (tests / "discord" / "test_play.py").write_text("def helper(): ...\n")
    (tests / "discord" / "test_ok.py").write_text("from tests.discord.support import started\nimport pytest\n")
    (tests / "discord" / "test_absolute.py").write_text("from tests.discord.test_play import helper\n")
    (tests / "discord" / "test_relative.py").write_text("def f():\n    from .test_play import helper\n")
    (tests / "discord" / "test_module.py").write_text("from tests.discord import test_play\n")
    (tests / "test_plain.py").write_text("import tests.discord.test_play\n")
    assert imports_of_test_modules(tests) == [
        "tests/discord/test_absolute.py:1: tests.discord.test_absolute imports test module tests.discord.test_play; "
        "move what it shares to a support module or a conftest.py",
        "tests/discord/test_module.py:1: tests.discord.test_module imports test module tests.discord.test_play; "
        "move what it shares to a support module or a conftest.py",
        "tests/discord/test_relative.py:2: tests.discord.test_relative imports test module tests.discord.test_play; "
        "move what it shares to a support module or a conftest.py",
        "tests/test_plain.py:1: tests.test_plain imports test module tests.discord.test_play; "
        "move what it shares to a support module or a conftest.py",
    ]
