"""The project's modules by name (tests/architecture/test_layering.py, tests/storage/test_storage_door.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parents[2]


def modules_of(root: Path, tops: Iterable[str] = ("bot", "cogs")) -> dict[str, Path]:
    """Every module under ``root``'s top packages, by dotted name (a package by its own name)."""
    found = {}
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found
