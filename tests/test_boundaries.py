"""The layers stay honest: hog_core is pure, storage knows no rules or Discord (shared/DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMPURE = {"asyncio", "os", "io", "socket", "sqlite3", "aiosqlite", "time", "datetime", "random", "secrets", "pathlib"}
IMPURE |= {"discord", "aiohttp", "storage", "bot", "subprocess", "threading", "logging"}
# classic.py is the course's front door: fair dice are its documented default when none are given.
ALLOWED = {("hog_core/classic.py", "random")}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "hog_core").rglob("*.py")), ids=lambda p: p.name)
def test_hog_core_is_pure(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    bad = {m for m in imports(path) & IMPURE if (rel, m) not in ALLOWED}
    assert not bad, f"{rel} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((ROOT / "storage").rglob("*.py")), ids=lambda p: p.name)
def test_storage_knows_no_discord(path: Path) -> None:
    assert not imports(path) & {"discord", "bot"}
