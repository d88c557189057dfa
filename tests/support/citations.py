"""The rule citations a game's code and data carry (tests/rules/test_catalogue.py, tests/discord/test_rules.py)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


PREFIX = {"claygod": "CG", "bridges": "BR", "bloodwood": "BW", "gwent": "GW", "raiders": "RD"}


_PARAGRAPH = re.compile(r"§\d+(?:\.\d+)*")


_RULING = re.compile(r"\b(?:CG|BR|BW|GW|RD)-\d+\b")


#: keys under which a game's code and data carry a citation
_CITE_KEYS = {"rule", "ruling", "rulings", "cite"}


def _cited_in_code(game: str) -> set[str]:
    """Citations in the game's code: every string that is a § paragraph or a ruling id, anywhere in a string;
    and the named ones (Raiders' «Захват») given as ``rule=``, as a ``"rule": …`` value, or as an ``R_…``
    constant."""
    found: set[str] = set()
    for path in sorted((ROOT / "bot" / "games" / game).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(_PARAGRAPH.findall(node.value))
                found.update(_RULING.findall(node.value))
            named: list[ast.AST] = []
            if isinstance(node, ast.keyword) and node.arg in _CITE_KEYS:
                named.append(node.value)
            elif isinstance(node, ast.Dict):
                named += [v for k, v in zip(node.keys, node.values)
                          if isinstance(k, ast.Constant) and k.value in _CITE_KEYS]
            elif isinstance(node, ast.Assign) and any(isinstance(tg, (ast.Name, ast.Tuple)) for tg in node.targets):
                names = [n.id for tg in node.targets for n in ([tg] if isinstance(tg, ast.Name) else tg.elts)
                         if isinstance(n, ast.Name)]
                if any(n.startswith("R_") for n in names):
                    named.append(node.value)
            for value in named:
                for const in ast.walk(value):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str) and const.value.strip():
                        if not re.fullmatch(r"[a-z_.]+", const.value):  # an i18n key or a kind, not a citation
                            found.add(const.value)
    return found


def _cited_in_data(game: str) -> set[str]:
    """Citations in the game's data (cards' ``rule:``, option labels' «(CG-14)», …)."""
    found: set[str] = set()
    for path in sorted((ROOT / "data" / game).rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        found.update(_PARAGRAPH.findall(text))
        found.update(_RULING.findall(text))
    return found


def _split(cite: str) -> list[str]:
    return [p for p in re.split(r"\s*[,;/]\s*", cite) if p]
