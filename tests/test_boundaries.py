"""The layers stay honest: the game cores are pure, storage knows no rules or Discord (shared/DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMPURE = {"asyncio", "os", "io", "socket", "sqlite3", "aiosqlite", "time", "datetime", "random", "secrets", "pathlib"}
IMPURE |= {"discord", "aiohttp", "storage", "bot", "subprocess", "threading", "logging"}
# classic.py and course.py are the courses' front doors: fair dice and shuffles are their documented
# defaults when none are given. cucumber_core's __main__ is its command line: it prints, reads and times.
ALLOWED = {("hog_core/classic.py", "random"), ("cucumber_core/course.py", "random")}
ALLOWED |= {("cucumber_core/__main__.py", m) for m in ("time", "importlib", "pathlib", "os")}
CORES = sorted([*(ROOT / "hog_core").rglob("*.py"), *(ROOT / "cucumber_core").rglob("*.py")])


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", CORES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_game_cores_are_pure(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    bad = {m for m in imports(path) & IMPURE if (rel, m) not in ALLOWED}
    assert not bad, f"{rel} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((ROOT / "storage").rglob("*.py")), ids=lambda p: p.name)
def test_storage_knows_no_discord(path: Path) -> None:
    assert not imports(path) & {"discord", "bot"}


@pytest.mark.parametrize("path", CORES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_game_cores_know_no_other_game(path: Path) -> None:
    own = path.relative_to(ROOT).parts[0]
    assert not imports(path) & ({"hog_core", "cucumber_core"} - {own})
