"""Storage owns every query: no module of bot/ or cogs/ outside bot/storage runs SQL, opens a database driver or
reaches into a private member of storage's classes.  Read from the code with ``ast``, in the manner of
tests/architecture/test_layering.py, and each fault names its module and line.

What counts as running SQL: importing ``sqlite3`` or ``aiosqlite``; calling ``execute``, ``executemany``,
``executescript`` or a ``fetchone``-like method; a string literal that reads as an SQL statement; touching a private
member (``_name``) of a class defined in bot/storage (``store._one``, ``store._in_thread``) or importing a private
name from bot/storage.  The layers above use storage's public, typed calls instead.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.modules import ROOT, modules_of

DRIVERS = ("sqlite3", "aiosqlite")
#: the database API's calls (DB-API, aiosqlite); not discord.py's ``fetch_channel`` and kin
CALLS = re.compile(r"^(execute|executemany|executescript|fetchone|fetchall|fetchmany|fetchval|fetchrow)$")
SQL = re.compile(r"^\s*(SELECT\s[\s\S]*\bFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
                 r"|PRAGMA\s+\w+|(CREATE|DROP|ALTER)\s+(TABLE|INDEX|TRIGGER|VIEW)\s|BEGIN(\s+IMMEDIATE)?\s*;?\s*$)")
#: modules that may still run SQL, each for a stated reason and only until the reason goes (none now)
EXCEPTIONS: tuple[str, ...] = ()


def storage_private_names(root: Path = ROOT) -> set[str]:
    """Every private member of a class defined in bot/storage: its methods and the attributes it sets on self."""
    names = set()
    for path in sorted((root / "bot" / "storage").rglob("*.py")):
        for cls in (n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = node.name
                elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                      and isinstance(node.value, ast.Name) and node.value.id == "self"):
                    name = node.attr
                else:
                    continue
                if name.startswith("_") and not name.startswith("__"):
                    names.add(name)
    return names


def faults_of(module: str, source: str, private: set[str]) -> list[str]:
    """What in ``source`` (module ``module``) runs SQL or reaches into storage's private members."""
    found = []

    def say(node: ast.AST, what: str) -> None:
        found.append(f"{module}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in DRIVERS:
                    say(node, f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if (node.module or "").split(".")[0] in DRIVERS:
                say(node, f"imports from {node.module}")
            elif (node.module or "").startswith("bot.storage"):
                for alias in node.names:
                    if alias.name.startswith("_"):
                        say(node, f"imports storage's private {alias.name} from {node.module}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and CALLS.match(node.func.attr):
            say(node, f"calls .{node.func.attr}()")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
            say(node, f"holds SQL: {node.value.strip()[:40]!r}")
        elif (isinstance(node, ast.Attribute) and node.attr in private
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            say(node, f"touches storage's private {node.attr}")
    return found


def door_faults(root: Path = ROOT, exceptions: tuple[str, ...] = EXCEPTIONS) -> list[str]:
    private = storage_private_names(root)
    faults = []
    for name, path in modules_of(root).items():
        if name == "bot.storage" or name.startswith("bot.storage."):
            continue
        if any(name == e or name.startswith(e + ".") for e in exceptions):
            continue
        faults.extend(faults_of(name, path.read_text(encoding="utf-8"), private))
    return faults


def test_no_module_outside_storage_runs_sql():
    faults = door_faults()
    assert not faults, "SQL outside bot/storage (use a public call of bot/storage):\n" + "\n".join(faults)


def test_the_storage_classes_have_private_members_to_guard():
    # the private-member check is only as good as this list: Store's own helpers must be in it
    assert {"_one", "_all", "_in_thread", "_write_in_thread"} <= storage_private_names()


# ------------------------------------------------------------------------------------------- the check can fail
def test_every_way_of_running_sql_is_named(tmp_path):
    files = {
        "bot/__init__.py": "",
        "bot/storage/__init__.py": "",
        "bot/storage/store.py": ("class Store:\n    def __init__(self):\n        self._conn = None\n"
                                 "    async def _one(self, sql):\n        ...\n"
                                 "    async def tables(self):\n        return await self._one('SELECT 1 FROM t')\n"),
        "bot/referee/__init__.py": "",
        "bot/referee/clean.py": ("async def f(store):\n    return await store.tables()\n"
                                 "NOTE = 'Select a table from the list'\n"),
        "bot/referee/driver.py": "import sqlite3\nfrom aiosqlite import connect\n",
        "bot/referee/query.py": ("def f(c):\n    return c.execute(Q).fetchone()\n"
                                 "Q = '''\n  SELECT id FROM tables WHERE id = ?'''\n"),
        "bot/referee/private.py": ("from bot.storage.store import _helper\n"
                                   "async def f(bot):\n    return await bot.store._one('x'), bot.store._conn\n"),
        "bot/web/__init__.py": "",
        "bot/web/public.py": "import sqlite3\n",
        "cogs/__init__.py": "",
        "cogs/status.py": "async def f(c):\n    c.executemany('UPDATE tables SET x = 1', [])\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert sorted(door_faults(tmp_path)) == sorted([
        "bot.referee.driver:1: imports sqlite3",
        "bot.referee.driver:2: imports from aiosqlite",
        "bot.referee.private:1: imports storage's private _helper from bot.storage.store",
        "bot.referee.private:3: touches storage's private _one",
        "bot.referee.private:3: touches storage's private _conn",
        "bot.referee.query:2: calls .fetchone()",
        "bot.referee.query:2: calls .execute()",
        "bot.referee.query:3: holds SQL: 'SELECT id FROM tables WHERE id = ?'",
        "cogs.status:2: calls .executemany()",
        "cogs.status:2: holds SQL: 'UPDATE tables SET x = 1'",
        "bot.web.public:1: imports sqlite3",
    ])
    # an exception, were one ever listed, leaves its package out
    assert "bot.web.public:1: imports sqlite3" not in door_faults(tmp_path, exceptions=("bot.web",))
